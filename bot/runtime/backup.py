"""Backups of the bot's database, with retention, and the restore of a SQLite one.

`python -m bot.runtime.backup` copies the database into BACKUP_DIR (never the data directory it
protects) and keeps the newest BACKUP_KEEP copies: SQLite through its online backup API (a
consistent snapshot while the bot writes; WAL commits included), checked with `PRAGMA
quick_check` and written whole or not at all; PostgreSQL (DATABASE_URL) with `pg_dump -Fc`, the
password passed in the environment, never in argv. `--every SECONDS` repeats it (the compose
service); a systemd timer runs it once each time.

`python -m bot.runtime.backup restore FILE` puts a SQLite backup in place of DATABASE_PATH, the
bot stopped (it waits to see the heartbeat stay still, and refuses if it moves); the database it
replaces is kept beside it as
`<name>.before-restore`. PostgreSQL dumps are restored with pg_restore (deploy/README.md).

Like the health check, it imports neither telegram nor the stores: the backup container and
timer run it with the bot's settings and nothing else.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import closing, suppress
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from bot.runtime.health import (
    HEARTBEAT_SECONDS,
    database_from_env,
    heartbeat_path,
    settings_from_env,
)

DEFAULT_DIR = "backups"
DEFAULT_KEEP = 14  # copies: two weeks of daily backups, or 3.5 days of 6-hourly ones
PREFIX = "twentyfour-"
SQLITE_SUFFIX, DUMP_SUFFIX = ".sqlite3", ".dump"
PAGES_PER_STEP = 1024  # the online backup copies this many pages, then lets the bot write
FAILED, REFUSED = 1, 2  # exit statuses: the backup failed; a setting or the restore refused


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


def restore_sqlite(backup: Path, database: Path,
                   sleep: Callable[[float], None] = time.sleep) -> Path | None:
    """Put `backup` in place of `database` (the bot stopped: `wait_until_stopped`); the old one
    is kept as `<database>.before-restore`, which is returned (None: there was none)."""
    wait_until_stopped(heartbeat_path(database), sleep)
    if not backup.is_file():
        raise BackupError(f"backup {backup} does not exist")
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


def wait_until_stopped(beat: Path, sleep: Callable[[float], None] = time.sleep) -> None:
    """Wait until the heartbeat file has had time to beat again (a running bot beats every
    HEARTBEAT_SECONDS): BackupError if it did, so a restore never replaces a database in use.
    A bot stopped long ago costs no wait, one stopped just now at most HEARTBEAT_SECONDS + 5 s."""
    try:
        seen = beat.stat().st_mtime
    except OSError:
        return  # never started here
    quiet_at = seen + HEARTBEAT_SECONDS + 5
    if time.time() >= quiet_at:
        return
    print(f"waiting {quiet_at - time.time():.0f} s to see that the bot is stopped",
          file=sys.stderr, flush=True)
    sleep(max(0.0, quiet_at - time.time()))
    with suppress(OSError):
        if beat.stat().st_mtime != seen:
            raise BackupError(f"the bot that uses {beat.name.removesuffix('.heartbeat')} is "
                              "running (its heartbeat moved): stop it first")


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
