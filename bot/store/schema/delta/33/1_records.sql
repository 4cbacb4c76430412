-- A group's records (issue 71: the group's page read every row of the chat's scores, twice,
-- each from its own page of the table: the year's busiest group's 357 rows were 0.4 ms warm
-- and 1.1 ms cold, against 0.03 on a new file): the fastest win, the longest run of wins and the
-- most wins of each game are read at the head of an index each, and their holders (the least
-- user id among the players level on it) in the same entries. The wins' index holds every row,
-- so that it also lists a chat's games (bot.store.sql.pages' group_records); the run's too, as
-- a partial index's condition would let the engine read it by that range rather than by the
-- value (SQLite); the fastest win's leaves out the players who never won.
CREATE INDEX scores_fastest ON scores(chat_id, game, fastest_win, user_id)
    WHERE fastest_win IS NOT NULL;
CREATE INDEX scores_longest_run ON scores(chat_id, game, best_streak, user_id);
CREATE INDEX scores_most_wins ON scores(chat_id, game, wins, user_id);
