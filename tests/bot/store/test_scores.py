"""Scores kept by the database's triggers equal the definitions (tests/bot/scoring.py), whatever the
order of answers, closes and races, on SQLite and on PostgreSQL (one definition, both backends);
migration 4 repairs the rows earlier versions got wrong."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store.sqlite import open_sqlite
from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    score_mismatches,
    stored_scores,
)
from tests.postgres import emptied, migrated_sqlite

CHATS = (-1, -2)
USERS = (1, 2, 3)
GAMES = ("24", "countdown")

chat = st.sampled_from(CHATS)
user = st.sampled_from(USERS)
opening = st.tuples(st.just("open"), chat, st.sampled_from(GAMES))
winning = st.tuples(st.just("win"), chat, user, st.integers(1, 30),
                    st.none() | st.floats(0.5, 60, allow_nan=False))
# an answer to the chat's open round (back=0), or to one of its closed rounds (late)
answering = st.tuples(st.just("answer"), chat, user, st.integers(0, 3), st.booleans(),
                      st.none() | st.integers(0, 12))
operation = st.one_of(
    opening, opening, winning, winning, answering, answering,
    st.tuples(st.just("race"), chat, st.lists(user, min_size=2, max_size=4)),
    st.tuples(st.just("closest"), chat),  # Countdown's end: the closest answer, then earliest
    st.tuples(st.just("settle"), chat),  # start-up: the earliest right answer wins
    st.tuples(st.just("end"), chat, st.sampled_from(("expired", "revealed"))),
)


class Scenario:
    """Drives the stores as the round service does, chat by chat."""

    def __init__(self, stores: Stores) -> None:
        self.people = stores.people
        self.store = stores.rounds
        self.rounds: dict[int, list[int]] = {c: [] for c in CHATS}  # oldest first
        self.open: dict[int, int | None] = dict.fromkeys(CHATS)
        self.clock = 1000.0

    def tick(self) -> float:
        self.clock += 1.0
        return self.clock

    async def setup(self) -> None:
        for c in CHATS:
            await self.people.remember_chat(c, "group", None)
        for u in USERS:
            await self.people.remember_user(u, f"U{u}")

    async def run(self, op: tuple) -> None:
        kind, c, *args = op
        current = self.open[c]
        if kind == "open":
            if current is None:
                now = self.tick()
                made = await self.store.open_round(c, args[0], (1, 2, 3, 4), 24, "", 10, "en",
                                                   now, now + 60)
                assert made is not None
                self.rounds[c].append(made.id)
                self.open[c] = made.id
        elif kind == "answer":
            player, back, correct, distance = args
            rounds = self.rounds[c]
            if rounds:
                target = rounds[-1 - min(back, len(rounds) - 1)]
                await self.store.record_answer(target, player, "x", correct, self.tick(),
                                               distance)
        elif current is not None:
            await self.close(kind, c, current, args)

    async def close(self, kind: str, c: int, current: int, args: list) -> None:
        now = self.tick()
        if kind == "win":
            player, points, seconds = args
            closed = await self.store.close_round(current, "won", now, player, "x", points,
                                                  seconds)
        elif kind == "race":
            results = await asyncio.gather(*(self.store.close_round(
                current, "won", now, p, "x", 10, 1.0) for p in args[0]))
            assert sum(results) == 1
            closed = True
        elif kind == "closest":
            best = await self.store.best_answer(current)
            winner = best.user_id if best is not None and best.distance <= 10 else None
            closed = await self.store.close_round(
                current, "won" if winner else "expired", now, winner, best.text if winner and best
                else None, 10 - (best.distance if best else 0) if winner else 0,
                best.at - 1000.0 if winner and best else None)
        elif kind == "settle":
            right = await self.store.first_right_answer(current)
            if right is None:
                return
            closed = await self.store.close_round(current, "won", right.at, right.user_id,
                                                  right.text, 10, right.at - 1000.0)
        else:
            closed = await self.store.close_round(current, args[0], now)
        assert closed
        assert not await self.store.close_round(current, "expired", now)  # never twice
        self.open[c] = None


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest) -> str | None:
    """Where the scenarios run: None for a new SQLite database in memory each time, or the
    URL of the session's PostgreSQL database, emptied each time."""
    return request.getfixturevalue("postgres_url") if backend == "postgres" else None


@contextlib.asynccontextmanager
async def open_empty(database: str | None) -> AsyncIterator[Stores]:
    if database is None:  # a copy of a migrated file: the schema's steps cost 54 ms an example
        with tempfile.TemporaryDirectory(prefix="scores-") as folder:
            stores = await open_sqlite(await migrated_sqlite(Path(folder) / "g.sqlite3"))
            try:
                yield stores
            finally:
                await stores.close()
        return
    from bot.store.postgres import open_postgres

    await emptied(database)
    stores = await open_postgres(database)
    try:
        yield stores
    finally:
        await stores.close()


async def scores_after(operations: list[tuple], database: str | None = None
                       ) -> tuple[dict, dict]:
    async with open_empty(database) as stores:
        scenario = Scenario(stores)
        await scenario.setup()
        for op in operations:
            await scenario.run(op)
        db = stores.rounds.db
        rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
        stored = stored_scores(await db.fetch(SCORES_SQL))
        return stored, expected_scores(rounds, answers)


# `database` is the same for every example (emptied by each), hence the suppressed check
@pytest.mark.slow
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=20, max_size=80))
def test_scores_match_the_definitions(database, operations):
    stored, expected = asyncio.run(scores_after(operations, database))
    assert stored == expected


def test_a_late_loss_inside_a_run_of_wins_splits_it(database):
    """Answers stored after later rounds closed: played counts them, and streaks are counted
    again around the round they fall in."""
    ops = [("open", -1, "24"), ("win", -1, 1, 10, 1.0),  # Ann wins round 1
           ("open", -1, "24"), ("win", -1, 2, 10, 2.0),  # Ben wins round 2 without Ann
           ("open", -1, "24"), ("win", -1, 1, 10, 3.0)]  # Ann wins round 3
    stored, _ = asyncio.run(scores_after(ops, database))
    assert stored[(-1, 1, "24")] == (20, 2, 2, 1.0, 2, 2)  # round 2 is not Ann's
    ops += [("answer", -1, 1, 1, False, None)]  # Ann's answer to round 2 lands now
    stored, expected = asyncio.run(scores_after(ops, database))
    assert stored == expected
    assert stored[(-1, 1, "24")] == (20, 2, 3, 1.0, 1, 1)
    ops += [("answer", -1, 2, 2, True, None),  # Ben, late in round 1 (a right answer, too late)
            ("answer", -1, 1, 0, False, None)]  # Ann again in round 3 she won: no change
    stored, expected = asyncio.run(scores_after(ops, database))
    assert stored == expected
    assert stored[(-1, 2, "24")] == (10, 1, 2, 2.0, 1, 1)
    assert stored[(-1, 1, "24")] == (20, 2, 3, 1.0, 1, 1)


# --- migration 4 repairs what version 3 stored ----------------------------------------------

def damage(path) -> None:
    """Rounds as version 3 stored them: answers after the close (never counted), a streak reset
    by a round the player never joined, and a score row off by hand."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("INSERT INTO chats (id) VALUES (-1)")
    db.executemany("INSERT INTO users (id, first_name) VALUES (?, ?)",
                   [(1, "Ann"), (2, "Ben"), (3, "Cy")])

    def play(winner: int | None, before: tuple[int, ...], after: tuple[int, ...]) -> None:
        round_id = db.execute(
            "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
            "VALUES (-1, '[1, 2, 3, 4]', 24, 'easy', 10, 100, 160)").lastrowid
        for player in before:
            db.execute("INSERT INTO answers (round_id, user_id, text, correct, at) "
                       "VALUES (?, ?, 'x', 0, 101)", (round_id, player))
        db.execute("UPDATE rounds SET status = ?, winner_id = ?, awarded = ?, ended_at = 105, "
                   "win_seconds = ? WHERE id = ?",
                   ("won" if winner else "expired", winner, 10 if winner else 0,
                    5.0 if winner else None, round_id))
        for player in after:
            db.execute("INSERT INTO answers (round_id, user_id, text, correct, at) "
                       "VALUES (?, ?, 'x', 1, 105.1)", (round_id, player))

    play(1, (2,), (3,))  # Cy's right answer came a moment too late
    play(1, (), (2, 3))
    play(2, (), ())  # Ann was not there
    play(None, (3,), ())
    db.execute("UPDATE scores SET points = points * 2 WHERE user_id = 1")
    db.execute("INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
               "VALUES (-1, '[3, 3, 8, 8]', 24, 'hard', 30, 200, 260)")
    db.close()


async def test_migration_repairs_scores_from_version_3(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = await open_sqlite(path, migrate_to=3)
    await old.close()
    damage(path)
    db = sqlite3.connect(path)
    assert score_mismatches(db)  # what version 3 stored is wrong
    db.close()

    stores = await open_sqlite(path)
    rows = {(s.game, u): s for u in (1, 2, 3) for s in await stores.scores.stats(-1, u)}
    ann, ben, cy = rows[("24", 1)], rows[("24", 2)], rows[("24", 3)]
    assert (ann.points, ann.wins, ann.rounds_played, ann.current_streak, ann.best_streak) == \
        (20, 2, 2, 2, 2)
    assert (ben.points, ben.wins, ben.rounds_played, ben.current_streak) == (10, 1, 3, 1)
    assert (cy.rounds_played, cy.current_streak) == (3, 0)
    assert ann.fastest_win == 5.0
    await stores.close()
    db = sqlite3.connect(path)
    assert score_mismatches(db) == []
    # no old result is sent again at start-up; the open round is left to resume
    assert db.execute("SELECT COUNT(*) FROM rounds WHERE announced = 0").fetchone()[0] == 1
    db.close()
