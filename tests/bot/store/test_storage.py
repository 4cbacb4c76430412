"""The stores, store by store, on both backends (a SQLite file and the session's PostgreSQL):
rounds (one open per chat, atomic winners), scores (streaks, leaderboards) and people (a chat's
move to a supergroup); and the SQLite database under them (migrations, the gate). PostgreSQL's
own (migrations, concurrent writers, the leader lock) are in tests/postgres."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.store.schema import LATEST
from bot.store.sql.connection import Refused
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import Database
from bot.store.sqlite.schema import statements, steps
from bot.store.stores import Stores
from tests.postgres import open_backend

CHAT = -500


async def known(stores: Stores) -> Stores:
    """The stores with a group and two players in it."""
    await stores.people.remember_chat(CHAT, "group", "G")
    await stores.people.remember_user(1, "Ann")
    await stores.people.remember_user(2, "Ben")
    return stores


async def fresh(tmp_path, version: int = LATEST) -> Stores:
    """A SQLite file at that schema version, with a group and two players."""
    return await known(await open_sqlite(tmp_path / "db.sqlite3", migrate_to=version))


@pytest.fixture
async def filled(stores: Stores) -> Stores:
    """The `stores` of either backend (tests/bot/conftest.py), with a group and two players."""
    return await known(stores)


def database(stores: Stores) -> Database:
    """The one connection every SQLite store shares."""
    return stores.rounds.db


async def open_round(stores: Stores, chat: int = CHAT, game: str = "24", points: int = 10,
                     start: float = 100.0):
    made = await stores.rounds.open_round(chat, game, (1, 2, 3, 4), 24, "easy", points, "en",
                                          start, start + 60)
    assert made is not None
    return made


async def play_round(stores: Stores, winner: int | None, answered: tuple[int, ...] = (),
                     start: float = 100.0, took: float = 5.0, game: str = "24") -> int:
    current = await open_round(stores, game=game, start=start)
    for user in answered:
        await stores.rounds.record_answer(current.id, user, "1+2", False, start + 1)
    if winner is not None:
        assert await stores.rounds.close_round(current.id, "won", start + took, winner,
                                               "1*2*3*4", current.points, took)
    else:
        assert await stores.rounds.close_round(current.id, "expired", start + 60)
    return current.id


# --- the database: migrations, parameters, the gate ------------------------------------------

async def test_migrations_from_empty(tmp_path):
    stores = await fresh(tmp_path)
    db = database(stores)
    assert await db.version() == LATEST
    assert (await db.connection.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
    assert (await db.connection.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
    await stores.close()
    again = await open_sqlite(tmp_path / "db.sqlite3")  # re-opening applies nothing twice
    assert await database(again).version() == LATEST
    await again.close()


def test_statements_keep_a_triggers_body_whole():
    found = steps(3)
    trigger = [s for s in found if s.startswith("CREATE TRIGGER")]
    assert len(trigger) == 1 and trigger[0].rstrip().endswith("END;")
    assert all(s.endswith(";") for s in found)
    assert statements("-- only words; nothing to run\n") == []


async def test_queries_are_parameterised(filled):
    stores = filled
    await stores.people.remember_chat(CHAT, "group", "x'); DROP TABLE rounds; --")
    await stores.people.remember_user(3, "Robert'); --")
    db = stores.rounds.db  # each backend has one, with `fetch`
    assert await db.fetch("SELECT first_name FROM users WHERE id = 3") == [("Robert'); --",)]
    current = await stores.rounds.open_round(CHAT, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                             1.0, 2.0)
    [(hand,)] = await db.fetch(f"SELECT hand FROM rounds WHERE id = {int(current.id)}")
    assert json.loads(hand) == [1, 2, 3, 4]


async def test_a_transaction_among_statements_at_once_keeps_theirs_out(tmp_path):
    """Transactions ride in the trips with the single statements: each is one call on the
    database's thread, so statements asked for around it land before or after it, never
    inside — one that fails rolls back its own steps only, and every statement beside it
    keeps its write."""
    stores = await fresh(tmp_path)
    db = database(stores)
    try:
        singles = [db.run("UPDATE users SET username = ? WHERE id = 2", (f"b{n}",))
                   for n in range(10)]
        failing = db.run_all([("UPDATE users SET first_name = 'Gone' WHERE id = 1", ()),
                              ("INSERT INTO users (id) VALUES (?)", (2,))])  # Ben's id: fails
        guarded = db.run_guarded(("UPDATE users SET first_name = 'Benjamin' WHERE id = 2", ()),
                                 [("UPDATE users SET username = 'guarded' WHERE id = 2", ())])
        found = await asyncio.gather(*singles[:5], failing, guarded, *singles[5:],
                                     return_exceptions=True)
        assert isinstance(found[5], sqlite3.IntegrityError) and found[6] is True
        assert found[:5] + found[7:] == [1] * 10
        assert await db.fetch("SELECT first_name, username FROM users ORDER BY id") == [
            ("Ann", None), ("Benjamin", "b9")]  # in the order asked: the last single's
    finally:
        await stores.close()


async def test_a_transaction_is_written_whole_or_not_at_all(tmp_path):
    """A transaction goes to the database's thread in one trip: still one transaction, rolled
    back whole when a statement of it fails, and a guard that changes nothing writes nothing."""
    stores = await fresh(tmp_path)
    db = database(stores)
    try:
        rename = ("UPDATE users SET first_name = ? WHERE id = ?", ("Anna", 1))
        with pytest.raises(sqlite3.IntegrityError):
            await db.run_all([rename, ("INSERT INTO users (id) VALUES (?)", (2,))])  # Ben's id
        assert await db.fetch("SELECT first_name FROM users WHERE id = 1") == [("Ann",)]
        nobody = ("UPDATE users SET first_name = 'X' WHERE id = ?", (99,))
        assert not await db.run_guarded(nobody, [rename])
        assert await db.fetch("SELECT first_name FROM users WHERE id = 1") == [("Ann",)]
        ben = ("UPDATE users SET first_name = ? WHERE id = ?", ("Benjamin", 2))
        assert await db.run_guarded(ben, [rename])
        assert await db.fetch("SELECT first_name FROM users ORDER BY id") == [("Anna",),
                                                                              ("Benjamin",)]
        await db.run("UPDATE users SET username = 'ann' WHERE id = 1")  # nothing left open
        assert await db.fetch("SELECT username FROM users WHERE id = 1") == [("ann",)]
    finally:
        await stores.close()


async def test_statements_at_once_share_trips_and_keep_their_own_outcomes(tmp_path):
    """Statements asked for together go to the database's thread together, in order, each its
    own transaction: one refused fails only its caller, and a read sees the writes asked for
    before it."""
    stores = await fresh(tmp_path)
    db = database(stores)
    before = db.trips.sent
    try:
        results = await asyncio.gather(
            *(db.run("UPDATE users SET username = ? WHERE id = ?", (f"n{n}", 1))
              for n in range(20)),
            db.insert("INSERT INTO users (id, first_name) VALUES (?, ?)", (1, "twice")),
            db.insert("INSERT INTO users (id, first_name) VALUES (?, ?)", (3, "Cy")),
            db.fetch("SELECT username FROM users WHERE id = 1"),
            return_exceptions=True)
        assert results[:20] == [1] * 20
        assert isinstance(results[20], Refused)  # Ann's id: refused, the rest went on
        assert results[21] == 3
        assert results[22] == [("n19",)]  # after every update asked for before it
        assert db.trips.sent - before <= 3  # not one per statement
        assert await db.fetch("SELECT first_name FROM users WHERE id = 3") == [("Cy",)]
    finally:
        await stores.close()
    with pytest.raises(ValueError):  # as aiosqlite says of a closed connection
        await db.fetch("SELECT 1")


# --- rounds ----------------------------------------------------------------------------------

async def test_one_open_round_per_chat(filled):
    stores = filled
    first = await open_round(stores)
    second = await stores.rounds.open_round(CHAT, "yahtzee", ((1, 2, 3, 4, 5),), 99, "", 20,
                                            "en", 2.0, 62.0)
    assert first is not None and second is None
    assert (await stores.rounds.open_round_of(CHAT)).hand == (1, 2, 3, 4)


async def test_a_deal_shown_late_moves_its_clock_and_sets_its_message_at_once(filled):
    """set_shown: the clock starts again, then the message is set, in one transaction; a deal
    shown already (a message set) keeps its clock, and a closed round keeps everything."""
    stores = filled
    current = await open_round(stores)
    await stores.rounds.set_shown(current.id, 77, 107.0, 167.0)
    shown = await stores.rounds.get_round(current.id)
    assert (shown.started_at, shown.deadline, shown.message_id) == (107.0, 167.0, 77)
    await stores.rounds.set_shown(current.id, 78, 110.0, 170.0)  # shown: the clock stays
    again = await stores.rounds.get_round(current.id)
    assert (again.started_at, again.deadline, again.message_id) == (107.0, 167.0, 78)
    assert await stores.rounds.close_round(current.id, "expired", 170.0)
    later = await open_round(stores, start=200.0)
    assert await stores.rounds.close_round(later.id, "expired", 205.0)
    await stores.rounds.set_shown(later.id, 79, 210.0, 270.0)  # closed: its clock stays
    closed = await stores.rounds.get_round(later.id)
    assert (closed.started_at, closed.deadline) == (200.0, 260.0)


async def test_nested_hands_come_back_as_tuples(filled):
    stores = filled
    rolls = tuple((1, 2, 3, 4, 5) for _ in range(13))
    made = await stores.rounds.open_round(CHAT, "yahtzee", rolls, 123, "", 20, "zh", 1.0, 61.0)
    loaded = await stores.rounds.open_round_of(CHAT)
    assert made == loaded and loaded.hand == rolls and loaded.lang == "zh"


async def test_concurrent_winners_exactly_one(filled):
    stores = filled
    current = await open_round(stores)
    results = await asyncio.gather(*(stores.rounds.close_round(
        current.id, "won", 105.0, user, "x", 10, 5.0) for user in (1, 2, 1, 2)))
    assert sum(results) == 1
    standings = await stores.scores.top(CHAT)
    assert len(standings) == 1 and standings[0].points == 10 and standings[0].wins == 1
    assert not await stores.rounds.close_round(current.id, "expired", 170.0)  # no double count
    [winner] = [s for s in (await stores.scores.stats(CHAT, 1))
                + (await stores.scores.stats(CHAT, 2))]
    assert winner.rounds_played == 1


async def test_restart_keeps_open_rounds(backend, tmp_path, request):
    stores = await known(await open_backend(backend, tmp_path, request))
    current = await open_round(stores)
    await stores.rounds.set_message(current.id, 77)
    await stores.close()
    reopened = await open_backend(backend, tmp_path, request, keep=True)
    [resumed] = await reopened.rounds.open_rounds()
    assert resumed.hand == (1, 2, 3, 4) and resumed.message_id == 77
    await reopened.close()


async def test_best_answer_is_the_closest_then_the_earliest(filled):
    stores = filled
    current = await open_round(stores, game="countdown")
    await stores.rounds.record_answer(current.id, 1, "a", False, 103.0, 4)
    await stores.rounds.record_answer(current.id, 2, "b", False, 101.0, 4)
    await stores.rounds.record_answer(current.id, 1, "c", False, 102.0, 9)
    await stores.rounds.record_answer(current.id, 2, "bad", False, 100.0, None)
    best = await stores.rounds.best_answer(current.id)
    assert best is not None and (best.name, best.text, best.distance) == ("Ben", "b", 4)


# --- scores ----------------------------------------------------------------------------------

async def test_streaks_fastest_and_leaderboards(filled):
    stores = filled
    scores = stores.scores
    await play_round(stores, 1, took=9.0)
    await play_round(stores, 1, answered=(2,), took=3.0)
    await play_round(stores, 1, took=7.0)
    [ann] = await scores.stats(CHAT, 1)
    assert (ann.wins, ann.current_streak, ann.best_streak, ann.fastest_win) == (3, 3, 3, 3.0)
    await play_round(stores, 2)  # Ann did not play this one: her streak goes on
    [ann] = await scores.stats(CHAT, 1)
    [ben] = await scores.stats(CHAT, 2)
    assert (ann.current_streak, ann.best_streak, ann.rounds_played) == (3, 3, 3)
    assert (ben.current_streak, ben.wins, ben.rounds_played) == (1, 1, 2)
    await play_round(stores, None, answered=(2,))
    [ben] = await scores.stats(CHAT, 2)
    assert ben.current_streak == 0 and ben.rounds_played == 3
    assert [s.name for s in await scores.top(CHAT)] == ["Ann", "Ben"]
    await stores.people.remember_chat(-600, "group", "H")
    other = await open_round(stores, chat=-600, points=30)
    await stores.rounds.close_round(other.id, "won", 102.0, 2, "x", 30, 2.0)
    everywhere = await scores.top(None)
    assert [(s.name, s.points) for s in everywhere] == [("Ben", 40), ("Ann", 30)]


async def test_scores_per_game(filled):
    stores = filled
    scores = stores.scores
    await play_round(stores, 1, game="24")
    await play_round(stores, 2, game="countdown")
    await play_round(stores, 2, answered=(1,), game="countdown")
    assert [s.name for s in await scores.top(CHAT, "countdown")] == ["Ben"]
    assert [s.name for s in await scores.top(CHAT, "24")] == ["Ann"]
    assert [(s.name, s.points) for s in await scores.top(CHAT)] == [("Ben", 20), ("Ann", 10)]
    ann = {s.game: s for s in await scores.stats(CHAT, 1)}
    assert ann["24"].wins == 1 and ann["countdown"].rounds_played == 1
    assert ann["24"].current_streak == 1  # a streak is per game


# --- people ----------------------------------------------------------------------------------

async def test_chat_migration_moves_rounds_scores_and_language(filled):
    stores = filled
    await stores.people.set_language(CHAT, "zh")
    await play_round(stores, 1)
    await open_round(stores, start=200.0)
    await stores.people.migrate_chat(CHAT, -100500)
    assert await stores.scores.stats(CHAT, 1) == []
    [moved] = await stores.scores.stats(-100500, 1)
    assert moved.points == 10
    assert (await stores.rounds.open_round_of(-100500)) is not None
    assert (await stores.rounds.open_round_of(CHAT)) is None
    assert await stores.people.language(-100500) == "zh"
