-- Exact rounds played and streaks, results announced once, updates handled once. `played` is the
-- definition: a player played a closed round if they answered in it (before or after it closed)
-- or won it. A streak counts consecutive wins among the rounds a player played in that chat and
-- game, in round order. Rounds closed before this step count as announced: no old result is sent
-- again. The scoring (2_scoring) follows the definition from here, and 3_rescored rebuilds the
-- scores by it.
ALTER TABLE rounds ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
UPDATE rounds SET announced = 1 WHERE status <> 'open';
CREATE INDEX rounds_by_chat ON rounds(chat_id, game, id);
CREATE INDEX rounds_unannounced ON rounds(ended_at) WHERE announced = 0 AND status <> 'open';
CREATE TABLE handled_updates (
    update_id BIGINT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
);
CREATE VIEW played (chat_id, game, user_id, round_id, won) AS
    SELECT DISTINCT r.chat_id, r.game, a.user_id, r.id, 0
        FROM rounds r JOIN answers a ON a.round_id = r.id
        WHERE r.status <> 'open' AND (r.winner_id IS NULL OR a.user_id <> r.winner_id)
    UNION ALL
    SELECT chat_id, game, winner_id, id, 1 FROM rounds
        WHERE status <> 'open' AND winner_id IS NOT NULL;
CREATE VIEW scores_from_rounds (chat_id, user_id, game, points, wins, rounds_played,
                                fastest_win, current_streak, best_streak) AS
    SELECT chat_id, user_id, game, CAST(SUM(points) AS INTEGER), CAST(SUM(wins) AS INTEGER),
           CAST(SUM(played) AS INTEGER), MIN(fastest),
           CAST(SUM(CASE WHEN losses = all_losses THEN wins ELSE 0 END) AS INTEGER),
           CAST(MAX(wins) AS INTEGER)
    FROM (SELECT chat_id, user_id, game, losses, all_losses, SUM(won) AS wins,
                 COUNT(*) AS played, SUM(CASE WHEN won = 1 THEN awarded ELSE 0 END) AS points,
                 MIN(CASE WHEN won = 1 THEN win_seconds END) AS fastest
          FROM (SELECT p.chat_id, p.user_id, p.game, p.won, r.awarded, r.win_seconds,
                       SUM(1 - p.won) OVER (PARTITION BY p.chat_id, p.game, p.user_id
                                            ORDER BY p.round_id) AS losses,
                       SUM(1 - p.won) OVER (PARTITION BY p.chat_id, p.game, p.user_id)
                           AS all_losses
                FROM played p JOIN rounds r ON r.id = p.round_id) AS history
          GROUP BY chat_id, user_id, game, losses, all_losses) AS runs
    GROUP BY chat_id, user_id, game;
