"""A year of play (issues 38 and 71): the real bot timed on a database a busy year old against
a nearly empty one, on SQLite and on PostgreSQL, the two in turns.

Each database is written by bench/year_data.py through the project's own migrations (to the one
before 19, whose summary of the answered rounds the bulk load would leave empty: migration 19
then fills it from the year, and each step after it runs as a start-up runs it, each timed),
the year (by default 20,000 group chats, 200,000 players, 2,000,000 rounds of the three games
with about four answers each, a year of daily results, matches, 200 tournaments) and the
"empty" file, the same year a thousand times smaller (20 chats, 200 players, 2,000 rounds), so
that every command finds a board, a place and a history to show and only their size differs.
Both hold the same 20 heavy players with 5,000 answers each: /forget deletes as much of theirs
in either, and only what the others played differs. Scores are checked equal to their
recount. Then the bot (`python -m bot` through bench/run_bot.py, against the Bot API
emulator, as bench/bench_bot_load.py runs it) is started on each, both running, and each
command is sent to one and then the other (the next time the other first), one at a time, so
that the machine's load falls on both alike; its time is from the update's delivery
(getUpdates returning it) to the bot's answer reaching the emulator:

  every board (/top, /top 24, /top all, /top all 24,   in the busiest group, asked by its
  the week's the same four, /top daily, /top rating,   members
  /top rating all), /stats, /tournament
  /play (the deal), a right answer                     in the ten busiest groups
  the player's, the group's, the tournament's page     the Mini App's one request each (issue
                                                       47), served from this process: the
                                                       busiest group's members and the heavy
                                                       players; the ten busiest groups; the
                                                       running tournament
  /forget of a heavy player (5,000 answers)            the press of ✅ to the question's edit,
                                                       and to the end of the erasure (its note
                                                       gone from the database)
  writes                                               2,000 rounds through the stores, 8 chats
                                                       at once (a deal, three answers, the close)
  the retention, a day later                           each transaction of the job's work
  start-up to the first poll                           the process started to its first
                                                       getUpdates
  a chat's move to a supergroup                        the store's migrate_chat, timed
                                                       in-process, busiest first
  a backup                                             python -m bot.runtime.backup, the bot
                                                       running

and the file's size per round. It prints p50/p99 on each and the ratios of the year's to the
empty file's. Goals (issue 71): every command's median within 1.5x of the empty file's;
/forget answered within a second and its erasure ended within a minute; start-up under 3 s.

`python bench/bench_year.py [--backend sqlite|postgres|both] [--scale 1.0] [--samples 20]`;
`--quick` is a year a hundred times smaller (a check that it runs). PostgreSQL runs on a server
of its own (tests/postgres/server.py; POSTGRES_BIN=/usr/lib/postgresql/15/bin for Debian's 15).
Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_bot_load import percentile  # noqa: E402
from bench.year_data import (  # noqa: E402
    Scale,
    Year,
    generate,
    load_later_postgres,
    load_later_sqlite,
    load_postgres,
    load_sqlite,
)
from demo.emulator import BotApiEmulator  # noqa: E402
from solver import first_solution  # noqa: E402

BOT = [str(ROOT / "bench" / "run_bot.py")]
TICK = os.sysconf("SC_CLK_TCK")
CONFIRM = "✅ Yes, delete"
# every board (a chat's and every chat's, all time and the week's, of all games and of one;
# the day's, the season's ratings), /stats, /tournament, the solo modes' (the group's): in the
# busiest group
READS = ("/top", "/top 24", "/top all", "/top all 24", "/top week", "/top week 24",
         "/top week all", "/top week all 24", "/top daily", "/top rating", "/top rating all",
         "/stats", "/tournament", "/storm top", "/streak top")
# ... and the solo modes' boards of everyone, asked in the asker's private chat
PRIVATE_READS = ("/storm top", "/streak top")
PRIVATELY = " (a private chat: everyone's)"
ORDER = ("empty", "year")  # the databases, measured in turns
FORGET_ANSWER = "/forget: the answer to ✅"
FORGET_ERASED = "/forget: its erasure's end"
RATIO_GOAL, STARTUP_GOAL = 1.5, 3.0
# /forget: the person's answer within a second, every part of the erasure within a minute
ANSWER_GOAL, ERASED_GOAL = 1.0, 60.0
EMPTY_FACTOR = 0.001
# The migration that fills the pages' summary (answered_rounds) from the history: the year is
# written at the schema before it (the bulk load sets no trigger off), then migrated, timed.
SUMMARISED = 19
# the bench asks faster than people do: the per-person and per-chat budgets (bot.runtime.doors)
# are not what it times
UNBOUNDED = {"PERSON_BUDGET": "10000,100000,10000", "CHAT_BUDGET": "10000,100000,10000"}
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
           "RATE_LIMIT": "off", **UNBOUNDED, **database.env}
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


async def forgotten(bot: Bot, db: Database, user: dict) -> dict[str, float]:
    """/forget in the person's private chat, then ✅: seconds from the press's delivery to the
    question's edit (the answer the person waits for), and to the end of their erasure (its
    note gone from the database: every part done)."""
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
    erased = await note_gone(db, chat) - update["_delivered_at"]
    return {FORGET_ANSWER: edit.at - update["_delivered_at"], FORGET_ERASED: erased}


async def note_gone(db: Database, user_id: int, limit: float = 300.0) -> float:
    """The moment (perf_counter) the person's /forget note left the database: their erasure's
    end, its last part done (looked for every 5 ms)."""
    ends = time.perf_counter() + limit
    while time.perf_counter() < ends:
        if not await noted(db, user_id):
            return time.perf_counter()
        await asyncio.sleep(0.005)
    raise SystemExit(f"the erasure of {user_id} did not end in {limit:.0f} s")


async def noted(db: Database, user_id: int) -> bool:
    """Whether a /forget of the person is noted (under way) in the database."""
    if db.path is not None:
        with contextlib.closing(sqlite3.connect(db.path, timeout=30)) as connection:
            return connection.execute("SELECT 1 FROM forgets WHERE user_id = ?",
                                      (user_id,)).fetchone() is not None
    import asyncpg

    connection = await asyncpg.connect(db.url)
    try:
        return bool(await connection.fetchval("SELECT COUNT(*) FROM forgets WHERE user_id = $1",
                                              user_id))
    finally:
        await connection.close()


Once = Callable[[str, int], Awaitable[dict[str, float]]]


async def in_turns(found: dict[str, dict[str, list[float]]], samples: int, once: Once,
                   warm: bool = True) -> None:
    """`once(database, i)` for i in range(samples) on each database in turn (the empty file
    first, then the year; the next time the year first), its figures added to `found`
    (database -> figure -> seconds); with `warm`, one more first, untimed."""
    for i in range(-1 if warm else 0, samples):
        for name in ORDER if i % 2 == 0 else ORDER[::-1]:
            figures = await once(name, i)
            for figure, seconds in figures.items() if i >= 0 else ():
                found[name].setdefault(figure, []).append(seconds)


async def measure_commands(bots: dict[str, Bot], dbs: dict[str, Database], samples: int
                           ) -> dict[str, dict[str, list[float]]]:
    """Every command on both bots in turn: the boards, /stats and /tournament in the busiest
    group, the solo modes' boards in private chats, the deal and a right answer in the ten
    busiest, then /forget of heavy players."""
    found: dict[str, dict[str, list[float]]] = {name: {} for name in dbs}
    askers = {name: [person(db.year, int(uid)) for uid in db.year.members[0][:samples].tolist()]
              for name, db in dbs.items()}
    for command in READS:
        async def read(name: str, i: int, command: str = command) -> dict[str, float]:
            busiest, asker = int(dbs[name].year.group_ids[0]), askers[name][i % len(askers[name])]
            return {command: (await said(bots[name], busiest, asker, command))[0]}
        await in_turns(found, samples, read)
    for command in PRIVATE_READS:
        async def alone(name: str, i: int, command: str = command) -> dict[str, float]:
            asker = askers[name][i % len(askers[name])]
            seconds = (await said(bots[name], asker["id"], asker, command, kind="private"))[0]
            return {command + PRIVATELY: seconds}
        await in_turns(found, samples, alone)

    async def played(name: str, i: int) -> dict[str, float]:
        return await deal_and_answer(bots[name], dbs[name].year, i)
    await in_turns(found, samples, played)

    async def forget(name: str, i: int) -> dict[str, float]:
        heavy = int(dbs[name].year.heavy_ids[i])
        return await forgotten(bots[name], dbs[name], person(dbs[name].year, heavy))
    await in_turns(found, BY_BOT, forget, warm=False)
    return found


async def deal_and_answer(bot: Bot, year: Year, i: int) -> dict[str, float]:
    """/play in one of the ten busiest groups (none changed its settings), then its right
    answer: each one's seconds."""
    chat = int(year.group_ids[i % 10])
    members = year.members[i % 10]
    player = person(year, int(members[i % len(members)]))
    dealing, deal, _ = await said(bot, chat, player, "/play")
    hand = [int(n) for n in re.findall(r"\d+", deal.splitlines()[0])]
    solution = first_solution(hand)
    if solution is None:
        raise SystemExit(f"no solution for the deal {deal!r}")
    answering, result, _ = await said(bot, chat, player, f"/a {solution}")
    if not result.startswith("✅"):
        raise SystemExit(f"the right answer did not win: {result!r}")
    return {"/play (the deal)": dealing, "a right answer": answering}


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
            moving = getattr(stores.people, "far", None) or stores.people.db  # type: ignore[attr-defined]
            with transactions(moving) as took:  # what the move runs on
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


PageAsk = tuple[str, str, int, str | None]  # (figure, page, asker, start parameter)


@contextlib.asynccontextmanager
async def page_server(db: Database) -> AsyncIterator[Callable[[PageAsk], Awaitable[float]]]:
    """The Mini App's pages (issue 47) served from this process over the database's stores:
    yields a request's timing, its one `POST /webapp/api/page` (initData signed as Telegram
    signs it) over loopback, seconds from the request to its whole answer."""
    from types import SimpleNamespace

    import httpx

    from bot.play.games import DAILY_GAME, DAILY_GAMES
    from bot.play.pages import Pages
    from bot.runtime.heap import settle
    from bot.store import open_stores
    from bot.text.i18n import texts_for
    from bot.text.languages import LANGUAGES
    from bot.webapp.init_data import sign, user_fields
    from bot.webapp.server import Face, serve

    year, token = db.year, "1:pages-bench"
    stores = await open_stores(db.path or "unused", db.url)
    # as the bot builds it (bot.play.services): achievements and the daily result's offer
    # read too; the daily's hand is never drawn for a page, only for a card
    pages = Pages(stores.pages, stores.ratings, clock=lambda: year.now,
                  achievements=stores.achievements,
                  daily=SimpleNamespace(store=stores.daily, game=DAILY_GAME.name,
                                        games=lambda: tuple(game.name for game in DAILY_GAMES),
                                        hand_of=lambda day, game=None: ()),
                  tournaments=stores.tournaments)

    async def member(chat_id: int, user_id: int) -> bool:
        return True  # Telegram's answer, cached by the bot: not what is timed here

    async def submit(user_id: int, chat_id: int, work: Coroutine[Any, Any, None],
                     page: bool = False) -> None:
        await work  # alone on the bot: no one else's turn to take

    face = Face(SimpleNamespace(pages=pages), token, lambda: True,  # type: ignore
                member, submit, clock=lambda: year.now)
    server, port = await serve(face, 0)
    # every language's CLDR data read before anything is timed, as in a bot that has answered
    # in each language: Babel reads a locale's file at its first number (10 ms), and the pages
    # asked of the year in turn with the empty file's met languages the empty file's had not
    # (its player's page 1.4-1.8x on the first pass of a process, about 1.0x on later ones)
    for language in LANGUAGES:
        for private in (False, True):
            texts_for(language, private).number(1)
    settle()  # as the bot does once open (bot/runtime/heap.py)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/webapp/") as client:
            async def ask(asked: PageAsk) -> float:
                name, page, user, start = asked
                data = sign(user_fields(user, "P", int(year.now), "en", start), token)
                began = time.perf_counter()
                response = await client.post("api/page", json={"init_data": data,
                                                               "page": page})
                took = time.perf_counter() - began
                if response.status_code != 200:
                    raise SystemExit(f"{name} {page}: {response.status_code} {response.text}")
                return took
            yield ask
    finally:
        server.stop()
        await stores.close()


def page_asks(year: Year, samples: int) -> dict[str, list[PageAsk]]:
    """What each page is asked for: the player's page of the busiest group's members and of
    the heavy players (the longest histories), the group's page of the ten busiest groups
    (the busiest most often), the running tournament's page (its key in the link), each
    where this code has the page."""
    from bot.play.pages.links import read_page

    heavy = [int(h) for h in year.heavy_ids.tolist()][:samples // 2]
    kept = frozenset(heavy)
    members = [u for u in map(int, year.members[0].tolist()) if u not in kept]
    players = members[:samples - len(heavy)] + heavy  # a heavy player's page: the longest
    groups = [int(c) for c in year.group_ids[:10].tolist()]
    chosen = [groups[0] if i % 3 == 0 else groups[i % len(groups)] for i in range(samples)]
    [(tournament_id, code, *_)] = year.tournaments["tournaments"][:1]
    asks = {"player's page (request)": [("player's page (request)", f"u{u}", u, None)
                                        for u in players],
            "group's page (request)": [("group's page (request)", f"g{chat}", players[0],
                                        f"g{chat}") for chat in chosen],
            "tournament's page (request)": [("tournament's page (request)",
                                             f"t{tournament_id}_{code}", players[0], None)]}
    return {name: asked for name, asked in asks.items() if read_page(asked[0][1]) is not None}


async def page_requests(dbs: dict[str, Database], samples: int
                        ) -> dict[str, dict[str, list[float]]]:
    """Each page's request to both databases' servers in turn, `samples` times after one
    untimed: database -> page -> seconds."""
    found: dict[str, dict[str, list[float]]] = {name: {} for name in dbs}
    asks = {name: page_asks(db.year, samples) for name, db in dbs.items()}
    async with page_server(dbs["empty"]) as empty, page_server(dbs["year"]) as year:
        servers = {"empty": empty, "year": year}
        for figure in asks["year"]:
            async def ask(name: str, i: int, figure: str = figure) -> dict[str, float]:
                wanted = asks[name][figure]
                return {figure: await servers[name](wanted[i % len(wanted)])}
            await in_turns(found, samples, ask)
    return found


# --- the run -------------------------------------------------------------------------------

async def make(name: str, scale: Scale, backend: str, folder: Path, server: object | None,
               now: float, schema: int | None = None) -> Database:
    """A fresh database of the backend, migrated by the project's code (to `schema`, or the
    latest, each step after the bulk load timed: what a start-up on a year-old database
    runs), the year written in."""
    began = time.perf_counter()
    aged = schema is None and name != "empty"  # the empty file: a young bot, nothing expired
    year = generate(scale, now, expired_before=retention_cutoff(now) if aged else None)
    generated = time.perf_counter() - began
    if backend == "sqlite":
        path = folder / f"{name}.sqlite3"
        db = Database(name, year, {"DATABASE_PATH": str(path)}, path=path)
    else:
        from tests.postgres import admin

        await admin(server, f"CREATE DATABASE {name}")  # type: ignore[arg-type]
        url = server.url(name)  # type: ignore[attr-defined]
        db = Database(name, year, {"DATABASE_URL": url}, url=url)
    await opened(db, schema or SUMMARISED - 1)
    path, url = db.path, db.url or ""
    steps = load_sqlite(path, year) if path is not None else await load_postgres(url, year)
    if schema is None:  # the pages' summary as an upgrade fills it, then the steps after it
        steps |= await migrations(db)
        steps["tournaments, themes and the solo modes"] = load_later_sqlite(path, year) \
            if path is not None else await load_later_postgres(url, year)
        if path is None:
            await vacuum(url, "answered_rounds")  # as autovacuum does after the inserts
    db.steps = {"generate": generated, **steps}
    db.written = time.perf_counter() - began
    return db


async def opened(db: Database, schema: int) -> None:
    """The database opened by the project's code, migrated to `schema`, and closed."""
    if db.path is not None:
        from bot.store.sqlite import open_sqlite

        await (await open_sqlite(db.path, migrate_to=schema)).close()
    else:
        from bot.store.postgres import open_postgres

        await (await open_postgres(db.url or "", migrate_to=schema)).close()


async def migrations(db: Database) -> dict[str, float]:
    """The schema's steps from SUMMARISED on, each opened and timed as a start-up runs it on the
    year (a step's new index on a big table is built there): those over a second, by number."""
    from bot.store.schema import LATEST

    took: dict[str, float] = {}
    for number in range(SUMMARISED, LATEST + 1):
        began = time.perf_counter()
        await opened(db, number)
        seconds = time.perf_counter() - began
        if seconds >= 1.0 or number == LATEST:
            took[f"migration {number}"] = seconds
    return took


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


async def week_moved(db: Database) -> list[float]:
    """Every chat's week's totals (schema step 31) moved on a day later, as the housekeeping
    does after a day's stop: the seconds of each part (an hour of the year's rounds)."""
    from bot.store import open_stores

    stores = await open_stores(db.path or "unused", db.url)
    if not hasattr(stores.rounds, "expire_week"):  # a commit from before step 31
        await stores.close()
        return []
    try:
        until, done = db.year.now - 7 * 86400.0 + 86400.0, []
        while True:
            began = time.perf_counter()
            if not await stores.rounds.expire_week(until, parts=1):
                return done
            done.append(time.perf_counter() - began)
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
    commands: dict[str, list[float]]  # the bot's commands and the pages' requests, in turns
    startups: list[float]
    backup: float = 0.0
    moves: list[float] = dataclasses.field(default_factory=list)
    move_longest: list[float] = dataclasses.field(default_factory=list)
    erasures: list[float] = dataclasses.field(default_factory=list)
    erasure_longest: list[float] = dataclasses.field(default_factory=list)
    size: int = 0
    consistent: bool = False
    retention: list[tuple[int, float]] = dataclasses.field(default_factory=list)
    week_moves: list[float] = dataclasses.field(default_factory=list)
    writes: float = 0.0


async def measure(dbs: dict[str, Database], folder: Path, samples: int, moves: int,
                  binaries: Path | None) -> dict[str, Measured]:
    """Every command and page on both databases in turn (each database's bot running beside
    the other's), then what is timed on each alone."""
    checked = {name: await consistent(db) for name, db in dbs.items()}
    pages = await page_requests(dbs, samples)  # before /forget takes the heavy players
    startups: dict[str, list[float]] = {name: [] for name in dbs}
    bots: dict[str, Bot] = {}
    for name in dbs:
        (folder / name).mkdir(exist_ok=True)
    try:
        for turn in range(3):
            for name, db in dbs.items():
                bot = await start_bot(db, folder / name)
                startups[name].append(bot.startup)
                if turn < 2:
                    await stop_bot(bot)
                else:
                    bots[name] = bot
        for bot in bots.values():
            await quiet(bot)
        commands = await measure_commands(bots, dbs, samples)
        backups = {name: backup(db, folder / name, binaries) for name, db in dbs.items()}
    finally:
        for bot in bots.values():
            await stop_bot(bot)
    found = {name: Measured({**pages[name], **commands[name]}, startups[name], backups[name],
                            consistent=checked[name]) for name in dbs}
    for name, db in dbs.items():
        await beside_the_bot(found[name], db, moves)
    return found


async def beside_the_bot(measured: Measured, db: Database, moves: int) -> None:
    """What is timed on one database alone, after the bot: chats' moves, the rest of the
    heavy players' erasures on the stores (each transaction timed), the size, the retention a
    day later, and writes."""
    measured.moves, measured.move_longest = await chat_moves(db, min(moves,
                                                                     len(db.year.group_ids)))
    measured.erasures, measured.erasure_longest = await forgets(
        db, [int(h) for h in db.year.heavy_ids.tolist()[BY_BOT:]])
    measured.size = await size_of(db)
    measured.retention = await retention(db)
    measured.week_moves = await week_moved(db)
    measured.writes = await writes(db)


def report(backend: str, empty: Database, year: Database, a: Measured, b: Measured) -> None:
    s = year.year.scale
    print(f"\n== {backend}: the year {s.chats:,} chats, {s.players:,} players, "
          f"{year.year.round_count:,} rounds, {year.year.answer_count:,} answers, "
          f"{len(year.year.daily):,} daily results, {len(year.year.matches):,} matches, "
          f"{len(year.year.tournaments['tournaments']):,} tournaments, "
          f"{s.heavy} heavy players with {heavy_answers(year.year):,.0f} answers each; the "
          f"empty file {empty.year.round_count:,} rounds, {empty.year.answer_count:,} answers, "
          f"the heavy players with {heavy_answers(empty.year):,.0f} each")
    steps = ", ".join(f"{k} {v:.1f} s" for k, v in (year.steps or {}).items())
    print(f"written in {year.written:.0f} s ({steps}); scores equal their recount: "
          f"{'yes' if a.consistent and b.consistent else 'NO'}")
    print(f"{'command (the empty file and the year in turns)':<46}{'empty p50':>10}{'p99':>8}"
          f"{'year p50':>10}{'p99':>8}{'p50s':>7}{'p99s':>7}  goal met")
    for name in a.commands:
        line(name, a.commands[name], b.commands[name])
    print("beside the bot, each database alone:")
    line("a chat's move (store)", a.moves, b.moves, goal=False)
    line("  its longest transaction", a.move_longest, b.move_longest, goal=False)
    line("/forget's erasure (store)", a.erasures, b.erasures, goal=False)
    line("  its longest transaction", a.erasure_longest, b.erasure_longest, goal=False)
    e0, y0 = statistics.median(a.startups), statistics.median(b.startups)
    print(f"{'start-up to the first poll':<46}{e0:>9.2f}s{max(a.startups):>7.2f}s"
          f"{y0:>9.2f}s{max(b.startups):>7.2f}s{y0 / e0:>7.2f}{'':>7}  "
          f"{'yes' if max(b.startups) < STARTUP_GOAL else 'NO'} (< {STARTUP_GOAL:.0f} s)")
    print(f"{'a backup':<46}{a.backup:>9.2f}s{'':>8}{b.backup:>9.2f}s")
    print(f"{'file size':<46}{a.size / 1e6:>8.1f}MB{'':>8}{b.size / 1e6:>8.1f}MB   "
          f"{b.size / year.year.round_count:.0f} bytes a round")
    print(f"{'writes: 2,000 rounds, 8 at once':<46}{2000 / a.writes:>8.0f}/s{'':>8}"
          f"{2000 / b.writes:>8.0f}/s   rounds a second (five writes each)")
    if b.retention:
        times = [seconds for _, seconds in b.retention]
        print(f"the retention a day later: {sum(n for n, _ in b.retention):,} rounds in "
              f"{len(times)} transactions, {percentile(times, 0.5) * 1000:.1f} ms each "
              f"(p50), {max(times) * 1000:.1f} ms the longest")
    if b.week_moves:
        moves = b.week_moves
        print(f"the week's totals a day later: {len(moves)} parts (an hour of rounds each), "
              f"{percentile(moves, 0.5) * 1000:.1f} ms each (p50), "
              f"{max(moves) * 1000:.1f} ms the longest")


def heavy_answers(year: Year) -> float:
    """How many answers each heavy player has, on average (what their /forget deletes)."""
    import numpy as np

    return float(np.isin(year.answers["user_id"], year.heavy_ids).sum() / len(year.heavy_ids))


def line(name: str, empty: list[float], year: list[float], goal: bool = True) -> None:
    """A row of the table: the p50 and p99 of each, the ratios of the year's to the empty
    file's, and the goal: the median within RATIO_GOAL of the empty file's; /forget's answer
    under ANSWER_GOAL seconds and its erasure's end under ERASED_GOAL."""
    e50, e99 = percentile(empty, 0.5) * 1000, percentile(empty, 0.99) * 1000
    y50, y99 = percentile(year, 0.5) * 1000, percentile(year, 0.99) * 1000
    if name == FORGET_ANSWER:
        met = f"{'yes' if max(year) < ANSWER_GOAL else 'NO'} (< {ANSWER_GOAL:.0f} s)"
    elif name == FORGET_ERASED:
        met = f"{'yes' if max(year) < ERASED_GOAL else 'NO'} (< {ERASED_GOAL:.0f} s)"
    else:
        met = ("yes" if y50 <= e50 * RATIO_GOAL else "NO") if goal else ""
    print(f"{name:<46}{e50:>8.1f}ms{e99:>6.1f}ms{y50:>8.1f}ms{y99:>6.1f}ms{y50 / e50:>7.2f}"
          f"{y99 / e99:>7.2f}  {met} (n={len(year)})")


async def run(backend: str, scale: Scale, samples: int, moves: int, keep: Path | None,
              upgrading: bool = False) -> None:
    folder = Path(tempfile.mkdtemp(prefix="year-", dir=keep))
    server = None
    binaries = None
    try:
        if backend == "postgres":
            from tests.postgres.server import PostgresServer, major_version

            server = PostgresServer().start()
            binaries = server.binaries
            print(f"PostgreSQL {major_version(binaries)} ({binaries})")
        now = time.time()
        empty = await make("empty", scale.shrunk(EMPTY_FACTOR), backend, folder, server, now)
        year = await make("year", scale, backend, folder, server, now)
        found = await measure({"empty": empty, "year": year}, folder, samples, moves, binaries)
        report(backend, empty, year, found["empty"], found["year"])
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
    parser.add_argument("--samples", type=int, default=20, help="times each command is sent")
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

