"""A bot killed with SIGKILL cannot stop its solver workers: they must end by themselves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STARTER = """
import asyncio, os, sys
from bot.runtime.pool import SolverPool

async def start():
    pool = SolverPool(2)
    await pool.warm_up()
    return pool, sorted(pool.heavy._executor._processes)

pool, pids = asyncio.run(start())
print(" ".join(map(str, pids)), flush=True)
sys.stdin.read()  # until killed
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_workers_end_when_the_bot_is_killed():
    bot = subprocess.Popen([sys.executable, "-c", STARTER], cwd=ROOT, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    assert bot.stdout is not None
    workers = [int(pid) for pid in bot.stdout.readline().split()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    os.kill(bot.pid, signal.SIGKILL)
    bot.wait()
    deadline = time.monotonic() + 30  # a bound on the wait, not a speed check
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def test_a_worker_that_starts_after_its_bot_died_ends_too():
    """A worker still starting when the bot was killed is adopted before it can look: the pid
    it watches is the one the bot gave it, so it sees at once that the bot is gone (pid 1
    stands for a bot that is not its parent any more)."""
    starting = subprocess.Popen(
        [sys.executable, "-c", "import time; from bot.runtime.pool import _start_worker; "
         "_start_worker(0, 1); time.sleep(60)"], cwd=ROOT)
    assert starting.wait(timeout=30) == 0  # ended by itself, long before its sleep
