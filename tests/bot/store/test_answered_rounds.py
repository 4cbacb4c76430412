"""The rounds a player's page shows come from a summary (migration 19, `answered_rounds`) that the
round's close writes and a late answer merges into: after any history it is exactly what the
stored answers and rounds say (the page's former statement, kept here as the recount), on both
backends; a close made twice counts once; the migration fills it from a history played before
it as live play would have; a chat's reset and a person's /forget take their rows with them;
the page ranks fewer solves for its hardest hand and finds the same one."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.play.pages.player import latest_solved, numbers_of, ranked
from bot.store.postgres import open_postgres
from bot.store.sql.pages import SolvedHand
from bot.store.sqlite import open_sqlite
from bot.store.stores import Stores
from tests.postgres import PostgresServer, new_database

SUMMARISED = 19  # the migration that makes and fills answered_rounds
GROUP, OTHER = -100, -200
PLAYERS = (1, 2, 3, 4)
START = 1_790_000_000.0
HANDS = {"24": ("easy", "medium", "hard"), "countdown": ("standard",), "yahtzee": ("standard",)}

# What the page read before the summary: each player's answers of a closed round, grouped
SUMMARY = ("SELECT user_id, round_id, game, level, hand, target, solved, seconds, first_at "
           "FROM answered_rounds ORDER BY user_id, round_id")
RECOUNT = ("SELECT a.user_id, r.id, r.game, r.level, r.hand, r.target, a.solved, "
           "a.first_right - r.started_at, a.first_at FROM (SELECT round_id, user_id, "
           "MAX(correct) AS solved, MIN(CASE WHEN correct = 1 THEN at END) AS first_right, "
           "MIN(at) AS first_at FROM answers GROUP BY round_id, user_id) a "
           "JOIN rounds r ON r.id = a.round_id WHERE r.status <> 'open' "
           "ORDER BY a.user_id, r.id")


@dataclass(frozen=True)
class Answer:
    user_id: int
    right: bool
    after: float  # seconds after the deal (after the close: a late answer)
    late: bool = False


@dataclass(frozen=True)
class Played:
    chat_id: int
    game: str
    level: str
    hand: tuple[int, ...]
    answers: tuple[Answer, ...]
    won: bool  # closed by its first right answer in time (else it expires)
    closed_twice: bool = False


def random_history(rng: random.Random, rounds: int = 12) -> list[Played]:
    history = []
    for _ in range(rounds):
        game = rng.choice(sorted(HANDS))
        answers = tuple(Answer(rng.choice(PLAYERS), rng.random() < 0.4,
                               round(rng.uniform(0.5, 50.0), 3), rng.random() < 0.25)
                        for _ in range(rng.randint(0, 6)))
        history.append(Played(rng.choice((GROUP, OTHER)), game, rng.choice(HANDS[game]),
                              tuple(rng.randint(1, 13) for _ in range(4)), answers,
                              rng.random() < 0.6, rng.random() < 0.3))
    return history


async def play(stores: Stores, history: list[Played]) -> None:
    """The history through the stores, one round after another: the answers in time, the close
    (won by the first right one of them, or expired), a second close (refused), late answers."""
    for chat_id in (GROUP, OTHER):
        await stores.people.remember_chat(chat_id, "group", "G")
    for user_id in PLAYERS:
        await stores.people.remember_user(user_id, f"P{user_id}", None)
    now = START
    for played in history:
        dealt = await stores.rounds.open_round(played.chat_id, played.game, played.hand, 24,
                                               played.level, 10, "en", now, now + 60)
        assert dealt is not None
        on_time = sorted((a for a in played.answers if not a.late), key=lambda a: a.after)
        winner = next((a for a in on_time if a.right), None) if played.won else None
        for answer in on_time:
            await stores.rounds.record_answer(dealt.id, answer.user_id, "x", answer.right,
                                              now + answer.after)
            if answer is winner:
                break
        ended = now + (winner.after if winner else 60.0)
        closes = 2 if played.closed_twice else 1
        done = [await stores.rounds.close_round(
            dealt.id, "won" if winner else "expired", ended, winner.user_id if winner else None,
            "x" if winner else None, 10 if winner else 0, winner.after if winner else None)
            for _ in range(closes)]
        assert done == [True] + [False] * (closes - 1), "a close is made once"
        for answer in (a for a in played.answers if a.late):
            await stores.rounds.record_answer(dealt.id, answer.user_id, "x", answer.right,
                                              ended + answer.after)
        now = ended + 100.0


async def rows(stores: Stores, sql: str) -> list[tuple]:
    return [tuple(row) for row in await stores.rounds.db.fetch(sql)]  # type: ignore[attr-defined]


async def same_as_recount(stores: Stores) -> list[tuple]:
    summary = await rows(stores, SUMMARY)
    assert summary == await rows(stores, RECOUNT)
    return summary


SCRIPTED = [
    # Ann wrong then right (her first right answer counts), Ben wrong only; the close twice
    Played(GROUP, "24", "hard", (1, 4, 12, 14), (Answer(1, False, 2.0), Answer(2, False, 3.0),
                                                 Answer(1, True, 7.5)), True, True),
    # nobody right in time; Ben right late (it counts for him), Cid wrong late
    Played(GROUP, "countdown", "standard", (25, 50, 3, 7),
           (Answer(1, False, 4.0), Answer(2, True, 5.0, late=True),
            Answer(3, False, 1.0, late=True)), False),
    # Ann wins; Ann answers again late (changes nothing); Ben right late after being wrong
    Played(OTHER, "24", "easy", (2, 3, 4, 1), (Answer(2, False, 1.0), Answer(1, True, 3.25),
                                               Answer(1, True, 1.0, late=True),
                                               Answer(2, True, 2.0, late=True)), True),
]


async def test_the_summary_is_what_the_answers_say(stores: Stores):
    await play(stores, SCRIPTED)
    summary = await same_as_recount(stores)
    assert [(user, solved, seconds) for user, _, _, _, _, _, solved, seconds, _ in summary] == [
        (1, 1, 7.5), (1, 0, None), (1, 1, 3.25),
        (2, 0, None), (2, 1, 65.0), (2, 1, 5.25),
        (3, 0, None)]


@pytest.mark.parametrize("seed", range(4))
async def test_the_summary_holds_over_random_histories(stores: Stores, seed: int):
    await play(stores, random_history(random.Random(seed)))
    await same_as_recount(stores)


def expected_year(recount: list[tuple], user_id: int, since: float) -> tuple:
    """What the page made of the player's rounds before the summary, from the recount's rows:
    per (game, level) rounds, solved and the median; rounds per day; each stored hand solved
    at its latest solve, latest first (ties: the lower round first)."""
    mine = [row for row in recount if row[0] == user_id and row[8] >= since]
    groups: dict[tuple[str, str], list[tuple]] = {}
    for row in mine:
        level = row[3] if row[3] in ("easy", "medium", "hard") else ""
        groups.setdefault((row[2], level), []).append(row)
    levels = sorted((game, level, len(rows), sum(r[6] for r in rows),
                     statistics.median(right) if (right := [r[7] for r in rows
                                                           if r[6] and r[7] is not None])
                     else None) for (game, level), rows in groups.items())
    days: dict[int, int] = {}
    for row in mine:
        days[int(row[8] // 86400)] = days.get(int(row[8] // 86400), 0) + 1
    seen, hands = set(), []
    for row in sorted(mine, key=lambda r: -r[8]):
        if row[6] and (row[2], row[4], row[5]) not in seen:
            seen.add((row[2], row[4], row[5]))
            hands.append((row[2], row[3], row[4], row[5], row[8]))
    return levels, days, hands


async def page_year(stores: Stores, user_id: int, since: float) -> tuple:
    levels = sorted((y.game, y.level, y.rounds, y.solved, y.median)
                    for y in await stores.pages.levels(user_id, since))
    return (levels, await stores.pages.round_days(user_id, since),
            [tuple(hand) for hand in await stores.pages.solved_hands(user_id, since)])


async def test_the_page_reads_what_it_computed_from_the_rounds(stores: Stores):
    await play(stores, SCRIPTED + random_history(random.Random(7), 30))
    recount = await rows(stores, RECOUNT)
    for since in (0.0, START + 107.5, START + 2000.0):
        for user_id in PLAYERS:
            assert await page_year(stores, user_id, since) == \
                expected_year(recount, user_id, since)
    levels, days, hands = await page_year(stores, 1, 0.0)
    assert sum(days.values()) == sum(rounds for _, _, rounds, _, _ in levels) > len(hands) > 1
    assert ("24", "hard", 1, 1, 7.5) in levels or any(level[1] == "hard" and level[2] > 1
                                                      for level in levels)


async def test_a_chats_reset_and_a_forget_take_their_rows(stores: Stores):
    await play(stores, SCRIPTED)
    await stores.forgetting.reset_chat(OTHER)
    assert {row[1] for row in await same_as_recount(stores)} == {1, 2}
    await stores.forgetting.forget_user(2)
    summary = await same_as_recount(stores)
    assert {row[0] for row in summary} == {1, 3}


# --- the migration's backfill --------------------------------------------------------------

async def opened(backend: str, where: str, schema: int | None = None) -> Stores:
    if backend == "sqlite":
        return await open_sqlite(Path(where), migrate_to=schema) if schema else \
            await open_sqlite(Path(where))
    return await open_postgres(where, migrate_to=schema) if schema else \
        await open_postgres(where)


async def place(backend: str, tmp_path: Path, request: pytest.FixtureRequest,
                name: str) -> str:
    if backend == "sqlite":
        return str(tmp_path / f"{name}.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await new_database(server)


@pytest.mark.parametrize("seed", range(2))
async def test_the_backfill_is_what_live_play_wrote(backend: str, tmp_path: Path,
                                                    request: pytest.FixtureRequest, seed: int):
    """The same history played on a database before migration 19 (then opened by this code:
    the migration fills the summary) and on one after it (the close writes it)."""
    history = SCRIPTED + random_history(random.Random(seed))
    found = []
    for name, schema in (("before", SUMMARISED - 1), ("after", None)):
        where = await place(backend, tmp_path, request, name)
        stores = await opened(backend, where, schema)
        try:
            await play(stores, history)
        finally:
            await stores.close()
        stores = await opened(backend, where)
        try:
            found.append(await same_as_recount(stores))
        finally:
            await stores.close()
    assert found[0] == found[1] and found[0]


# --- a property over random histories (SQLite: a fresh file each) ---------------------------

answers = st.lists(st.builds(Answer, st.sampled_from(PLAYERS), st.booleans(),
                             st.floats(0.25, 59.0, allow_nan=False), st.booleans()),
                   max_size=5).map(tuple)
histories = st.lists(st.builds(
    Played, st.sampled_from((GROUP, OTHER)), st.just("24"), st.sampled_from(HANDS["24"]),
    st.tuples(*[st.integers(1, 13)] * 4), answers, st.booleans(), st.booleans()),
    min_size=1, max_size=6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories)
def test_any_history_is_summarised_exactly(history: list[Played]):
    async def check() -> None:
        with tempfile.TemporaryDirectory() as folder:
            stores = await open_sqlite(Path(folder) / "h.sqlite3")
            try:
                await play(stores, history)
                await same_as_recount(stores)
            finally:
                await stores.close()
    asyncio.run(check())


# --- the page's own shortcut: the hardest hand chosen from fewer solves ---------------------

class Difficulties:
    """Learned difficulties, some hands without one (their prior then decides)."""

    async def hand_difficulties(self, hands: Sequence[tuple[str, str]]
                                ) -> dict[tuple[str, str], float]:
        return {(game, key): float(sum(map(ord, key)) % 7) for game, key in hands
                if len(key) % 3}


solves = st.lists(st.builds(
    SolvedHand, st.sampled_from(("24", "countdown")),
    st.sampled_from(("easy", "medium", "hard", "hard", "hard", "standard")),
    st.lists(st.integers(1, 6), min_size=4, max_size=4).map(json.dumps), st.just(24),
    st.integers(0, 400).map(float)), max_size=160)


@settings(max_examples=200, deadline=None)
@given(solves)
def test_the_hardest_hand_is_chosen_as_from_every_solve(solved: list[SolvedHand]):
    """`latest_solved` leaves out only what `ranked` would not choose: the same hand wins as
    when every solve, latest first, is ranked (the page's former way)."""
    every = [(r.game, r.level, numbers, r.target) for r in sorted(solved, key=lambda r: -r.at)
             if (numbers := numbers_of(r.hand))]
    fewer = latest_solved(solved)
    store: Any = Difficulties()
    for most in (1, 5):
        expected = [every[i] for i in asyncio.run(ranked(store, every, most))]
        assert [fewer[i] for i in asyncio.run(ranked(store, fewer, most))] == expected
