"""An owed claim (bot.play.guards.once, docs/reliability.md "A reply owed"), on both databases:
the update is claimed once while its owner lives, taken over when another process is given it
while it is still owed (its owner died before its reply went), never once settled, and a
plain claim never takes an owed one (only the commands that write nothing but a reply are
claimed owed)."""

from __future__ import annotations

from bot.play.guards.once import Claimed, Once, Seen
from bot.store.sql.connection import numbered
from bot.store.stores import Stores


async def owed_by(stores: Stores, update_id: int) -> object:
    """Who owes the update's reply (None: nobody), read in the database itself."""
    db = stores.updates.db  # type: ignore[attr-defined]
    sql = "SELECT owed_by FROM handled_updates WHERE update_id = ?"
    rows = await db.fetch(sql if type(db).__module__.startswith("bot.store.sqlite")
                          else numbered(sql), (update_id,))
    return rows[0][0] if rows else "no row"


async def test_an_owed_claim_is_taken_over_only_from_another_owner_before_it_settles(
        stores: Stores):
    updates = stores.updates
    assert await updates.claim_owed(7, 1.0, owner=11)
    assert await owed_by(stores, 7) == 11
    assert not await updates.claim_owed(7, 2.0, owner=11)  # its own owner, given it again
    assert not await updates.claim_update(7, 2.0)  # a plain claim never takes it
    assert await updates.claim_owed(7, 3.0, owner=12)  # the owner died owing it: taken over
    assert await owed_by(stores, 7) == 12
    assert not await updates.claim_owed(7, 3.0, owner=12)
    await updates.settle_update(7, owner=11)  # the first owner, woken late: settles nothing
    assert await owed_by(stores, 7) == 12
    await updates.settle_update(7, owner=12)
    assert await owed_by(stores, 7) is None
    for owner in (11, 12, 13):  # answered: nobody answers it again
        assert not await updates.claim_owed(7, 4.0, owner=owner)


async def test_a_plain_claim_is_never_owed_and_an_owed_claim_never_takes_it(stores: Stores):
    updates = stores.updates
    assert await updates.claim_update(8, 1.0)
    assert await owed_by(stores, 8) is None
    assert not await updates.claim_owed(8, 2.0, owner=11)
    assert await updates.claim_owed(9, 1.0, owner=11)
    await updates.forget_updates(2.0)  # forgotten with the others once past redelivery
    assert await owed_by(stores, 9) == "no row"


async def test_once_claims_owed_as_its_own_process_and_a_restart_answers_what_it_owed(
        stores: Stores):
    before, after = Once(stores.updates), Once(stores.updates)
    assert before.owner != after.owner and before.owner > 0
    assert await before.claim(21, 1.0, owed=True) == Claimed()
    assert await before.claim(21, 1.0, owed=True) == Seen()
    assert await after.claim(21, 2.0, owed=True) == Claimed()  # the process before died owing
    await after.settle(21)
    assert await before.claim(21, 3.0, owed=True) == Seen()
    assert await after.claim(22, 1.0) == Claimed() and await before.claim(22, 1.0) == Seen()
