-- What every solution of a hand needs (solver.themes: a fraction on the way, a step past the
-- target, ...), a row a hand as the ratings key it (hand_ratings' `game` and `hand`, "1 2 7 7=24"):
-- `themes` holds one bit a theme, in solver.themes.THEMES' order (bot.play.ratings.themes). Worked
-- out in the solver pool's heavy lane, behind everyone's questions, once a hand is first rated
-- in a process, and written once (bot.play.dealing.themes): a player's page reads it beside the
-- rounds the player answered, so the page counts themes and never works them out. Nothing
-- personal: /forget leaves it; a hand whose themes are not yet written is left out of the
-- count until it is played again.
CREATE TABLE hand_themes (
    game TEXT NOT NULL,
    hand TEXT NOT NULL,
    themes INTEGER NOT NULL,
    PRIMARY KEY (game, hand)
);
