"""`make run-cluster` (`python -m demo.cluster`): the terminal demo on the cluster.

Everything runs on this machine, on free loopback ports, with fresh data folders under a
temporary folder: the Bot API emulator (in this process), a NATS server with JetStream and a
PostgreSQL server (demo.broker_server, demo.postgres_server: the dev extra's wheels), one
`python -m bot ingress` and two `python -m bot worker` processes, which share the partitions
(half each). This process plays Telegram: a line typed here becomes a message in a demo group,
its update is POSTed to the ingress's webhook (again and again until it answers 200, as
Telegram does), the ingress publishes it to the broker, and the worker owning the group's
partition handles it and sends its replies to the emulator, printed here.

`/kill` SIGKILLs the worker that owns the group's partition now, as `kill -9` would: once its
lease runs out (LEASE_SECONDS) the other worker takes its partitions over (the database's
table of owners says so), resumes their open rounds, consumes them (an update the dead one
held comes again and acts once) and ends the group's round at its deadline; the killed one is
started again, as a supervisor would do, and takes its share back from the other. `/status`
says which worker runs and how many partitions each owns. /quit, the end of input (Ctrl-D) or
Ctrl-C stop the roles, then the servers, and remove the folder. The roles take ROUND_SECONDS
and the like from the environment (a round is 60 s unless it says otherwise, so a take-over is
seen well within one); nothing points them elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import inspect
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Protocol, TextIO

import asyncpg

import bot
from bot.cluster.ownership import share, spans
from bot.cluster.partitions import partition_of
from bot.runtime.config import INGRESS, WORKER
from bot.telegram.webhook import WEBHOOK_PATH
from demo.broker_server import BrokerServer, free_port
from demo.emulator import BotApiEmulator
from demo.postgres_server import PostgresServer, major_version
from demo.roles import CONSUMING, RoleProcess, post_update
from demo.terminal import (
    DEFAULT_SPEAKER,
    DEMO_CHAT_ID,
    DEMO_CHAT_TITLE,
    DEMO_TOKEN,
    DEMO_USERNAME,
    HELP,
    DemoChat,
    read_lines,
    speaker_name,
)

SECRET = "twentyfour_cluster_demo"  # the webhook's secret: every ingress has the same
WEBHOOK_URL = f"https://bot.example/{WEBHOOK_PATH}"  # registered only: this process posts
DATABASE = "twentyfour"
WORKERS = ("a", "b")
REPLY_SECONDS = 3.0  # a line waits this long for a reply before the next; later ones show anyway
RETRY_SECONDS = 0.5  # between two POSTs of an update the ingress did not take
START_SECONDS = 90.0  # a role's start-up, bounded (two cores shared: the solver pool warms up)
TAKE_OVER_SECONDS = 30.0  # bound on the wait for the other worker's take-over after a /kill
CHECK_SECONDS = 0.1  # between two looks at a role's log or at the owners' table
PARTITIONS = 16
GROUP_PARTITION = partition_of(DEMO_CHAT_ID, PARTITIONS)  # the demo group's
CLUSTER_HELP = ("/kill SIGKILLs the worker that owns this group's partition; /status says what "
                "each worker owns")
# the live workers' partitions: a lease's holder is "pid@host"
OWNERS = ("SELECT o.partition, w.holder FROM partition_owners o JOIN worker_leases w "
          "ON w.epoch = o.owner AND w.expires_at > now()")
# settings of the user's environment that would point the roles elsewhere: theirs are the demo's
NOT_INHERITED = ("TELEGRAM_", "DATABASE_", "WEBHOOK_", "METRICS_", "WEBAPP_", "NATS_",
                 "PARTITIONS", "REDELIVER_SECONDS", "LEAD_CHECK_SECONDS", "STARTUP_SECONDS")

log = logging.getLogger(__name__)


class Server(Protocol):
    def start(self) -> object: ...
    def stop(self) -> None: ...


async def started(server: Server) -> None:
    """Start a server in a thread (its start blocks until it answers); cancelled meanwhile,
    the start is let finish and the server stopped, so nothing is left running."""
    starting = asyncio.ensure_future(asyncio.to_thread(server.start))
    try:
        await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await starting
        await asyncio.to_thread(server.stop)
        raise


def role_env(environ: Mapping[str, str], emulator: BotApiEmulator, database_url: str,
             nats_url: str) -> dict[str, str]:
    """The roles' settings: the user's environment (ROUND_SECONDS and the like) without what
    would point them elsewhere, then the demo's own."""
    env = {key: value for key, value in environ.items() if not key.startswith(NOT_INHERITED)}
    source = str(Path(bot.__file__).resolve().parents[1])  # found from any working folder
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, environ.get("PYTHONPATH")]))
    env.setdefault("ROUND_SECONDS", "60")
    env.setdefault("SOLVER_WORKERS", "1")
    env.setdefault("LOG_LEVEL", "INFO")
    env.update(TELEGRAM_BOT_TOKEN=emulator.token, TELEGRAM_BASE_URL=emulator.base_url,
               DATABASE_URL=database_url, NATS_URL=nats_url, NATS_STREAM="UPDATES",
               PARTITIONS=str(PARTITIONS), REDELIVER_SECONDS="2", LEAD_CHECK_SECONDS="0.5",
               STARTUP_SECONDS="30", RATE_LIMIT="off")
    return env


def held(owned: Mapping[int, int], worker: RoleProcess) -> list[int]:
    """The partitions the worker owns, of `owned` (partition -> owner's pid)."""
    return sorted(p for p, pid in owned.items() if pid == worker.pid)


class ClusterDemo:
    """The servers, the roles and the chat of one run: `run` it."""

    def __init__(self, speaker: str, out: TextIO, stdin_fd: int = 0,
                 environ: Mapping[str, str] | None = None) -> None:
        self.speaker = speaker
        self.out = out
        self.stdin_fd = stdin_fd
        self.environ = dict(os.environ if environ is None else environ)
        self.folder = Path(tempfile.mkdtemp(prefix="twentyfour-cluster-"))
        self.emulator = BotApiEmulator(token=DEMO_TOKEN, username=DEMO_USERNAME,
                                       open_chats=True)
        self.postgres: PostgresServer | None = None
        self.broker: BrokerServer | None = None
        self.ingress: RoleProcess | None = None
        self.workers: list[RoleProcess] = []
        self.database: asyncpg.Pool | None = None  # the demo's look at the owners and rounds
        self.chat: ClusterChat | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.port = free_port()

    def say(self, text: str) -> None:
        """A line of the demo's own, in parentheses (above the prompt once the chat runs)."""
        if self.chat is not None:
            self.chat.show(f"({text})")
        else:
            print(f"({text})", file=sys.stderr, flush=True)

    # --- start -------------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            await self.start()
            assert self.chat is not None
            lines: asyncio.Queue[str | None] = asyncio.Queue()
            read_lines(self.stdin_fd, asyncio.get_running_loop(), lines)
            self.tasks += [asyncio.create_task(self.deliver()),
                           asyncio.create_task(self.chat.follow())]
            await self.chat.converse(lines)
            await asyncio.sleep(REPLY_SECONDS / 3)
            self.chat.show_new()
        finally:
            await self.stop()

    async def start(self) -> None:
        self.say(f"starting in {self.folder}: PostgreSQL, NATS JetStream, the Bot API "
                 "emulator, one ingress and two workers")
        self.postgres = PostgresServer()
        await started(self.postgres)
        version = await asyncio.to_thread(major_version, self.postgres.binaries)
        self.broker = BrokerServer()
        await started(self.broker)
        connection = await asyncpg.connect(self.postgres.url())
        try:
            await connection.execute(f"CREATE DATABASE {DATABASE}")
        finally:
            await connection.close()
        self.database = await asyncpg.create_pool(self.postgres.url(DATABASE), min_size=1,
                                                  max_size=3)
        await self.emulator.start()
        self.emulator.chat(DEMO_CHAT_ID, "group", DEMO_CHAT_TITLE)
        self.say(f"PostgreSQL {version} on 127.0.0.1:{self.postgres.port}, NATS JetStream on "
                 f"127.0.0.1:{self.broker.port}, the Bot API emulator on "
                 f"127.0.0.1:{self.emulator.port}")
        env = role_env(self.environ, self.emulator, self.postgres.url(DATABASE),
                       self.broker.url)
        self.ingress = RoleProcess(INGRESS, "ingress", self.folder,
                                   {**env, "WEBHOOK_URL": WEBHOOK_URL, "WEBHOOK_SECRET": SECRET,
                                    "WEBHOOK_PORT": str(self.port)},
                                   cwd=self.folder, own_session=True)
        await self.ingress.spawn()
        await self.wait(lambda: self.emulator.webhook.get("url") == WEBHOOK_URL,
                        "registering the webhook", self.ingress)
        self.say(f"ingress (pid {self.ingress.pid}) takes the webhook on "
                 f"127.0.0.1:{self.port}/{WEBHOOK_PATH} and publishes to NATS")
        first, second = (RoleProcess(WORKER, f"worker-{name}", self.folder, env,
                                     cwd=self.folder, own_session=True) for name in WORKERS)
        self.workers += [first, second]
        await first.spawn()  # alone first: it creates the schema and takes every partition
        await self.wait(functools.partial(first.said, CONSUMING), "consuming", first)
        self.say(f"{self.named(first.pid)} consumes all {PARTITIONS} partitions")
        await second.spawn()
        await self.wait(self.shared, "sharing the partitions", first, second)
        await self.say_shared()
        self.chat = ClusterChat(self, self.out, self.speaker,
                                interactive=os.isatty(self.stdin_fd),
                                ansi=self.out.isatty() and "NO_COLOR" not in self.environ
                                and self.environ.get("TERM") != "dumb")
        self.emulator.promote(DEMO_CHAT_ID, self.chat.user()["id"], "creator")
        self.say(f"the logs are in {self.folder} until the end. You are {self.speaker} in the "
                 f"group \"{DEMO_CHAT_TITLE}\": try /play. {CLUSTER_HELP}; {HELP}")

    async def wait(self, ready: Callable[[], bool | Awaitable[bool]], what: str,
                   *roles: RoleProcess, timeout: float = START_SECONDS) -> None:
        """Until `ready()` (a function or a coroutine function) while the roles run;
        RuntimeError with the end of a role's log if one exits or they take too long."""
        deadline = time.monotonic() + timeout
        while True:
            answer = ready()
            if inspect.isawaitable(answer):
                answer = await answer
            if answer:
                return
            exited = next((role for role in roles if not role.running()), None)
            if exited is not None or time.monotonic() > deadline:
                role = exited or roles[-1]
                said = role.log.read_text(errors="replace")[-3000:] if role.log.is_file() \
                    else ""
                state = "exited" if exited else f"was not {what} in {timeout:g} s"
                raise RuntimeError(f"{role.name} {state}; its log ends:\n{said}")
            await asyncio.sleep(CHECK_SECONDS)

    # --- Telegram's side ---------------------------------------------------------------------

    async def deliver(self) -> None:
        """POST the emulator's updates to the ingress in order, each until it answers 200 (a
        503 says the broker did not confirm it: Telegram sends it again), as Telegram does."""
        updates = self.emulator.updates
        while True:
            await self.emulator.wait_for(lambda: bool(updates), timeout=1.0)
            while updates:
                update = {key: value for key, value in updates[0].items()
                          if not key.startswith("_")}
                status = await post_update(self.port, update, SECRET)
                if status == 200:
                    updates.pop(0)
                elif 400 <= status < 500 and status != 429:  # Telegram would drop it too
                    self.say(f"the ingress refused update {update['update_id']} ({status})")
                    updates.pop(0)
                else:
                    await asyncio.sleep(RETRY_SECONDS)

    # --- the partitions' owners -------------------------------------------------------------

    async def owners(self) -> dict[int, int]:
        """partition -> the pid of the live worker owning it, as the database says."""
        assert self.database is not None
        rows = await self.database.fetch(OWNERS)
        return {row["partition"]: int(row["holder"].split("@")[0]) for row in rows}

    def worker_of(self, pid: int | None) -> RoleProcess | None:
        """The running worker with this pid."""
        return next((w for w in self.workers if w.pid == pid and w.running()), None)

    async def group_owner(self) -> RoleProcess | None:
        """The running worker that owns the demo group's partition now."""
        return self.worker_of((await self.owners()).get(GROUP_PARTITION))

    async def shared(self) -> bool:
        """Every partition owned by the running workers, each of them owning some and none
        more than its share."""
        counts = Counter((await self.owners()).values())
        running = {w.pid for w in self.workers if w.running()}
        return sum(counts.values()) == PARTITIONS and set(counts) == running and \
            max(counts.values()) <= share(PARTITIONS, len(running))

    async def say_shared(self) -> None:
        """Who owns the group's partition, and what the other owns."""
        owned = await self.owners()
        owner = self.worker_of(owned.get(GROUP_PARTITION))
        other = next((w for w in self.workers if w is not owner), None)
        if owner is None or other is None:
            return
        mine = held(owned, owner)
        others = held(owned, other)
        self.say(f"{self.named(owner.pid)} owns this group's partition {GROUP_PARTITION} "
                 f"({len(mine)} of {PARTITIONS}: {spans(mine)}); {self.named(other.pid)} owns "
                 f"the other groups' half ({spans(others)})")

    def named(self, pid: int | None) -> str:
        """`worker a (pid N)`, or the bare pid of a process that is no worker of this run."""
        worker = next((w for w in self.workers if w.pid == pid), None)
        return f"worker {self.short(worker)} (pid {pid})" if worker else f"pid {pid}"

    @staticmethod
    def short(worker: RoleProcess) -> str:
        return worker.name.removeprefix("worker-")

    # --- /kill and /status -------------------------------------------------------------------

    async def status(self) -> None:
        """Each worker's pid, whether it runs and what it owns; the group's owner."""
        owned = await self.owners()
        workers = "; ".join(
            f"worker {self.short(w)} (pid {w.pid}): "
            + (f"runs, owns {len(held(owned, w))} of {PARTITIONS} partitions"
               if w.running()
               else "dead")
            for w in self.workers)
        owner = self.worker_of(owned.get(GROUP_PARTITION))
        group = f"worker {self.short(owner)}" if owner else "nobody now"
        ingress = self.ingress is not None and self.ingress.running()
        self.say(f"ingress: {'up' if ingress else 'down'}; {workers}; this group's partition "
                 f"{GROUP_PARTITION}: {group}")

    async def kill_owner(self) -> None:
        """SIGKILL the worker owning the group's partition; say when the other has taken it over
        and consumes it, and when the open round ends against its deadline; then start the
        killed one again, and say when it has taken its share back."""
        owned = await self.owners()
        killed = self.worker_of(owned.get(GROUP_PARTITION))
        survivor = next((w for w in self.workers if w.running() and w is not killed), None)
        if killed is None or survivor is None:
            self.say("no two workers, one owning this group's partition, to show a take-over "
                     "with now: /status")
            return
        if survivor.pid not in owned.values():
            self.say(f"worker {self.short(survivor)} is still starting: /kill once it owns "
                     "partitions (/status)")
            return
        deadline = await self.open_deadline()
        consumed = survivor.log.read_text(errors="replace").count(CONSUMING)
        killed_at = time.monotonic()
        await killed.kill()
        left = f"; the round has {deadline - time.time():.0f} s left" if deadline else ""
        self.say(f"SIGKILL to {self.named(killed.pid)}, the owner of partition "
                 f"{GROUP_PARTITION}{left}. Worker {self.short(survivor)} takes its partitions "
                 "over once its lease runs out")

        async def survivor_owns() -> bool:
            return (await self.owners()).get(GROUP_PARTITION) == survivor.pid

        try:
            await self.wait(survivor_owns, "taking the partition over", survivor,
                            timeout=TAKE_OVER_SECONDS)
            took = time.monotonic() - killed_at
            await self.wait(lambda: survivor.log.read_text(errors="replace").count(CONSUMING)
                            > consumed, "consuming", survivor, timeout=TAKE_OVER_SECONDS)
        except RuntimeError as error:
            self.say(f"no take-over: {error}")
            return
        count = len(held(await self.owners(), survivor))
        self.say(f"{self.named(survivor.pid)} took partition {GROUP_PARTITION} over {took:.1f} s "
                 f"after the kill: it resumed the open rounds of the partitions it took and "
                 f"consumes {count} of {PARTITIONS}")
        if deadline:
            self.tasks.append(asyncio.create_task(self.watch_round(deadline)))
        await killed.spawn()
        self.tasks.append(asyncio.create_task(self.back(killed, survivor)))

    async def back(self, worker: RoleProcess, survivor: RoleProcess) -> None:
        """Say when the worker started again has taken its share back from the survivor."""
        try:
            await self.wait(self.shared, "taking its share back", worker, survivor)
        except RuntimeError as error:
            self.say(f"worker {self.short(worker)} did not take its share back: {error}")
            return
        owned = await self.owners()
        mine = held(owned, worker)
        owner = self.worker_of(owned.get(GROUP_PARTITION))
        group = f"worker {self.short(owner)}'s" if owner else "nobody's"
        self.say(f"worker {self.short(worker)} started again (pid {worker.pid}) and took its "
                 f"share back: {len(mine)} of {PARTITIONS} ({spans(mine)}), which worker "
                 f"{self.short(survivor)} gave up; this group's partition is {group} now")

    async def open_deadline(self) -> float | None:
        """The deadline (epoch seconds) of the demo group's open round, if one is open."""
        assert self.database is not None
        value = await self.database.fetchval(
            "SELECT deadline FROM rounds WHERE chat_id = $1 AND status = 'open'", DEMO_CHAT_ID)
        return float(value) if value is not None else None

    async def watch_round(self, deadline: float) -> None:
        """Say when the round the kill interrupted ends, against its deadline, and which worker
        sent its end (the emulator knows a request's process)."""
        while await self.open_deadline() == deadline:
            await asyncio.sleep(0.2)
        late = time.time() - deadline
        if self.chat is not None:  # the round's last message first, then this line
            await self.emulator.wait_for(self.chat.unseen, timeout=REPLY_SECONDS)
            await asyncio.sleep(0.2)
            self.chat.show_new()
        if late >= -0.5:  # it ran out, rather than being won or stopped early
            sender = next((s.pid for s in reversed(self.emulator.sent)
                           if s.chat_id == DEMO_CHAT_ID), None)
            self.say(f"the round ended {late:.1f} s after its deadline, on {self.named(sender)}")

    # --- stop --------------------------------------------------------------------------------

    async def stop(self) -> None:
        """The tasks, the roles (ingress first: nothing new comes in), the emulator, the servers,
        the folder: in that order, each whatever became of the others."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        roles = [r for r in (self.ingress, *self.workers) if r is not None]
        for role in roles:
            role.signal(signal.SIGTERM)
        await asyncio.gather(*(role.stop() for role in roles), return_exceptions=True)
        if self.database is not None:
            self.database.terminate()
        with contextlib.suppress(Exception):
            await self.emulator.stop()
        for server in (self.broker, self.postgres):
            if server is not None:
                await asyncio.to_thread(server.stop)
        shutil.rmtree(self.folder, ignore_errors=True)
        print("(stopped: the roles, NATS and PostgreSQL; their folders removed)",
              file=sys.stderr, flush=True)


class ClusterChat(DemoChat):
    """The terminal chat with the bot in other processes: a line waits (bounded) for a reply
    rather than for the application's handling, which happens elsewhere; /kill and /status."""

    def __init__(self, demo: ClusterDemo, out: TextIO, speaker: str, interactive: bool,
                 ansi: bool) -> None:
        super().__init__(demo.emulator, out, speaker, interactive, ansi, REPLY_SECONDS)
        self.demo = demo

    async def settle(self, key: int | str) -> None:
        await self.emulator.wait_for(self.unseen, timeout=self.reply_timeout)
        await asyncio.sleep(0.2)  # the rest of a reply's messages
        self.show_new()

    async def own_command(self, command: str, rest: str) -> bool:
        if command == "/kill":
            if not self.interactive:
                self.write(f"{self.speaker}: /kill\n")
            await self.demo.kill_owner()
            return True
        if command == "/status":
            await self.demo.status()
            return True
        return False


async def run_cluster(speaker: str, out: TextIO, stdin_fd: int = 0) -> None:
    """The whole demo; SIGTERM and SIGHUP end it as Ctrl-C does, everything stopped."""
    main_task = asyncio.current_task()
    assert main_task is not None
    loop = asyncio.get_running_loop()
    for stop_signal in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(stop_signal, main_task.cancel)
    await ClusterDemo(speaker, out, stdin_fd).run()


def main(argv: list[str] | None = None) -> int:
    """`python -m demo.cluster [--user NAME]`: 0 at /quit or the end of input, 130 after
    Ctrl-C, 1 when a server or a role could not start."""
    parser = argparse.ArgumentParser(prog="python -m demo.cluster",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--user", metavar="NAME", help="the first speaker")
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("tornado.access").setLevel(logging.ERROR)
    speaker = speaker_name(arguments.user or "") or DEFAULT_SPEAKER
    try:
        asyncio.run(run_cluster(speaker, sys.stdout))
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:  # SIGTERM, SIGHUP
        return 143
    except Exception as error:  # a server or a role that would not start: what it said
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
