"""The cluster's processes for the end-to-end tests: `python -m bot ingress` and `python -m bot
worker` against the Bot API emulator, a real PostgreSQL and a real NATS server, and `deliver`,
which plays Telegram's side of the webhook: it POSTs the emulator's pending updates to an
ingress, one at a time, in order, as Telegram does for a chat; and the polling ingress, which
takes them from the emulator's getUpdates itself."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.cluster.partitions import partition_of
from bot.runtime.config import INGRESS, WORKER
from bot.store.postgres.partition_owners import owner_pids
from bot.telegram.webhook import WEBHOOK_PATH
from demo import roles
from demo.broker_server import BrokerServer, free_port
from demo.emulator import BotApiEmulator
from demo.freezing import freeze
from tests.conftest import ROOT
from tests.e2e.test_webhook import post, update_headers
from tests.waiting import until

SECRET = "shared_by_every_ingress"
WEBHOOK_URL = f"https://bot.example/{WEBHOOK_PATH}"
CONSUMING = roles.CONSUMING  # the worker's log line once its partitions are taken
PARTITIONS = 16


class RoleProcess(roles.RoleProcess):
    """One `python -m bot <role>` (demo/roles.py), run from the project's folder, with
    `until` to wait on it while it runs."""

    def __init__(self, role: str, name: str, folder: Path, env: dict[str, str]) -> None:
        super().__init__(role, name, folder, env, cwd=ROOT)

    async def until(self, ready: Callable[[], object], what: str,
                    timeout: float = 60.0) -> None:
        def check() -> bool:
            assert self.running(), f"{self.name} exited:\n{self.log.read_text()}"
            return bool(ready())
        await until(check, f"{self.name}: {what}", timeout)


class Cluster:
    """An ingress and workers of one bot, on one database, broker and stream."""

    def __init__(self, telegram: BotApiEmulator, folder: Path, database_url: str,
                 nats_url: str, stream: str, round_seconds: float = 60.0) -> None:
        self.telegram = telegram
        self.folder = folder
        self.database_url = database_url
        self.port = free_port()
        self.env = {**os.environ, "TELEGRAM_BOT_TOKEN": telegram.token,
                    "TELEGRAM_BASE_URL": telegram.base_url, "DATABASE_URL": database_url,
                    "NATS_URL": nats_url, "NATS_STREAM": stream,
                    "PARTITIONS": str(PARTITIONS),
                    "REDELIVER_SECONDS": "2", "LEAD_CHECK_SECONDS": "0.5",
                    "STARTUP_SECONDS": "10", "ROUND_SECONDS": str(round_seconds),
                    "SOLVER_WORKERS": "1", "RATE_LIMIT": "off", "LOG_LEVEL": "INFO"}
        self.processes: list[RoleProcess] = []

    def ingress(self, port: int | None = None, **env: str) -> RoleProcess:
        """A webhook ingress on `port` (the cluster's own by default), `env` added."""
        made = RoleProcess(INGRESS, f"ingress{len(self.processes)}", self.folder,
                           {**self.env, "WEBHOOK_URL": WEBHOOK_URL, "WEBHOOK_SECRET": SECRET,
                            "WEBHOOK_PORT": str(port or self.port), **env})
        self.processes.append(made)
        return made

    def poller(self, **env: str) -> tuple[RoleProcess, int]:
        """A polling ingress (no WEBHOOK_URL), `env` added, and its health check's port."""
        port = free_port()
        settings = {key: value for key, value in self.env.items()
                    if key not in ("WEBHOOK_URL", "WEBHOOK_SECRET")}
        made = RoleProcess(INGRESS, f"poller{len(self.processes)}", self.folder,
                           {**settings, "WEBHOOK_PORT": str(port), **env})
        self.processes.append(made)
        return made, port

    def worker(self, name: str) -> RoleProcess:
        made = RoleProcess(WORKER, name, self.folder, self.env)
        self.processes.append(made)
        return made

    async def start_ingress(self, port: int | None = None, **env: str) -> RoleProcess:
        """The ingress, once it has registered the webhook with the emulator."""
        self.telegram.webhook = {}
        ingress = self.ingress(port, **env)
        await ingress.spawn()
        await ingress.until(lambda: self.telegram.webhook.get("url") == WEBHOOK_URL,
                            "the webhook registered")
        assert self.telegram.webhook["secret_token"] == SECRET
        return ingress

    async def start_worker(self, name: str) -> RoleProcess:
        """A worker, once it has taken partitions and consumes them (a worker joining others
        takes its share once they gave it up: a second or two)."""
        worker = self.worker(name)
        await worker.spawn()
        await worker.until(lambda: worker.said(CONSUMING), "consuming its partitions")
        return worker

    async def owners(self) -> dict[int, int]:
        """partition -> the pid of the live worker owning it, as the database says."""
        return await owner_pids(self.database_url)

    async def owner(self, chat: int) -> RoleProcess | None:
        """The worker owning the chat's partition now."""
        pid = (await self.owners()).get(partition_of(chat, PARTITIONS))
        return next((w for w in self.processes if w.pid == pid and w.running()), None)

    async def shared(self, workers: list[RoleProcess]) -> None:
        """Wait until these workers, and only they, own every partition, each its share."""
        pids = {w.pid for w in workers}
        most = -(-PARTITIONS // len(workers))

        async def even() -> bool:
            owned = await self.owners()
            counts = [list(owned.values()).count(pid) for pid in pids]
            return len(owned) == PARTITIONS and set(owned.values()) == pids and \
                max(counts) <= most
        await until(even, f"the partitions shared by {len(workers)} workers", 60)

    async def deliver(self) -> list[int]:
        """POST every update the emulator holds to the ingress, in order: the statuses."""
        return [await self.post(update) for update in self.take()]

    def take(self) -> list[dict]:
        """The emulator's pending updates, taken from it (as Telegram's webhook would)."""
        taken = [{key: value for key, value in update.items() if not key.startswith("_")}
                 for update in self.telegram.updates]
        self.telegram.updates.clear()
        return taken

    async def post(self, update: dict, port: int | None = None) -> int:
        body = json.dumps(update).encode()
        return (await post(port or self.port, update_headers(body, SECRET), body))[0]

    async def stop(self) -> None:
        for process in reversed(self.processes):
            await process.stop()


MakeCluster = Callable[..., Cluster]  # the `cluster` fixture: a cluster of the test's own


@contextlib.contextmanager
def paused(broker: BrokerServer) -> Iterator[None]:
    """The broker's process stopped (SIGSTOP) and let go at the end: connections stay open,
    nothing is read or answered."""
    assert broker.process is not None
    freeze(broker.process.pid)  # in force before the test goes on: demo/freezing.py
    try:
        yield
    finally:
        broker.process.send_signal(signal.SIGCONT)
