"""Update claims made together in SQLite (bot.store.sqlite.updates): one statement for the claims
asked at the same moment, and still each update handled once — by one caller, once across a
restart, never when the database stayed locked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store.protocols import StoreBusy
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import Database
from bot.store.sqlite.updates import BATCH_MOST, SqliteUpdates
from tests.bot.store.sqlite.test_busy import BUSY, write_lock


def counted(updates: SqliteUpdates) -> list[str]:
    """The statements the claims send from now on."""
    sent: list[str] = []
    database = updates.db
    assert isinstance(database, Database)
    fetch, run = database.fetch, database.run

    async def counting_fetch(sql: str, params: object = ()) -> list[tuple]:
        sent.append(sql)
        return await fetch(sql, params)  # type: ignore[arg-type]

    async def counting_run(sql: str, params: object = ()) -> int:
        sent.append(sql)
        return await run(sql, params)  # type: ignore[arg-type]

    database.fetch, database.run = counting_fetch, counting_run  # type: ignore[method-assign]
    return sent


async def claim_all(updates: SqliteUpdates, ids: list[int], at: float = 1.0) -> list[bool]:
    return list(await asyncio.gather(*(updates.claim_update(i, at) for i in ids)))


async def test_claims_asked_together_go_in_one_statement(tmp_path: Path) -> None:
    stores = await open_sqlite(tmp_path / "db.sqlite3")
    updates = stores.updates
    assert isinstance(updates, SqliteUpdates) and updates.batched
    try:
        sent = counted(updates)
        assert await claim_all(updates, list(range(40))) == [True] * 40
        assert len(sent) == 1 and "RETURNING" in sent[0]
        many = list(range(1000, 1000 + BATCH_MOST * 2 + 5))  # more than a statement takes
        assert await claim_all(updates, many) == [True] * len(many)
        assert len(sent) == 1 + 3
    finally:
        await stores.close()


@pytest.mark.parametrize("batched", [True, False])
async def test_owed_and_plain_claims_asked_together_keep_each_kinds_rules(
        tmp_path: Path, batched: bool) -> None:
    """A burst's /play is claimed owed beside its answers' plain claims: batched, they go in
    one statement and each keeps its rule — an owed claim takes over another owner's unsettled
    row only, a plain claim takes nothing over (tests/bot/store/test_owed_claims.py, one at
    a time, on both databases)."""
    stores = await open_sqlite(tmp_path / "db.sqlite3")
    updates = stores.updates
    assert isinstance(updates, SqliteUpdates)
    updates.batched = batched
    try:
        assert await updates.claim_owed(1, 1.0, owner=11) and await updates.claim_update(2, 1.0)
        assert await updates.claim_owed(3, 1.0, owner=11) and await updates.claim_owed(4, 1.0, 11)
        await updates.settle_update(3, owner=11)
        sent = counted(updates)
        found = await asyncio.gather(
            updates.claim_owed(1, 2.0, owner=12),  # owed by another: taken over
            updates.claim_owed(2, 2.0, owner=12),  # a plain claim's: never
            updates.claim_owed(3, 2.0, owner=12),  # settled: never
            updates.claim_update(4, 2.0),  # a plain claim never takes an owed one
            updates.claim_owed(5, 2.0, owner=12), updates.claim_update(6, 2.0))  # new: both
        assert list(found) == [True, False, False, False, True, True]
        assert len(sent) == (1 if batched else 6)
        owners = dict(await stores.updates.db.fetch(  # type: ignore[attr-defined]
            "SELECT update_id, owed_by FROM handled_updates"))
        assert owners == {1: 12, 2: None, 3: None, 4: 11, 5: 12, 6: None}
        assert await asyncio.gather(updates.claim_owed(1, 3.0, owner=12),
                                    updates.claim_owed(5, 3.0, owner=12)) == [False, False]
    finally:
        await stores.close()


@pytest.mark.parametrize("batched", [True, False])
async def test_each_update_is_claimed_once_whoever_asks(tmp_path: Path, batched: bool) -> None:
    stores = await open_sqlite(tmp_path / "db.sqlite3")
    assert isinstance(stores.updates, SqliteUpdates)
    stores.updates.batched = batched
    try:
        assert await stores.updates.claim_update(5, 1.0)
        # 5 was claimed before; 6 asked twice at once: one of the two gets it
        found = await claim_all(stores.updates, [4, 5, 6, 6, 7])
        assert found[0] and not found[1] and found[4] and found[2] != found[3]
        assert await claim_all(stores.updates, [4, 6, 7]) == [False] * 3
    finally:
        await stores.close()
    again = await open_sqlite(tmp_path / "db.sqlite3")  # restarted: redelivered updates
    try:
        assert await claim_all(again.updates, [4, 5, 6, 7, 8]) == [False] * 4 + [True]
    finally:
        await again.close()


async def test_a_claim_given_up_leaves_the_rest_of_its_batch_answered(tmp_path: Path) -> None:
    stores = await open_sqlite(tmp_path / "db.sqlite3")
    try:
        claims = [asyncio.ensure_future(stores.updates.claim_update(i, 1.0)) for i in range(3)]
        await asyncio.sleep(0)  # all three asked; the batch not yet written
        claims[1].cancel()
        assert [await claims[0], await claims[2]] == [True, True]
        with pytest.raises(asyncio.CancelledError):
            await claims[1]
    finally:
        await stores.close()


async def test_a_lock_that_never_ends_drops_every_claim_of_the_batch_unclaimed(
        tmp_path: Path) -> None:
    stores = await open_sqlite(tmp_path / "db.sqlite3", busy_seconds=BUSY)
    try:
        with write_lock(tmp_path / "db.sqlite3", held=60.0):
            found = await asyncio.wait_for(asyncio.gather(
                *(stores.updates.claim_update(i, 1.0) for i in (1, 2, 3)),
                return_exceptions=True), 30)
            assert all(isinstance(error, StoreBusy) for error in found), found
        assert await claim_all(stores.updates, [1, 2, 3]) == [True] * 3  # none was claimed
    finally:
        await stores.close()
