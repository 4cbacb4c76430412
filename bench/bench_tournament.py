"""A tournament between many groups (issue 58), on one process and on the cluster, against the
Bot API emulator on this machine with Telegram's flood limits (30 messages a second, 429 past
them) and RATE_LIMIT on (SEND_RATE 30: a tournament spreads its deals at 25 a second).

Each run: --groups groups (300), one makes a tournament of --rounds rounds of 24, the others join
it, it starts; in every round every group's player answers right ANSWER_AFTER seconds after
their own group's deal arrived, and the bench waits for every group's board. Measured per round:
the spread of the deals' arrival (first to last, and the order they came in: drawn per round),
each group's clock against its own deal (the round's stored start against the moment its deal
reached Telegram), and each winner's time as stored against the time they took from their own
group's deal (their answer's moment less their deal's arrival). Counted over the run: rounds lost
(a group without a deal, a result or a board of a round) and results twice (a deal, a group's
result or a board shown twice).

The runs: (1) the one process (`python -m bot`, SQLite); (2) the cluster (PostgreSQL, NATS, an
ingress, 3 workers); (3) the cluster with a worker killed (SIGKILL) while round 2 is being dealt,
one that does not run the schedule; (4) the cluster with the worker running the schedule killed
while round 2 is being dealt. Each of (3) and (4) must finish every round.

`python bench/bench_tournament.py [--groups 300] [--rounds 3] [--only one|cluster|kill|owner]`.
Loopback only; every wait is bounded; the servers and processes are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bench.bench_bot_load import Run, chats, percentile  # noqa: E402
from bench.bench_bot_load import start as start_single  # noqa: E402
from bench.bench_bot_load import stop as stop_single  # noqa: E402
from bench.bench_cluster import Cluster, database  # noqa: E402
from demo.broker_server import BrokerServer  # noqa: E402
from demo.postgres_server import PostgresServer  # noqa: E402
from solver import first_solution  # noqa: E402

ANSWER_AFTER = 1.0  # seconds after its own group's deal arrived each group's player answers
PAUSE = "2"  # TOURNAMENT_PAUSE: seconds between a round's last board and the next deal
WAIT = 400.0  # the longest wait for a round's deals, results or boards (a take-over in it)
CODE = re.compile(r"Code: ([A-Z0-9]{6})")
HAND = re.compile(r"^(\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)
Stored = dict[tuple[int, int], tuple[float, float | None]]  # (group, round) -> start, win time
Reader = Callable[[list[int]], Awaitable[Stored]]


@dataclass
class Round:
    """What one round of one run measured."""

    spread: float = 0.0  # seconds from the first deal's arrival to the last's
    order: list[int] = field(default_factory=list)  # the groups in the order their deals came
    clock: list[float] = field(default_factory=list)  # a group's deal's arrival less its start
    timed: list[float] = field(default_factory=list)  # stored win time less the time taken


def said(run: Run, chat: int, pattern: str) -> list:
    return [s for s in run.emulator.sent if s.chat_id == chat and re.search(pattern, s.text)]


async def every(run: Run, groups: list[int], pattern: str, timeout: float = WAIT) -> bool:
    """Wait until every group was sent a message matching `pattern`."""
    return await run.emulator.wait_for(
        lambda: all(said(run, g, pattern) for g in groups), timeout)


async def made(run: Run, groups: list[int], rounds: int) -> None:
    """The tournament made in the first group, joined by every other, started."""
    emulator = run.emulator
    for n, group in enumerate(groups):
        emulator.chat(group, "supergroup", f"Group {n}")
        emulator.promote(group, player(run, group)["id"], "creator")
    await emulator.say(groups[0], player(run, groups[0]),
                       f"/tournament new Bench Cup rounds={rounds} seconds=120 in 60")
    assert await every(run, groups[:1], "Code: ", 60), "the tournament was not made"
    code = CODE.search(said(run, groups[0], "Code: ")[0].text)
    assert code is not None
    for group in groups[1:]:
        await emulator.say(group, player(run, group), f"/tournament join {code.group(1)}")
    assert await every(run, groups[1:], "This group joined", WAIT), "not every group joined"
    await emulator.say(groups[0], player(run, groups[0]), "/tournament start")


def player(run: Run, group: int) -> dict:
    return run.emulator.user(2_000_000 + abs(group), f"P{abs(group) % 1000}")


async def answer_each(run: Run, groups: list[int], number: int, rounds: int) -> dict[int, float]:
    """Each group's player answers right ANSWER_AFTER seconds after their deal arrived: the
    moment (perf_counter) each answer was written."""
    written: dict[int, float] = {}

    async def answer(group: int) -> None:
        deal = said(run, group, rf"round {number} of {rounds}, the same hand")[0]
        hand = HAND.search(deal.text)
        assert hand is not None, deal.text
        right = first_solution([int(n) for n in hand.groups()])
        await asyncio.sleep(max(0.0, deal.at + ANSWER_AFTER - time.perf_counter()))
        written[group] = time.perf_counter()
        await run.emulator.say(group, player(run, group), f"/a {right}")

    await asyncio.gather(*(answer(group) for group in groups))
    return written


async def play(run: Run, groups: list[int], rounds: int, read: Reader,
               kill: Kill | None = None) -> dict:
    """The whole tournament; what it measured."""
    began = time.perf_counter()
    await made(run, groups, rounds)
    measured: list[Round] = []
    answered: dict[tuple[int, int], float] = {}
    for number in range(1, rounds + 1):
        deal = rf"round {number} of {rounds}, the same hand"
        if kill is not None and number == kill.round:
            await run.emulator.wait_for(lambda d=deal: sum(bool(said(run, g, d)) for g in groups)
                                        >= len(groups) // 3, WAIT)
            kill.pid = await kill.choose()
            os.kill(kill.pid, 9)
            kill.at = time.perf_counter()
        if not await every(run, groups, deal):
            missing = [g for g in groups if not said(run, g, deal)]
            raise SystemExit(f"round {number}: {len(missing)} groups were never dealt it")
        written = await answer_each(run, groups, number, rounds)
        answered.update({(g, number): at for g, at in written.items()})
        if not await every(run, groups, rf"round {number} of {rounds} is over in every group"):
            raise SystemExit(f"round {number}: not every group was shown its board")
        arrivals = {g: said(run, g, deal)[0].at for g in groups}
        measured.append(Round(spread=max(arrivals.values()) - min(arrivals.values()),
                              order=sorted(groups, key=arrivals.__getitem__)))
    stored = await read(groups)
    offset = time.time() - time.perf_counter()  # the bot's clock is the wall's; the emulator's
    for number, found in enumerate(measured, 1):
        deal = rf"round {number} of {rounds}, the same hand"
        for group in groups:
            started, won = stored[(group, number)]
            arrival = said(run, group, deal)[0].at + offset
            found.clock.append(arrival - started)
            if won is not None:
                taken = answered[(group, number)] + offset - arrival
                found.timed.append(won - taken)
    return {"rounds": measured, "counts": counted(run, groups, rounds),
            "seconds": time.perf_counter() - began, "kill": kill}


def counted(run: Run, groups: list[int], rounds: int) -> dict[str, int]:
    """Rounds lost and results twice, over every group and round."""
    wanted = set(groups)
    kinds = (r"round (\d+) of \d+, the same hand",  # a deal
             r"solves it in .*\n.*round (\d+) of \d+: this group is done",  # a group's result
             r"round (\d+) of \d+ is over in every group")  # a board
    lost = twice = 0
    for pattern in kinds:
        seen = Counter((s.chat_id, m.group(1)) for s in run.emulator.sent
                       if s.chat_id in wanted and (m := re.search(pattern, s.text)))
        lost += sum(1 for g in groups for n in range(1, rounds + 1) if not seen[(g, str(n))])
        twice += sum(count - 1 for count in seen.values() if count > 1)
    return {"lost": lost, "twice": twice}


@dataclass
class Kill:
    """A worker killed (SIGKILL) while `round` is being dealt: `choose` names its pid."""

    round: int
    choose: Callable[[], Awaitable[int]]
    pid: int = 0
    at: float = 0.0


STORED = ("SELECT d.chat_id, d.number, r.started_at, r.win_seconds FROM tournament_deals d "
          "JOIN rounds r ON r.id = d.round_id")


def sqlite_reader(path: Path) -> Reader:
    async def read(groups: list[int]) -> Stored:
        with sqlite3.connect(path) as connection:
            rows = connection.execute(STORED).fetchall()
        return {(row[0], row[1]): (row[2], row[3]) for row in rows}
    return read


def postgres_reader(url: str) -> Reader:
    async def read(groups: list[int]) -> Stored:
        connection = await asyncpg.connect(url)
        try:
            rows = await connection.fetch(STORED)
        finally:
            await connection.close()
        return {(row[0], row[1]): (row[2], row[3]) for row in rows}
    return read


async def schedule_owner(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        holder = await connection.fetchval(
            "SELECT w.holder FROM tournaments t JOIN worker_leases w ON w.epoch = t.owner "
            "AND w.expires_at > now()")
    finally:
        await connection.close()
    return int(holder.split("@")[0]) if holder else 0


async def one_process(folder: Path, groups: list[int], rounds: int) -> dict:
    run = await start_single(True, 1, folder, TOURNAMENT_PAUSE=PAUSE, LOG_LEVEL="WARNING")
    try:
        return await play(run, groups, rounds, sqlite_reader(folder / "load.sqlite3"))
    finally:
        await stop_single(run)


async def on_cluster(folder: Path, postgres: PostgresServer, broker: BrokerServer, name: str,
                     groups: list[int], rounds: int, kill: str | None = None) -> dict:
    url = await database(postgres, name)
    (folder / name).mkdir()
    os.environ["TOURNAMENT_PAUSE"] = PAUSE  # the roles' environment is this one's
    cluster = Cluster(folder / name, url, broker.url, 3, rate_limit=True)
    try:
        run = await cluster.start()

        async def owner() -> int:
            return await schedule_owner(url)

        async def another() -> int:
            running = await schedule_owner(url)
            return next(w.pid for w in cluster.workers if w.pid != running and w.pid)

        chosen = None if kill is None else Kill(2, owner if kill == "owner" else another)
        found = await play(run, groups, rounds, postgres_reader(url), chosen)
        if chosen is not None:
            found["owner after"] = await schedule_owner(url)
        return found
    finally:
        await cluster.stop()


def report(name: str, found: dict) -> None:
    rounds: list[Round] = found["rounds"]
    print(f"\n{name}: {len(rounds)} rounds, {found['seconds']:.0f} s, load "
          f"{os.getloadavg()[0]:.2f}")
    kill = found.get("kill")
    if kill is not None:
        print(f"  worker {kill.pid} killed while round {kill.round} was dealt; the schedule's "
              f"owner after: {found.get('owner after')}")
    print("  round | deals' spread | first dealt | clock before its deal p50 / p99 / max | "
          "stored win less taken p50 / p99 / max")
    for number, r in enumerate(rounds, 1):
        clock = [c * 1000 for c in r.clock]
        timed = [t * 1000 for t in r.timed] or [0.0]
        print(f"  {number:5} | {r.spread:11.2f} s | {r.order[0]:11} | "
              f"{percentile(clock, 0.5):6.0f} / {percentile(clock, 0.99):6.0f} / "
              f"{max(clock):6.0f} ms | {percentile(timed, 0.5):6.0f} / "
              f"{percentile(timed, 0.99):6.0f} / {max(timed):6.0f} ms")
    if len(rounds) > 1:
        firsts = [set(r.order[:max(1, len(r.order) // 10)]) for r in rounds]
        kept = statistics.mean(len(a & b) / len(a) for a, b in itertools.pairwise(firsts))
        print(f"  the order drawn per round: of the first tenth dealt, {kept:.0%} were in the "
              "first tenth of the round before (a draw keeps a tenth)")
    print(f"  rounds lost: {found['counts']['lost']}; results twice: {found['counts']['twice']}")


async def main_async(args: argparse.Namespace) -> None:
    print(f"load average at the start: {os.getloadavg()[0]:.2f}; {args.groups} groups, "
          f"{args.rounds} rounds, Telegram's flood limits, RATE_LIMIT on (SEND_RATE 30)")
    groups = chats(0, args.groups)
    with tempfile.TemporaryDirectory() as folder:
        if args.only in (None, "one"):
            report("one process (SQLite)", await one_process(Path(folder), groups, args.rounds))
        if args.only == "one":
            return
        postgres, broker = PostgresServer(), BrokerServer()
        await asyncio.to_thread(postgres.start)
        await asyncio.to_thread(broker.start)
        try:
            for name, kill in (("cluster", None), ("kill", "another"), ("owner", "owner")):
                if args.only in (None, name):
                    label = {"cluster": "the cluster, 3 workers",
                             "kill": "the cluster, a worker killed mid-tournament",
                             "owner": "the cluster, the schedule's worker killed "
                                      "mid-tournament"}[name]
                    report(label, await on_cluster(Path(folder), postgres, broker, name,
                                                   groups, args.rounds, kill))
        finally:
            await asyncio.to_thread(broker.stop)
            await asyncio.to_thread(postgres.stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("one", "cluster", "kill", "owner"))
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
