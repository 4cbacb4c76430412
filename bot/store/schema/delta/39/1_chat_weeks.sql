-- What a group's page's weeks read instead of counting a year of the group's won rounds (issue
-- 71: 52 range counts of rounds_won_in_chat took 0.21 ms on the year's busiest group against
-- 0.10 on a new file, the largest part of its page's difference): the rounds won in each group
-- (a negative chat id) in each calendar week, Monday to Sunday UTC, a week numbered from the
-- one 1970-01-01 fell in ((moment + 3 days) / 7 days, whole; bot.play.pages.group's week_of
-- says the same). Kept by 2_chat_weeks_kept as rounds are won, move to a supergroup or go;
-- filled by 3_filled from the rounds won so far. A row a group and week it won in: a few
-- rows a group a year, never more than its rounds; a row left at nothing goes.
CREATE TABLE chat_weeks (
    chat_id BIGINT NOT NULL,
    week INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (chat_id, week) INCLUDE (wins)
);
