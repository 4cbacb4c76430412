-- One tournament at a time for a group, held by the database (docs/tournaments.md, "One at a
-- time"): `ongoing` is 1 while the group's tournament is not over (0 once it is done or
-- cancelled, set in the same transaction as its end), and a group has at most one row with it
-- set. Two joins at once, or a join beside a /tournament new, can no longer put a group in two
-- tournaments (each deal would end the other's round): the second insert finds the index.
ALTER TABLE tournament_groups ADD COLUMN ongoing SMALLINT NOT NULL DEFAULT 1;
UPDATE tournament_groups SET ongoing = 0
WHERE tournament_id IN (SELECT id FROM tournaments WHERE status IN ('done', 'cancelled'));
-- A group two such joins left in more than one tournament not over stays in the one it is
-- furthest into (a running one before an open one, then the one it joined first, then the
-- older) and is out of the others as a group the bot may not write to is: not dealt again,
-- its rounds there kept on their boards. The best row of a group is never set by this
-- statement, so what it sees of rows set before it does not change its outcome.
UPDATE tournament_groups SET ongoing = 0, playing = 0
WHERE ongoing = 1 AND EXISTS (
    SELECT 1 FROM tournament_groups other
    JOIN tournaments theirs ON theirs.id = other.tournament_id
    JOIN tournaments mine ON mine.id = tournament_groups.tournament_id
    WHERE other.chat_id = tournament_groups.chat_id AND other.ongoing = 1
      AND other.tournament_id <> tournament_groups.tournament_id
      AND ((theirs.status = 'running' AND mine.status = 'open')
           OR (theirs.status = mine.status
               AND (other.joined_at < tournament_groups.joined_at
                    OR (other.joined_at = tournament_groups.joined_at
                        AND other.tournament_id < tournament_groups.tournament_id)))));
CREATE UNIQUE INDEX tournament_groups_one_at_a_time ON tournament_groups(chat_id)
    WHERE ongoing = 1;
-- A group's move to its supergroup takes the people who play for it along (and they are
-- found by the group, as every row naming a chat is).
CREATE INDEX tournament_players_by_chat ON tournament_players(chat_id);
