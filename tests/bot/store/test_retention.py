"""The answers' retention (bot/store/retention.py), on SQLite and PostgreSQL: after
ANSWER_TEXTS_KEPT a closed round keeps one answer per player (who played it: rounds played and
streaks are counted from it) without its text, and nobody's pass; newer and open rounds keep
everything; scores, winners and winning answers never change; a backlog goes a part at a time;
and the housekeeping job runs it from the start."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.runtime.pool import SolverPool
from bot.store.retention import ANSWER_TEXTS_KEPT, EXPIRE_ANSWERS
from bot.store.stores import Stores
from demo.emulator import BotApiEmulator
from tests.bot.conftest import make_config, running
from tests.bot.scoring import SCORES_SQL

GROUP = -31
ANN, BEN, CY = 1, 2, 3
DAY = 86400.0
NOW = 100 * DAY


async def setup(stores: Stores) -> None:
    await stores.people.remember_chat(GROUP, "group", "G")
    for user, name in ((ANN, "Ann"), (BEN, "Ben"), (CY, "Cy")):
        await stores.people.remember_user(user, name)


async def played(stores: Stores, at: float, close: bool = True, topic: int = 0) -> int:
    """A round at `at`: Ben tries three times, Cy twice and passes, Ann wins (or it stays open)."""
    made = await stores.rounds.open_round(GROUP, "24", (1, 2, 3, 4), 24, "easy", 10, "en", at,
                                          at + 60, started_by=ANN, topic=topic)
    assert made is not None
    for n, (user, text) in enumerate(((BEN, "1+2"), (CY, "3*4"), (BEN, "1*2*3"),
                                      (CY, "4-3"), (BEN, "2+2"))):
        await stores.rounds.record_answer(made.id, user, text, False, at + 1 + n)
    await stores.rounds.record_pass(made.id, CY, at + 8)
    if close:
        await stores.rounds.record_answer(made.id, ANN, "1*2*3*4", True, at + 9)
        assert await stores.rounds.close_round(made.id, "won", at + 9, ANN, "1*2*3*4", 10, 9.0)
    return made.id


async def answers_of(stores: Stores, round_id: int) -> list[tuple[int, str]]:
    rows = await stores.rounds.db.fetch(  # type: ignore[attr-defined]
        f"SELECT user_id, text FROM answers WHERE round_id = {round_id} ORDER BY id")
    return [(row[0], row[1]) for row in rows]


async def test_old_rounds_keep_who_played_them_and_nothing_else(stores: Stores) -> None:
    await setup(stores)
    old = await played(stores, NOW - ANSWER_TEXTS_KEPT - 5 * DAY)
    recent = await played(stores, NOW - DAY)
    still_open = await played(stores, NOW - ANSWER_TEXTS_KEPT - 4 * DAY, close=False)
    db = stores.rounds.db  # type: ignore[attr-defined]
    scores = sorted(await db.fetch(SCORES_SQL))
    kept_recent = await answers_of(stores, recent)

    assert await stores.rounds.expire_answers(NOW - ANSWER_TEXTS_KEPT) == 1
    assert await answers_of(stores, old) == [(BEN, ""), (CY, ""), (ANN, "")]
    assert await stores.rounds.passers(old) == []
    assert await answers_of(stores, recent) == kept_recent
    assert [p[0] for p in await stores.rounds.passers(recent)] == [CY]
    assert len(await answers_of(stores, still_open)) == 5  # an open round is never touched
    assert sorted(await db.fetch(SCORES_SQL)) == scores
    kept = await stores.rounds.get_round(old)
    assert kept is not None and kept.status == "won"
    assert await stores.rounds.winner_name(old) == "Ann"
    assert (await db.fetch(f"SELECT winning_answer FROM rounds WHERE id = {old}")) == \
        [("1*2*3*4",)]
    assert await stores.rounds.expire_answers(NOW - ANSWER_TEXTS_KEPT) == 0  # nothing twice


async def test_a_late_answer_after_the_retention_still_counts_once(stores: Stores) -> None:
    """The row that stays for Ben is what the scoring triggers count: a late answer of his
    changes nothing, and Dee's (a new player of that round) counts as before."""
    await setup(stores)
    await stores.people.remember_user(4, "Dee")
    old = await played(stores, NOW - ANSWER_TEXTS_KEPT - 5 * DAY)
    await stores.rounds.expire_answers(NOW - ANSWER_TEXTS_KEPT)
    db = stores.rounds.db  # type: ignore[attr-defined]
    before = {row[1]: row for row in await db.fetch(SCORES_SQL)}
    await stores.rounds.record_answer(old, BEN, "late", False, NOW)
    await stores.rounds.record_answer(old, 4, "late", False, NOW)
    after = {row[1]: row for row in await db.fetch(SCORES_SQL)}
    assert after[BEN] == before[BEN]
    assert after[4][5] == 1  # rounds played


async def test_it_ends_when_what_is_left_is_too_recent(stores: Stores) -> None:
    """A long round dealt before a short one may end after it: with the short one's answers
    kept already, and the long one too recent, there is nothing to do (and it says so)."""
    await setup(stores)
    cutoff = NOW - ANSWER_TEXTS_KEPT
    long_one = await played(stores, cutoff - 50, close=False, topic=7)
    short_one = await played(stores, cutoff - 40)
    await played(stores, cutoff + 10)
    assert await stores.rounds.close_round(long_one, "expired", cutoff + 300)
    assert await stores.rounds.expire_answers(cutoff) == 1
    assert await answers_of(stores, short_one) == [(BEN, ""), (CY, ""), (ANN, "")]
    assert await stores.rounds.expire_answers(cutoff) == 0
    assert len(await answers_of(stores, long_one)) == 5


async def test_a_backlog_goes_a_part_at_a_time(stores: Stores) -> None:
    await setup(stores)
    rounds = [await played(stores, NOW - ANSWER_TEXTS_KEPT - (10 + n) * DAY)
              for n in range(EXPIRE_ANSWERS // 6 * 3)]  # three transactions' worth
    assert await stores.rounds.expire_answers(NOW - ANSWER_TEXTS_KEPT, batches=1) < len(rounds)
    reached = await stores.rounds.expire_answers(NOW - ANSWER_TEXTS_KEPT)
    assert reached > 0
    for round_id in rounds:
        assert all(text == "" for _, text in await answers_of(stores, round_id))


async def test_the_job_runs_it_from_the_start(telegram: BotApiEmulator, pool: SolverPool,
                                             tmp_path: Path) -> None:
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config) as bot:
        await setup(bot.stores)
        old = await played(bot.stores, time.time() - ANSWER_TEXTS_KEPT - DAY)
    async with running(telegram, pool, config) as bot:
        for _ in range(200):
            if all(text == "" for _, text in await answers_of(bot.stores, old)):
                break
            await asyncio.sleep(0.05)
        assert await answers_of(bot.stores, old) == [(BEN, ""), (CY, ""), (ANN, "")]
