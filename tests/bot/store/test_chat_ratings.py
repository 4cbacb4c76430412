"""A chat's rating boards read where schema step 32 keeps them (chat_ratings: each player of a
chat in a game with their latest season's rating, responses and, since step 33, uncertainty)
equal the boards looked up player by player, as before it, whatever the play: rounds closed and
rated in two seasons, settled players and provisional ones, a chat's reset, a person's erasure,
a group's move to a supergroup; and the kept rows are their definition (the chat's rows of
scores, each with its player's latest season), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store.records import HandRow, RatingRow, RatingWrite, ScaleRow
from bot.store.sql.connection import numbered
from bot.store.sql.ratings import LOOKED_BOARD, LOOKED_PLACE
from bot.store.stores import Stores
from tests.bot.store.test_scores import open_empty

CHATS = (-1, -2)
SUPERGROUP = -3
USERS = (1, 2, 3, 4)
SEASONS = ("2026-10", "2026-11")

played = st.tuples(st.just("close"), st.sampled_from(CHATS), st.sampled_from(SEASONS),
                   st.lists(st.tuples(st.sampled_from(USERS), st.integers(-20, 20),
                                      st.integers(1, 14)),
                            min_size=1, max_size=3, unique_by=lambda p: p[0]))
operation = st.one_of(played, played, played, st.tuples(st.just("reset"), st.sampled_from(CHATS)),
                      st.tuples(st.just("forget"), st.sampled_from(USERS)))


class Play:
    """Rounds closed with their ratings written, as a close writes them (bot.store.sql.ratings
    `rating_steps`): each player's row of the season moved by a step, or put new."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self.clock = 1000.0

    async def setup(self) -> None:
        for chat in (*CHATS, SUPERGROUP):
            await self.stores.people.remember_chat(chat, "group", None)
        for user in USERS:
            await self.stores.people.remember_user(user, f"U{user}")

    async def run(self, op: tuple) -> None:
        if op[0] == "reset":
            await self.stores.forgetting.reset_chat(op[1])
        elif op[0] == "forget":
            await self.stores.forgetting.forget_user(op[1])
            await self.stores.people.remember_user(op[1], f"U{op[1]}")
        else:
            await self.close(*op[1:])

    async def close(self, chat: int, season: str, players: list[tuple[int, int, int]]) -> None:
        self.clock += 10.0
        made = await self.stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "easy", 10,
                                                   "en", self.clock, self.clock + 60)
        if made is None:
            return
        for user, _, _ in players:
            await self.stores.rounds.record_answer(made.id, user, "1+2", False, self.clock + 1)
        # the rating as a step from the row it finds, whose responses it then counts one more
        rows = []
        for user, eighths, responses in players:
            found = [r for r in await self.stores.ratings.player_ratings(user, "24")
                     if r.season == season]
            step = eighths / 8
            rating = (found[0].rating if found else 0.0) + step
            # an uncertainty that moves with each write, as the rater's does
            uncertainty = 0.5 + (responses + eighths) % 7 / 8
            rows.append((RatingRow(user, "24", season, rating, uncertainty, responses,
                                   self.clock),
                         step))
        rating = RatingWrite(at=self.clock, players=tuple(rows),
                             hand=(HandRow("24", "1 2 3 4=24", 4, 24, 0.0, 0.5, 1, self.clock),
                                   0.0),
                             hand_responses=1, scale=(ScaleRow("24", 1.1, 0.4, 1, self.clock),
                                                      0.0))
        assert await self.stores.rounds.close_round(made.id, "expired", self.clock + 60,
                                                    rating=rating)


async def kept_as_defined(db) -> None:
    """chat_ratings is the chat's rows of scores, each with its player's latest season (its
    rating, responses and, since step 33, uncertainty)."""
    wanted = await db.fetch(
        "SELECT s.chat_id, s.game, s.user_id, p.season, p.rating, p.responses, p.uncertainty "
        "FROM scores s JOIN player_ratings p ON p.user_id = s.user_id AND p.game = s.game "
        "AND p.season = (SELECT MAX(q.season) FROM player_ratings q WHERE q.user_id = s.user_id "
        "AND q.game = s.game)")
    kept = await db.fetch("SELECT chat_id, game, user_id, season, rating, responses, "
                          "uncertainty FROM chat_ratings")
    assert sorted(map(tuple, kept)) == sorted(map(tuple, wanted))


async def boards_agree(stores: Stores, postgres: bool) -> None:
    """Every chat's board, provisional list and settled players' places, in each season, read
    where step 32 keeps them and looked up one by one, alike."""
    db = stores.ratings.db  # type: ignore[attr-defined]

    def said(sql: str) -> str:
        return numbered(sql) if postgres else sql

    for chat in (*CHATS, SUPERGROUP):
        for season in SEASONS:
            for kind, read in ((">= 10", stores.ratings.board),
                               ("< 10", stores.ratings.provisional)):
                looked = await db.fetch(said(LOOKED_BOARD.format(kind=kind) +
                                             " ORDER BY b.rating DESC, b.user_id"),
                                        (chat, "24", "24", season, 10))
                shown = await read("24", season, 10, chat)
                assert [(p.user_id, p.rating, p.uncertainty, p.responses) for p in shown] == \
                    [(row[0], row[2], row[3], row[4]) for row in looked], (chat, season, kind)
            # the board and the provisional list read together, as the pages read them
            assert await stores.ratings.boards("24", season, 10, 5, chat) == (
                await stores.ratings.board("24", season, 10, chat),
                await stores.ratings.provisional("24", season, 5, chat))
            for placing in await stores.ratings.board("24", season, 10, chat):
                [row] = [r for r in await stores.ratings.player_ratings(placing.user_id, "24")
                         if r.season == season]
                [(looked_place,)] = await db.fetch(said(LOOKED_PLACE),
                                                   (chat, "24", "24", season, row.rating))
                assert await stores.ratings.place("24", season, row, chat) == looked_place


async def played_on(operations: list[tuple], database: str | None, move: bool) -> None:
    async with open_empty(database) as stores:
        play = Play(stores)
        await play.setup()
        for op in operations:
            await play.run(op)
        if move:
            await stores.people.migrate_chat(CHATS[0], SUPERGROUP)
        await kept_as_defined(stores.ratings.db)  # type: ignore[attr-defined]
        await boards_agree(stores, database is not None)


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest) -> str | None:
    return request.getfixturevalue("postgres_url") if backend == "postgres" else None


def test_a_played_season_and_the_next(database):
    """Settled and provisional players, a season after another (the older one then looked up),
    a reset, an erasure and a move."""
    ops = [("close", -1, "2026-10", [(1, 8, 12), (2, -4, 3)]),
           ("close", -1, "2026-10", [(1, 2, 13), (3, 6, 11)]),
           ("close", -2, "2026-10", [(2, 5, 10), (4, 1, 2)]),
           ("close", -1, "2026-11", [(3, -8, 1)]),
           ("forget", 4), ("close", -2, "2026-11", [(1, 3, 10)]),
           ("reset", -2), ("close", -2, "2026-10", [(2, 1, 14)])]
    asyncio.run(played_on(ops, database, move=False))
    asyncio.run(played_on(ops, database, move=True))


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=3, max_size=20), st.booleans())
def test_any_play_keeps_the_chats_boards(database, operations, move):
    asyncio.run(played_on(operations, database, move))
