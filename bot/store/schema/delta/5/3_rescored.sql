-- The scores rebuilt by the definition.
DELETE FROM scores;
INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win,
                    current_streak, best_streak)
    SELECT chat_id, user_id, game, points, wins, rounds_played, fastest_win,
           current_streak, best_streak FROM scores_from_rounds;
