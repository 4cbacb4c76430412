-- A group's rating board (issue 71: /top rating and the group's page grew with the group, each
-- reading every player of the chat and looking their rating up by its key): each player of a
-- chat in a game (a row of scores) with their latest season's rating and responses in it, kept
-- by the triggers of 2_kept as ratings move and scores come and go, so that a board's first
-- rows and a place are read in an index of the board's order (settled players and provisional
-- ones apart, as the boards show them: step 29). Latest season only: the boards ask for the
-- season now; one asked for an older season looks the players up as before
-- (bot.store.sql.ratings). Its key is the scores' own, so that 3_filled writes it in order;
-- its indexes are made after.
CREATE TABLE chat_ratings (
    chat_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    season TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    responses INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id, game)
);
