"""Backups of the bot's database, with retention, and the restore of a SQLite one.

`python -m bot.runtime.backup` copies the database into BACKUP_DIR (never the data directory it
protects) and keeps the newest BACKUP_KEEP copies: SQLite through its online backup API (a
consistent snapshot while the bot writes; WAL commits included), checked with `PRAGMA
quick_check` and written whole or not at all; PostgreSQL (DATABASE_URL) with `pg_dump -Fc`, the
password passed in the environment, never in argv. `--every SECONDS` repeats it (the compose
service); a systemd timer runs it once each time.

`python -m bot.runtime.backup restore FILE` puts a backup in place of the database, refused
while any bot process holds it, whether it runs or is frozen (SIGSTOP, a paused machine): a
SQLite bot holds a shared lock on `<database>.in-use` from start-up to exit, a PostgreSQL bot
a shared advisory lock on its lease's session, and the kernel or the server keeps either until
the process ends (killed or not); the restore needs the lock alone. SQLite: the database it
replaces is kept beside it as `<name>.before-restore`. PostgreSQL: one transaction that
empties the schema `public`, loads the dump (pg_restore, psql) and ends the lease at a new
epoch, so no process of before can lead or write; all of it, or nothing.

Like the health check, it imports neither telegram nor the stores: the backup container and
timer run it with the bot's settings and nothing else.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import IO
from urllib.parse import unquote, urlsplit, urlunsplit

from bot.runtime.health import database_from_env, settings_from_env

DEFAULT_DIR = "backups"
DEFAULT_KEEP = 14  # copies: two weeks of daily backups, or 3.5 days of 6-hourly ones
PREFIX = "twentyfour-"
SQLITE_SUFFIX, DUMP_SUFFIX = ".sqlite3", ".dump"
PAGES_PER_STEP = 1024  # the online backup copies this many pages, then lets the bot write
FAILED, REFUSED = 1, 2  # exit statuses: the backup failed; a setting or the restore refused
# What every bot process holds shared while it has the database open, repeated here because
# the runtime imports no store (tests/deploy/test_backup.py checks they agree): the lock file
# beside a SQLite database (bot.store.sqlite.hold) and PostgreSQL's advisory lock
# (bot.store.postgres.connection.HOLD_LOCK, taken by the lease's session).
IN_USE_SUFFIX = ".in-use"
HOLD_LOCK = (2424, 3)


class BackupError(Exception):
    """The backup or restore failed; the message is one line for the operator."""


def stamp(now: float | None = None) -> str:
    """The UTC time in a file name that sorts by time: 20260101T120000Z."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))


def backup_sqlite(database: Path, directory: Path, now: float | None = None) -> Path:
    """A consistent copy of the SQLite `database` in `directory`, as one file (no WAL)."""
    if not database.is_file():
        raise BackupError(f"database {database} does not exist")
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{PREFIX}{stamp(now)}{SQLITE_SUFFIX}"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=rw", uri=True,
                                     timeout=30.0)) as source, \
                closing(sqlite3.connect(partial)) as copy:
            source.backup(copy, pages=PAGES_PER_STEP, sleep=0.01)
            copy.execute("PRAGMA journal_mode=DELETE")  # the copy is one self-contained file
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise BackupError(f"the copy of {database} fails its check: {verdict}")
        _sync(partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {database}: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def backup_postgres(url: str, directory: Path, now: float | None = None) -> Path:
    """`pg_dump -Fc` of the database at `url` in `directory` (pg_dump must be on PATH)."""
    if shutil.which("pg_dump") is None:
        raise BackupError("pg_dump is not installed (apt install postgresql-client)")
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{PREFIX}{stamp(now)}{DUMP_SUFFIX}"
    partial = target.with_name(target.name + ".partial")
    address, password = without_password(url)
    env = {**os.environ, **({"PGPASSWORD": password} if password else {})}
    try:
        done = subprocess.run(["pg_dump", "--format=custom", f"--file={partial}",
                               f"--dbname={address}"], env=env, capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BackupError(f"pg_dump failed: {last}")
        _sync(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def without_password(url: str) -> tuple[str, str | None]:
    """The URL without its password, and the password (for PGPASSWORD)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or ""
    netloc = f"{user}{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.password)


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups of each kind in `directory`; those deleted."""
    removed: list[Path] = []
    for suffix in (SQLITE_SUFFIX, DUMP_SUFFIX):
        backups = sorted(directory.glob(f"{PREFIX}*{suffix}"), reverse=True)  # newest first
        for old in backups[keep:]:
            old.unlink(missing_ok=True)
            removed.append(old)
    return removed


@contextmanager
def held_alone(database: Path) -> Iterator[None]:
    """The SQLite database's lock file held alone while the block runs; BackupError while any
    bot process holds it (running or frozen: a process keeps its locks until it ends)."""
    path = database.with_name(database.name + IN_USE_SUFFIX)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as error:
        raise BackupError(f"cannot restore into {database}: {error.strerror}: {path}") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"a bot process holds {database} (running, or frozen by SIGSTOP or "
                              "a paused machine): stop every bot that uses it first") from None
        yield
    finally:
        os.close(descriptor)


def restore_sqlite(backup: Path, database: Path) -> Path | None:
    """Put `backup` in place of `database`, no bot process holding it (`held_alone`, kept until
    the end, so that none starts meanwhile); the old one is kept as
    `<database>.before-restore`, which is returned (None: there was none)."""
    if not backup.is_file():
        raise BackupError(f"backup {backup} does not exist")
    with held_alone(database):
        return _replace(backup, database)


def _replace(backup: Path, database: Path) -> Path | None:
    fresh = database.with_name(database.name + ".restoring")
    fresh.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)) as src, \
                closing(sqlite3.connect(fresh)) as copy:
            verdict = src.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise BackupError(f"backup {backup} fails its check: {verdict}")
            src.backup(copy)
        _sync(fresh)
        kept = None
        if database.exists():
            _checkpoint(database)
            kept = database.with_name(database.name + ".before-restore")
            os.replace(database, kept)
        for leftover in ("-wal", "-shm"):
            database.with_name(database.name + leftover).unlink(missing_ok=True)
        os.replace(fresh, database)
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {backup}: {error}") from None
    finally:
        fresh.unlink(missing_ok=True)
    return kept


# The PostgreSQL restore is one transaction in psql: this, the script pg_restore makes of the
# dump, then RESTORE_END. The advisory lock taken alone fails while any bot process's session
# holds it shared (and keeps any from starting meanwhile); the lease's last epoch is kept in a
# setting of the transaction, so that the restored lease starts after it.
RESTORE_BEGIN = f"""
BEGIN;
DO $$
DECLARE
    holders text;
BEGIN
    IF NOT pg_try_advisory_xact_lock({HOLD_LOCK[0]}, {HOLD_LOCK[1]}) THEN
        SELECT string_agg(DISTINCT a.application_name || ' at '
                          || COALESCE(host(a.client_addr), 'a local socket'), ', ')
          INTO holders
          FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = {HOLD_LOCK[0]}
           AND l.objid = {HOLD_LOCK[1]}
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
"""
RESTORE_END = """
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
"""


def restore_postgres(url: str, backup: Path) -> None:
    """Put a `pg_dump -Fc` backup in place of the database at `url` (pg_restore and psql must
    be on PATH), in one transaction: refused while any bot process holds the database; the
    tables, views and functions of the schema `public` replaced by the dump's; the lease
    ended at an epoch none has held. On any failure nothing has changed."""
    for tool in ("pg_restore", "psql"):
        if shutil.which(tool) is None:
            raise BackupError(f"{tool} is not installed (apt install postgresql-client)")
    if not backup.is_file():
        raise BackupError(f"backup {backup} does not exist")
    address, password = without_password(url)
    env = {**os.environ, **({"PGPASSWORD": password} if password else {})}
    with tempfile.TemporaryFile() as restore_errors, tempfile.TemporaryFile() as psql_errors:
        psql = subprocess.Popen(["psql", "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1",
                                 f"--dbname={address}"], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=psql_errors, env=env)
        script = subprocess.Popen(["pg_restore", "--no-owner", "--no-privileges", "--file=-",
                                   str(backup)], stdout=subprocess.PIPE, stderr=restore_errors,
                                  env=env)
        assert psql.stdin is not None and script.stdout is not None
        whole = False
        try:
            psql.stdin.write(RESTORE_BEGIN.encode())
            shutil.copyfileobj(script.stdout, psql.stdin)
            whole = script.wait() == 0
            if whole:  # COMMIT only after the whole script: else the transaction rolls back
                psql.stdin.write(RESTORE_END.encode())
            psql.stdin.close()
        except BrokenPipeError:  # psql stopped at an error: its words say which
            pass
        finally:
            script.stdout.close()
            if script.poll() is None:
                script.kill()
            script.wait()
            psql.wait()
        if psql.returncode != 0 or not whole:
            raise BackupError("the restore changed nothing: " + (
                _last_error(psql_errors) if psql.returncode != 0 else
                f"pg_restore failed: {_last_error(restore_errors)}"))


def _last_error(errors: IO[bytes]) -> str:
    """The line of a tool's error output that says why (PostgreSQL's ERROR, else the last)."""
    errors.seek(0)
    lines = [line.strip() for line in errors.read().decode(errors="replace").splitlines()
             if line.strip()]
    said = [line.split("ERROR:", 1)[1].strip() for line in lines if "ERROR:" in line]
    return (said or lines or ["(no message)"])[0 if said else -1]


def schema_version(database: Path) -> int:
    """The migrations applied to a SQLite database (PRAGMA user_version): what a rollback
    compares (deploy/README.md, section 10)."""
    with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _checkpoint(database: Path) -> None:
    """Fold the old database's WAL into it, so that what is kept aside is whole."""
    try:
        with closing(sqlite3.connect(database, timeout=5.0)) as old:
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass  # a broken database is being replaced: keep what there is


def _sync(path: Path) -> None:
    with path.open("rb") as written:
        os.fsync(written.fileno())


def back_up(settings: Mapping[str, str], directory: Path, keep: int) -> Path:
    """One backup of the database the settings name, then the pruning."""
    url = (settings.get("DATABASE_URL") or "").strip()
    if url:
        made = backup_postgres(url, directory)
    else:
        made = backup_sqlite(database_from_env(settings), directory)
    prune(directory, keep)
    return made


def parse_arguments(argv: list[str] | None, settings: Mapping[str, str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.runtime.backup",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", choices=("backup", "restore"), default="backup")
    parser.add_argument("file", nargs="?", type=Path, help="restore: the backup to put back")
    parser.add_argument("--dir", type=Path,
                        default=Path(settings.get("BACKUP_DIR") or DEFAULT_DIR),
                        help="where backups go (BACKUP_DIR; default %(default)s)")
    parser.add_argument("--keep", type=int, default=_keep(settings),
                        help="backups kept of each kind (BACKUP_KEEP; default %(default)s)")
    parser.add_argument("--every", type=float, metavar="SECONDS",
                        help="back up again every SECONDS until SIGTERM")
    return parser.parse_args(argv)


def _keep(settings: Mapping[str, str]) -> int:
    raw = (settings.get("BACKUP_KEEP") or "").strip()
    if not raw:
        return DEFAULT_KEEP
    if not raw.isdigit() or int(raw) < 1:
        raise BackupError(f"BACKUP_KEEP must be a whole number of at least 1, not {raw!r}")
    return int(raw)


def main(argv: list[str] | None = None) -> int:
    """One line per backup made (stdout) or per failure (stderr, exit 1; a refusal, exit 2)."""
    settings = settings_from_env()
    try:
        arguments = parse_arguments(argv, settings)
        if arguments.command == "restore":
            if arguments.file is None:
                raise BackupError("restore needs the backup file: restore FILE")
            url = (settings.get("DATABASE_URL") or "").strip()
            if url:
                restore_postgres(url, arguments.file)
                print(f"restored {arguments.file} into PostgreSQL (the lease starts again: "
                      "the first bot to start leads)")
                return 0
            database = database_from_env(settings)
            kept = restore_sqlite(arguments.file, database)
            print(f"restored {arguments.file} into {database}"
                  + (f" (the old one is {kept})" if kept else ""))
            return 0
        if arguments.keep < 1 or (arguments.every is not None and arguments.every <= 0):
            raise BackupError("--keep and --every must be positive")
    except BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return REFUSED
    if arguments.every is None:
        return _once(settings, arguments.dir, arguments.keep)
    return _repeat(settings, arguments.dir, arguments.keep, arguments.every)


def _once(settings: Mapping[str, str], directory: Path, keep: int) -> int:
    try:
        made = back_up(settings, directory, keep)
    except (BackupError, OSError) as error:
        print(f"error: backup failed: {error}", file=sys.stderr, flush=True)
        return FAILED
    schema = f", schema {schema_version(made)}" if made.suffix == SQLITE_SUFFIX else ""
    print(f"backup {made} ({made.stat().st_size} bytes{schema})", flush=True)
    return 0


def _repeat(settings: Mapping[str, str], directory: Path, keep: int, every: float) -> int:
    """A backup now and every `every` seconds, until SIGTERM or SIGINT (exit 0); a failed one
    is said and tried again at the next time."""
    stop = threading.Event()
    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, lambda *_: stop.set())
    while not stop.is_set():
        _once(settings, directory, keep)
        stop.wait(every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
