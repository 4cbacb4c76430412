"""The bot's hold on its SQLite database: a shared OS lock (flock) on `<database>.in-use`,
taken before the database is opened and kept until it is closed. A restore takes the same lock
alone (bot.runtime.backup), so it can never replace the file under a bot process, even a frozen
one (SIGSTOP, a paused VM): the kernel keeps a process's locks until the process ends, killed
or not, whereas a heartbeat's age cannot tell a frozen bot from a stopped one.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from bot.store.unavailable import DatabaseUnavailable

# the name bot.runtime.backup.IN_USE_SUFFIX repeats (the runtime imports no store; a test
# checks that both name the same file)
IN_USE_SUFFIX = ".in-use"


def hold_path(database: Path) -> Path:
    """The lock file beside the database: `<database>.in-use`."""
    return database.with_name(database.name + IN_USE_SUFFIX)


def hold(database: Path | str) -> int | None:
    """Take the shared lock on the database's lock file (nothing for ":memory:"): the open
    descriptor, to `release` when the database is closed. Not inherited by the solver's
    processes (they are spawned, and Python's descriptors are not inheritable)."""
    if str(database) == ":memory:":
        return None
    path = hold_path(Path(database))
    try:  # read-only is enough for flock: the file may be the restoring user's
        descriptor = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as error:
        raise DatabaseUnavailable(
            f"cannot open the database {database}: {error.strerror}: {path} (the database's "
            "folder must be writable by the bot's user, not read-only)") from error
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatabaseUnavailable(
            f"cannot open the database {database}: a restore of it is under way (python -m "
            "bot.runtime.backup restore); start the bot once it has finished") from None
    return descriptor


def release(descriptor: int | None) -> None:
    """Let the lock go (closing the descriptor)."""
    if descriptor is not None:
        os.close(descriptor)
