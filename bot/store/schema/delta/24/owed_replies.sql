-- A claimed update whose reply is owed (docs/reliability.md, "A reply owed"): `owed_by` names the
-- process that claimed it and has not yet sent what it answers, for the updates whose handling
-- writes nothing but its reply (/solve, /help, /stats, ...); NULL once sent, and for every other
-- update, as for every claim made before this step. A process that is given such an update again
-- (the broker's redelivery after its owner died, Telegram's after a kill) and finds it owed by
-- another takes the claim over and answers it.
ALTER TABLE handled_updates ADD COLUMN owed_by BIGINT;
