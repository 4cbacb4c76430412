-- Each player's answered rounds, one row per player and round with what the player's page shows
-- of it (bot/store/sql/pages.py), kept together by the player, so that a page reads its player's
-- rows in a few pages rather than a year of answers and their rounds scattered over the file:
-- the key's index carries every column the page reads (in SQLite, a table without a rowid: the
-- key is the row's place). `day`: the UTC day of the first answer (days since 1970), which the
-- calendar counts by. Kept by 2_answered_kept; filled by 3_filled from the answers of the closed
-- rounds. The person's /forget deletes it (and the person's row cascades); a chat's reset, its
-- rounds'.
CREATE TABLE answered_rounds (
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    round_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    level TEXT NOT NULL,
    hand TEXT NOT NULL,
    target INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    seconds DOUBLE PRECISION,
    first_at DOUBLE PRECISION NOT NULL,
    day INTEGER NOT NULL,
    PRIMARY KEY (user_id, round_id)
        INCLUDE (first_at, day, game, level, hand, target, solved, seconds)
);
