"""A year of play (issue 38): the real bot timed on a database a busy year old against a nearly
empty one, on SQLite and on PostgreSQL.

Each database is written by bench/year_data.py through the project's own migrations (to the one
before 19, whose summary of the answered rounds the bulk load would leave empty: migration 19
then fills it from the year, timed as a step of the writing), the year
(by default 20,000 group chats, 200,000 players, 2,000,000 rounds of the three games with about
four answers each, a year of daily results, matches) and the "empty" file, the same year a
thousand times smaller (20 chats, 200 players, 2,000 rounds), so that every command finds a
board, a place and a history to show and only their size differs. Both hold the same 20 heavy
players with 5,000 answers each: /forget deletes as much of theirs in either, and only what
the others played differs. Scores are checked equal to
their recount. Then the bot (`python -m bot` through bench/run_bot.py, against the Bot API
emulator, as bench/bench_bot_load.py runs it) is started on each, and each command is sent one
at a time; its time is from the update's delivery (getUpdates returning it) to the bot's answer
reaching the emulator:

  /top, /top week, /top all, /top daily, /stats   in the busiest group, asked by its members
  /play (the deal), a right answer                 in the ten busiest groups
  the player's page, the group's page              the Mini App's one request each (issue 47):
                                                   the busiest group's members and the heavy
                                                   players; the ten busiest groups
  /forget of a heavy player (5,000 answers)        the press of ✅ to the question's edit
  writes                                           2,000 rounds through the stores, 8 chats at
                                                   once (a deal, three answers, the close)
  the retention, a day later                       each transaction of the job's work
  start-up to the first poll                       the process started to its first getUpdates
  a chat's move to a supergroup                    the store's migrate_chat, timed in-process
                                                   (the bot says nothing to it), busiest first
  a backup                                         python -m bot.runtime.backup, the bot running

and the file's size per round. It prints p50/p99 on each and the ratio of the p99s. Goals:
every command's p99 within 1.5x of the empty file's and under 20 ms; a page's under 50 ms;
start-up under 3 s.

`python bench/bench_year.py [--backend sqlite|postgres|both] [--scale 1.0] [--samples 100]`;
`--quick` is a year a hundred times smaller (a check that it runs). PostgreSQL runs on a server
of its own (tests/postgres/server.py). Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_bot_load import percentile  # noqa: E402
from bench.year_data import Scale, Year, generate, load_postgres, load_sqlite  # noqa: E402
from demo.emulator import BotApiEmulator  # noqa: E402
from solver import first_solution  # noqa: E402

BOT = [str(ROOT / "bench" / "run_bot.py")]
TICK = os.sysconf("SC_CLK_TCK")
CONFIRM = "✅ Yes, delete"
READS = ("/top", "/top week", "/top all", "/top daily", "/stats")
P99_GOAL_MS, RATIO_GOAL, STARTUP_GOAL = 20.0, 1.5, 3.0
PAGE_GOAL_MS = 50.0  # a Mini App page's one data request (issue 47)
EMPTY_FACTOR = 0.001
# The migration that fills the pages' summary (answered_rounds) from the history: the year is
# written at the schema before it (the bulk load sets no trigger off), then migrated, timed.
SUMMARISED = 19
BY_BOT = 10  # heavy players forgotten through the bot; the others on the stores, transactions timed


@dataclass
class Database:
    """One generated database: where it is, what is in it, and how the bot opens it."""

    name: str
    year: Year
    env: dict[str, str]  # DATABASE_PATH or DATABASE_URL
    path: Path | None = None
    url: str | None = None
    written: float = 0.0
    steps: dict[str, float] | None = None


@dataclass
class Bot:
    emulator: BotApiEmulator
    process: asyncio.subprocess.Process
    startup: float


# --- the bot as a process ------------------------------------------------------------------

async def start_bot(database: Database, folder: Path) -> Bot:
    emulator = BotApiEmulator()
    await emulator.start()
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": emulator.token,
           "TELEGRAM_BASE_URL": emulator.base_url, "DATABASE_PATH": str(folder / "bot.sqlite3"),
           "ROUND_SECONDS": "600", "LOG_LEVEL": "WARNING", "SOLVER_WORKERS": "1",
           "RATE_LIMIT": "off", **database.env}
    began = time.perf_counter()
    process = await asyncio.create_subprocess_exec(sys.executable, *BOT, cwd=ROOT, env=env,
                                                   stdin=asyncio.subprocess.DEVNULL)
    for _ in range(2400):  # up to 2 minutes
        polls = [at for method, _, at in emulator.calls if method == "getUpdates"]
        if polls:
            return Bot(emulator, process, polls[0] - began)
        if process.returncode is not None:
            break
        await asyncio.sleep(0.01)
    process.kill()
    raise SystemExit(f"the bot did not start on the {database.name} database")


async def stop_bot(bot: Bot) -> None:
    bot.process.terminate()
    await bot.process.wait()
    await bot.emulator.stop()


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and of its children (the solver's workers), recursively."""
    total = 0.0
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICK
        for task in Path(f"/proc/{pid}/task").iterdir():
            children = (task / "children").read_text().split()
            total += sum(tree_cpu(int(child)) for child in children)
    return total


async def quiet(bot: Bot, limit: float = 120.0) -> None:
    """Wait until the bot and its workers stop using the CPU (the stock of deals made)."""
    ends, calm, last = time.perf_counter() + limit, 0, tree_cpu(bot.process.pid)
    while calm < 4 and time.perf_counter() < ends:
        await asyncio.sleep(0.25)
        now = tree_cpu(bot.process.pid)
        calm = calm + 1 if now - last < 0.02 else 0
        last = now


# --- one command, timed --------------------------------------------------------------------

def person(year: Year, user_id: int) -> dict:
    """The player as Telegram sends them: the generated name and username."""
    names = NAMES.setdefault(id(year), {uid: (name, username)
                                        for uid, name, username in year.users})
    name, username = names[user_id]
    found = {"id": user_id, "is_bot": False, "first_name": name, "language_code": "en"}
    if username:
        found["username"] = username
    return found


NAMES: dict[int, dict[int, tuple[str, str | None]]] = {}


async def said(bot: Bot, chat: int, user: dict, text: str, kind: str = "group"
               ) -> tuple[float, str, int]:
    """A message and the bot's reply to it: (seconds from delivery to the reply, the reply's
    text, its message id)."""
    emulator = bot.emulator
    sent_before = len([s for s in emulator.sent if s.chat_id == chat])
    await emulator.say(chat, user, text, kind=kind)
    update = emulator.updates_log[-1]

    def answered() -> bool:
        return len([s for s in emulator.sent if s.chat_id == chat]) > sent_before

    if not await emulator.wait_for(answered, 30.0):
        raise SystemExit(f"no reply to {text!r} in {chat}")
    reply = [s for s in emulator.sent if s.chat_id == chat][sent_before]
    return reply.at - update["_delivered_at"], reply.text, reply.message_id


async def forgotten(bot: Bot, user: dict) -> float:
    """/forget in the person's private chat, then ✅: seconds from the press's delivery to the
    question's edit."""
    chat = user["id"]
    await said(bot, chat, user, "/forget", kind="private")
    question = [s for s in bot.emulator.sent if s.chat_id == chat][-1]
    edits_before = len(bot.emulator.edits)
    await bot.emulator.press_button(chat, question.message_id, user, CONFIRM)
    update = bot.emulator.updates_log[-1]

    def edited() -> bool:
        return any(e.chat_id == chat and e.message_id == question.message_id
                   for e in bot.emulator.edits[edits_before:])

    if not await bot.emulator.wait_for(edited, 60.0):
        raise SystemExit(f"/forget of {chat} was not confirmed")
    edit = next(e for e in bot.emulator.edits[edits_before:] if e.message_id == question.message_id)
    return edit.at - update["_delivered_at"]


async def measure_commands(bot: Bot, db: Database, samples: int) -> dict[str, list[float]]:
    year = db.year
    busiest = int(year.group_ids[0])
    askers = [person(year, int(uid)) for uid in year.members[0][:samples].tolist()]
    found: dict[str, list[float]] = {}
    for command in READS:
        await said(bot, busiest, askers[-1], command)  # warm: the first of a kind is not timed
        times = []
        for i in range(samples):
            seconds, _, _ = await said(bot, busiest, askers[i % len(askers)], command)
            times.append(seconds)
        found[command] = times
    played = [int(c) for c in year.group_ids[:10].tolist()]  # none changed its settings
    deals, rights = [], []
    for i in range(-1, max(10, samples // 2)):  # the first round is not timed
        chat = played[i % len(played)]
        members = year.members[year.group_ids.tolist().index(chat)]
        player = person(year, int(members[i % len(members)]))
        seconds, deal, _ = await said(bot, chat, player, "/play")
        if i >= 0:
            deals.append(seconds)
        hand = [int(n) for n in re.findall(r"\d+", deal.splitlines()[0])]
        solution = first_solution(hand)
        if solution is None:
            raise SystemExit(f"no solution for the deal {deal!r}")
        seconds, result, _ = await said(bot, chat, player, f"/a {solution}")
        if not result.startswith("✅"):
            raise SystemExit(f"the right answer did not win: {result!r}")
        if i >= 0:
            rights.append(seconds)
    found["/play (the deal)"] = deals
    found["a right answer"] = rights
    found["/forget (a heavy player)"] = [await forgotten(bot, person(year, int(h)))
                                         for h in year.heavy_ids.tolist()[:BY_BOT]]
    return found


# --- beside the bot ------------------------------------------------------------------------

@contextlib.contextmanager
def transactions(connection: Any) -> Iterator[list[float]]:
    """The seconds of each transaction the store runs on `connection` meanwhile (a `run` is
    one statement in its own, a `run_all` one for all its steps): what another chat's write
    may wait behind."""
    took: list[float] = []
    run, run_all = connection.run, connection.run_all

    async def timed_run(sql: str, params: Any = ()) -> int:
        began = time.perf_counter()
        try:
            return await run(sql, params)
        finally:
            took.append(time.perf_counter() - began)

    async def timed_run_all(steps: Any) -> None:
        began = time.perf_counter()
        try:
            await run_all(steps)
        finally:
            took.append(time.perf_counter() - began)

    connection.run, connection.run_all = timed_run, timed_run_all
    try:
        yield took
    finally:
        connection.run, connection.run_all = run, run_all


async def chat_moves(db: Database, count: int) -> tuple[list[float], list[float]]:
    """migrate_chat of the busiest groups and of others, timed on the stores themselves: each
    move's seconds, and each move's longest transaction."""
    from bot.store import open_stores

    stores = await open_stores(db.path or "unused", db.url)
    try:
        chats = [int(c) for c in db.year.group_ids.tolist()]
        picked = chats[:3] + chats[3::max(1, len(chats) // max(1, count - 3))][:max(0, count - 3)]
        times, longest = [], []
        for old in picked:
            with transactions(stores.people.db) as took:  # type: ignore[attr-defined]
                began = time.perf_counter()
                await stores.people.migrate_chat(old, old - 10**12)
                times.append(time.perf_counter() - began)
            longest.append(max(took))
        return times, longest
    finally:
        await stores.close()


async def forgets(db: Database, people: list[int]) -> tuple[list[float], list[float]]:
    """/forget's erasure of each person on the stores themselves: its seconds, and its
    longest transaction (the bot runs the same, then edits the question)."""
    from bot.store import open_stores

    stores = await open_stores(db.path or "unused", db.url)
    try:
        times, longest = [], []
        for user in people:
            with transactions(stores.forgetting.db) as took:  # type: ignore[attr-defined]
                began = time.perf_counter()
                await stores.forgetting.forget_user(user)
                times.append(time.perf_counter() - began)
            longest.append(max(took))
        return times, longest
    finally:
        await stores.close()


def backup(db: Database, folder: Path, binaries: Path | None) -> float:
    env = {**os.environ, "BACKUP_DIR": str(folder / "backups"), **db.env}
    if binaries is not None:
        env["PATH"] = f"{binaries}{os.pathsep}{env.get('PATH', '')}"
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bot.runtime.backup"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"the backup failed: {done.stderr.strip()[-300:]}")
    shutil.rmtree(folder / "backups", ignore_errors=True)
    return took


async def size_of(db: Database) -> int:
    if db.path is not None:
        with contextlib.closing(sqlite3.connect(db.path)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return db.path.stat().st_size
    import asyncpg

    connection = await asyncpg.connect(db.url)
    try:
        return int(await connection.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await connection.close()


async def consistent(db: Database, chats: int = 200) -> bool:
    """The scores of the busiest chats and of others, against their recount from the rounds
    and answers in Python (tests/bot/scoring.py: independent of the SQL it checks)."""
    from tests.bot.scoring import (
        ANSWERS_SQL,
        ROUNDS_SQL,
        SCORES_SQL,
        expected_scores,
        read_rows,
        stored_scores,
    )

    picked = [int(c) for c in db.year.group_ids.tolist()]
    picked = picked[:10] + picked[10::max(1, len(picked) // chats)]
    marks = ", ".join("?" * len(picked))
    queries = (f"SELECT * FROM ({ROUNDS_SQL}) AS r WHERE r.chat_id IN ({marks})",
               f"SELECT a.* FROM ({ANSWERS_SQL}) AS a JOIN rounds x ON x.id = a.round_id "
               f"WHERE x.chat_id IN ({marks})",
               f"SELECT * FROM ({SCORES_SQL}) AS s WHERE s.chat_id IN ({marks})")
    if db.path is not None:
        with contextlib.closing(sqlite3.connect(db.path)) as connection:
            rounds, answers, scores = (connection.execute(q, picked).fetchall()
                                       for q in queries)
    else:
        import asyncpg

        from bot.store.sql.connection import numbered

        connection = await asyncpg.connect(db.url)
        try:
            rounds, answers, scores = [[tuple(row) for row in
                                        await connection.fetch(numbered(q), *picked)]
                                       for q in queries]
        finally:
            await connection.close()
    return bool(stored_scores(scores) == expected_scores(*read_rows(rounds, answers)))


async def page_requests(db: Database, samples: int) -> dict[str, list[float]]:
    """The Mini App's pages (issue 47), each its one request (`POST /webapp/api/page`, initData
    signed as Telegram signs it) to the page's own server in this process over the stores:
    the player's page of the busiest group's members and of the heavy players (the longest
    histories), the group's page of the ten busiest groups, the busiest most often. Seconds
    from the request to its whole answer, over loopback."""
    from types import SimpleNamespace

    import httpx

    from bot.play.pages import Pages
    from bot.runtime.heap import settle
    from bot.store import open_stores
    from bot.webapp.init_data import sign, user_fields
    from bot.webapp.server import Face, serve

    year, token = db.year, "1:pages-bench"
    stores = await open_stores(db.path or "unused", db.url)
    # as the bot builds it (bot.play.services): achievements and the daily result's offer
    # read too; the daily's hand is never drawn for a page, only for a card
    pages = Pages(stores.pages, stores.ratings, clock=lambda: year.now,
                  achievements=stores.achievements,
                  daily=SimpleNamespace(store=stores.daily, hand_of=lambda day: ()))

    async def member(chat_id: int, user_id: int) -> bool:
        return True  # Telegram's answer, cached by the bot: not what is timed here

    face = Face(lambda: SimpleNamespace(pages=pages), token, lambda: True,  # type: ignore
                member, None, clock=lambda: year.now)  # type: ignore[arg-type]
    server, port = serve(face, 0)
    settle()  # as the bot does once open (bot/runtime/heap.py)
    heavy = [int(h) for h in year.heavy_ids.tolist()][:samples // 2]
    kept = frozenset(heavy)
    members = [u for u in map(int, year.members[0].tolist()) if u not in kept]
    players = members[:samples - len(heavy)] + heavy  # a heavy player's page: the longest
    groups = [int(c) for c in year.group_ids[:10].tolist()]
    asked = [("player's page (request)", f"u{u}", u, None) for u in players]
    chosen = [groups[0] if i % 3 == 0 else groups[i % len(groups)] for i in range(samples)]
    asked += [("group's page (request)", f"g{chat}", players[0], f"g{chat}") for chat in chosen]
    found: dict[str, list[float]] = {}
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/webapp/") as client:
            for index, (name, page, user, start) in enumerate(asked):
                data = sign(user_fields(user, "P", int(year.now), "en", start), token)
                body = {"init_data": data, "page": page}
                if index == 0 or asked[index - 1][0] != name:  # the first of a kind: warm
                    await client.post("api/page", json=body)
                began = time.perf_counter()
                response = await client.post("api/page", json=body)
                took = time.perf_counter() - began
                if response.status_code != 200:
                    raise SystemExit(f"{name} {page}: {response.status_code} {response.text}")
                found.setdefault(name, []).append(took)
                size = f"{name.split(' (')[0]}: its answer's bytes, the largest"
                found[size] = [max(found.get(size, [0.0])[0], float(len(response.content)))]
    finally:
        server.stop()
        await stores.close()
    return found


# --- the run -------------------------------------------------------------------------------

async def make(name: str, scale: Scale, backend: str, folder: Path, server: object | None,
               now: float, schema: int | None = None) -> Database:
    """A fresh database of the backend, migrated by the project's code (to `schema`, or the
    latest), the year written in."""
    from bot.store.schema import LATEST

    began = time.perf_counter()
    aged = schema is None and name != "empty"  # the empty file: a young bot, nothing expired
    year = generate(scale, now, expired_before=retention_cutoff(now) if aged else None)
    generated = time.perf_counter() - began
    if backend == "sqlite":
        from bot.store.sqlite import open_sqlite

        path = folder / f"{name}.sqlite3"
        await (await open_sqlite(path, migrate_to=schema or SUMMARISED - 1)).close()
        steps = load_sqlite(path, year)
        if schema is None:  # the pages' summary, as an upgrade fills it
            began_summary = time.perf_counter()
            await (await open_sqlite(path, migrate_to=LATEST)).close()
            steps[f"migration {SUMMARISED}"] = time.perf_counter() - began_summary
        db = Database(name, year, {"DATABASE_PATH": str(path)}, path=path)
    else:
        from bot.store.postgres import open_postgres
        from tests.postgres import admin

        await admin(server, f"CREATE DATABASE {name}")  # type: ignore[arg-type]
        url = server.url(name)  # type: ignore[attr-defined]
        await (await open_postgres(url, migrate_to=schema or SUMMARISED - 1)).close()
        steps = await load_postgres(url, year)
        if schema is None:
            began_summary = time.perf_counter()
            await (await open_postgres(url, migrate_to=LATEST)).close()
            steps[f"migration {SUMMARISED}"] = time.perf_counter() - began_summary
            await vacuum(url, "answered_rounds")  # as autovacuum does after the inserts
        db = Database(name, year, {"DATABASE_URL": url}, url=url)
    db.steps = {"generate": generated, **steps}
    db.written = time.perf_counter() - began
    return db


def retention_cutoff(now: float) -> float | None:
    """Where the schema has the answers' retention, the year is as it leaves them."""
    try:
        from bot.store.retention import ANSWER_TEXTS_KEPT
    except ImportError:
        return None
    return now - ANSWER_TEXTS_KEPT


async def retention(db: Database) -> list[tuple[int, float]]:
    """The answers' retention on the year (already kept to ANSWER_TEXTS_KEPT) a day later:
    (rounds reached, seconds) of each of its transactions."""
    cutoff = retention_cutoff(db.year.now)
    if cutoff is None:
        return []
    from bot.store import open_stores

    stores = await open_stores(db.path or "unused", db.url)
    try:
        done = []
        while True:
            began = time.perf_counter()
            reached = await stores.rounds.expire_answers(cutoff + 86400.0, batches=1)
            if not reached:
                return done
            done.append((reached, time.perf_counter() - began))
    finally:
        await stores.close()


async def writes(db: Database, rounds: int = 2000, at_once: int = 8) -> float:
    """Rounds played straight through the stores on the database, `at_once` chats together
    (a deal, two wrong answers, a right one, the close that scores it: five writes): seconds."""
    from bot.store import open_stores

    stores = await open_stores(db.path or "unused", db.url)
    first = min(100, len(db.year.group_ids) - at_once)  # groups of moderate play
    chats = [int(c) for c in db.year.group_ids[first:first + at_once].tolist()]
    gone = set(db.year.heavy_ids.tolist())  # /forget took them
    players = [[int(u) for u in db.year.members[first + n].tolist() if u not in gone][:3]
               for n in range(at_once)]

    async def play(n: int) -> None:
        chat, people = chats[n], players[n]
        for number in range(rounds // at_once):
            now = time.time()
            made = await stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "easy", 10,
                                                  "en", now, now + 60, started_by=people[0])
            assert made is not None
            for who in (people[1], people[-1]):
                await stores.rounds.record_answer(made.id, who, "1+2", False, now + 1)
            await stores.rounds.record_answer(made.id, people[0], "1*2*3*4", True, now + 2)
            await stores.rounds.close_round(made.id, "won", now + 2, people[0], "1*2*3*4", 10,
                                            2.0 + number % 7)

    try:
        began = time.perf_counter()
        await asyncio.gather(*(play(n) for n in range(at_once)))
        return time.perf_counter() - began
    finally:
        await stores.close()


async def vacuum(url: str, table: str) -> None:
    """A table vacuumed and analysed, so that its index alone answers (its pages all
    visible), as autovacuum leaves a table after many inserts."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"VACUUM ANALYZE {table}")
    finally:
        await connection.close()


async def upgrade(scale: Scale, backend: str, folder: Path, server: object | None,
                  now: float) -> tuple[int, float]:
    """The year written at schema 9 (before issue 40), then opened by this code: the schema's
    number it had, and the seconds its migrations took at that start."""
    db = await make("upgrade", scale, backend, folder, server, now, schema=9)
    from bot.store import open_stores

    began = time.perf_counter()
    stores = await open_stores(db.path or "unused", db.url)
    took = time.perf_counter() - began
    await stores.close()
    return 9, took


@dataclass
class Measured:
    commands: dict[str, list[float]]
    startups: list[float]
    moves: list[float]
    move_longest: list[float]
    erasures: list[float]
    erasure_longest: list[float]
    backup: float
    size: int
    consistent: bool
    retention: list[tuple[int, float]]
    writes: float
    pages: dict[str, list[float]]


async def measure(db: Database, folder: Path, samples: int, moves: int,
                  binaries: Path | None) -> Measured:
    ok = await consistent(db)
    pages = await page_requests(db, samples)  # before /forget takes the heavy players
    startups = []
    for _ in range(3):
        bot = await start_bot(db, folder)
        startups.append(bot.startup)
        if len(startups) < 3:
            await stop_bot(bot)
    try:
        await quiet(bot)
        commands = await measure_commands(bot, db, samples)
        took = backup(db, folder, binaries)
    finally:
        await stop_bot(bot)
    moved, move_longest = await chat_moves(db, min(moves, len(db.year.group_ids)))
    erased, erasure_longest = await forgets(
        db, [int(h) for h in db.year.heavy_ids.tolist()[BY_BOT:]])
    size = await size_of(db)
    kept = await retention(db)
    wrote = await writes(db)
    return Measured(commands, startups, moved, move_longest, erased, erasure_longest, took,
                    size, ok, kept, wrote, pages)


def report(backend: str, empty: Database, year: Database, a: Measured, b: Measured) -> None:
    s = year.year.scale
    print(f"\n== {backend}: the year {s.chats:,} chats, {s.players:,} players, "
          f"{year.year.round_count:,} rounds, {year.year.answer_count:,} answers, "
          f"{len(year.year.daily):,} daily results, {len(year.year.matches):,} matches, "
          f"{s.heavy} heavy players with {heavy_answers(year.year):,.0f} answers each; the "
          f"empty file {empty.year.round_count:,} rounds, {empty.year.answer_count:,} answers, "
          f"the heavy players with {heavy_answers(empty.year):,.0f} each")
    steps = ", ".join(f"{k} {v:.0f} s" for k, v in (year.steps or {}).items())
    print(f"written in {year.written:.0f} s ({steps}); scores equal their recount: "
          f"{'yes' if a.consistent and b.consistent else 'NO'}")
    print(f"{'command':<30}{'empty p50':>10}{'p99':>8}{'year p50':>10}{'p99':>8}"
          f"{'ratio':>7}  goal met")
    rows = list(a.commands)
    for name in rows:
        e, y = a.commands[name], b.commands[name]
        line(name, e, y, len(y))
    for name in a.pages:
        if "bytes" in name:
            print(f"{name:<45}{a.pages[name][0]:>9,.0f}{b.pages[name][0]:>12,.0f}")
        else:
            line(name, a.pages[name], b.pages[name], len(b.pages[name]), PAGE_GOAL_MS)
    line("a chat's move (store)", a.moves, b.moves, len(b.moves))
    line("  its longest transaction", a.move_longest, b.move_longest, len(b.move_longest))
    line("/forget's erasure (store)", a.erasures, b.erasures, len(b.erasures))
    line("  its longest transaction", a.erasure_longest, b.erasure_longest,
         len(b.erasure_longest))
    e0, y0 = statistics.median(a.startups), statistics.median(b.startups)
    print(f"{'start-up to the first poll':<30}{e0:>9.2f}s{max(a.startups):>7.2f}s"
          f"{y0:>9.2f}s{max(b.startups):>7.2f}s{y0 / e0:>7.2f}  "
          f"{'yes' if max(b.startups) < STARTUP_GOAL else 'NO'} (< {STARTUP_GOAL:.0f} s)")
    print(f"{'a backup':<30}{a.backup:>9.2f}s{'':>8}{b.backup:>9.2f}s")
    print(f"{'file size':<30}{a.size / 1e6:>8.1f}MB{'':>8}{b.size / 1e6:>8.1f}MB   "
          f"{b.size / year.year.round_count:.0f} bytes a round")
    print(f"{'writes: 2,000 rounds, 8 at once':<30}{2000 / a.writes:>8.0f}/s{'':>8}"
          f"{2000 / b.writes:>8.0f}/s   rounds a second (five writes each)")
    if b.retention:
        times = [seconds for _, seconds in b.retention]
        print(f"the retention a day later: {sum(n for n, _ in b.retention):,} rounds in "
              f"{len(times)} transactions, {percentile(times, 0.5) * 1000:.1f} ms each "
              f"(p50), {max(times) * 1000:.1f} ms the longest")


def heavy_answers(year: Year) -> float:
    """How many answers each heavy player has, on average (what their /forget deletes)."""
    import numpy as np

    return float(np.isin(year.answers["user_id"], year.heavy_ids).sum() / len(year.heavy_ids))


def line(name: str, empty: list[float], year: list[float], n: int,
         goal_ms: float | None = None) -> None:
    """A row of the table; the goal met: within RATIO_GOAL of the empty file's p99 and under
    P99_GOAL_MS, or (`goal_ms`, the pages') under that alone."""
    e50, e99 = percentile(empty, 0.5) * 1000, percentile(empty, 0.99) * 1000
    y50, y99 = percentile(year, 0.5) * 1000, percentile(year, 0.99) * 1000
    met = y99 < goal_ms if goal_ms is not None else \
        y99 <= max(e99 * RATIO_GOAL, 0.0) and y99 < P99_GOAL_MS
    print(f"{name:<30}{e50:>8.1f}ms{e99:>6.1f}ms{y50:>8.1f}ms{y99:>6.1f}ms{y99 / e99:>7.2f}  "
          f"{'yes' if met else 'NO'} (n={n})")


async def run(backend: str, scale: Scale, samples: int, moves: int, keep: Path | None,
              upgrading: bool = False) -> None:
    folder = Path(tempfile.mkdtemp(prefix="year-", dir=keep))
    server = None
    binaries = None
    try:
        if backend == "postgres":
            from tests.postgres.server import PostgresServer

            server = PostgresServer().start()
            binaries = server.binaries
        now = time.time()
        empty = await make("empty", scale.shrunk(EMPTY_FACTOR), backend, folder, server, now)
        year = await make("year", scale, backend, folder, server, now)
        a = await measure(empty, folder, samples, moves, binaries)
        b = await measure(year, folder, samples, moves, binaries)
        report(backend, empty, year, a, b)
        if upgrading:
            schema, took = await upgrade(scale, backend, folder, server, now)
            print(f"the year written at schema {schema}, then migrated by this code at its "
                  f"start: {took:.1f} s")
    finally:
        if server is not None:
            server.stop()
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--scale", type=float, default=1.0, help="the year's size, 1 = busy")
    parser.add_argument("--samples", type=int, default=100, help="times each command is sent")
    parser.add_argument("--moves", type=int, default=20, help="chats moved to a supergroup")
    parser.add_argument("--quick", action="store_true", help="a year 100 times smaller")
    parser.add_argument("--keep", type=Path, help="keep the databases in a folder under this")
    parser.add_argument("--upgrade", action="store_true",
                        help="also time the migrations of a year written at schema 9")
    args = parser.parse_args()
    scale = Scale().shrunk(0.01 if args.quick else args.scale) \
        if args.quick or args.scale != 1.0 else Scale()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    for backend in (("sqlite", "postgres") if args.backend == "both" else (args.backend,)):
        asyncio.run(run(backend, scale, args.samples, args.moves, args.keep, args.upgrade))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

