"""SIGSTOP that has taken hold: `freeze` returns once every thread of the process is stopped.

kill() returns before that. The kernel wakes one thread with the signal and the others stop
only once that one has run, so on a busy machine a frozen server can still read and answer
for a while after kill() (a paused broker acknowledged one more publish in CI). A test that
says "nothing is answered while it is paused" needs the stop to be in force when it goes on.
Standard library only, like the rest of demo/.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

FREEZE_SECONDS = 10.0  # far past what a stop takes (microseconds; milliseconds on a busy machine)
STOPPED = frozenset("tTZX")  # stopped, traced, or gone: none of them runs


def freeze(pid: int, seconds: float = FREEZE_SECONDS) -> None:
    """SIGSTOP `pid` and wait until none of its threads runs; TimeoutError past `seconds`."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + seconds
    while not frozen(pid):
        if time.monotonic() > deadline:
            raise TimeoutError(f"process {pid} not stopped {seconds:g} s after SIGSTOP")
        time.sleep(0.001)


def frozen(pid: int) -> bool:
    """Whether no thread of `pid` runs (each thread's state in /proc/<pid>/task/*/stat)."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:  # the process is gone
        return True
    for task in tasks:
        try:
            stat = (task / "stat").read_text()
        except (FileNotFoundError, ProcessLookupError):  # that thread ended
            continue
        if stat.rsplit(")", 1)[1].split()[0] not in STOPPED:  # the name may hold ") "
            return False
    return True
