-- Seven daily puzzles solved on consecutive days: the days of a run less their rank are one
-- number (its island).
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT user_id, 'daily_week', at, chat_id, NULL FROM (
        SELECT user_id, at, chat_id,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY at) AS n
        FROM (SELECT user_id, at, chat_id,
                     ROW_NUMBER() OVER (PARTITION BY user_id, island ORDER BY day) AS k
              FROM (SELECT d.user_id, d.at, d.chat_id, d.day,
                           dn.number - ROW_NUMBER() OVER (PARTITION BY d.user_id ORDER BY d.day)
                           AS island
                    FROM daily_results d JOIN achievement_days dn
                         ON dn.user_id = d.user_id AND dn.day = d.day) AS i) AS t
        WHERE k = 7) AS w
    WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
DROP TABLE achievement_days;
DROP TABLE achievement_played;
DROP TABLE achievement_counted;
