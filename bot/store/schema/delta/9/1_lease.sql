-- The leader's lease: one row, the epoch that leads and until when. One process owns an SQLite
-- file, so nothing takes the lease there (bot.store.SoleLeader): SQLite has the table only.
CREATE TABLE leader_lease (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    epoch BIGINT NOT NULL,
    holder TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
