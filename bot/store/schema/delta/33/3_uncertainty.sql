-- A group's rating boards read where step 32 keeps them (issue 71) and nothing else: each
-- player's uncertainty kept beside their rating and responses, so that a board's lines are
-- the chat_ratings rows in the board's index and their names, not each one's player_ratings
-- row looked up by its key as well (a group's four boards on its page read a season's ten and
-- five of each: 0.23 ms against 0.08 on the year's busiest group). Filled from the rows it
-- copies; 4_kept's triggers keep it with the rest of the row.
ALTER TABLE chat_ratings ADD COLUMN uncertainty DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE chat_ratings SET uncertainty = (
    SELECT p.uncertainty FROM player_ratings p WHERE p.user_id = chat_ratings.user_id
       AND p.game = chat_ratings.game AND p.season = chat_ratings.season)
    WHERE EXISTS (SELECT 1 FROM player_ratings p WHERE p.user_id = chat_ratings.user_id
                  AND p.game = chat_ratings.game AND p.season = chat_ratings.season);
