-- Many workers, each owning some partitions (bot/store/postgres/worker_lease.py, bot/store/
-- postgres/partition_owners.py): a lease row a worker, and each partition's owner. Workers run on
-- PostgreSQL only (2_fences); SQLite has the tables only.
CREATE TABLE worker_leases (
    epoch BIGSERIAL PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE partition_owners (
    partition INTEGER PRIMARY KEY,
    owner BIGINT
);
