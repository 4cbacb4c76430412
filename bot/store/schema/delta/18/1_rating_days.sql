-- Each player's rating at the end of each day it was written, per game, for the player's and the
-- group's pages (bot/store/sql/pages.py); upserted with every rating write (bot/store/sql/
-- ratings.py), seeded from the ratings as they stand (each season's row on its last day, by each
-- engine's calendar: 2_seeded). The person's /forget deletes it (and the person's row cascades).
CREATE TABLE rating_days (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    day TEXT NOT NULL,
    season TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game, day)
);
