-- More games (Countdown, Yahtzee), a language per chat, scores per game; and scoring by the
-- database itself (2_round_closed): closing a round is one UPDATE, and a trigger scores it in the
-- same statement, so a score can never be half written or counted twice.
ALTER TABLE chats ADD COLUMN lang TEXT;
ALTER TABLE rounds ADD COLUMN game TEXT NOT NULL DEFAULT '24';
ALTER TABLE rounds ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE rounds ADD COLUMN win_seconds DOUBLE PRECISION;
UPDATE rounds SET win_seconds = ended_at - started_at WHERE status = 'won';
ALTER TABLE answers ADD COLUMN distance INTEGER;
CREATE TABLE game_scores (
    chat_id BIGINT NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    fastest_win DOUBLE PRECISION,
    current_streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id, game)
);
INSERT INTO game_scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win,
                         current_streak, best_streak)
    SELECT chat_id, user_id, '24', points, wins, rounds_played, fastest_win, current_streak,
           best_streak FROM scores;
DROP TABLE scores;
ALTER TABLE game_scores RENAME TO scores;
CREATE INDEX scores_by_chat ON scores(chat_id, game, points DESC);
CREATE INDEX scores_by_user ON scores(user_id);
