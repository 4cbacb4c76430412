-- The latest achievements earned in a group (its page lists thirty) read at the head of an
-- index in the page's order that holds what it shows: by the chat's index alone (step 17) a
-- year-old group's page read every achievement earned there and its row, then sorted them
-- (0.10 ms against 0.06 on the year's busiest group). It leads with the chat as the old one
-- did, so the group's move finds its rows by it too.
CREATE INDEX achievements_latest ON achievements(chat_id, earned_at DESC, user_id, code, round_id);
DROP INDEX achievements_by_chat;
