-- A group's own settings (/settings: a JSON object of the keys it changed; the environment gives
-- the rest), who passed in a round (/pass), and the daily puzzle's results (/daily: each
-- person's first right answer of a UTC day, once, in any chat).
CREATE TABLE chat_settings (
    chat_id BIGINT PRIMARY KEY REFERENCES chats(id) ON UPDATE CASCADE ON DELETE CASCADE,
    body TEXT NOT NULL DEFAULT '{}',
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE round_passes (
    round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (round_id, user_id)
);
CREATE TABLE daily_results (
    day TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    chat_id BIGINT NOT NULL,
    answer TEXT NOT NULL,
    seconds DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (day, user_id)
);
CREATE INDEX daily_results_by_user ON daily_results(user_id, day);
CREATE INDEX rounds_won_by_time ON rounds(ended_at) WHERE status = 'won';
