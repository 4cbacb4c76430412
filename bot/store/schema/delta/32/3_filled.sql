-- Each chat's players with their latest season's rating, from the history as it stands; then
-- the board's indexes, settled players and provisional ones apart, as step 29's (the
-- statements say `responses >= 10` and `responses < 10` as written here), and the latest
-- season kept in a chat (a board asked for an older one is looked up as before).
INSERT INTO chat_ratings (chat_id, game, user_id, season, rating, responses)
    SELECT s.chat_id, s.game, s.user_id, p.season, p.rating, p.responses FROM scores s
    JOIN player_ratings p ON p.user_id = s.user_id AND p.game = s.game
     AND p.season = (SELECT MAX(q.season) FROM player_ratings q
                     WHERE q.user_id = s.user_id AND q.game = s.game)
    ORDER BY s.chat_id, s.user_id, s.game;
CREATE INDEX chat_ratings_settled ON chat_ratings(chat_id, game, season, rating DESC, user_id)
    WHERE responses >= 10;
CREATE INDEX chat_ratings_provisional
    ON chat_ratings(chat_id, game, season, rating DESC, user_id) WHERE responses < 10;
CREATE INDEX chat_ratings_by_user ON chat_ratings(user_id, game, season);
CREATE INDEX chat_ratings_seasons ON chat_ratings(chat_id, game, season);
