"""`make run-cluster` end to end (bot/demo/cluster.py): its own PostgreSQL, NATS, emulator,
ingress and two workers; a round dealt, `/kill` SIGKILLs the leader, the standby takes the lead
and the round ends there against its deadline; at the end of input every process it started is
gone and its folders are removed."""

from __future__ import annotations

import asyncio
import io
import os
import re

import pytest

from bot.demo import cluster
from bot.demo.cluster import ClusterDemo
from tests.waiting import until

pytestmark = pytest.mark.slow


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_a_round_survives_kill_of_its_worker_and_nothing_is_left_behind(monkeypatch):
    monkeypatch.setenv("ROUND_SECONDS", "8")
    monkeypatch.setattr(cluster, "START_SECONDS", 120.0)
    read, write = os.pipe()
    out = io.StringIO()
    demo = ClusterDemo("Ann", out, stdin_fd=read)
    running = asyncio.create_task(demo.run())
    try:
        def type_line(line: str) -> None:
            os.write(write, f"{line}\n".encode())

        await until(lambda: demo.chat is not None or running.done(), "the cluster up", 180)
        type_line("/play")
        await until(lambda: "Make 24" in out.getvalue(), "the deal")
        leader = demo.leader()
        assert leader is not None and leader.pid is not None
        killed_pid = leader.pid
        type_line("/kill")
        await until(lambda: "after the kill" in out.getvalue(), "the take-over", 60)
        assert gone(killed_pid)
        said = out.getvalue()
        assert re.search(r"worker (a|b) \(pid \d+\) leads [\d.]+ s after the kill", said), said
        await until(lambda: "Time is up" in out.getvalue(), "the round's end", 60)
        await until(lambda: "after its deadline" in out.getvalue(), "its end against the deadline")
        ended = re.search(r"the round ended ([\d.]+) s after its deadline", out.getvalue())
        assert ended, out.getvalue()
        pids = [role.pid for role in (demo.ingress, *demo.workers) if role is not None]
        servers = [demo.postgres, demo.broker]
    finally:
        os.close(write)  # the end of input: the demo stops everything
        await asyncio.wait_for(running, 120)
        os.close(read)
    assert all(gone(pid) for pid in pids if pid is not None)
    for server in servers:
        assert server is not None and server.process is None
        assert not server.folder.exists()
    assert not demo.folder.exists()
