-- What every chat's week's boards read instead of summing a week of every chat's rounds
-- (issue 71: /top week all was 15 to 20 times slower on a year-old file than on a new one),
-- kept by the triggers of 2_week_kept as rounds close, as migration 12's totals are:
--
-- each player's points and wins from the rounds won since `week_start.since`, per game and over
-- all games (game ''), with the players at each (points, wins) counted (week_steps, as
-- board_steps), so that a board's first rows are read in an index of its order and a place is a
-- few rows. The board asked for is the last seven days to the second: a read takes off (or
-- adds) the rounds won between `since` and its own start, which the housekeeping keeps to
-- minutes by moving `since` on an hour at a time (bot.store.sql.rounds `expire_week`), so the
-- totals never hold more than the week and a bit. A person whose /forget is under way is left
-- out of every board as before: rounds they won change nothing kept meanwhile, and their rows
-- go with their name (the cascade).
CREATE TABLE week_start (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    since DOUBLE PRECISION NOT NULL
);
CREATE TABLE week_totals (
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    points INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX week_totals_board ON week_totals(game, points DESC, wins DESC, user_id)
    WHERE points > 0;
CREATE TABLE week_steps (
    game TEXT NOT NULL,
    points INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (game, points, wins)
);
