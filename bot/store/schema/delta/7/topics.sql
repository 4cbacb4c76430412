-- Forum topics. A round and a match belong to the topic (message_thread_id) where they began, 0
-- where the chat has none; one open round and one match on per topic, so two topics of a forum
-- play at once. Scores stay per chat.
ALTER TABLE rounds ADD COLUMN topic BIGINT NOT NULL DEFAULT 0;
DROP INDEX one_open_round_per_chat;
CREATE UNIQUE INDEX one_open_round_per_topic ON rounds(chat_id, topic)
    WHERE status = 'open';
ALTER TABLE matches ADD COLUMN topic BIGINT NOT NULL DEFAULT 0;
DROP INDEX one_match_per_chat;
CREATE UNIQUE INDEX one_match_per_topic ON matches(chat_id, topic) WHERE status = 'on';
