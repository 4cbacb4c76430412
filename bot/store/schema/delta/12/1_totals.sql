-- The boards read from totals kept as the scores change, instead of summing scores at each ask
-- (issue 40): per player, for each chat over all its games (game ''), and over every chat (chat
-- 0) per game and over all games, the points and wins of their scores that have points (what the
-- boards count); a chat's board in one game reads the scores themselves, in an index of the
-- board's order (scores_board, in place of scores_by_chat, which left the ties to sort). And how
-- many players stand at each (points, wins) of the every-chat boards, all of them (board_steps)
-- and by band of 2^24 user ids (board_ties), so that a place there is 1 + the players on the
-- steps above + those tied in lower bands + those tied in one's own band with a lower id: a few
-- hundred small rows however many players are ahead (a chat's place counts that chat's rows
-- ahead, in its index). Filled here from the scores; 2_totals_kept keeps them.
CREATE TABLE player_totals (
    chat_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, chat_id, game)
);
CREATE INDEX player_totals_board
    ON player_totals(chat_id, game, points DESC, wins DESC, user_id) WHERE points > 0;
DROP INDEX scores_by_chat;
CREATE INDEX scores_board ON scores(chat_id, game, points DESC, wins DESC, user_id)
    WHERE points > 0;
CREATE TABLE board_steps (
    game TEXT NOT NULL,
    points INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (game, points, wins)
);
CREATE TABLE board_ties (
    game TEXT NOT NULL,
    points INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    band BIGINT NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (game, points, wins, band)
);
INSERT INTO player_totals (chat_id, user_id, game, points, wins)
    SELECT chat_id, user_id, '', SUM(points), SUM(wins) FROM scores WHERE points > 0
    GROUP BY chat_id, user_id;
INSERT INTO player_totals (chat_id, user_id, game, points, wins)
    SELECT 0, user_id, game, SUM(points), SUM(wins) FROM scores WHERE points > 0
    GROUP BY user_id, game;
INSERT INTO player_totals (chat_id, user_id, game, points, wins)
    SELECT 0, user_id, '', SUM(points), SUM(wins) FROM scores WHERE points > 0
    GROUP BY user_id;
INSERT INTO board_steps (game, points, wins, players)
    SELECT game, points, wins, COUNT(*) FROM player_totals
    WHERE chat_id = 0 AND points > 0 GROUP BY game, points, wins;
INSERT INTO board_ties (game, points, wins, band, players)
    SELECT game, points, wins, user_id / 16777216, COUNT(*) FROM player_totals
    WHERE chat_id = 0 AND points > 0 GROUP BY game, points, wins, user_id / 16777216;
