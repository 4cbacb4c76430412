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
(a group without a deal, a result or a board of a round) and messages twice (a deal, a group's
result or a board shown twice), each named: its group, kind and round, each copy's moment
against the kill's and the process that sent it, and whether its record was written (on the
cluster, a journal of the bench's own triggers in PostgreSQL: a round's message id stored, its
result marked announced, a board's claim). A message twice is *in the window*
docs/reliability.md states when its first copy was the killed worker's and reached Telegram at
most --window ms before the kill signal (or after it: a request already on its way), its record
was never written, and every later copy came from another worker; any other is a fault. The
time from a message's acceptance by Telegram to its record, over every deal and result of the
run, is printed beside it: how wide that window is here.

The runs: (1) the one process (`python -m bot`, SQLite); (2) the cluster (PostgreSQL, NATS, an
ingress, 3 workers); (3) the cluster with a worker killed (SIGKILL) while round 2 is being dealt,
one that does not run the schedule; (4) the cluster with the worker running the schedule killed
while round 2 is being dealt. Each of (3) and (4) must finish every round.

`python bench/bench_tournament.py [--groups 300] [--rounds 3] [--only one|cluster|kill|owner]
[--repeat 1] [--window 1000]` (`--repeat`: each cluster run chosen, so many times over one
server and broker). Loopback only; every wait is bounded; the servers and processes are stopped
at the end.
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
from bot.store.postgres import open_postgres  # noqa: E402
from demo.broker_server import BrokerServer  # noqa: E402
from demo.emulator import Sent  # noqa: E402
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


KINDS = (("deal", re.compile(r"round (\d+) of \d+, the same hand")),
         ("result", re.compile(r"round (\d+) of \d+: this group is done")),  # a group's
         ("board", re.compile(r"round (\d+) of \d+ is over in every group")))
Shown = dict[tuple[int, str, int], list[Sent]]  # (group, kind, round) -> its copies, in order


def shown(run: Run, groups: list[int]) -> Shown:
    """Every deal, group's result and board sent to the groups, by group, kind and round."""
    wanted = set(groups)
    found: Shown = {}
    for sent in run.emulator.sent:
        if sent.chat_id not in wanted:
            continue
        for kind, pattern in KINDS:
            if (m := pattern.search(sent.text)) is not None:
                found.setdefault((sent.chat_id, kind, int(m.group(1))), []).append(sent)
    return found


@dataclass
class Journal:
    """What the workers recorded and when (the bench's clock, perf_counter seconds), as the
    bench's triggers journaled it: a deal's message id stored, a round's result marked
    announced, a board claimed; and each group's round of each tournament round."""

    messages: dict[int, float] = field(default_factory=dict)  # message id -> stored at
    announced: dict[int, float] = field(default_factory=dict)  # round id -> marked at
    boards: dict[tuple[int, int], float] = field(default_factory=dict)  # (group, round) -> claimed
    seats: dict[tuple[int, int], int] = field(default_factory=dict)  # (group, round) -> round id

    def recorded(self, kind: str, group: int, number: int, copy: Sent) -> float | None:
        """When the record of this copy was written: a deal's message id, the result of the
        group's round marked announced, the board's claim (None: never)."""
        if kind == "deal":
            return self.messages.get(copy.message_id)
        if kind == "result":
            round_id = self.seats.get((group, number))
            return None if round_id is None else self.announced.get(round_id)
        return self.boards.get((group, number))


# The bench's own record of the writes that say a message went (AFTER triggers: committed work
# only), put on the database once it is migrated and before any worker starts.
JOURNAL = """
    CREATE TABLE bench_records (
        at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        what TEXT NOT NULL,
        round_id BIGINT,
        chat_id BIGINT,
        number INTEGER,
        message_id BIGINT
    );
    CREATE FUNCTION bench_round_record() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.message_id IS NOT NULL AND NEW.message_id IS DISTINCT FROM OLD.message_id THEN
            INSERT INTO bench_records (what, round_id, chat_id, message_id)
            VALUES ('message', NEW.id, NEW.chat_id, NEW.message_id);
        END IF;
        IF NEW.announced = 1 AND OLD.announced <> 1 THEN
            INSERT INTO bench_records (what, round_id, chat_id) VALUES ('announced', NEW.id,
                                                                        NEW.chat_id);
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER bench_round_record AFTER UPDATE ON rounds FOR EACH ROW
        EXECUTE FUNCTION bench_round_record();
    CREATE FUNCTION bench_board_record() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.shown_at IS NOT NULL AND OLD.shown_at IS NULL THEN
            INSERT INTO bench_records (what, chat_id, number) VALUES ('board', NEW.chat_id,
                                                                      NEW.number);
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER bench_board_record AFTER UPDATE ON tournament_deals FOR EACH ROW
        EXECUTE FUNCTION bench_board_record();"""


async def journaled(url: str) -> None:
    """The database migrated, and the bench's journal put on it."""
    await (await open_postgres(url)).close()
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(JOURNAL)
    finally:
        await connection.close()


async def read_journal(url: str) -> Journal:
    offset = time.time() - time.perf_counter()  # the database's clock is the wall's
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT what, round_id, chat_id, number, message_id, EXTRACT(EPOCH FROM at)::float8 "
            "AS at FROM bench_records ORDER BY at")
        seats = await connection.fetch("SELECT chat_id, number, round_id FROM tournament_deals "
                                       "WHERE round_id IS NOT NULL")
    finally:
        await connection.close()
    journal = Journal(seats={(r["chat_id"], r["number"]): r["round_id"] for r in seats})
    for row in rows:
        at = row["at"] - offset
        if row["what"] == "message":
            journal.messages.setdefault(row["message_id"], at)
        elif row["what"] == "announced":
            journal.announced.setdefault(row["round_id"], at)
        else:
            journal.boards.setdefault((row["chat_id"], row["number"]), at)
    return journal


@dataclass
class Double:
    """A message shown twice (or more) in one group: its kind and round, its copies, when its
    first copy's record was written (None: never), and whether it fell in the stated window."""

    group: int
    kind: str
    number: int
    copies: list[Sent]
    recorded: float | None
    in_window: bool


def doubles(found: Shown, rounds: int, journal: Journal | None, kill: Kill | None,
            window: float) -> list[Double]:
    """Every message shown twice, named and judged against the stated window: the first copy
    the killed worker's, at most `window` seconds before the signal (or after it: on its way),
    its record never written, and every later copy another worker's."""
    named = []
    for (group, kind, number), copies in sorted(found.items()):
        if len(copies) < 2:
            continue
        first = copies[0]
        recorded = None if journal is None else journal.recorded(kind, group, number, first)
        if recorded is not None and recorded > copies[1].at:
            recorded = None  # written for a later copy: the first one's never was
        in_window = kill is not None and bool(kill.pid) and first.pid == kill.pid and \
            first.at >= kill.at - window and recorded is None and \
            all(c.pid != kill.pid for c in copies[1:])
        named.append(Double(group, "podium" if kind == "board" and number == rounds else kind,
                            number, copies, recorded, in_window))
    return named


def acceptance_to_record(found: Shown, journal: Journal) -> dict[str, list[float]]:
    """For every deal and result shown once and recorded, seconds from Telegram's acceptance
    to its record: how wide the window is where a kill can fall between the two."""
    spans: dict[str, list[float]] = {"deal": [], "result": []}
    for (group, kind, number), copies in found.items():
        if kind in spans and len(copies) == 1:
            recorded = journal.recorded(kind, group, number, copies[0])
            if recorded is not None:
                spans[kind].append(recorded - copies[0].at)
    return spans


def counted(run: Run, groups: list[int], rounds: int, journal: Journal | None = None,
            kill: Kill | None = None, window: float = 1.0) -> dict:
    """Rounds lost, and every message shown twice named, over every group and round."""
    found = shown(run, groups)
    lost = sum(1 for g in groups for kind, _ in KINDS for n in range(1, rounds + 1)
               if not found.get((g, kind, n)))
    return {"lost": lost, "doubles": doubles(found, rounds, journal, kill, window),
            "spans": acceptance_to_record(found, journal) if journal is not None else {}}


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
                     groups: list[int], rounds: int, kill: str | None = None,
                     window: float = 1.0) -> dict:
    loaded = os.getloadavg()[0]
    url = await database(postgres, name)
    await journaled(url)
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
        found["counts"] = counted(run, groups, rounds, await read_journal(url), chosen, window)
        found["load at the start"] = loaded
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
    report_doubles(found["counts"], kill)


def report_doubles(counts: dict, kill: Kill | None) -> None:
    """Rounds lost; each message shown twice, named; the acceptance-to-record spans."""
    named: list[Double] = counts["doubles"]
    inside = sum(d.in_window for d in named)
    print(f"  rounds lost: {counts['lost']}; messages twice: {len(named)} (in the stated "
          f"window: {inside}; outside it: {len(named) - inside})")
    for double in named:
        origin = kill.at if kill is not None else double.copies[0].at
        copies = ", ".join(
            f"{(c.at - origin) * 1000:+.0f} ms by {c.pid}"
            f"{' (killed)' if kill is not None and c.pid == kill.pid else ''} as #{c.message_id}"
            for c in double.copies)
        record = "never written" if double.recorded is None else \
            f"written at {(double.recorded - origin) * 1000:+.0f} ms"
        print(f"    group {double.group}, {double.kind} of round {double.number}: copies "
              f"{copies} (times from the {'kill' if kill else 'first'}); the first's record "
              f"{record}: "
              f"{'in the window' if double.in_window else 'OUTSIDE the window'}")
    for kind, spans in counts["spans"].items():
        if spans:
            ms = [x * 1000 for x in spans]
            print(f"  Telegram's acceptance to its record, {kind}s: p50 / p99 / max "
                  f"{percentile(ms, 0.5):.0f} / {percentile(ms, 0.99):.0f} / {max(ms):.0f} ms "
                  f"({len(ms)})")


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
            named: list[Double] = []
            for name, kill in (("cluster", None), ("kill", "another"), ("owner", "owner")):
                if args.only not in (None, name):
                    continue
                label = {"cluster": "the cluster, 3 workers",
                         "kill": "the cluster, a worker killed mid-tournament",
                         "owner": "the cluster, the schedule's worker killed "
                                  "mid-tournament"}[name]
                for turn in range(args.repeat):
                    found = await on_cluster(Path(folder), postgres, broker, f"{name}{turn}",
                                             groups, args.rounds, kill, args.window / 1000)
                    print(f"\n(load at the run's start {found['load at the start']:.2f})",
                          end="")
                    report(label, found)
                    named += found["counts"]["doubles"]
            inside = sum(d.in_window for d in named)
            print(f"\nover every cluster run: messages twice {len(named)}, in the stated "
                  f"window {inside}, outside it {len(named) - inside}; load now "
                  f"{os.getloadavg()[0]:.2f}")
        finally:
            await asyncio.to_thread(broker.stop)
            await asyncio.to_thread(postgres.stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("one", "cluster", "kill", "owner"))
    parser.add_argument("--repeat", type=int, default=1,
                        help="each cluster run chosen, so many times")
    parser.add_argument("--window", type=float, default=1000.0,
                        help="ms before the kill within which a message's first copy may "
                             "reach Telegram and count in the stated window")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
