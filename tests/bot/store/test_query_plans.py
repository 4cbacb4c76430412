"""The plan of every statement each command runs, as the planners make it on a year-old database
(issue 71, item 4), on both backends: the deal, a right answer, every board, /stats,
/tournament, the pages and /forget's answer, each driven through the services on a small year
of play (bench/year_data.py), its statements recorded as they run.

- SQLite plans them with the statistics ANALYZE made of bench/bench_year.py's year
  (YEAR_STATISTICS, copied into sqlite_stat1), so it chooses as it would on that file had it
  been analysed (the bot never runs ANALYZE: without statistics its plans are the ones
  tests/bot/store/sqlite/test_plans.py checks, for every statement of the stores).
- PostgreSQL plans the generic plan of each, sequential scans priced out, on the small year
  analysed (as tests/postgres/test_plans.py does).

Either way no statement may read a whole table that grows with play, nor a person's whole
history, unless the catalogue (tests/bot/plans.py) says why. Besides: /forget's answer runs
nothing that reads the person's history (their erasure runs after it, in parts), and a deal
runs as many statements in a group whose players of late are many as in one where they are
few (it read each player's rating apart: a busy group's fifty were half the deal on the year)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bench.year_data import (
    Scale,
    Year,
    generate,
    load_later_postgres,
    load_later_sqlite,
    load_postgres,
    load_sqlite,
)
from bot.play.chats.people import Chat, Player
from bot.play.community.boards import BoardAsk
from bot.play.outcomes import Dealt
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store import open_stores
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from solver import first_solution
from tests.bot import plans
from tests.bot.conftest import Clock, new_services
from tests.postgres import BACKENDS, PostgresServer, new_database
from tests.postgres import test_plans as postgres_plans

SUMMARISED = 19  # the year is written before the step that fills the pages' summary
# sqlite_stat1 of bench/bench_year.py's year (2,000,000 rounds, 7.2 million answers) after
# `PRAGMA analysis_limit=1000; ANALYZE` (what `PRAGMA optimize` does), on 2026-11-27
YEAR_STATISTICS = (
    ("answered_rounds", "answered_rounds", "4717440 38 1"),
    ("answers", "answers_by_round", "10584724 4"),
    ("answers", "answers_by_user", "8380800 38 1"),
    ("answers", "answers_unexpired", "606900 5"),
    ("board_steps", "sqlite_autoindex_board_steps_1", "2051 473 7 1"),
    ("board_ties", "sqlite_autoindex_board_ties_1", "143613 1001 334 223 1"),
    ("chat_settings", None, "999"),
    ("chats", None, "39997"),
    # the daily's three as schema step 30 keys them by game too: the year's one game adds a
    # column that divides nothing (every result was 24's)
    ("daily_results", "daily_results_by_time", "710790 1001 1001 3 1 1"),
    ("daily_results", "daily_results_by_user", "794240 36 1 1"),
    ("daily_results", "sqlite_autoindex_daily_results_1", "1769040 1001 1001 1"),
    ("hand_ratings", "hand_ratings_by_kind", "276 276 276 276"),
    ("hand_ratings", "sqlite_autoindex_hand_ratings_1", "276 276 1"),
    ("handled_updates", None, "60000"),
    ("match_rounds", "sqlite_autoindex_match_rounds_1", "47115 1"),
    ("match_rounds", "sqlite_autoindex_match_rounds_2", "43180 10 1"),
    ("matches", "matches_by_chat", "8584 1"),
    ("matches", "matches_by_starter", "9548 1"),
    ("player_ratings", "player_ratings_board", "4652976 1001 1001 1 1"),
    ("player_ratings", "sqlite_autoindex_player_ratings_1", "1931400 19 7 1"),
    ("player_totals", "player_totals_board", "933120 6 6 2 2 1"),
    ("player_totals", "sqlite_autoindex_player_totals_1", "1084928 5 2 1"),
    ("rating_days", "sqlite_autoindex_rating_days_1", "6494656 35 13 1"),
    ("round_passes", "round_passes_by_user", "10912 1"),
    ("round_passes", "sqlite_autoindex_round_passes_1", "9917 1 1"),
    ("rounds", "rounds_by_chat", "1947348 26 9 1"),
    ("rounds", "rounds_by_starter", "2486880 11 1"),  # step 35: (starter, id)
    ("rounds", "rounds_by_winner", "1808640 9"),
    ("rounds", "rounds_won_by_time", "1498662 1"),
    # step 33's: the round's columns after the first two, each dividing no further
    ("rounds", "rounds_won_in_chat", "1355750 18 1 1 1 1 1 1 1 1"),
    ("scores", "scores_board", "554156 9 4 2 2 1"),
    ("scores", "scores_by_user", "917850 4"),
    ("scores", "sqlite_autoindex_scores_1", "827754 15 3 1"),
    ("users", None, "199997"),
)
# What the year's statistics make the planner read whole, and why that is bounded.
YEAR_WHOLE = {
    "ratings.hands": "every rated hand of one kind, once at the first deal: all of them are "
                     "24's of four numbers (the index by kind tells none apart), 1,362 at most",
}
Command = Callable[[Services, Year], Awaitable[object]]


def busiest(year: Year) -> Chat:
    return Chat(int(year.group_ids[0]), "supergroup", "Group 0")


def member(year: Year, n: int = 0, group: int = 0) -> Player:
    user = int(year.members[group][n])
    return Player(user, f"Player {user}", language_code="en")


def board(ask: BoardAsk) -> Command:
    async def asked(services: Services, year: Year) -> object:
        return await services.community.standings.board(busiest(year), member(year), ask)
    return asked


async def daily_board(services: Services, year: Year) -> object:
    return await services.community.daily.board(busiest(year), member(year))


async def stats(services: Services, year: Year) -> object:
    return await services.community.standings.stats(busiest(year), member(year))


async def tournament(services: Services, year: Year) -> object:
    return await services.tournaments.show(busiest(year), member(year))


async def player_page(services: Services, year: Year) -> object:
    return await services.pages.player(int(year.heavy_ids[0]), "Heavy", texts_for("en"))


async def group_page(services: Services, year: Year) -> object:
    return await services.pages.group(busiest(year).id, texts_for("en"))


async def tournament_page(services: Services, year: Year) -> object:
    return await services.pages.tournament(1, texts_for("en"))


COMMANDS: dict[str, Command] = {
    **{f"/top {ask.period}{' all' if ask.everywhere else ''}{' 24' if ask.game else ''}":
       board(ask) for ask in (BoardAsk(period, everywhere, game)
                              for period in ("all", "week", "rating")
                              for everywhere in (False, True) for game in (None, "24"))},
    "/top daily": daily_board, "/stats": stats, "/tournament": tournament,
    "the player's page": player_page, "the group's page": group_page,
    "the tournament's page": tournament_page,
}


# --- the statements a command runs ---------------------------------------------------------

RUNS = ("fetch", "run", "insert")  # (sql, params)
STEPS = ("run_all",)  # (steps)
GUARDED = ("run_guarded", "insert_guarded")  # (guard, steps) or (guard, sql, params)


@contextlib.contextmanager
def recorded(db: Any) -> Iterator[list[str]]:
    """Every statement run on the stores' connection meanwhile, in order (each of a
    transaction's steps)."""
    ran: list[str] = []
    kept = {name: getattr(db, name) for name in (*RUNS, *STEPS, *GUARDED)}

    def sql_of(name: str, args: tuple) -> list[str]:
        if name in RUNS:
            return [args[0]]
        if name in STEPS:
            return [sql for sql, _ in args[0]]
        guard, rest = args[0], args[1]
        return [guard[0], *([rest] if isinstance(rest, str) else [sql for sql, _ in rest])]

    def watched(name: str) -> Callable[..., Awaitable[Any]]:
        async def run(*args: Any, **kwargs: Any) -> Any:
            ran.extend(sql_of(name, args))
            return await kept[name](*args, **kwargs)
        return run

    for name in kept:
        setattr(db, name, watched(name))
    try:
        yield ran
    finally:
        for name, method in kept.items():
            setattr(db, name, method)


def named(ran: list[str], catalogue: dict[str, str]) -> list[tuple[str, str]]:
    """(the catalogue's name, statement) of each statement run (a statement made from a
    template: "?")."""
    names = {sql: name for name, sql in catalogue.items()}
    return [(names.get(sql, "?"), sql) for sql in ran if plans.is_sql(sql)]


async def every_command(services: Services, year: Year, db: Any,
                        catalogue: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """The statements each command runs, by command: the reads, the deal and its right
    answer, /forget's answer (its erasure waited for after)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for command, asked in COMMANDS.items():
        with recorded(db) as ran:
            await asked(services, year)
        found[command] = named(ran, catalogue)
    chat, player = busiest(year), member(year, 1)
    with recorded(db) as ran:
        dealt = await services.rounds.play(chat, player, "24")
    assert isinstance(dealt, Dealt)
    found["/play (the deal)"] = named(ran, catalogue)
    with recorded(db) as ran:
        await services.rounds.answer(chat, player, first_solution(list(dealt.round.hand)) or "",
                                     explicit=True)
    found["a right answer"] = named(ran, catalogue)
    await services.hand_themes.written()  # its hand's themes, written by a task of their own
    with recorded(db) as ran:
        await services.community.privacy.forget(int(year.heavy_ids[0]))
    found["/forget's answer"] = named(ran, catalogue)
    await services.community.privacy.erased()
    return found


def erasure_before_the_answer(found: dict[str, list[tuple[str, str]]]) -> list[str]:
    """What /forget's answer ran of a person's whole history (their erasure's statements)."""
    return [name for name, _ in found["/forget's answer"] if name in plans.WHOLE_PERSON]


# --- SQLite, with the year's statistics ----------------------------------------------------

SQLITE_YEAR = generate(Scale().shrunk(0.001))


def with_year_statistics(path: Path) -> None:
    """The file's sqlite_stat1 made the year's: its planner chooses as on the year, analysed."""
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("ANALYZE")
        connection.execute("DELETE FROM sqlite_stat1")
        connection.executemany("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)",
                               YEAR_STATISTICS)
        connection.commit()


@pytest.fixture
async def sqlite_year(tmp_path: Path) -> AsyncIterator[Path]:
    """A SQLite file holding a small year of play, planned with the big year's statistics."""
    from bot.store.sqlite import open_sqlite

    path = tmp_path / "year.sqlite3"
    await (await open_sqlite(path, migrate_to=SUMMARISED - 1)).close()
    load_sqlite(path, SQLITE_YEAR)
    await (await open_sqlite(path)).close()
    load_later_sqlite(path, SQLITE_YEAR)
    with_year_statistics(path)
    yield path


def sqlite_faults(path: Path, ran: list[tuple[str, str]]) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return [f"{name}: {fault}" for name, sql in ran if name not in YEAR_WHOLE
                for fault in plans.sqlite_faults(connection, name, sql)]


async def test_every_command_s_statements_on_sqlite_with_the_year_s_statistics(
        sqlite_year: Path, pool: SolverPool):
    stores = await open_stores(sqlite_year, None)
    try:
        services, _ = new_services(stores, pool, Clock(SQLITE_YEAR.now))
        found = await every_command(services, SQLITE_YEAR, stores.rounds.db,  # type: ignore
                                    plans.sqlite_statements())
    finally:
        await stores.close()
    assert all(found.values()), "every command reads the database"
    assert {command: faults for command, ran in found.items()
            if (faults := sqlite_faults(sqlite_year, ran))} == {}
    assert erasure_before_the_answer(found) == []


def test_nor_does_any_statement_inside_a_trigger(sqlite_year: Path):
    with contextlib.closing(sqlite3.connect(sqlite_year)) as connection:
        assert {name: faults for name, sql in plans.trigger_statements(connection)
                if (faults := plans.sqlite_faults(connection, name, sql))} == {}


def test_the_statistics_change_what_the_planner_chooses(sqlite_year: Path):
    """The year's statistics are read: with them, one kind of hand is read whole (all the
    rated hands are one kind), which the planner without them reads by the index."""
    hands = plans.sqlite_statements()["ratings.hands"]
    with contextlib.closing(sqlite3.connect(sqlite_year)) as connection:
        assert plans.sqlite_plan(connection, hands) == ["SCAN hand_ratings"]
        connection.execute("DELETE FROM sqlite_stat1")
        connection.commit()
    with contextlib.closing(sqlite3.connect(sqlite_year)) as connection:
        assert "hand_ratings_by_kind" in plans.sqlite_plan(connection, hands)[0]


# --- PostgreSQL, analysed, sequential scans priced out -------------------------------------

POSTGRES_YEAR = postgres_plans.YEAR  # the catalogue's test plans on the same year


@pytest.fixture
async def postgres_year(postgres_server: PostgresServer) -> str:
    """A database holding a small year of play, analysed (as autovacuum leaves it)."""
    from bot.store.postgres import open_postgres

    url = await new_database(postgres_server)
    await (await open_postgres(url, migrate_to=SUMMARISED - 1)).close()
    await load_postgres(url, POSTGRES_YEAR)
    await (await open_postgres(url)).close()
    await load_later_postgres(url, POSTGRES_YEAR)
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("ANALYZE answered_rounds")
    finally:
        await connection.close()
    return url


async def postgres_faults(url: str, ran: list[tuple[str, str]]) -> list[str]:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("SET enable_seqscan = off")
        await connection.execute("SET plan_cache_mode = force_generic_plan")
        leading = await postgres_plans.leading_columns(connection)
        found = []
        for name, sql in dict.fromkeys(ran):
            plan = await postgres_plans.generic_plan(connection, sql,
                                                     postgres_plans.SAMPLES.get(name))
            found += [f"{name}: {fault}" for fault in plans.postgres_faults(name, plan, leading)]
        return found
    finally:
        await connection.close()


async def test_every_command_s_statements_on_postgres(postgres_year: str, pool: SolverPool):
    stores = await open_stores("unused", postgres_year)
    try:
        services, _ = new_services(stores, pool, Clock(POSTGRES_YEAR.now))
        found = await every_command(services, POSTGRES_YEAR, stores.rounds.db,  # type: ignore
                                    plans.postgres_statements())
    finally:
        await stores.close()
    assert all(found.values()), "every command reads the database"
    assert {command: faults for command, ran in found.items()
            if (faults := await postgres_faults(postgres_year, ran))} == {}
    assert erasure_before_the_answer(found) == []


# --- a deal reads the group's players together ---------------------------------------------

GROUP = Chat(-7101, "group", "Group")
CATALOGUES = {"sqlite": plans.sqlite_statements(), "postgres": plans.postgres_statements()}


async def deal_in(services: Services, clock: Clock, stores: Stores, backend: str,
                  players: int) -> Counter[str]:
    """A group whose players of late are `players` many (each answered in its last rounds of
    24, adaptive deals on): the statements its next deal runs, counted by name."""
    people = [Player(7200 + n, f"P{n}", language_code="en") for n in range(players)]
    for number in range(20):  # ADAPTIVE_AFTER rounds closed: its deals aim at its players
        dealt = await services.rounds.play(GROUP, people[0], "24")
        assert isinstance(dealt, Dealt)
        clock.now += 1
        for person in people[number % players:] + people[:number % players]:
            await services.rounds.answer(GROUP, person, "1+1", explicit=True)
        clock.now += 1
        await services.rounds.answer(GROUP, people[0], first_solution(
            list(dealt.round.hand)) or "", explicit=True)
        clock.now += 1
    await services.hand_themes.written()  # the closed hands' themes: a task of their own
    with recorded(stores.rounds.db) as ran:  # type: ignore[attr-defined]
        assert isinstance(await services.rounds.play(GROUP, people[0], "24"), Dealt)
    return Counter(name for name, _ in named(ran, CATALOGUES[backend]))


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_deal_reads_as_much_for_forty_players_as_for_two(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest, pool: SolverPool):
    from tests.postgres import open_backend

    counted = []
    for players in (2, 40):
        (tmp_path / str(players)).mkdir()
        stores = await open_backend(backend, tmp_path / str(players), request)
        try:
            clock = Clock(1_900_000_000.0)
            services, _ = new_services(stores, pool, clock)
            counted.append(await deal_in(services, clock, stores, backend, players))
        finally:
            await stores.close()
    few, many = counted
    assert few["ratings.recent_ratings"] == 1
    assert many == few
