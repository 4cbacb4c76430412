-- The week's totals and their steps summed from the rounds won since its start (3_started).
INSERT INTO week_totals (game, user_id, points, wins)
    SELECT kind, winner_id, SUM(awarded), COUNT(*) FROM (
        SELECT '' AS kind, r.winner_id, r.awarded FROM rounds r
        WHERE r.status = 'won' AND r.winner_id IS NOT NULL
          AND r.ended_at >= (SELECT since FROM week_start)
          AND NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = r.winner_id)
        UNION ALL
        SELECT r.game, r.winner_id, r.awarded FROM rounds r
        WHERE r.status = 'won' AND r.winner_id IS NOT NULL
          AND r.ended_at >= (SELECT since FROM week_start)
          AND NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = r.winner_id)) AS won
    GROUP BY kind, winner_id;
INSERT INTO week_steps (game, points, wins, players)
    SELECT game, points, wins, COUNT(*) FROM week_totals WHERE points > 0
    GROUP BY game, points, wins;
