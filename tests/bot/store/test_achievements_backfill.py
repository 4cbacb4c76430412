"""Migration 17 awards what the history stored before it earned, on both backends: the same
achievements, at the same moments and places, as the services award while it is played (the
rules in SQL and in Python held together, history by history), and on a database written at
migration 16, before the table existed."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import asyncpg
import pytest

from bench.year_data import Scale, generate, load_postgres, load_sqlite
from bot.play.chats.people import Chat, Player
from bot.runtime.pool import SolverPool
from bot.store.postgres import open_postgres
from bot.store.sql.achievements import COUNTS
from bot.store.sql.connection import numbered
from bot.store.sqlite import open_sqlite
from bot.store.stores import Stores
from tests.bot.conftest import Clock, new_services
from tests.bot.play.achievements.test_service import HISTORIES, NOON
from tests.postgres import new_database, open_backend

ROWS = "SELECT user_id, code, earned_at, chat_id, round_id FROM achievements ORDER BY 1, 2"
BEFORE = 16
DAILY_BEFORE = ("INSERT INTO daily_results (day, user_id, chat_id, answer, seconds, at) "
                "VALUES (?, ?, ?, ?, ?, ?)")
# step 31's, 32's and 39's triggers on tables before them (rounds, the ratings, scores)
KEPT = ("week_won_insert", "week_won_update", "week_won_delete", "chat_rated_written",
        "chat_rated_moved", "chat_rated_gone", "chat_player_came", "chat_player_left",
        "chat_player_moved", "chat_week_won", "chat_week_inserted", "chat_week_changed",
        "chat_week_lost")


async def every_row(stores: Stores) -> list[tuple]:
    return [tuple(row) for row in await stores.rounds.db.fetch(ROWS)]  # type: ignore[attr-defined]


async def migrated_again(backend: str, tmp_path: Path, request: pytest.FixtureRequest,
                         stores: Stores) -> Stores:
    """The database taken back to migration 16 (the achievements, the rating days and the pages'
    rounds gone), then opened as a start-up after this change lands finds it: migration 17
    runs on its history."""
    await stores.close()
    # 17 to 39 to run again (19's, 31's and 32's triggers are on rounds, answers, scores and
    # the ratings: they go by name; 20's partition fence and 21's keys are functions, their
    # triggers and index going with them; 25 and 26 are PostgreSQL's function alone)
    undo = ("DROP TABLE chat_weeks",  # 39's (its index on achievements goes with them)
            "DROP TABLE bot_menus",  # 38's
            "DROP TABLE solo_bests", "DROP TABLE storms",  # 37's
            "DROP TABLE streaks",  # 36's
            "DROP TABLE hand_themes",  # 35's
            "DROP INDEX scores_fastest", "DROP INDEX scores_longest_run",
            "DROP INDEX scores_most_wins",  # 33's
            "DROP TABLE chat_ratings",  # 32's
            "DROP TABLE week_start", "DROP TABLE week_totals",
            "DROP TABLE week_steps",  # 31's
            "DROP INDEX player_ratings_settled",  # 29's
            "DROP VIEW shown_users",  # 28's
            "ALTER TABLE handled_updates DROP COLUMN owed_by",  # 24's
            "DROP TABLE tournament_players", "DROP TABLE tournament_deals",
            "DROP TABLE tournament_rounds", "DROP TABLE tournament_followers",
            "DROP TABLE tournament_groups", "DROP TABLE tournaments",  # 23's, on 17 to 22
            "DROP TABLE achievements", "DROP TABLE rating_days", "DROP TABLE answered_rounds",
            "DROP TABLE worker_leases", "DROP TABLE partition_owners")
    if backend == "sqlite":
        with sqlite3.connect(tmp_path / "g.sqlite3") as db:
            for statement in (*(f"DROP TRIGGER {name}" for name in KEPT), *undo,
                              "DROP TRIGGER answered_on_close",
                              "DROP TRIGGER answered_after_close"):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {BEFORE}")
        db.close()
    else:
        connection = await asyncpg.connect(request.getfixturevalue("postgres_url"))
        try:
            for statement in (*undo,
                              # 30's (SQLite's makes the table again from whatever it finds)
                              "ALTER TABLE daily_results DROP CONSTRAINT daily_results_pkey",
                              "ALTER TABLE daily_results DROP COLUMN game",
                              "ALTER TABLE daily_results ADD PRIMARY KEY (day, user_id)",
                              "CREATE INDEX daily_results_by_user ON daily_results(user_id, day)",
                              "CREATE INDEX daily_results_by_time ON daily_results"
                              "(day, seconds, at, user_id)",
                              "DROP FUNCTION answered_on_close() CASCADE",
                              "DROP FUNCTION answered_after_close() CASCADE",
                              "DROP FUNCTION partition_fence() CASCADE",
                              "DROP FUNCTION live_keys(TEXT, TEXT) CASCADE",
                              "DROP FUNCTION open_round_within",
                              *(f"DROP FUNCTION {name}() CASCADE" for name in (
                                  "week_won", "week_ladder", "chat_rated", "chat_player",
                                  "chat_week")),
                              f"DELETE FROM schema_migrations WHERE number > {BEFORE}"):
                await connection.execute(statement)
        finally:
            await connection.close()
    return await open_backend(backend, tmp_path, request, keep=True)


@pytest.mark.parametrize("code", sorted(HISTORIES))
async def test_the_backfill_awards_what_play_awarded(code: str, backend: str, tmp_path: Path,
                                                     request: pytest.FixtureRequest,
                                                     pool: SolverPool):
    stores = await open_backend(backend, tmp_path, request)
    clock = Clock(NOON)
    services, _scheduler = new_services(stores, pool, clock)
    history, _earned = HISTORIES[code]
    await history((services, stores, clock))
    played = await every_row(stores)
    assert code in {row[1] for row in played}
    stores = await migrated_again(backend, tmp_path, request, stores)
    try:
        assert await every_row(stores) == played
    finally:
        await stores.close()


GROUP = Chat(-70, "group", "Old group")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")


async def opened(backend: str, tmp_path: Path, url: str, migrate_to: int | None = None
                 ) -> Stores:
    """The test's own database (a new one on the PostgreSQL server: the shared one is migrated
    to the latest), migrated to `migrate_to` (None: the latest)."""
    if backend == "sqlite":
        path = tmp_path / "old.sqlite3"
        return await (open_sqlite(path) if migrate_to is None else
                      open_sqlite(path, migrate_to=migrate_to))
    return await (open_postgres(url) if migrate_to is None else
                  open_postgres(url, migrate_to=migrate_to))


async def test_a_database_from_before_gets_its_achievements(backend: str, tmp_path: Path,
                                                            request: pytest.FixtureRequest):
    """Written at migration 16 through the stores: Ann's fast win over Ben, then three won in
    a row, in a group; her private round won alone; her daily puzzle solved early. Migration 17
    awards each at its own round or day."""
    url = "" if backend == "sqlite" else \
        await new_database(request.getfixturevalue("postgres_server"))
    stores = await opened(backend, tmp_path, url, BEFORE)
    for player in (ANN, BEN):
        await stores.people.remember_user(player.id, player.first_name, None)
    await stores.people.remember_chat(GROUP.id, "group", GROUP.title)
    await stores.people.remember_chat(ANN.id, "private", None)
    ids = []
    for number, (chat, seconds) in enumerate([(GROUP.id, 3.0), (GROUP.id, 9.0),
                                              (GROUP.id, 9.0), (ANN.id, 1.0)]):
        start = NOON + 100 * number
        dealt = await stores.rounds.open_round(chat, "24", (3, 3, 8, 8), 24, "hard", 10, "en",
                                               start, start + 60, started_by=ANN.id)
        assert dealt is not None
        if chat == GROUP.id:
            await stores.rounds.record_answer(dealt.id, BEN.id, "1+2", False, start + 1)
        await stores.rounds.record_answer(dealt.id, ANN.id, "8/(3-8/3)", True, start + seconds)
        assert await stores.rounds.close_round(dealt.id, "won", start + seconds, ANN.id,
                                               "8/(3-8/3)", 10, seconds)
        ids.append((dealt.id, start + seconds))
    # in migration 16's columns (the store's statement writes step 30's game too)
    record = DAILY_BEFORE if backend == "sqlite" else numbered(DAILY_BEFORE)
    await stores.daily.db.run(record, ("2026-03-03", ANN.id, ANN.id,  # type: ignore[attr-defined]
                                       "8/(3-8/3)", 600.0, NOON + 86400 - 11 * 3600))
    await stores.close()
    stores = await opened(backend, tmp_path, url)
    try:
        earned = {row.code: row for row in await stores.achievements.earned(ANN.id)}
        first, third = ids[0], ids[2]
        assert set(earned) == {"first_win", "quick_win", "hard_hand", "three_in_a_row",
                               "daily_first", "daily_early"}
        for code in ("first_win", "quick_win", "hard_hand"):
            assert (earned[code].round_id, earned[code].earned_at) == first
            assert earned[code].chat_id == GROUP.id
        assert (earned["three_in_a_row"].round_id, earned["three_in_a_row"].earned_at) == third
        assert earned["daily_first"].round_id is None
        assert earned["daily_first"].earned_at == NOON + 86400 - 11 * 3600
        assert await stores.achievements.earned(BEN.id) == []
    finally:
        await stores.close()


async def test_a_year_from_before_gets_its_achievements(backend: str, tmp_path: Path,
                                                        request: pytest.FixtureRequest):
    """A small year of play (bench/year_data.py) loaded at migration 16: migration 17 awards
    its players, each achievement at the first round of its kind, only from rounds that count;
    it prints how long it took (a year of the bench's full size: bench/bench_year.py)."""
    year = generate(Scale().shrunk(0.01))
    url = "" if backend == "sqlite" else \
        await new_database(request.getfixturevalue("postgres_server"))
    await (await opened(backend, tmp_path, url, BEFORE)).close()
    if backend == "sqlite":
        load_sqlite(tmp_path / "old.sqlite3", year)
    else:
        await load_postgres(url, year)
    started = time.perf_counter()
    stores = await opened(backend, tmp_path, url)
    print(f"migration 17 on a small year ({backend}): {time.perf_counter() - started:.2f} s")
    db = stores.rounds.db  # type: ignore[attr-defined]
    try:
        codes = {row[0] for row in await db.fetch("SELECT DISTINCT code FROM achievements")}
        assert {"first_win", "ten_wins", "fifty_rounds", "daily_first", "daily_week"} <= codes
        # every round's achievement names a round that counts, in the chat it names
        assert await db.fetch(
            "SELECT e.code FROM achievements e LEFT JOIN rounds r ON r.id = e.round_id "
            "WHERE e.code NOT LIKE 'daily%' AND (r.id IS NULL OR r.chat_id <> e.chat_id OR "
            "r.chat_id >= 0 OR (SELECT COUNT(DISTINCT a.user_id) FROM answers a "
            "WHERE a.round_id = r.id) < 2)") == []
        # a first win is the first counting round the person won
        firsts = await db.fetch("SELECT user_id, round_id FROM achievements "
                                "WHERE code = 'first_win' ORDER BY user_id LIMIT 20")
        for user_id, round_id in firsts:
            [(earliest,)] = await db.fetch(
                "SELECT MIN(r.id) FROM rounds r WHERE r.winner_id = $1 AND r.status = 'won' "
                f"AND {COUNTS}".replace("$1", "?" if backend == "sqlite" else "$1"),
                (user_id,))
            assert round_id == earliest
    finally:
        await stores.close()
