-- The command menus and descriptions a bot last set on Telegram (bot.telegram.menus): a row a
-- bot (its id, so that a database a second bot opens sets that bot's own), the digest of every
-- list and text set, and when. A start whose menus come to the same digest sends none of them:
-- Telegram keeps them, and ninety calls at every start (and every worker's) bought nothing.
CREATE TABLE bot_menus (
    bot_id BIGINT PRIMARY KEY,
    digest TEXT NOT NULL,
    set_at DOUBLE PRECISION NOT NULL
);
