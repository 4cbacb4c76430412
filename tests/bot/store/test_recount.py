"""The statements issue 40 rewrote equal what they replace, on SQLite and PostgreSQL, whatever
the play: one chat's recount (CHAT_SCORES) equals the view scores_from_rounds for that chat;
every board and every player's place equals the board recomputed in Python from the scores and
rounds; the totals and the counts of players at each step (migration 12) and each group's records
(read in step 33's indexes) equal what the scores say, through closes, late answers,
/resetscores, /forget and a group's move; and every chat's week (migration 31's kept totals,
their steps, and the housekeeping moving the week's start on) equals the week summed from the
rounds, asked for on either side of the kept start."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from decimal import Decimal
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.play.words.places import shared_places
from bot.store.score_store import Board
from bot.store.sql.connection import numbered
from bot.store.sql.people import CHAT_SCORES
from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    chat_weeks_hold,
    expected_records,
    expected_scores,
    read_rows,
    stored_scores,
)
from tests.bot.store.test_scores import Scenario, open_empty

BAND = 16_777_216
CHATS = (-1, -2)
# ties within a band of ids and across bands: the place counts both ways
USERS = (5, 7, BAND + 3, BAND + 9, 3 * BAND + 1)
GAMES = ("24", "countdown")

chat = st.sampled_from(CHATS)
user = st.sampled_from(USERS)
opening = st.tuples(st.just("open"), chat, st.sampled_from(GAMES))
winning = st.tuples(st.just("win"), chat, user, st.sampled_from((5, 10, 20)),
                    st.none() | st.floats(0.5, 60, allow_nan=False))
answering = st.tuples(st.just("answer"), chat, user, st.integers(0, 3), st.booleans(),
                      st.none() | st.integers(0, 12))
operation = st.one_of(
    opening, opening, opening, winning, winning, winning, answering, answering,
    st.tuples(st.just("end"), chat, st.sampled_from(("expired", "revealed"))),
    st.tuples(st.just("reset"), chat), st.tuples(st.just("forget"), user),
    st.tuples(st.just("week"), st.integers(0, 20)),
)


class People(Scenario):
    """The scores' scenario with these players, and a chat's reset and a person's erasure."""

    def __init__(self, stores: Stores) -> None:
        super().__init__(stores)
        self.stores = stores

    async def setup(self) -> None:
        for c in CHATS:
            await self.people.remember_chat(c, "group", None)
        for u in USERS:
            await self.people.remember_user(u, f"U{u}")

    async def run(self, op: tuple) -> None:
        if op[0] == "reset":
            await self.stores.forgetting.reset_chat(op[1])
        elif op[0] == "forget":
            await self.stores.forgetting.forget_user(op[1])
            await self.people.remember_user(op[1], f"U{op[1]}")  # back at once, from zero
        elif op[0] == "week":  # the housekeeping, as if the week now began `op[1]` ago
            await self.stores.rounds.expire_week(self.clock - op[1])
        else:
            await super().run(op)


def board_of(scores: dict, rounds: list[Won], chat_id: int | None, game: str | None,
             since: float | None) -> list[tuple[int, int, int]]:
    """(user, points, wins) in the board's order, from the scores rows or the rounds won."""
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    if since is None:
        for (c, u, g), (points, wins, *_rest) in scores.items():
            if points > 0 and chat_id in (None, c) and game in (None, g):
                totals[u][0] += points
                totals[u][1] += wins
    else:
        for r in rounds:
            if r.status == "won" and r.winner_id is not None and r.ended_at >= since \
                    and chat_id in (None, r.chat_id) and game in (None, r.game):
                totals[r.winner_id][0] += r.awarded
                totals[r.winner_id][1] += 1
    return sorted(((u, p, w) for u, (p, w) in totals.items() if p > 0),
                  key=lambda t: (-t[1], -t[2], t[0]))


class Won(NamedTuple):
    chat_id: int
    game: str
    status: str
    winner_id: int | None
    awarded: int
    ended_at: float | None


async def check(stores: Stores, since: float, postgres: bool) -> None:
    db = stores.rounds.db  # type: ignore[attr-defined]
    round_rows, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    scores = stored_scores(await db.fetch(SCORES_SQL))
    assert scores == expected_scores(round_rows, answers)
    won = [Won(*row) for row in await db.fetch(
        "SELECT chat_id, game, status, winner_id, awarded, ended_at FROM rounds")]
    for chat_id in CHATS:
        recount = await db.fetch(numbered(CHAT_SCORES) if postgres else CHAT_SCORES,
                                 (chat_id, chat_id))
        view = await db.fetch("SELECT chat_id, user_id, game, points, wins, rounds_played, "
                              "fastest_win, current_streak, best_streak FROM scores_from_rounds "
                              f"WHERE chat_id = {chat_id}")
        assert sorted(map(plain, recount)) == sorted(map(plain, view))
    [(kept,)] = await db.fetch("SELECT since FROM week_start")
    for chat_id in (None, *CHATS):
        for game in (None, *GAMES):
            # every chat's week from its kept totals: asked from before and after their start
            moments = (None, since, kept - 3.5, kept + 2.5) if chat_id is None else (None, since)
            for moment in moments:
                board = Board(chat_id, game, moment)
                expected = board_of(scores, won, chat_id, game, moment)
                shown = await stores.scores.board(board, limit=100)
                assert [(p.user_id, p.points, p.wins) for p in shown] == expected, board
                assert [p.rank for p in shown] == list(range(1, len(expected) + 1))
                places = shared_places([(points, wins) for _, points, wins in expected])
                for rank, (uid, points, wins) in zip(places, expected, strict=True):
                    place = await stores.scores.placing(board, uid)
                    assert place is not None and (place.rank, place.points, place.wins) == \
                        (rank, points, wins), (board, uid)
                for uid in set(USERS) - {u for u, _, _ in expected}:
                    assert await stores.scores.placing(board, uid) is None
                if moment is None:
                    top = await stores.scores.top(chat_id, game, limit=100)
                    assert [(s.name, s.points, s.wins) for s in top] == \
                        [(f"U{u}", p, w) for u, p, w in expected]
    await ladders_hold(db)
    await week_holds(db, won, kept)
    await records_hold(stores, scores, CHATS)
    await chat_weeks_hold(db)


async def records_hold(stores: Stores, scores: dict, chats: tuple[int, ...]) -> None:
    """Each group's records on its page (read at the head of schema step 33's indexes) are
    their definition, from the scores."""
    for chat_id in chats:
        assert [(r.game, r.kind, r.user_id, r.value)
                for r in await stores.pages.group_records(chat_id)] == \
            expected_records(scores, chat_id), chat_id


async def week_holds(db, won: list[Won], since: float) -> None:
    """week_totals and week_steps are the rounds won since the kept start (migration 31), per
    game and over all games (''): no row left at nothing, nobody's whose /forget is under way
    (none here: each ends at once)."""
    totals: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for r in won:
        if r.status == "won" and r.winner_id is not None and r.ended_at >= since:
            for kind in ("", r.game):
                totals[(kind, r.winner_id)][0] += r.awarded
                totals[(kind, r.winner_id)][1] += 1
    kept = {(g, u): [p, w] for g, u, p, w in await db.fetch(
        "SELECT game, user_id, points, wins FROM week_totals")}
    assert kept == dict(totals)
    steps: dict[tuple, int] = defaultdict(int)
    for (game, _), (points, wins) in totals.items():
        if points > 0:
            steps[(game, points, wins)] += 1
    assert {tuple(r[:3]): r[3] for r in await db.fetch("SELECT * FROM week_steps")} == steps


async def ladders_hold(db) -> None:
    """player_totals, board_steps and board_ties are what the scores say (migration 12): per
    chat over its games, and over every chat (0) per game and over all; no row left at 0."""
    scores = await db.fetch("SELECT chat_id, user_id, game, points, wins FROM scores "
                            "WHERE points > 0")
    totals: dict[tuple[int, int, str], list[int]] = defaultdict(lambda: [0, 0])
    for chat, uid, game, points, wins in scores:
        for key in ((chat, uid, ""), (0, uid, game), (0, uid, "")):
            totals[key][0] += points
            totals[key][1] += wins
    kept = {(c, u, g): [p, w] for c, u, g, p, w in await db.fetch(
        "SELECT chat_id, user_id, game, points, wins FROM player_totals")}
    assert kept == dict(totals)
    steps: dict[tuple, int] = defaultdict(int)
    ties: dict[tuple, int] = defaultdict(int)
    for (chat, uid, game), (points, wins) in totals.items():
        if chat == 0:
            steps[(game, points, wins)] += 1
            ties[(game, points, wins, uid // BAND)] += 1
    assert {tuple(r[:3]): r[3] for r in await db.fetch("SELECT * FROM board_steps")} == steps
    assert {tuple(r[:4]): r[4] for r in await db.fetch("SELECT * FROM board_ties")} == ties


def plain(row: tuple) -> tuple:
    """A row with PostgreSQL's numeric sums as ints."""
    return tuple(int(v) if isinstance(v, Decimal) else v for v in row)


async def played(operations: list[tuple], database: str | None, move: str | None) -> None:
    """The operations, every check, then (`move`) the first group moves to a supergroup that
    is "new", or had "played" already (Ann won a round there: its scores are counted again)."""
    async with open_empty(database) as stores:
        scenario = People(stores)
        # the clock a little before the kept week's start (migration 31: seven days before
        # the database was made), so that the rounds fall on both sides of it
        [(kept,)] = await stores.rounds.db.fetch(  # type: ignore[attr-defined]
            "SELECT since FROM week_start")
        scenario.clock = kept - 8.0
        await scenario.setup()
        for op in operations:
            await scenario.run(op)
        since = scenario.clock - len(operations) / 2  # about half the rounds are "this week"
        await check(stores, since, database is not None)
        if move:
            await stores.people.remember_chat(-3, "supergroup", None)
            for current in scenario.open.values():
                if current is not None:
                    await stores.rounds.close_round(current, "expired", scenario.tick())
            if move == "played":
                at = scenario.tick()
                made = await stores.rounds.open_round(-3, "24", (1, 2, 3, 4), 24, "", 10, "en",
                                                      at, at + 60)
                assert made is not None
                await stores.rounds.record_answer(made.id, 7, "x", False, at)
                await stores.rounds.close_round(made.id, "won", at + 1, 5, "y", 10, 1.0)
            await stores.people.migrate_chat(-1, -3)
            db = stores.rounds.db  # type: ignore[attr-defined]
            rounds, answers = read_rows(await db.fetch(ROUNDS_SQL),
                                        await db.fetch(ANSWERS_SQL))
            scores = stored_scores(await db.fetch(SCORES_SQL))
            assert scores == expected_scores(rounds, answers)
            await ladders_hold(db)
            await records_hold(stores, scores, (-1, -2, -3))
            await chat_weeks_hold(db)


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest) -> str | None:
    return request.getfixturevalue("postgres_url") if backend == "postgres" else None


def test_a_played_history_on_every_board(database):
    """Ties across bands of ids, a late answer, a reset, an erasure and a move."""
    ops = [("open", -1, "24"), ("answer", -1, 7, 0, False, None), ("win", -1, 5, 10, 2.0),
           ("open", -1, "24"), ("win", -1, 7, 10, 3.0),
           ("open", -2, "24"), ("win", -2, BAND + 3, 10, 1.0),
           ("open", -2, "countdown"), ("win", -2, BAND + 9, 10, 4.0),
           ("open", -2, "24"), ("answer", -2, 5, 0, False, None), ("win", -2, 3 * BAND + 1,
                                                                    20, 5.0),
           ("answer", -1, BAND + 3, 1, False, None),  # a late answer
           ("open", -1, "countdown"), ("win", -1, BAND + 3, 5, 6.0),
           ("forget", 7), ("open", -1, "24"), ("win", -1, 7, 10, 7.0),
           ("reset", -2), ("open", -2, "24"), ("win", -2, 5, 20, 8.0)]
    asyncio.run(played(ops, database, move="new"))
    asyncio.run(played(ops, database, move="played"))


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=10, max_size=60), st.sampled_from((None, "new", "played")))
def test_any_history_on_every_board(database, operations, move):
    asyncio.run(played(operations, database, move))
