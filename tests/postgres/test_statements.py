"""Every statement the PostgreSQL stores run, numbered from the shared tables (bot/store/sql)
or their own (the guess lock, the scoring locks), prepared by a real PostgreSQL over the
migrated schema: a statement SQLite accepts and PostgreSQL refuses fails here, not in play."""

from __future__ import annotations

import asyncpg

from bot.store.postgres.people import MET_ROUNDS, SCORING_LOCKS
from bot.store.postgres.rounds import ANNOUNCED, GUESS_LOCK
from bot.store.sql import matches, people, rounds, scores, updates
from bot.store.sql.connection import Refused
from tests.bot.store.sql.test_statements import named_statements


async def test_postgres_prepares_every_statement(postgres_url: str):
    connection = await asyncpg.connect(postgres_url)
    try:
        for module in (rounds, people, scores, matches, updates):
            for _name, sql in named_statements(module.NUMBERED):
                await connection.prepare(sql)
        await connection.prepare(GUESS_LOCK)
        await connection.prepare(SCORING_LOCKS)
        await connection.prepare(MET_ROUNDS)
        await connection.prepare(ANNOUNCED)
    finally:
        await connection.close()


async def test_a_refused_insert_is_the_same_error_on_postgres(stores):
    await stores.people.remember_chat(-7, "group", "G")
    first = await stores.matches.open_match(-7, 3, None, "en", 1.0)
    assert first is not None and await stores.matches.open_match(-7, 3, None, "en", 2.0) is None
    try:
        await stores.matches.db.insert(
            "INSERT INTO matches (chat_id, rounds, started_by, lang, started_at, topic) "
            "VALUES ($1, 3, NULL, 'en', 3.0, 0)", (-7,))
    except Refused as refused:
        assert isinstance(refused.__cause__, asyncpg.UniqueViolationError)
    else:
        raise AssertionError("a second match on in one topic was not refused")
