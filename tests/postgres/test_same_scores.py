"""What the triggers keep is the same on both engines. Each engine says them in its own language
(bot/store/schema: the scoring of steps 5 and 12, the answered rounds of step 19; SQLite's a
statement a row, PostgreSQL's after its chat's lock and, for the totals, once a statement), so
the same plays, through the stores, must leave the same rows in every table a trigger writes
(scores, player_totals, board_steps, board_ties, answered_rounds), the views must say the same
(played, scores_from_rounds), and the scores must be the definition's (tests/bot/scoring.py):
closes of every kind, answers before and after a close (the winner's too, and into a round
before the player's latest), a chat's reset, a person's erasure and a group's move, across a
UTC midnight."""

from __future__ import annotations

import asyncio
from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store.stores import Stores
from tests.bot import scoring
from tests.bot.store.test_recount import USERS, People, operation
from tests.bot.store.test_scores import open_empty

KEPT = {
    "scores": scoring.SCORES_SQL,
    "player_totals": "SELECT chat_id, user_id, game, points, wins FROM player_totals",
    "board_steps": "SELECT game, points, wins, players FROM board_steps",
    "board_ties": "SELECT game, points, wins, band, players FROM board_ties",
    "answered_rounds": "SELECT user_id, round_id, game, level, hand, target, solved, seconds, "
                       "first_at, day FROM answered_rounds",
    "played": "SELECT chat_id, game, user_id, round_id, won FROM played",
    "scores_from_rounds": "SELECT chat_id, user_id, game, points, wins, rounds_played, "
                          "fastest_win, current_streak, best_streak FROM scores_from_rounds",
}
MIDNIGHT = 86400.0 * 20_600  # a UTC midnight: the plays start 4.5 s before it
GROUP, SUPERGROUP = -1, -3
BEN, CY = USERS[1], USERS[2]

PLAYS = [("open", -1, "24"), ("answer", -1, BEN, 0, False, 3),
         ("answer", -1, CY, 0, True, None), ("win", -1, CY, 10, 2.5),
         ("answer", -1, BEN, 0, True, None),  # late, into the round just closed
         ("answer", -1, CY, 0, False, None),  # the winner's, late
         ("open", -1, "24"), ("answer", -1, BEN, 0, True, 0), ("settle", -1),
         ("open", -2, "countdown"), ("answer", -2, BEN, 0, False, 4), ("closest", -2),
         ("open", -1, "24"), ("win", -1, BEN, 20, 1.5),
         ("answer", -1, USERS[0], 2, False, None),  # late, before the player's latest round
         ("open", -1, "countdown"), ("end", -1, "revealed"),
         ("open", -2, "24"), ("race", -2, (BEN, CY)),
         ("open", -1, "24"), ("answer", -1, USERS[3], 0, False, None), ("end", -1, "expired"),
         ("forget", USERS[3]), ("open", -2, "24"), ("win", -2, USERS[4], 5, 3.0),
         ("reset", -2), ("open", -2, "24"), ("win", -2, BEN, 10, 4.0),
         ("answer", -2, CY, 1, True, None)]


def plain(value: object) -> object:
    return int(value) if isinstance(value, Decimal) else value


async def kept(stores: Stores) -> dict[str, Counter[tuple]]:
    """Every row the triggers wrote and the views say, as many times as each stands; the
    scores checked against their definition first."""
    db = stores.rounds.db  # type: ignore[attr-defined]
    rounds, answers = scoring.read_rows(await db.fetch(scoring.ROUNDS_SQL),
                                        await db.fetch(scoring.ANSWERS_SQL))
    assert scoring.stored_scores(await db.fetch(scoring.SCORES_SQL)) == \
        scoring.expected_scores(rounds, answers)
    return {name: Counter(tuple(map(plain, row)) for row in await db.fetch(sql))
            for name, sql in KEPT.items()}


async def played(plays: list[tuple], database: str | None
                 ) -> list[dict[str, Counter[tuple]]]:
    """What the triggers kept after the plays, then after the group moved to a supergroup."""
    async with open_empty(database) as stores:
        scenario = People(stores)
        scenario.clock = MIDNIGHT - 4.5
        await scenario.setup()
        for play in plays:
            await scenario.run(play)
        after_plays = await kept(stores)
        await stores.people.remember_chat(SUPERGROUP, "supergroup", None)
        for current in scenario.open.values():
            if current is not None:
                await stores.rounds.close_round(current, "expired", scenario.tick())
        await stores.people.migrate_chat(GROUP, SUPERGROUP)
        return [after_plays, await kept(stores)]


async def on_both(plays: list[tuple], postgres_url: str) -> None:
    sqlite = await played(plays, None)
    postgres = await played(plays, postgres_url)
    for moment, (mine, theirs) in enumerate(zip(sqlite, postgres, strict=True)):
        for name in KEPT:
            assert mine[name] == theirs[name], (moment, name)


async def test_the_same_plays_keep_the_same_rows_on_both_engines(postgres_url: str):
    sqlite = await played(PLAYS, None)
    assert {name for name, rows in sqlite[0].items() if not rows} == set()  # all were written
    days = {row[-1] for row in sqlite[0]["answered_rounds"]}
    assert days == {20_599, 20_600}  # the answers straddle the midnight
    await on_both(PLAYS, postgres_url)


@pytest.mark.slow
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=10, max_size=50))
def test_any_plays_keep_the_same_rows_on_both_engines(postgres_url: str, plays: list[tuple]):
    asyncio.run(on_both(plays, postgres_url))
