#!/bin/sh
# Restore a `pg_dump -Fc` backup into the bot's PostgreSQL database where psql and pg_restore
# are but the bot's Python is not (the compose `backup` service: deploy/README.md, section 8).
# It is `python -m bot.runtime.backup restore FILE` (bot/runtime/backup.py) in sh: one
# transaction, refused while any bot process holds the database (running, or frozen by SIGSTOP
# or a paused container), the schema `public` replaced by the dump's, the lease ended at a new
# epoch; all of it or nothing. The two SQL parts are backup.py's RESTORE_BEGIN and RESTORE_END,
# word for word (tests/postgres/test_backup_postgres.py compares them).
# Where: libpq's PGHOST, PGPORT, PGUSER, PGDATABASE and PGPASSWORD (never on a command line).
set -eu
dump=${1:?usage: restore-postgres.sh FILE.dump}
[ -f "$dump" ] || { echo "error: backup $dump does not exist" >&2; exit 2; }
{
    cat <<'BEGIN_SQL'
BEGIN;
DO $$
DECLARE
    holders text;
BEGIN
    IF NOT pg_try_advisory_xact_lock(2424, 3) THEN
        SELECT string_agg(DISTINCT a.application_name || ' at '
                          || COALESCE(host(a.client_addr), 'a local socket'), ', ')
          INTO holders
          FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 2424
           AND l.objid = 3
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database());
        RAISE EXCEPTION 'bot processes hold this database (running, or frozen by SIGSTOP or a '
            'paused machine): %; stop every bot that uses it first', COALESCE(holders, '?');
    END IF;
END $$;
DO $$
DECLARE
    last_epoch bigint := 0;
    statement text;
BEGIN
    IF to_regclass('public.leader_lease') IS NOT NULL THEN  -- planned only when it runs
        SELECT COALESCE(max(epoch), 0) INTO last_epoch FROM public.leader_lease;
    END IF;
    PERFORM set_config('twentyfour.restored_over', last_epoch::text, true);
    -- every statement made before the first runs (a name is not looked up after its drop)
    FOREACH statement IN ARRAY ARRAY(
        SELECT format('DROP VIEW IF EXISTS public.%I CASCADE', viewname)
          FROM pg_views WHERE schemaname = 'public'
        UNION ALL SELECT format('DROP MATERIALIZED VIEW IF EXISTS public.%I CASCADE', matviewname)
          FROM pg_matviews WHERE schemaname = 'public'
        UNION ALL SELECT format('DROP TABLE IF EXISTS public.%I CASCADE', tablename)
          FROM pg_tables WHERE schemaname = 'public'
        UNION ALL SELECT format('DROP SEQUENCE IF EXISTS public.%I CASCADE', sequencename)
          FROM pg_sequences WHERE schemaname = 'public'
        UNION ALL SELECT format('DROP ROUTINE IF EXISTS %s CASCADE', oid::regprocedure)
          FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prokind IN ('f', 'p'))
    LOOP
        EXECUTE statement;
    END LOOP;
END $$;
BEGIN_SQL
    if pg_restore --no-owner --no-privileges --file=- "$dump"; then
        cat <<'END_SQL'
DO $$
BEGIN
    IF to_regclass('public.leader_lease') IS NOT NULL THEN
        INSERT INTO public.leader_lease AS lease (id, epoch, holder, expires_at)
        VALUES (1, current_setting('twentyfour.restored_over')::bigint + 1, '', '-infinity')
        ON CONFLICT (id) DO UPDATE SET epoch = GREATEST(lease.epoch + 1, EXCLUDED.epoch),
            holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at;
    END IF;
END $$;
COMMIT;
END_SQL
    else  # no COMMIT: a statement that fails ends the transaction, and psql with status 3
        echo "DO \$\$ BEGIN RAISE EXCEPTION 'pg_restore could not read the backup'; END \$\$;"
    fi
} | psql --no-psqlrc --quiet --set=ON_ERROR_STOP=1 || {
    echo "error: the restore changed nothing" >&2; exit 1; }
echo "restored $dump into PostgreSQL (the lease starts again: the first bot to start leads)"
