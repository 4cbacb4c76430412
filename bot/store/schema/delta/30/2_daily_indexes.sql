-- A person's days (their streak in a game, their calendar in any: by the day, then the game),
-- and a day's board of a game, fastest first.
CREATE INDEX daily_results_by_user ON daily_results(user_id, day, game);
CREATE INDEX daily_results_by_time ON daily_results(day, game, seconds, at, user_id);
