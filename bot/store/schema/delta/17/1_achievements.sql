-- Achievements (bot/play/achievements, docs/achievements.md): each person's, earned once (the key
-- is the person and the code), with when and where (the chat; the round, but for the daily
-- puzzle's); by person through the key, by chat through its index. The achievements the stored
-- history earned already are awarded here, each at the first round (or daily result) that earned
-- it, by the rules of bot/play/achievements/rules.py said in SQL: a round counts when it closed in
-- a group (a negative chat id) and at least two different people answered in it. The daily
-- week's days are numbered by each engine's calendar (2_days), the rest is said once.
CREATE TABLE achievements (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    earned_at DOUBLE PRECISION NOT NULL,
    chat_id BIGINT NOT NULL,
    round_id BIGINT,
    PRIMARY KEY (user_id, code)
);
CREATE INDEX achievements_by_chat ON achievements(chat_id, earned_at);
CREATE TABLE achievement_counted (
    id BIGINT PRIMARY KEY,
    chat_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    level TEXT NOT NULL,
    hand TEXT NOT NULL,
    winner_id BIGINT,
    win_seconds DOUBLE PRECISION,
    ended_at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    players INTEGER NOT NULL,
    right_win INTEGER NOT NULL
);
INSERT INTO achievement_counted
    SELECT r.id, r.chat_id, r.game, r.level, r.hand, r.winner_id, r.win_seconds,
           r.ended_at, r.status, n.players,
           CASE WHEN EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id
                             AND a.user_id = r.winner_id AND a.correct = 1)
                THEN 1 ELSE 0 END AS right_win
    FROM rounds r JOIN (SELECT round_id, COUNT(DISTINCT user_id) AS players FROM answers
                        GROUP BY round_id) n ON n.round_id = r.id
    WHERE r.chat_id < 0 AND r.status <> 'open' AND n.players >= 2;
CREATE TABLE achievement_played (
    user_id BIGINT NOT NULL,
    id BIGINT NOT NULL,
    chat_id BIGINT NOT NULL,
    ended_at DOUBLE PRECISION NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (user_id, id)
);
INSERT INTO achievement_played
    SELECT DISTINCT a.user_id, c.id, c.chat_id, c.ended_at,
           CASE WHEN c.winner_id = a.user_id THEN 1 ELSE 0 END
    FROM achievement_counted c JOIN answers a ON a.round_id = c.id;
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT winner_id, code, ended_at, chat_id, id FROM (
        SELECT c.winner_id, k.code, c.ended_at, c.chat_id, c.id,
               ROW_NUMBER() OVER (PARTITION BY c.winner_id, k.code
                                  ORDER BY c.ended_at, c.id) AS n
        FROM achievement_counted c JOIN (
            SELECT 'first_win' AS code UNION ALL SELECT 'quick_win'
            UNION ALL SELECT 'hard_hand' UNION ALL SELECT 'five_numbers'
            UNION ALL SELECT 'countdown_exact' UNION ALL SELECT 'yahtzee_optimum'
            UNION ALL SELECT 'crowd_win') k
        ON k.code = 'first_win'
           OR (k.code = 'quick_win' AND c.right_win = 1 AND c.win_seconds < 5)
           OR (k.code = 'hard_hand' AND c.right_win = 1 AND c.game = '24'
               AND c.level = 'hard')
           OR (k.code = 'five_numbers' AND c.right_win = 1 AND c.game = '24'
               AND LENGTH(c.hand) - LENGTH(REPLACE(c.hand, ',', '')) = 4)
           OR (k.code = 'countdown_exact' AND c.right_win = 1 AND c.game = 'countdown')
           OR (k.code = 'yahtzee_optimum' AND c.right_win = 1 AND c.game = 'yahtzee')
           OR (k.code = 'crowd_win' AND c.players >= 5)
        WHERE c.status = 'won' AND c.winner_id IS NOT NULL) AS w
    WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.winner_id);
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT winner_id, 'ten_wins', ended_at, chat_id, id FROM (
        SELECT winner_id, ended_at, chat_id, id,
               ROW_NUMBER() OVER (PARTITION BY winner_id ORDER BY ended_at, id) AS n
        FROM (SELECT c.winner_id, c.ended_at, c.chat_id, c.id,
                     ROW_NUMBER() OVER (PARTITION BY c.winner_id, c.chat_id
                                        ORDER BY c.id) AS k
              FROM achievement_counted c
              WHERE c.status = 'won' AND c.winner_id IS NOT NULL) AS t
        WHERE k = 10) AS w
    WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.winner_id);
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT user_id, 'three_in_a_row', ended_at, chat_id, id FROM (
        SELECT user_id, ended_at, chat_id, id,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY ended_at, id) AS n
        FROM (SELECT p.user_id, p.ended_at, p.chat_id, p.id,
                     SUM(p.won) OVER (PARTITION BY p.user_id, p.chat_id ORDER BY p.id
                                      ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS run
              FROM achievement_played p) AS t
        WHERE run = 3) AS w
    WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT user_id, 'fifty_rounds', ended_at, chat_id, id FROM (
        SELECT p.user_id, p.ended_at, p.chat_id, p.id,
               ROW_NUMBER() OVER (PARTITION BY p.user_id ORDER BY p.ended_at, p.id) AS n
        FROM achievement_played p) AS w
    WHERE n = 50 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
    SELECT user_id, code, at, chat_id, NULL FROM (
        SELECT d.user_id, k.code, d.at, d.chat_id,
               ROW_NUMBER() OVER (PARTITION BY d.user_id, k.code ORDER BY d.at) AS n
        FROM daily_results d JOIN (
            SELECT 'daily_first' AS code UNION ALL SELECT 'daily_early') k
        ON k.code = 'daily_first' OR (k.code = 'daily_early' AND d.seconds < 3600)) AS w
    WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
CREATE TABLE achievement_days (
    user_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    number INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);
