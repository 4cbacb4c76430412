"""The Mini App's HTTP door in a process of its own, beside the one process (`python -m bot`
polling with WEBAPP_URL): a flood of the page's requests is refused there, on another core,
and never waits in the event loop every chat's updates need.

Why: a refusal costs little, but not nothing — tornado's reading and writing of a request is
about 150 µs of Python — and a script on 64 connections can ask for one every 0.2 ms. In the
bot's own loop that was 60 % of a core spent refusing while every group's update queued behind
it (docs/benchmarks.md, "Floods"). Here the operating system shares the cores between the two
processes by time, not by turns of one loop, and the page's process runs at the lowest priority
(`lowest_priority`: Linux's SCHED_IDLE), so the rounds come first and the page is answered with
the cores' idle time. `nice` 5 and 19 were not enough: a nice process still holds a core it is
running on for a few milliseconds after the bot wakes, and the bot wakes thousands of times a
second (a 2-core machine's rounds took 7x longer under one person's flood at `nice` 5).

The child is the cluster's Mini App role in small (bot.webapp.relayed): it serves the page and
draws each request on its asker's budget (bot.runtime.doors) before anything else; what it
admits goes, whole, over a Unix socket in a private directory to the bot, whose Face answers it
(`answer_request`, which draws on the same person's budget as their updates: one budget across
every door). One line a request each way, `<id> <request>` and `<id> <reply>` (both compact JSON,
so a line): the bot answers each in a task of its own, so one slow answer holds no other back.
Four times a second the child also sends what it refused (`tally <JSON>`), counted in the bot's
/metrics as if the bot had refused it.

The child reads its settings (the token among them) as one JSON line on its stdin, says
`port <n>` on its stdout once it listens, and stops when its stdin closes (the bot stopped or
died). The bot starts it again, a second later, if it ends on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from bot.runtime import metrics
from bot.runtime.doors import Doors, Limits

log = logging.getLogger(__name__)
STARTUP_SECONDS = 60.0  # for the child to import and listen (a loaded machine is slow)
REPLY_SECONDS = 30.0  # an answer not back by then is refused "try again" (the cluster's too)
RESTART_SECONDS = 1.0
STOP_SECONDS = 5.0
LINE_LIMIT = 16 << 20  # a reply's line: a share card is a picture in it
TALLY_SECONDS = 0.25

Answer = Callable[[bytes], Awaitable[bytes]]  # a relayed request -> its reply


@dataclass(frozen=True)
class Spec:
    """What the child is told on its stdin."""

    token: str
    person_budget: tuple[float, float, int]
    chat_budget: tuple[float, float, int]
    port: int
    listen: str
    socket: str
    log_level: str = "INFO"


def limits(values: tuple[float, float, int] | list[float]) -> Limits:
    rate, burst, at_once = values
    return Limits(float(rate), float(burst), int(at_once))


# --- the bot's side ---------------------------------------------------------------------------

class Relayed:
    """The bot's end of the socket: each line a request answered in a task of its own."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.tasks: set[asyncio.Task[None]] = set()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                head, _, data = line.rstrip(b"\n").partition(b" ")
                if head == b"tally":
                    counted(data)
                    continue
                task = asyncio.create_task(self.reply(writer, head, data))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass  # the child went (it is started again) or sent a line past the limit
        finally:
            writer.close()

    async def reply(self, writer: asyncio.StreamWriter, head: bytes, data: bytes) -> None:
        try:
            reply = await self.answer(data)
        except Exception:
            log.exception("a relayed Mini App request failed")
            return  # the child's wait ends in "try again"
        if not writer.is_closing():
            writer.write(head + b" " + reply + b"\n")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def counted(data: bytes) -> None:
    """The child's refusals since its last tally, in this process's metrics."""
    try:
        tally = json.loads(data)
        for budget, count in tally.items():
            if isinstance(budget, str) and type(count) is int and count > 0:
                metrics.record_webapp_refused(budget, count)
    except (ValueError, AttributeError):
        log.warning("the Mini App's process sent a tally that is not one")


class PageProcess:
    """The child, started and kept running while the bot runs."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.child: asyncio.subprocess.Process | None = None
        self.port: int | None = None
        self.stopping = False

    async def start(self) -> int:
        """The child started and listening; its port. OSError when it did not listen (its
        reason is on stderr: the port taken, say)."""
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.webapp.page_process", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, start_new_session=True)
        assert child.stdin is not None and child.stdout is not None
        self.child = child
        child.stdin.write(json.dumps(asdict(self.spec)).encode() + b"\n")
        await child.stdin.drain()
        try:
            said = await asyncio.wait_for(child.stdout.readline(), STARTUP_SECONDS)
        except TimeoutError:
            said = b""
        if not said.startswith(b"port "):
            await self.stop()
            raise OSError(f"the Mini App's page did not start on {self.spec.listen}:"
                          f"{self.spec.port} (its reason is logged above)")
        self.port = int(said.split()[1])
        self.spec = replace(self.spec, port=self.port)  # started again: the same port
        return self.port

    async def kept(self) -> None:
        """Until cancelled: the child started again, a second after it ended on its own."""
        while True:
            assert self.child is not None
            status = await self.child.wait()
            if self.stopping:
                return
            log.error("the Mini App's page process ended (status %s); starting it again",
                      status)
            await asyncio.sleep(RESTART_SECONDS)
            try:
                await self.start()
            except OSError as error:
                log.error("%s", error)

    async def stop(self) -> None:
        """Its stdin closed (it stops itself), killed if it has not within STOP_SECONDS."""
        self.stopping = True
        child = self.child
        if child is None or child.returncode is not None:
            return
        assert child.stdin is not None
        child.stdin.close()
        try:
            await asyncio.wait_for(child.wait(), STOP_SECONDS)
        except TimeoutError:
            child.kill()
            await child.wait()


@contextlib.asynccontextmanager
async def page_apart(answer: Answer, spec: Spec) -> AsyncIterator[int]:
    """While inside, the page served by a process of its own on `spec`'s port (its socket
    made here), each request it admits answered by `answer`; yields the port it listens on."""
    folder = tempfile.mkdtemp(prefix="twentyfour-page-")  # 0700: this user's alone
    path = str(Path(folder) / "relay.sock")
    relayed = Relayed(answer)
    server = await asyncio.start_unix_server(relayed.serve, path, limit=LINE_LIMIT)
    process = PageProcess(Spec(**{**asdict(spec), "socket": path}))
    keeping = None
    try:
        port = await process.start()
        keeping = asyncio.create_task(process.kept())
        yield port
    finally:
        await process.stop()
        if keeping is not None:
            keeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeping
        server.close()
        await relayed.close()
        await server.wait_closed()
        shutil.rmtree(folder, ignore_errors=True)


# --- the child's side -------------------------------------------------------------------------

class Asker:
    """The child's end of the socket: each request a line, its reply matched by its id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[bytes]] = {}

    async def ask(self, _chat: int | None, data: bytes) -> bytes | None:
        """The bot's reply, or None when none came in time (the page says "try again")."""
        if self.writer.is_closing():
            return None
        number = next(self.ids)
        future = self.waiting[number] = asyncio.get_running_loop().create_future()
        self.writer.write(b"%d " % number + data + b"\n")
        try:
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except TimeoutError:
            return None
        finally:
            self.waiting.pop(number, None)

    def tally(self, refused: dict[str, int]) -> None:
        if not self.writer.is_closing():
            self.writer.write(b"tally " + json.dumps(refused).encode() + b"\n")

    async def read(self) -> None:
        """Replies handed to their askers until the bot's end closes."""
        with contextlib.suppress(ConnectionError, ValueError):
            while line := await self.reader.readline():
                head, _, data = line.rstrip(b"\n").partition(b" ")
                future = self.waiting.get(int(head))
                if future is not None and not future.done():
                    future.set_result(data)


def refusals() -> dict[str, int]:
    """What this process refused so far, by budget (its own metrics)."""
    return {sample.labels["budget"]: int(sample.value)
            for family in metrics.WEBAPP_REFUSED.collect() for sample in family.samples
            if sample.name.endswith("_total")}


async def tallied(asker: Asker) -> None:
    """Every TALLY_SECONDS, what was refused since the last, sent to the bot (until
    cancelled)."""
    sent: dict[str, int] = {}
    while True:
        await asyncio.sleep(TALLY_SECONDS)
        now = refusals()
        fresh = {budget: count - sent.get(budget, 0) for budget, count in now.items()
                 if count > sent.get(budget, 0)}
        if fresh:
            asker.tally(fresh)
            sent = now


async def child(spec: Spec) -> int:
    """The child's life: the page served until its stdin closes."""
    from bot.webapp.relayed import RELAYED, RelayedFace
    from bot.webapp.server import serve

    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    reader, writer = await asyncio.open_unix_connection(spec.socket, limit=LINE_LIMIT)
    asker = Asker(reader, writer)
    doors = Doors(limits(spec.person_budget), limits(spec.chat_budget))
    try:
        server, port = await serve(RelayedFace(asker.ask, spec.token, doors=doors),
                                   spec.port, spec.listen, RELAYED)
    except OSError as error:
        log.critical("the Mini App's page cannot listen on %s:%d: %s", spec.listen, spec.port,
                     error.strerror or error)
        return 1
    print(f"port {port}", flush=True)
    stopped = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    tasks = [asyncio.create_task(stdin.read()), asyncio.create_task(asker.read()),
             asyncio.create_task(stopped.wait())]
    tally = asyncio.create_task(tallied(asker))
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in [*tasks, tally]:
            task.cancel()
        server.stop()
        await server.close_all_connections()
        writer.close()
    return 0


def lowest_priority() -> None:
    """This process runs only when the bot's need no core (SCHED_IDLE); where the system has no
    such class or refuses it, at `nice` 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)


def main() -> int:
    from bot.runtime import log_mask

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot's terminal's Ctrl-C: the bot stops it
    lowest_priority()
    said = json.loads(sys.stdin.buffer.readline())
    spec = Spec(**{**said, "person_budget": tuple(said["person_budget"]),
                   "chat_budget": tuple(said["chat_budget"])})
    logging.basicConfig(level=spec.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log_mask.install(log_mask.secret_parts(spec.token))
    return asyncio.run(child(spec))


if __name__ == "__main__":
    sys.exit(main())
