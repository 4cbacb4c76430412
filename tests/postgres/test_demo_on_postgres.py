"""The demo (`python -m bot --demo`) with DATABASE_URL: the same game, its data in PostgreSQL
(make test runs it on the newest and the oldest supported server)."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from solver import solve
from tests.demo.test_demo import finish, play, read_until, start, type_line
from tests.demo.test_demo_tournament import ROUNDS, check_the_tournament, play_a_tournament
from tests.postgres import PostgresServer, new_database


async def test_the_demo_plays_a_round_into_postgres(postgres_server: PostgresServer,
                                                    tmp_path: Path):
    url = await new_database(postgres_server)
    process = await start(tmp_path, "--user", "Ann", DATABASE_URL=url)
    try:
        hand = await play(process)
        await type_line(process, solve(hand)[0])
        assert "Ann wins" in await read_until(process, "^Twenty-Four to Ann: ")
        await type_line(process, "/top")  # read back from PostgreSQL
        assert "1. Ann — " in await read_until(process, r"^  1\. ")
        await type_line(process, "/quit")
        returncode, _, err = await finish(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert returncode == 0, err
    assert "Traceback" not in err
    assert not (tmp_path / "demo.sqlite3").exists()  # nothing went to SQLite
    connection = await asyncpg.connect(url)
    try:
        won = await connection.fetch("SELECT r.winner_id, s.points FROM rounds r JOIN scores s "
                                     "ON s.chat_id = r.chat_id AND s.user_id = r.winner_id "
                                     "WHERE r.status = 'won'")
    finally:
        await connection.close()
    assert len(won) == 1 and won[0]["points"] > 0


async def test_the_demo_plays_a_tournament_into_postgres(postgres_server: PostgresServer,
                                                         tmp_path: Path):
    """Two demo groups, every round, the boards and the podium, with every standing read from
    PostgreSQL."""
    url = await new_database(postgres_server)
    check_the_tournament(await play_a_tournament(tmp_path, DATABASE_URL=url))
    assert not (tmp_path / "demo.sqlite3").exists()
    connection = await asyncpg.connect(url)
    try:
        dealt = await connection.fetchval("SELECT COUNT(*) FROM tournament_deals "
                                          "WHERE status = 'dealt' AND shown_at IS NOT NULL")
    finally:
        await connection.close()
    assert dealt == 2 * ROUNDS  # each round in two groups, each board shown once
