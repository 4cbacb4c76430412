"""Storage on a temporary SQLite file: migrations, atomic winners, scores, streaks, migration."""

from __future__ import annotations

import asyncio

import aiosqlite

from bot.migrations import LATEST
from bot.storage import Storage

CHAT = -500


async def fresh(tmp_path, version: int = LATEST) -> Storage:
    storage = await Storage.open(tmp_path / "db.sqlite3", migrate_to=version)
    await storage.remember(CHAT, "group", "G", 1, "Ann")
    await storage.remember(CHAT, "group", "G", 2, "Ben")
    return storage


async def play_round(storage: Storage, winner: int | None, answered: tuple[int, ...] = (),
                     start: float = 100.0, took: float = 5.0) -> int:
    current = await storage.open_round(CHAT, (1, 2, 3, 4), 24, "easy", 10, start, start + 60)
    assert current is not None
    for user in answered:
        await storage.record_answer(current.id, user, "1+2", False, start + 1)
    if winner is not None:
        assert await storage.win(current.id, winner, "1*2*3*4", start + took)
    else:
        assert await storage.end(current.id, "expired", start + 60)
    return current.id


async def test_migrations_from_empty(tmp_path):
    storage = await fresh(tmp_path)
    assert await storage.version() == LATEST
    async with storage.db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with storage.db.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1
    await storage.close()
    again = await Storage.open(tmp_path / "db.sqlite3")  # re-opening applies nothing twice
    assert await again.version() == LATEST
    await again.close()


async def test_migration_from_version_1_fills_scores(tmp_path):
    storage = await fresh(tmp_path, version=1)
    for _ in range(2):
        current = await storage.open_round(CHAT, (1, 2, 3, 4), 24, "easy", 10, 100.0, 160.0)
        assert current is not None
        await storage.record_answer(current.id, 2, "1+2", False, 101.0)
        await storage.db.execute(
            "UPDATE rounds SET status='won', winner_id=1, awarded=points, ended_at=104 "
            "WHERE id=?", (current.id,))
    await storage.close()
    upgraded = await Storage.open(tmp_path / "db.sqlite3")
    assert await upgraded.version() == LATEST
    ann = await upgraded.stats(CHAT, 1)
    ben = await upgraded.stats(CHAT, 2)
    assert ann is not None and (ann.points, ann.wins, ann.rounds_played) == (20, 2, 2)
    assert ann.fastest_win == 4.0
    assert ben is not None and (ben.points, ben.rounds_played) == (0, 2)
    await upgraded.close()


async def test_one_open_round_per_chat(tmp_path):
    storage = await fresh(tmp_path)
    first = await storage.open_round(CHAT, (1, 2, 3, 4), 24, "easy", 10, 1.0, 61.0)
    second = await storage.open_round(CHAT, (5, 5, 5, 1), 24, "hard", 30, 2.0, 62.0)
    assert first is not None and second is None
    assert (await storage.open_round_of(CHAT)).hand == (1, 2, 3, 4)
    await storage.close()


async def test_concurrent_winners_exactly_one(tmp_path):
    storage = await fresh(tmp_path)
    current = await storage.open_round(CHAT, (1, 2, 3, 4), 24, "easy", 10, 1.0, 61.0)
    results = await asyncio.gather(*(storage.win(current.id, user, "x", 5.0)
                                     for user in (1, 2, 1, 2)))
    assert sum(results) == 1
    standings = await storage.top(CHAT)
    assert len(standings) == 1 and standings[0].points == 10 and standings[0].wins == 1
    assert not await storage.end(current.id, "expired", 70.0)  # already closed: no double count
    await storage.close()


async def test_streaks_fastest_and_leaderboards(tmp_path):
    storage = await fresh(tmp_path)
    await play_round(storage, 1, took=9.0)
    await play_round(storage, 1, answered=(2,), took=3.0)
    await play_round(storage, 1, took=7.0)
    ann = await storage.stats(CHAT, 1)
    assert (ann.wins, ann.current_streak, ann.best_streak, ann.fastest_win) == (3, 3, 3, 3.0)
    await play_round(storage, 2)
    ann = await storage.stats(CHAT, 1)
    ben = await storage.stats(CHAT, 2)
    assert (ann.current_streak, ann.best_streak) == (0, 3)
    assert (ben.current_streak, ben.wins, ben.rounds_played) == (1, 1, 2)
    await play_round(storage, None, answered=(2,))
    ben = await storage.stats(CHAT, 2)
    assert ben.current_streak == 0 and ben.rounds_played == 3
    assert [s.name for s in await storage.top(CHAT)] == ["Ann", "Ben"]
    await storage.remember(-600, "group", "H", 2, "Ben")
    other = await storage.open_round(-600, (1, 2, 3, 4), 24, "hard", 30, 1.0, 61.0)
    await storage.win(other.id, 2, "x", 2.0)
    everywhere = await storage.top(None)
    assert [(s.name, s.points) for s in everywhere] == [("Ben", 40), ("Ann", 30)]
    await storage.close()


async def test_restart_keeps_open_rounds(tmp_path):
    storage = await fresh(tmp_path)
    current = await storage.open_round(CHAT, (3, 3, 8, 8), 24, "hard", 30, 1.0, 61.0)
    await storage.set_message(current.id, 77)
    await storage.close()
    reopened = await Storage.open(tmp_path / "db.sqlite3")
    [resumed] = await reopened.open_rounds()
    assert resumed.hand == (3, 3, 8, 8) and resumed.message_id == 77
    await reopened.close()


async def test_chat_migration_moves_rounds_and_scores(tmp_path):
    storage = await fresh(tmp_path)
    await play_round(storage, 1)
    await storage.open_round(CHAT, (1, 2, 3, 4), 24, "easy", 10, 200.0, 260.0)
    await storage.migrate_chat(CHAT, -100500)
    assert await storage.stats(CHAT, 1) is None
    moved = await storage.stats(-100500, 1)
    assert moved is not None and moved.points == 10
    assert (await storage.open_round_of(-100500)) is not None
    assert (await storage.open_round_of(CHAT)) is None
    await storage.close()


async def test_queries_are_parameterised(tmp_path):
    storage = await fresh(tmp_path)
    await storage.remember(CHAT, "group", "x'); DROP TABLE rounds; --", 3, "Robert'); --")
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db, \
            db.execute("SELECT first_name FROM users WHERE id = 3") as cursor:
        assert (await cursor.fetchone())[0] == "Robert'); --"
    await storage.close()
