"""SQLite with its write lock held by another connection past the busy timeout: the update
claim and the writes wait and try again (a bounded number of times) instead of failing the
player's move; a claim that still cannot be made drops the update rather than handle it
unclaimed."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store.protocols import StoreBusy
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import LOCKED_PAUSE, LOCKED_RETRIES

BUSY = 0.05  # seconds of SQLite's own wait: the lock outlasts it


@contextlib.contextmanager
def write_lock(path: Path, held: float) -> Iterator[threading.Event]:
    """Another connection takes the database's write lock and keeps it `held` seconds (or
    until the test leaves); the event is set once it holds it."""
    taken, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            taken.set()
            leave.wait(held)
            other.execute("ROLLBACK")

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    try:
        yield taken
    finally:
        leave.set()
        holder.join()


SHORT_HOLD = BUSY * 4  # past several busy timeouts, inside the retries' first pause


def test_the_short_hold_is_inside_the_retries():
    assert BUSY < SHORT_HOLD < LOCKED_PAUSE <= LOCKED_PAUSE * LOCKED_RETRIES


async def test_a_claim_waits_out_a_lock_held_past_the_busy_timeout(tmp_path: Path):
    stores = await open_sqlite(tmp_path / "db.sqlite3", busy_seconds=BUSY)
    try:
        with write_lock(tmp_path / "db.sqlite3", SHORT_HOLD):
            assert await stores.updates.claim_update(7, 1.0)
        assert not await stores.updates.claim_update(7, 2.0)  # claimed once, and only once
    finally:
        await stores.close()


async def test_writes_wait_out_a_lock_held_past_the_busy_timeout(tmp_path: Path):
    stores = await open_sqlite(tmp_path / "db.sqlite3", busy_seconds=BUSY)
    try:
        with write_lock(tmp_path / "db.sqlite3", SHORT_HOLD):
            await stores.people.remember_user(5, "Ann")  # one statement
        with write_lock(tmp_path / "db.sqlite3", SHORT_HOLD):
            await stores.people.migrate_chat(-1, -100)  # a transaction
        assert await stores.people.user_name(5) == "Ann"
    finally:
        await stores.close()


async def test_a_lock_that_never_ends_drops_the_update_unclaimed(tmp_path: Path):
    """The retries are bounded: the claim gives up (the update is not handled; the player is
    told to try again) and, once the lock is gone, the same update can still be claimed."""
    stores = await open_sqlite(tmp_path / "db.sqlite3", busy_seconds=BUSY)
    try:
        with write_lock(tmp_path / "db.sqlite3", held=60.0):
            with pytest.raises(StoreBusy):
                await asyncio.wait_for(stores.updates.claim_update(8, 1.0), 30)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                await stores.people.remember_user(6, "Ben")  # a write says so, after retries
        assert await stores.updates.claim_update(8, 2.0)
    finally:
        await stores.close()
