"""A group's weeks as schema step 39 keeps them (its page's chart reads them): the rounds won in
each group and calendar week, kept as rounds are won, change or go, on SQLite and PostgreSQL
alike; each figure against the rounds counted by the calendar (tests/bot/scoring.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.store.sql.connection import numbered
from bot.store.stores import Stores
from tests.bot.scoring import CHAT_WEEKS_SQL, calendar_week, chat_weeks_hold

GROUP, OTHER, PRIVATE = -7, -8, 7
MONDAY = 1_796_601_600.0  # 2026-12-07, a Monday, 00:00 UTC
WEEK = 7 * 86400


async def won(stores: Stores, chat: int, at: float) -> int:
    """A round dealt in the chat and won at `at` (by person 1): its id."""
    made = await stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "", 10, "en", at - 5,
                                          at + 60)
    assert made is not None
    await stores.rounds.close_round(made.id, "won", at, 1, "1*2*3*4", 10, 5.0)
    return made.id


Say = Callable[..., Awaitable[None]]


@pytest.fixture
def said(stores: Stores, backend: str) -> Say:
    """A statement written in SQLite's placeholders, run on the backend's connection."""
    db = stores.rounds.db  # type: ignore[attr-defined]

    async def run(sql: str, params: tuple = ()) -> None:
        await db.run(numbered(sql) if backend == "postgres" else sql, params)
    return run


async def kept(stores: Stores) -> dict[tuple[int, int], int]:
    db = stores.rounds.db  # type: ignore[attr-defined]
    return {(chat, week): wins for chat, week, wins in await db.fetch(CHAT_WEEKS_SQL)}


async def setup(stores: Stores) -> None:
    for chat, kind in ((GROUP, "group"), (OTHER, "group"), (PRIVATE, "private")):
        await stores.people.remember_chat(chat, kind, None)
    await stores.people.remember_user(1, "Ann")


def test_the_calendar_week_is_mondays():
    """The test's own count: Monday 00:00 begins a week, a moment before it is the last."""
    assert calendar_week(MONDAY) == calendar_week(MONDAY - 0.25) + 1
    assert calendar_week(MONDAY + WEEK - 0.25) == calendar_week(MONDAY)
    assert calendar_week(0.0) == 0 and calendar_week(4 * 86400 - 0.5) == 0  # Sunday 1970-01-04
    assert calendar_week(4 * 86400) == 1


async def test_wins_are_kept_in_the_week_they_were_won(stores: Stores) -> None:
    """A quarter of a second before Monday is the week before (PostgreSQL's CAST would round
    it into Monday's: the step floors on both); another group's and a private chat's wins
    are apart; a round that ended unsolved counts nowhere."""
    await setup(stores)
    for at in (MONDAY - 0.25, MONDAY, MONDAY + 0.75, MONDAY + WEEK - 0.25, MONDAY + 3 * WEEK):
        await won(stores, GROUP, at)
    await won(stores, OTHER, MONDAY + 1)
    await won(stores, PRIVATE, MONDAY + 2)
    lost = await stores.rounds.open_round(GROUP, "24", (1, 1, 1, 1), 24, "", 10, "en",
                                          MONDAY + 9, MONDAY + 60)
    assert lost is not None
    await stores.rounds.close_round(lost.id, "expired", MONDAY + 60)
    week = calendar_week(MONDAY)
    assert await kept(stores) == {(GROUP, week - 1): 1, (GROUP, week): 3, (GROUP, week + 3): 1,
                                  (OTHER, week): 1}
    await chat_weeks_hold(stores.rounds.db)  # type: ignore[attr-defined]


async def test_a_won_round_changed_or_gone_leaves_its_week(stores: Stores, said: Say
                                                            ) -> None:
    """What else writes a won round: its moment moved, its status changed, the round written
    won at once, the round deleted; a week left at nothing has no row."""
    await setup(stores)
    first = await won(stores, GROUP, MONDAY + 10)
    second = await won(stores, GROUP, MONDAY + 20)
    week = calendar_week(MONDAY)
    await said("UPDATE rounds SET ended_at = ? WHERE id = ?", (MONDAY + WEEK + 1, first))
    assert await kept(stores) == {(GROUP, week): 1, (GROUP, week + 1): 1}
    await said("UPDATE rounds SET status = 'revealed' WHERE id = ?", (second,))
    assert await kept(stores) == {(GROUP, week + 1): 1}
    await said("UPDATE rounds SET status = 'won' WHERE id = ?", (second,))
    assert await kept(stores) == {(GROUP, week): 1, (GROUP, week + 1): 1}
    await said("INSERT INTO rounds (chat_id, hand, target, level, points, started_at, "
                       "deadline, ended_at, status, winner_id, awarded) VALUES "
                       "(?, '[1, 2, 3, 4]', 24, '', 10, ?, ?, ?, 'won', 1, 10)",
               (OTHER, MONDAY, MONDAY + 60, MONDAY + 30))
    await said("DELETE FROM rounds WHERE id = ?", (first,))
    assert await kept(stores) == {(GROUP, week): 1, (OTHER, week): 1}
    await said("UPDATE rounds SET chat_id = ? WHERE id = ?", (OTHER, second))
    assert await kept(stores) == {(OTHER, week): 2}
    await chat_weeks_hold(stores.rounds.db)  # type: ignore[attr-defined]


async def test_a_won_round_with_no_moment_is_in_no_week_and_its_write_stands(
        stores: Stores, said: Say) -> None:
    """No code writes a won round without its moment; one written so is stored (its write
    does not fail on the week it cannot have) and counts from the moment it is given one."""
    await setup(stores)
    await said("INSERT INTO rounds (chat_id, hand, target, level, points, started_at, "
                       "deadline, status, winner_id, awarded) VALUES "
                       "(?, '[1, 2, 3, 4]', 24, '', 10, ?, ?, 'won', 1, 10)",
               (GROUP, MONDAY, MONDAY + 60))
    assert await kept(stores) == {}
    await said("UPDATE rounds SET ended_at = ? WHERE chat_id = ?", (MONDAY + 30, GROUP))
    assert await kept(stores) == {(GROUP, calendar_week(MONDAY)): 1}
    await said("UPDATE rounds SET ended_at = NULL WHERE chat_id = ?", (GROUP,))
    assert await kept(stores) == {}
    await chat_weeks_hold(stores.rounds.db)  # type: ignore[attr-defined]
