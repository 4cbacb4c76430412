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
