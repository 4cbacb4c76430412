-- Per-chat scores kept up to date when a round closes, so that /top and /stats stay fast;
-- filled from the rounds already played.
CREATE TABLE scores (
    chat_id BIGINT NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    points INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    fastest_win DOUBLE PRECISION,
    current_streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id)
);
CREATE INDEX scores_by_points ON scores(chat_id, points DESC);
INSERT INTO scores (chat_id, user_id, points, wins, fastest_win, current_streak, best_streak)
    SELECT chat_id, winner_id, SUM(awarded), COUNT(*), MIN(ended_at - started_at), 0, 0
    FROM rounds WHERE status = 'won' GROUP BY chat_id, winner_id;
INSERT INTO scores (chat_id, user_id) SELECT DISTINCT r.chat_id, a.user_id
    FROM answers a JOIN rounds r ON r.id = a.round_id WHERE r.status <> 'open'
    ON CONFLICT DO NOTHING;
UPDATE scores SET rounds_played = (
    SELECT COUNT(DISTINCT r.id) FROM rounds r
    WHERE r.chat_id = scores.chat_id AND r.status <> 'open'
      AND (r.winner_id = scores.user_id OR EXISTS (
          SELECT 1 FROM answers a WHERE a.round_id = r.id AND a.user_id = scores.user_id)));
