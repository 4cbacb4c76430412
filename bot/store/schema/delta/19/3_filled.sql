-- The day is the quotient rounded down: PostgreSQL's CAST rounds to the nearest, SQLite's
-- truncates; where it rounded up, one less.
INSERT INTO answered_rounds (user_id, round_id, game, level, hand, target, solved,
                             seconds, first_at, day)
    SELECT a.user_id, r.id, r.game, r.level, r.hand, r.target, a.solved,
           a.first_right - r.started_at, a.first_at,
           CAST(a.first_at / 86400 AS BIGINT)
           - CASE WHEN CAST(a.first_at / 86400 AS BIGINT) > a.first_at / 86400 THEN 1 ELSE 0 END
    FROM (SELECT round_id, user_id, MAX(correct) AS solved,
                 MIN(CASE WHEN correct = 1 THEN at END) AS first_right, MIN(at) AS first_at
          FROM answers GROUP BY user_id, round_id) a
    JOIN rounds r ON r.id = a.round_id
    WHERE r.status <> 'open'
    ORDER BY a.user_id, a.round_id;
