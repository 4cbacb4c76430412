-- Ratings that learn (bot/play/ratings, docs/ratings.md). Each player's rating per game and
-- season (a UTC month), each hand's difficulty per game (with its count of numbers and target, so
-- start-up loads one kind of hand by index), each game's scale, and the rounds rated, by id: a
-- round's update is written in its closing transaction, once. /forget deletes a person's
-- ratings; hands and scales name nobody.
CREATE TABLE player_ratings (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    season TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    uncertainty DOUBLE PRECISION NOT NULL,
    responses INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game, season)
);
CREATE INDEX player_ratings_board ON player_ratings(game, season, rating DESC, user_id);
CREATE TABLE hand_ratings (
    game TEXT NOT NULL,
    hand TEXT NOT NULL,
    numbers INTEGER NOT NULL,
    target INTEGER NOT NULL,
    difficulty DOUBLE PRECISION NOT NULL,
    uncertainty DOUBLE PRECISION NOT NULL,
    responses INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, hand)
);
CREATE INDEX hand_ratings_by_kind ON hand_ratings(game, numbers, target);
CREATE TABLE rating_scales (
    game TEXT PRIMARY KEY,
    shape DOUBLE PRECISION NOT NULL,
    uncertainty DOUBLE PRECISION NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE rated_rounds (
    round_id BIGINT PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
    at DOUBLE PRECISION NOT NULL
);
