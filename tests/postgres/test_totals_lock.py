"""The lock migration 12's triggers take when scores change (TOTALS_LOCK) is theirs alone: every
bot process holds HOLD_LOCK shared for its life (a restore's guard, bot.runtime.backup), so a
trigger that took that key alone would wait for ever, and every close of a round with it."""

from __future__ import annotations

import asyncio
import re

import asyncpg

from bot.store.postgres.connection import HOLD_LOCK, MIGRATION_LOCK, TOTALS_LOCK
from bot.store.schema import LATEST, script
from bot.store.stores import Stores
from tests.bot.store.test_ratings import write

CHAT, ANN, BEN = -71, 71, 72


def test_the_triggers_take_the_totals_own_key():
    taken = {(int(a), int(b)) for number in range(1, LATEST + 1)
             for a, b in re.findall(r"pg_advisory_xact_lock\((\d+), (\d+)\)",
                                    script(number, "postgres"))}
    assert taken == {TOTALS_LOCK}
    assert TOTALS_LOCK not in (HOLD_LOCK, MIGRATION_LOCK)


async def test_a_round_is_scored_while_the_bot_holds_the_database(stores: Stores,
                                                                 postgres_url: str):
    """Another session holds HOLD_LOCK shared, as a running bot's lease does: closing a won
    round (the scores' triggers, the totals' after them) still ends, and scores it."""
    holder = await asyncpg.connect(postgres_url)
    try:
        await holder.execute("SELECT pg_advisory_lock_shared($1, $2)", *HOLD_LOCK)
        await stores.people.remember_chat(CHAT, "group", "G")
        for user, name in ((ANN, "Ann"), (BEN, "Ben")):
            await stores.people.remember_user(user, name)
        made = await stores.rounds.open_round(CHAT, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                              1000.0, 1060.0, started_by=ANN)
        assert made is not None
        await stores.rounds.record_answer(made.id, BEN, "1+2", False, 1001.0)
        await stores.rounds.record_answer(made.id, ANN, "1*2*3*4", True, 1002.0)
        closed = stores.rounds.close_round(made.id, "won", 1002.0, ANN, "1*2*3*4", 10, 2.0)
        assert await asyncio.wait_for(closed, 20.0)
        top = await asyncio.wait_for(stores.scores.top(None), 20.0)
        assert [(s.name, s.points, s.wins) for s in top] == [("Ann", 10, 1)]
    finally:
        await holder.close()


async def waiting_on_a_row(postgres_url: str, timeout: float = 20.0) -> None:
    """Until a session of this database waits for another transaction's row."""
    watcher = await asyncpg.connect(postgres_url)
    try:
        for _ in range(int(timeout / 0.05)):
            if await watcher.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')"):
                return
            await asyncio.sleep(0.05)
    finally:
        await watcher.close()
    raise AssertionError("no session waited for the held row")


async def test_a_rated_close_takes_the_totals_lock_only_at_its_end(stores: Stores,
                                                                  postgres_url: str):
    """Every close's scoring takes the totals' lock, which every chat shares. A rated close
    takes it last, after its rating's steps: held up on one of them (here the game's scale
    row, which every rated close writes, held by another transaction), it holds nobody else's
    close up. Closed first, a rated close held that lock across its rating, so every other
    chat's close waited for its slowest statement (issue 57: capped workers queued there)."""
    other = CHAT - 1
    for chat in (CHAT, other):
        await stores.people.remember_chat(chat, "group", "G")
    for user, name in ((ANN, "Ann"), (BEN, "Ben")):
        await stores.people.remember_user(user, name)
    first = await stores.rounds.open_round(CHAT, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                           1000.0, 1060.0, started_by=ANN)
    held = await stores.rounds.open_round(CHAT, "24", (1, 1, 4, 6), 24, "easy", 10, "en",
                                          1000.0, 1060.0, started_by=ANN, topic=5)
    free = await stores.rounds.open_round(other, "24", (2, 3, 4, 6), 24, "easy", 10, "en",
                                          1000.0, 1060.0, started_by=BEN)
    assert first is not None and held is not None and free is not None
    rating = write(1002.0, (ANN, 0.4, 0.4))
    assert await stores.rounds.close_round(first.id, "won", 1002.0, ANN, "1*2*3*4", 10, 2.0,
                                           rating)  # the scale's row is there now
    await stores.rounds.record_answer(held.id, ANN, "(1+1)*(6+6)", True, 1003.0)
    await stores.rounds.record_answer(free.id, BEN, "2*3*4*6/6", True, 1003.0)
    holder = await asyncpg.connect(postgres_url)
    try:
        transaction = holder.transaction()
        await transaction.start()
        await holder.execute("UPDATE rating_scales SET rounds = rounds WHERE game = '24'")
        rated = asyncio.create_task(stores.rounds.close_round(
            held.id, "won", 1003.0, ANN, "(1+1)*(6+6)", 10, 3.0, write(1003.0, (ANN, 0.6, 0.2))))
        await waiting_on_a_row(postgres_url)
        assert not rated.done()
        # another chat's close scores at once, the rated one still waiting for the scale
        assert await asyncio.wait_for(stores.rounds.close_round(
            free.id, "won", 1003.0, BEN, "2*3*4*6/6", 10, 3.0), 10.0)
        assert not rated.done()
        await transaction.rollback()
        assert await asyncio.wait_for(rated, 10.0)
    finally:
        await holder.close()
    top = {s.name: (s.points, s.wins) for s in await stores.scores.top(None)}
    assert top == {"Ann": (20, 2), "Ben": (10, 1)}
    scale = await stores.ratings.scale("24")
    assert scale is not None and scale.rounds == 2
    assert not await stores.rounds.close_round(held.id, "won", 1003.0, ANN, "(1+1)*(6+6)", 10,
                                               3.0, write(1003.0, (ANN, 0.6, 0.2)))
