-- The rating boards rank settled players only (issue 73; docs/ratings.md, "Boards"): a player
-- rated on fewer than 10 responses this season is provisional (bot.play.ratings.records'
-- PLAYER_PROVISIONAL: a test holds the two equal), shown apart and never ranked among them,
-- as Lichess keeps provisional ratings off its leaderboards. A settled player's place on the
-- board of every chat counts the settled players rated above them in this index alone
-- (reading each row of player_ratings_board for its responses was 0.6 to 0.9 s on a year-old
-- file). The statements say `responses >= 10` as written here, so that each engine sees they
-- may read it.
CREATE INDEX player_ratings_settled ON player_ratings(game, season, rating DESC, user_id)
    WHERE responses >= 10;
