"""`freeze`: a SIGSTOP in force when it returns, for the tests that pause a broker or a bot."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from demo.freezing import freeze, frozen

# four threads hashing (hashlib lets the GIL go on big data): always one of them running
BUSY = """
import hashlib, threading, time
data = b"x" * 4_000_000
def spin():
    while True:
        hashlib.sha256(data).digest()
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
print("ready", flush=True)
time.sleep(600)
"""


@pytest.fixture
def busy() -> Iterator[subprocess.Popen]:
    child = subprocess.Popen([sys.executable, "-c", BUSY], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        yield child
    finally:
        child.kill()
        child.wait()


def states(pid: int) -> list[str]:
    """Each thread's state letter, read here and not by the code under test."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # that thread ended
            found.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
    return found


def test_every_thread_is_stopped_when_freeze_returns(busy: subprocess.Popen) -> None:
    """A bare kill() leaves a busy process's threads running for a while (most of the time
    here): each of twenty freezes finds all five stopped at once, and SIGCONT lets them go."""
    for _ in range(20):
        freeze(busy.pid)
        assert set(states(busy.pid)) <= {"T"}, states(busy.pid)
        assert len(states(busy.pid)) == 5
        os.kill(busy.pid, signal.SIGCONT)
        while frozen(busy.pid):
            pass


def test_a_process_that_ended_counts_as_frozen_and_none_is_refused() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert frozen(child.pid)
    with pytest.raises(ProcessLookupError):
        freeze(child.pid)


def test_a_zombie_is_frozen_at_once() -> None:
    """Ended but not yet waited for: nothing of it runs, so freeze returns."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    while "Z" not in states(child.pid):
        pass
    freeze(child.pid)
    child.wait()
