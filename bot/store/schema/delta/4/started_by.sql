-- Who started each round: they (or a chat admin) may end it early or take a hint. Rounds from
-- before have no starter; only admins may end those early.
ALTER TABLE rounds ADD COLUMN started_by BIGINT REFERENCES users(id);
