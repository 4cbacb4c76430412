-- The rounds a person dealt, latest first: a player's page reads the latest hundred they dealt
-- (those that ended unsolved are misses of theirs, though they never answered:
-- bot.play.pages.themes). The starter's index keyed by the round too, so that PostgreSQL walks it
-- backwards from the latest and stops, rather than sorting all the person ever dealt (SQLite's
-- entries held the rowid after the starter already; it is made again all the same, one index
-- for both). What read it before (the open rounds a person holds) reads it as it did.
DROP INDEX rounds_by_starter;
CREATE INDEX rounds_by_starter ON rounds(started_by, id) WHERE started_by IS NOT NULL;
