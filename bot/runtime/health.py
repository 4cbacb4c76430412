"""Health check: the running bot touches a heartbeat file; `python -m bot.runtime.health` judges it.

A live process is not a working bot: a blocked event loop or a lost database still answers `ps`.
The heartbeat is written by a JobQueue job on the bot's own event loop, so a fresh one proves the
loop turns; the read-only open proves the database is there and migrated. The check runs every
30 s in a container, so it imports neither telegram nor aiosqlite, and it never writes the database.

The file holds the process's role: `leader` (it takes the updates) or `standby` (it waits for the
lead; with PostgreSQL several processes share a database). A standby writes its beat only after
the database answered its try, and a leader exits when its lease has not been renewed in time
(bot/store/postgres/leader.py), so with PostgreSQL a fresh beat also speaks for the database,
which the check does not open itself.

Under systemd (Type=notify, WatchdogSec=) each beat also tells the service manager "WATCHDOG=1"
over the NOTIFY_SOCKET datagram socket, and the first one "READY=1": a loop that stops turning
misses the watchdog, and systemd restarts the bot.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Coroutine, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.runtime.config import read_env_file

HEARTBEAT_SECONDS = 30.0
STALE_AFTER = 3 * HEARTBEAT_SECONDS  # two missed beats are tolerated, a third is not
DEFAULT_DATABASE = "data/twentyfour.sqlite3"
LEADER, STANDBY = "leader", "standby"  # the roles a heartbeat names


def heartbeat_path(database_path: Path) -> Path:
    """The heartbeat file beside the database: `<database>.heartbeat`."""
    return database_path.with_name(database_path.name + ".heartbeat")


def write_heartbeat(path: Path, role: str | None = None) -> None:
    """Touch the heartbeat file: its modification time is the beat. With a `role`, the file is
    rewritten to hold it (whole: a reader never sees half of it); without, the role stays."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if role is None:
        path.touch()  # an existing file gets the current time
        return
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(role + "\n", encoding="utf-8")
    os.replace(fresh, path)


def heartbeat_role(path: Path) -> str | None:
    """The role the heartbeat file names (None: none written, or no file)."""
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def notify(state: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send `state` ("READY=1", "WATCHDOG=1", "STOPPING=1") to the service manager, as
    sd_notify(3) does: one datagram to the Unix socket NOTIFY_SOCKET names ("@..." is an
    abstract one). False, silently, when there is no such socket (not under systemd)."""
    address = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if not address.startswith(("/", "@")):
        return False
    target = "\0" + address[1:] if address.startswith("@") else address
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sender:
            sender.sendto(state.encode(), target)
    except OSError:
        return False
    return True


def beat(path: Path, role: str | None = None) -> None:
    """One heartbeat: the file (`write_heartbeat`) and the service manager's watchdog."""
    write_heartbeat(path, role)
    notify("READY=1\nWATCHDOG=1")  # READY again is harmless, and the first beat may be any


def heartbeat_job(path: Path) -> Callable[[object], Coroutine[Any, Any, None]]:
    """A JobQueue callback that beats at `path` (the job's context is unused)."""

    async def heartbeat(_context: object) -> None:
        beat(path)

    return heartbeat


def database_problem(database_path: Path) -> str | None:
    """Why the database is unusable (missing, unreadable, not migrated), or None when it is fine."""
    if not database_path.is_file():
        return f"database {database_path} does not exist"
    uri = database_path.resolve().as_uri() + "?mode=ro"  # never creates the file
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=5.0)) as db:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as error:
        return f"database {database_path} cannot be read: {error}"
    if version <= 0:
        return f"database {database_path} has no migrations applied (user_version 0)"
    return None


def heartbeat_problem(path: Path, now: float | None = None,
                      stale_after: float = STALE_AFTER) -> str | None:
    """Why the heartbeat is missing or stale, or None when it is fresh."""
    try:
        beat = path.stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot has not started its job queue"
    age = (time.time() if now is None else now) - beat
    if age > stale_after:
        return f"heartbeat {path} is {age:.0f} s old (limit {stale_after:.0f} s)"
    return None


def check(database_path: Path, now: float | None = None,
          shared_database: bool = False) -> str | None:
    """The first problem found (database, then heartbeat), or None when the bot is healthy.
    `shared_database`: PostgreSQL (DATABASE_URL), which the heartbeat speaks for."""
    return ((None if shared_database else database_problem(database_path))
            or heartbeat_problem(heartbeat_path(database_path), now))


def settings_from_env() -> dict[str, str]:
    """The settings as the bot reads them: the environment wins over `.env`."""
    values = read_env_file(Path(".env"))
    values.update(os.environ)
    return values


def database_from_env(settings: Mapping[str, str] | None = None) -> Path:
    """DATABASE_PATH as the bot reads it (from `settings`, else from the environment and
    `.env`), then the default."""
    values = settings_from_env() if settings is None else settings
    return Path(values.get("DATABASE_PATH") or DEFAULT_DATABASE)


def main() -> int:
    """Exit 0 when healthy, saying the role when the bot wrote one (`healthy (standby)`);
    otherwise print one line saying why and exit 1."""
    settings = settings_from_env()
    database = database_from_env(settings)
    problem = check(database, shared_database=bool(settings.get("DATABASE_URL")))
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    role = heartbeat_role(heartbeat_path(database))
    print(f"healthy ({role})" if role else "healthy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
