"""The cluster's roles as real processes, for its demo (`make run-cluster`) and its tests:
`python -m bot ingress|worker` spawned with its own settings and log file, told apart by its
heartbeat (leader or standby), signalled, killed, and stopped with SIGTERM at the end; and
`post_update`, Telegram's side of the webhook (one update POSTed with the secret header).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from pathlib import Path

from bot.runtime.health import heartbeat_path, heartbeat_role
from bot.telegram.webhook import SECRET_HEADER, WEBHOOK_PATH
from demo.freezing import freeze

CONSUMING = "consuming"  # a worker's log line once it takes its partitions (it leads)
STOP_SECONDS = 20.0  # a stopped role's grace (its updates in hand finish), then SIGKILL


class RoleProcess:
    """One `python -m bot <role>` named `name`: its log is `<folder>/<name>.log`, and its
    DATABASE_PATH (with PostgreSQL, only where its heartbeat goes) `<folder>/<name>.sqlite3`.
    `own_session`: in a process group of its own, so a Ctrl-C at the terminal reaches only
    whoever started it, which then stops the roles in order."""

    def __init__(self, role: str, name: str, folder: Path, env: dict[str, str],
                 cwd: Path | None = None, own_session: bool = False) -> None:
        self.role_name = role
        self.name = name
        self.database = folder / f"{name}.sqlite3"  # only places its heartbeat
        self.log = folder / f"{name}.log"
        self.env = {**env, "DATABASE_PATH": str(self.database)}
        self.cwd = cwd
        self.own_session = own_session
        self.process: asyncio.subprocess.Process | None = None

    async def spawn(self) -> None:
        """Start it (again, after a kill: the old heartbeat is removed, the log goes on)."""
        heartbeat_path(self.database).unlink(missing_ok=True)
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", self.role_name, cwd=self.cwd, env=self.env,
                stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL,
                start_new_session=self.own_session)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def role(self) -> str | None:
        """leader or standby, as the worker's heartbeat says (None before its first)."""
        return heartbeat_role(heartbeat_path(self.database))

    def said(self, text: str) -> bool:
        return self.log.is_file() and text in self.log.read_text(errors="replace")

    def signal(self, number: int) -> None:
        """Send `number`; a SIGSTOP returns once the process is stopped (demo/freezing.py)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                if number == signal.SIGSTOP and self.process.returncode is None:
                    freeze(self.process.pid)
                else:
                    self.process.send_signal(number)

    async def kill(self) -> None:
        """SIGKILL: nothing of it runs after this returns."""
        self.signal(signal.SIGKILL)
        if self.process is not None:
            await self.process.wait()

    async def stop(self) -> None:
        """SIGTERM (after SIGCONT, should it be paused), SIGKILL past STOP_SECONDS."""
        if self.running():
            assert self.process is not None
            self.signal(signal.SIGCONT)
            self.signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
            except TimeoutError:
                await self.kill()


async def post_update(port: int, update: dict, secret: str) -> int:
    """POST one update to the webhook on 127.0.0.1:`port` as Telegram does: the status (0 when
    nothing answered), so the caller posts it again on anything but 200."""
    body = json.dumps(update).encode()
    head = [f"POST /{WEBHOOK_PATH} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {len(body)}",
            f"{SECRET_HEADER}: {secret}"]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 30)
        parts = status_line.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (OSError, TimeoutError):
        return 0
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
