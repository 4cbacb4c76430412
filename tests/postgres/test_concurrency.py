"""Writers at once on PostgreSQL, where SQLite runs them one by one: guesses against their limit,
answers landing while their round closes, closes racing each other, in transactions side by side
on the pool's connections. The scores stay what the definitions say (tests/bot/scoring.py)."""

from __future__ import annotations

import asyncio
import random

from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)

CHATS = (-1, -2, -3)
USERS = (1, 2, 3, 4)


async def known(stores: Stores) -> None:
    for chat in CHATS:
        await stores.people.remember_chat(chat, "group", None)
    for user in USERS:
        await stores.people.remember_user(user, f"U{user}")


async def test_guesses_at_once_take_only_the_limit(stores: Stores):
    await known(stores)
    current = await stores.rounds.open_round(-1, "countdown", (1, 2, 3, 4, 5, 6), 500, "", 10,
                                             "en", 1.0, 61.0)
    assert current is not None
    made = await asyncio.gather(*(stores.rounds.record_guess(
        current.id, 1, str(n), False, 2.0 + n, n, 3) for n in range(12)))
    assert sorted(n for n in made if n is not None) == [1, 2, 3]
    assert await stores.rounds.guesses_made(current.id, 1) == 3


async def scores_differ(stores: Stores) -> dict:
    db = stores.rounds.db  # type: ignore[attr-defined]
    rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    expected = expected_scores(rounds, answers)
    stored = stored_scores(await db.fetch(SCORES_SQL))
    return {key: (stored.get(key), expected.get(key)) for key in set(stored) | set(expected)
            if stored.get(key) != expected.get(key)}


async def a_round_of_writes(stores: Stores, rounds: dict[int, list[int]], rng: random.Random,
                            clock: float) -> None:
    """In every chat at once: a new round, answers to it and to the chat's closed rounds, and
    two to four closes of it racing (one wins); all in flight together."""
    opened = []
    for chat in CHATS:
        made = await stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "", 10, "en",
                                              clock, clock + 60)
        assert made is not None
        opened.append(made.id)
    writes = []
    for chat, current in zip(CHATS, opened, strict=True):
        for _ in range(rng.randint(2, 6)):
            target = rng.choice([current, *rounds[chat][-3:]])
            writes.append(stores.rounds.record_answer(target, rng.choice(USERS), "x",
                                                      rng.random() < 0.3, clock + rng.random()))
        for _ in range(rng.randint(2, 4)):
            winner = rng.choice([*USERS, None])
            writes.append(stores.rounds.close_round(
                current, "won" if winner else "expired", clock + 1, winner, "x",
                rng.randint(1, 30), rng.choice([None, 0.5, 2.0, 7.5])))
        rounds[chat].append(current)
    rng.shuffle(writes)
    await asyncio.gather(*writes)


async def test_answers_and_closes_at_once_keep_scores_exact(stores: Stores):
    await known(stores)
    rng = random.Random(20)
    rounds: dict[int, list[int]] = {chat: [] for chat in CHATS}
    for step in range(40):
        await a_round_of_writes(stores, rounds, rng, 1000.0 + 10 * step)
    assert await scores_differ(stores) == {}
    [(count,)] = await stores.rounds.db.fetch(  # type: ignore[attr-defined]
        "SELECT COUNT(*) FROM rounds WHERE status <> 'open'")
    assert count == 40 * len(CHATS)


async def test_a_chats_move_while_its_rounds_close(stores: Stores):
    await known(stores)
    rng = random.Random(3)
    rounds: dict[int, list[int]] = {chat: [] for chat in CHATS}
    for step in range(5):
        await a_round_of_writes(stores, rounds, rng, 1000.0 + 10 * step)
    current = await stores.rounds.open_round(-1, "24", (1, 2, 3, 4), 24, "", 10, "en", 2000.0,
                                             2060.0)
    assert current is not None
    await asyncio.gather(
        stores.people.migrate_chat(-1, -1001),
        stores.rounds.record_answer(rounds[-1][-1], 4, "late", False, 2001.0),
        stores.rounds.close_round(current.id, "won", 2002.0, 2, "x", 10, 2.0))
    assert await stores.rounds.open_round_of(-1) is None
    assert await scores_differ(stores) == {}
    assert await stores.scores.stats(-1, 2) == []
