"""The envelope of one bot process (docs/scaling.md): what one process and one solver worker do a
second, and what the database writes a second, on SQLite and on PostgreSQL.

    python bench/bench_envelope.py [--runs 3] [--only bot solver store] [--chats 200]

bot: the real bot (bench/run_bot.py, RATE_LIMIT=off, 2 solver workers) against the Bot API
    emulator, on SQLite and on a PostgreSQL server of its own (durable: fsync and synchronous
    commits on), a fresh database each run. Per run: a burst (every chat's /play at once, then
    two wrong answers and a right one from each: bench_bot_load's burst, its rate from the first
    update to the last reply), chatter (plain messages in chats with no round), and wrong answers
    typed in chats with a round on (each judged and recorded; the deal's status edited at most
    once a second). Chatter's rate is the updates' claims (each update's first write, stamped
    with the time it began to be handled) over their span; CPU per update is the bot process's
    user and system time (/proc) from idle to idle over the updates (its solver workers apart).
solver: one process's work, as one pool worker does it: 24 deals made with their analysis (what
    the stock's shelves hold: a hand of the asked kind, every solution, the hint steps) for 4,
    5 and 6 numbers, Countdown and Yahtzee deals, and /solve's every distinct solution of random
    hands of 4, 5 and 6 numbers 1..13 for 24.
store: write transactions a second through the project's store API, one after another (as one
    process's handlers mostly issue them) and from 16 tasks at once: a round's writes (open it,
    three answers, close it won: the close scores it in the same statement), and update claims.
    PostgreSQL both durable and as the tests run it (fsync and synchronous commits off); SQLite
    as the bot opens it (WAL, synchronous=NORMAL).

Each figure is the median of --runs runs; the machine's load average is printed at the start and
the end. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from itertools import product
from math import prod
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

import tests.postgres.server as pg_server  # noqa: E402
from bench.bench_bot_load import (  # noqa: E402
    Run,
    burst,
    chats,
    cpu_seconds,
    idle,
    player,
    sent_to,
    start,
    stop,
)
from bot.play.games import GAMES  # noqa: E402
from bot.play.games.twentyfour.rules import ready, solutions  # noqa: E402
from bot.play.rules.records import PlayOptions  # noqa: E402
from bot.store.postgres import open_postgres  # noqa: E402
from bot.store.sqlite import open_sqlite  # noqa: E402
from bot.store.stores import Stores  # noqa: E402

DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
PER_CHAT = 10  # chatter and wrong answers: updates per chat, each from a player of its own
TASKS = 16  # concurrent writers in the store's second measure
HANDS = 20_000  # random hands per size for /solve (no cache in the solver: each is solved)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# --- the bot process -------------------------------------------------------------------------

async def claims_span(folder: Path, url: str | None, ids: list[int]) -> tuple[int, float]:
    """How many of the updates `ids` the bot claimed, and the seconds from the first claim to
    the last."""
    low, high = min(ids), max(ids)
    query = "SELECT count(*), min(at), max(at) FROM handled_updates WHERE update_id BETWEEN {} " \
            "AND {}"
    if url is None:
        with sqlite3.connect(folder / "load.sqlite3") as connection:
            count, first, last = connection.execute(query.format("?", "?"), (low, high)).fetchone()
    else:
        connection = await asyncpg.connect(url)
        try:
            count, first, last = await connection.fetchrow(query.format("$1", "$2"), low, high)
        finally:
            await connection.close()
    return int(count), float(last - first) if count else float("nan")


async def flood(run: Run, folder: Path, url: str | None, lines: list[tuple[int, int, str]]
                ) -> dict:
    """Each (chat, player, text) said at once: the updates a second the bot claimed them at,
    and its CPU time per update from idle to idle."""
    await idle(run.process)
    cpu = cpu_seconds(run.process)
    before = len(run.emulator.updates_log)
    for chat, number, text in lines:
        await run.emulator.say(chat, player(run, chat, number), text)
    ids = [u["update_id"] for u in run.emulator.updates_log[before:]]
    ends = time.perf_counter() + 120  # polled: chatter makes no sends to wake a wait_for
    while run.emulator.updates and time.perf_counter() < ends:
        await asyncio.sleep(0.02)
    used = await idle(run.process) - cpu
    claimed, span = await claims_span(folder, url, ids)
    return {"rate": (claimed - 1) / span if span > 0 else float("nan"),
            "cpu_ms": used * 1000 / len(ids), "claimed": claimed, "fed": len(ids)}


def wrong_answers(deal_text: str, count: int) -> list[str]:
    """`count` plain answers that use the hand's numbers once each and do not make 24."""
    hand = [int(n) for n in re.findall(r"\d+", deal_text.splitlines()[0])]
    found = []
    for signs in product("+*", repeat=len(hand) - 1):
        text = str(hand[0]) + "".join(s + str(n) for s, n in zip(signs, hand[1:], strict=True))
        value = sum(prod(int(n) for n in term.split("*")) for term in text.split("+"))
        if value != 24:
            found.append(text)
    return [found[i % len(found)] for i in range(count)]


async def bot_run(url: str | None, chats_count: int, folder: Path) -> dict:
    """One bot process (on PostgreSQL at `url`, else SQLite in `folder`): its three phases."""
    more = {"DATABASE_URL": url} if url else {}
    run = await start(False, 2, folder, **more)
    try:
        warm = await burst(run, chats(0, 20), 60)
        assert warm["complete"], "the warm-up burst was not answered"
        found = {"burst": await burst(run, chats(100, chats_count), 120)}
        quiet = chats(3000, chats_count)
        for chat in quiet:
            run.emulator.chat(chat)
        found["chatter"] = await flood(run, folder, url, [
            (chat, n, "nice weather today, isn't it") for n in range(PER_CHAT) for chat in quiet])
        playing = chats(6000, chats_count)
        for chat in playing:
            run.emulator.chat(chat)
            await run.emulator.say(chat, player(run, chat, 0), "/play")
        assert await sent_to(run, playing, 1, 120), "the deals did not all come"
        deals = {s.chat_id: s.text for s in run.emulator.sent if s.chat_id in set(playing)}
        answers = {chat: wrong_answers(text, PER_CHAT) for chat, text in deals.items()}
        found["wrong"] = await flood(run, folder, url, [
            (chat, n, answers[chat][n]) for n in range(PER_CHAT) for chat in playing])
    finally:
        await stop(run)
    return found


async def fresh_database(server: pg_server.PostgresServer, name: str) -> str:
    connection = await asyncpg.connect(server.url())
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    url = server.url(name)
    await (await open_postgres(url)).close()  # migrated before the bot starts
    return url


async def bot_envelope(runs: int, chats_count: int) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {"SQLite": [], "PostgreSQL": []}
    for number in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            results["SQLite"].append(await bot_run(None, chats_count, Path(folder)))
        print(f"  bot on SQLite, run {number + 1} done", flush=True)
    with durable_server() as server:
        for number in range(runs):
            url = await fresh_database(server, f"envelope_{number}")
            with tempfile.TemporaryDirectory() as folder:
                results["PostgreSQL"].append(await bot_run(url, chats_count, Path(folder)))
            print(f"  bot on PostgreSQL, run {number + 1} done", flush=True)
    return results


@contextmanager
def durable_server(durable: bool = True) -> Iterator[pg_server.PostgresServer]:
    """A PostgreSQL server of its own: durable (every commit flushed to disk, as a production
    server runs), or with the tests' settings (no fsync, asynchronous commits)."""
    saved = pg_server.SETTINGS
    pg_server.SETTINGS = {**saved, **DURABLE} if durable else saved
    try:
        server = pg_server.PostgresServer().start()
    finally:
        pg_server.SETTINGS = saved
    try:
        yield server
    finally:
        server.stop()


def print_bot(results: dict[str, list[dict]], chats_count: int) -> None:
    print(f"\nONE BOT PROCESS (RATE_LIMIT=off, 2 solver workers; medians of "
          f"{len(results['SQLite'])} runs; {chats_count} chats)")
    print(f"{'measure':<58}{'SQLite':>12}{'PostgreSQL':>12}")
    rows: list[tuple[str, str, str, str]] = [
        ("burst (deal + 2 wrong + 1 right each): updates/s", "burst", "rate", "{:.0f}"),
        ("burst: CPU per update, ms", "burst", "cpu_ms", "{:.2f}"),
        (f"chatter, no round ({PER_CHAT} a chat): updates/s", "chatter", "rate", "{:.0f}"),
        ("chatter: CPU per update, ms", "chatter", "cpu_ms", "{:.2f}"),
        (f"wrong answers, round on ({PER_CHAT} a chat): updates/s", "wrong", "rate", "{:.0f}"),
        ("wrong answers: CPU per update, ms", "wrong", "cpu_ms", "{:.2f}"),
    ]
    for name, phase, key, form in rows:
        cells = [form.format(median([r[phase][key] for r in results[b]])) for b in results]
        print(f"{name:<58}" + "".join(f"{c:>12}" for c in cells))
    for backend, found in results.items():
        every = all(r["burst"]["complete"] for r in found)
        claimed = [f"{r['chatter']['claimed']}/{r['chatter']['fed']}, "
                   f"{r['wrong']['claimed']}/{r['wrong']['fed']}" for r in found]
        print(f"  {backend}: every burst answered: {every}; claimed/fed (chatter, wrong): "
              f"{'; '.join(claimed)}")
        for phase in ("burst", "chatter", "wrong"):
            print(f"    {phase}: rates " + ", ".join(f"{r[phase]['rate']:.0f}" for r in found)
                  + "; CPU ms " + ", ".join(f"{r[phase]['cpu_ms']:.2f}" for r in found))


# --- the solver, per worker ------------------------------------------------------------------

def rate_of(work: Callable[[int], object], seconds: float) -> float:
    """Calls of work(i) a second, i = 0, 1, 2, ..., for about `seconds` (at least 3 calls)."""
    began = time.perf_counter()
    done = 0
    while done < 3 or time.perf_counter() - began < seconds:
        work(done)
        done += 1
    return done / (time.perf_counter() - began)


def solver_envelope(runs: int, seconds: float) -> dict[str, list[float]]:
    countdown, countdown_args = GAMES["countdown"].rules.dealer(PlayOptions())
    yahtzee, yahtzee_args = GAMES["yahtzee"].rules.dealer(PlayOptions())
    draw = random.Random(24)
    hands = {count: [tuple(draw.randint(1, 13) for _ in range(count)) for _ in range(HANDS)]
             for count in (4, 5, 6)}
    works: dict[str, Callable[[int], object]] = {
        "24 deal with its analysis, 4 numbers": lambda i: ready(i, None, 4, 24),
        "24 deal with its analysis, 5 numbers": lambda i: ready(i, None, 5, 24),
        "24 deal with its analysis, 6 numbers": lambda i: ready(i, None, 6, 24),
        "Countdown deal with its analysis": lambda i: countdown(i, *countdown_args),
        "Yahtzee deal with its analysis": lambda i: yahtzee(i, *yahtzee_args),
        "/solve, 4 random numbers 1..13": lambda i: solutions(hands[4][i % HANDS], 24),
        "/solve, 5 random numbers 1..13": lambda i: solutions(hands[5][i % HANDS], 24),
        "/solve, 6 random numbers 1..13": lambda i: solutions(hands[6][i % HANDS], 24),
    }
    found: dict[str, list[float]] = {name: [] for name in works}
    for number in range(runs):
        for name, work in works.items():
            found[name].append(rate_of(work, seconds))
        print(f"  solver, run {number + 1} done", flush=True)
    return found


def print_solver(found: dict[str, list[float]]) -> None:
    print("\nONE SOLVER WORKER (one process, one core; medians)")
    print(f"{'work':<50}{'a second':>10}{'ms each':>10}   runs")
    for name, rates in found.items():
        rate = median(rates)
        print(f"{name:<50}{rate:>10.1f}{1000 / rate:>10.2f}   "
              + ", ".join(f"{r:.1f}" for r in rates))


# --- the database ----------------------------------------------------------------------------

PLAYERS = 3


async def round_writes(stores: Stores, chat: int, number: int) -> int:
    """One round's writes, as the bot makes them: open, three answers (two wrong), close won
    (scored by the close). Five write transactions."""
    now = time.time()
    opened = await stores.rounds.open_round(chat, "24", (3, 8, 3, 8), 24, "hard", 30, "en",
                                            now, now + 120, started_by=chat * 10)
    assert opened is not None
    for player_number in range(PLAYERS):
        right = player_number == PLAYERS - 1
        await stores.rounds.record_answer(opened.id, chat * 10 + player_number,
                                          "8/(3-8/3)" if right else "3+8+3+8", right, now + 1)
    closed = await stores.rounds.close_round(opened.id, "won", now + 2, chat * 10 + 2,
                                             "8/(3-8/3)", 30, 2.0)
    assert closed
    return 2 + PLAYERS


async def timed_writes(work: Callable[[int], Awaitable[int]], seconds: float,
                       tasks: int = 1) -> float:
    """Write transactions a second of `tasks` loops of work(i) (each returns how many it made),
    for about `seconds`."""
    counter = iter(range(10**9))
    made = 0
    ends = time.perf_counter() + seconds

    async def loop() -> None:
        nonlocal made
        while time.perf_counter() < ends:
            got = await work(next(counter))  # awaited first: `made += await ...` would read
            made += got  # `made` before the await and lose the other tasks' counts

    began = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(tasks)))
    return made / (time.perf_counter() - began)


async def store_rates(stores: Stores, seconds: float, base: int) -> dict[str, float]:
    chats_count = 4 * TASKS
    for chat in range(base, base + chats_count):  # chats and players exist, as they would
        await stores.people.remember_chat(chat, "group", "bench")
        for player_number in range(PLAYERS):
            await stores.people.remember_user(chat * 10 + player_number, "P")

    def next_chat(i: int) -> int:  # a chat with no round open: at most TASKS rounds are
        return base + i % chats_count  # being written at once, each closed before its task goes on

    claims = iter(range(base * 1000, base * 1000 + 10**8))
    # warmed first, not counted: PostgreSQL's pool grows to TASKS connections on demand, each
    # preparing its statements anew, which would otherwise be most of a short measure
    await timed_writes(lambda i: round_writes(stores, next_chat(i), i), 0.5, TASKS)
    found = {
        "round's writes, one after another": await timed_writes(
            lambda i: round_writes(stores, next_chat(i), i), seconds),
        f"round's writes, {TASKS} tasks at once": await timed_writes(
            lambda i: round_writes(stores, next_chat(i), i), seconds, TASKS),
        "update claims, one after another": await timed_writes(
            lambda i: _claim(stores, next(claims)), seconds),
        f"update claims, {TASKS} tasks at once": await timed_writes(
            lambda i: _claim(stores, next(claims)), seconds, TASKS),
    }
    return found


async def _claim(stores: Stores, update_id: int) -> int:
    assert await stores.updates.claim_update(update_id, time.time())
    return 1


async def store_envelope(runs: int, seconds: float) -> dict[str, dict[str, list[float]]]:
    results: dict[str, dict[str, list[float]]] = {}

    def keep(backend: str, found: dict[str, float]) -> None:
        for name, rate in found.items():
            results.setdefault(backend, {}).setdefault(name, []).append(rate)

    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            stores = await open_sqlite(Path(folder) / "store.sqlite3")
            try:
                keep("SQLite (WAL, synchronous=NORMAL)", await store_rates(stores, seconds, 1000))
            finally:
                await stores.close()
    for durable, label in ((True, "PostgreSQL, durable"), (False, "PostgreSQL, no fsync")):
        with durable_server(durable) as server:
            for number in range(runs):
                url = await fresh_database(server, f"store_{number}")
                stores = await open_postgres(url)
                try:
                    keep(label, await store_rates(stores, seconds, 1000))
                finally:
                    await stores.close()
        print(f"  store on {label} done", flush=True)
    return results


def print_store(results: dict[str, dict[str, list[float]]]) -> None:
    print("\nTHE DATABASE: write transactions a second through the store API (medians)")
    names = list(next(iter(results.values())))
    backends = list(results)
    print(f"{'writes':<40}" + "".join(f"{b:>34}" for b in backends))
    for name in names:
        cells = [f"{median(rates):.0f} ({', '.join(f'{r:.0f}' for r in rates)})"
                 for rates in (results[b][name] for b in backends)]
        print(f"{name:<40}" + "".join(f"{c:>34}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="how long each solver and store measure runs")
    parser.add_argument("--only", nargs="+", choices=("bot", "solver", "store"),
                        default=["bot", "solver", "store"])
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    found: dict[str, Any] = {}
    if "solver" in args.only:
        found["solver"] = solver_envelope(args.runs, args.seconds)
    if "store" in args.only:
        found["store"] = asyncio.run(store_envelope(args.runs, args.seconds))
    if "bot" in args.only:
        found["bot"] = asyncio.run(bot_envelope(args.runs, args.chats))
    if "bot" in found:
        print_bot(found["bot"], args.chats)
    if "solver" in found:
        print_solver(found["solver"])
    if "store" in found:
        print_store(found["store"])
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
