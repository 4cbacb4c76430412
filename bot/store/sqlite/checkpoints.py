"""The write-ahead log folded back into the file by a connection and a thread of its own.

SQLite in WAL mode checkpoints on its own by default: the commit that takes the log past 1,000
pages copies the log into the file and syncs both, on the connection that committed — the
bot's one writer, which runs every statement of every update. On this kind of disk a sync
takes 4–8 ms and a checkpoint two of them and the copying: every statement asked meanwhile
waited 20–50 ms behind it, the tail of an update's time (bench/bench_bot_load.py's half-load
p99). So the writer never checkpoints (`wal_autocheckpoint=0`), and a connection of its own
folds the log in every CHECKPOINT_SECONDS, PASSIVE (it waits for no reader or writer: what a
reader still needs stays in the log for the next time), in a thread of its own. The writer's
explicit TRUNCATE checkpoints (/forget's erasure, a backup) are unchanged, and closing the last
connection checkpoints the rest, as before.

A PASSIVE checkpoint never starts the log over: SQLite does that when a writer begins after a
checkpoint that caught up with no commit in between, and under sustained load a commit always
lands while the fold runs. The log then grows for as long as the bot stays busy (54,131 frames,
about 210 MB, after 20 seconds of bench/bench_bot_load.py; back to 35 once it stopped). So once
the log passes RESTART_FRAMES, the fold is followed by a RESTART checkpoint: it holds the writer
for the few frames written since and a sync (waiting at most RESTART_WAIT for a reader to let
go, else trying again at the next fold), and the next commit starts the log over; the writer
keeps the file itself under JOURNAL_LIMIT bytes once it does (`journal_size_limit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 1.0  # the log folded in this often: a second's commits, a few hundred kB
RESTART_FRAMES = 16_384  # pages of the log (64 MiB of 4 KiB pages) past which it starts over
RESTART_WAIT = 0.05  # seconds a RESTART waits for a reader (the writer waits meanwhile)
JOURNAL_LIMIT = 64 * 1024 * 1024  # bytes the log's file is cut to when it starts over


class Checkpoints:
    """The log's checkpoints on a connection and a thread of their own, while running."""

    def __init__(self, path: Path | str, every: float = CHECKPOINT_SECONDS,
                 restart_frames: int = RESTART_FRAMES) -> None:
        self.path = str(path)
        self.every = every
        self.restart_frames = restart_frames
        self.restarts = 0  # RESTART checkpoints that caught up (tests)
        self._connection: sqlite3.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._using = threading.Lock()  # a fold under way in its thread, or the close
        self.done = 0  # checkpoints run (tests, and the log's line at the end)

    def start(self) -> None:
        self._connection = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False, timeout=RESTART_WAIT)
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await asyncio.to_thread(self.fold)
            except sqlite3.Error as error:  # the next one tries again
                log.warning("the write-ahead log's checkpoint failed: %s", error)

    def fold(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, the log's frames, frames folded in)."""
        with self._using:
            if self._connection is None:  # stopped meanwhile
                return 0, 0, 0
            row = self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.done += 1
            if int(row[1]) > self.restart_frames:
                restarted = self._connection.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                if int(restarted[0]) == 0:
                    self.restarts += 1
            return int(row[0]), int(row[1]), int(row[2])

    async def stop(self) -> None:
        """No more checkpoints here (the writer's close folds in the rest)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        """Once a fold under way in its thread has ended (a task cancelled leaves its thread
        running)."""
        with self._using:
            connection, self._connection = self._connection, None
            if connection is not None:
                connection.close()
