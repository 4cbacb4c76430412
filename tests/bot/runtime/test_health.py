"""sd_notify over NOTIFY_SOCKET, written here in a few lines: each heartbeat tells systemd
"WATCHDOG=1" (and "READY=1"), so that Type=notify with WatchdogSec= restarts a bot whose loop
stopped. Tested against a local Unix datagram socket, as systemd listens."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.runtime.health import beat, heartbeat_job, notify


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[socket.socket]:
    """A service manager's socket: a bound Unix datagram socket at tmp_path/notify."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listening:
        listening.bind(str(tmp_path / "notify"))
        listening.settimeout(5)
        yield listening


def test_notify_sends_one_datagram(manager: socket.socket, tmp_path: Path):
    assert notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "notify")})
    assert manager.recv(4096) == b"READY=1"


def test_an_abstract_socket(tmp_path: Path):
    name = f"twentyfour-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listening:
        listening.bind("\0" + name)
        listening.settimeout(5)
        assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert listening.recv(4096) == b"WATCHDOG=1"


@pytest.mark.parametrize("address", ["", "relative/path", "/no/such/socket"])
def test_no_manager_is_quietly_nothing(address: str):
    assert not notify("READY=1", {"NOTIFY_SOCKET": address})


async def test_each_heartbeat_feeds_the_watchdog(manager: socket.socket, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    path = tmp_path / "bot.sqlite3.heartbeat"
    beat(path, "leader")
    assert path.read_text() == "leader\n"
    assert b"WATCHDOG=1" in manager.recv(4096).split(b"\n")
    await heartbeat_job(path)(None)
    assert b"WATCHDOG=1" in manager.recv(4096).split(b"\n")
