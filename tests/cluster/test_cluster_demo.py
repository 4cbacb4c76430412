"""`make run-cluster` end to end (demo/cluster.py): its own PostgreSQL, NATS, emulator,
ingress and two workers sharing the partitions; a round dealt, `/kill` SIGKILLs the worker that
owns the group's partition, the other takes the partition over (the database's owners say so)
and the round ends there on time; the killed worker is started again and takes its share back;
at the end of input every process it started is gone and its folders are removed."""

from __future__ import annotations

import asyncio
import io
import os
import re

import pytest

from demo import cluster
from demo.cluster import GROUP_PARTITION, PARTITIONS, ClusterDemo, held
from tests.waiting import until

pytestmark = pytest.mark.slow
LATE_SECONDS = 5.0  # a round's end after its deadline: a look at the owners, a resume, a send


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_a_round_survives_kill_of_its_worker_and_nothing_is_left_behind(monkeypatch, capsys):
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
        assert not running.done(), out.getvalue()
        assert await demo.shared()  # half each: the start waited for it
        started = capsys.readouterr().err  # the demo's lines before the chat's
        assert f"owns this group's partition {GROUP_PARTITION}" in started, started
        type_line("/play")
        await until(lambda: "Make 24" in out.getvalue(), "the deal")
        owner = await demo.group_owner()
        survivor = next(w for w in demo.workers if w is not owner)
        assert owner is not None and owner.pid is not None and survivor.pid is not None
        killed_pid, survivor_pid = owner.pid, survivor.pid
        type_line("/kill")
        await until(lambda: "after the kill" in out.getvalue() or "no take-over" in
                    out.getvalue(), "the take-over or its failure", 60)
        said = out.getvalue()
        assert gone(killed_pid)
        took = re.search(rf"\(pid (\d+)\) took partition {GROUP_PARTITION} over [\d.]+ s "
                         r"after the kill", said)
        assert took and int(took[1]) == survivor_pid, said
        await until(lambda: "Time is up" in out.getvalue(), "the round's end", 60)
        await until(lambda: "after its deadline" in out.getvalue(), "its end against the deadline")
        ended = re.search(r"the round ended ([\d.]+) s after its deadline, on worker [ab] "
                          r"\(pid (\d+)\)", out.getvalue())
        assert ended, out.getvalue()
        assert float(ended[1]) <= LATE_SECONDS and int(ended[2]) != killed_pid
        await until(lambda: "took its share back" in out.getvalue() or "did not take" in
                    out.getvalue(), "the killed worker back", 150)
        assert "took its share back" in out.getvalue(), out.getvalue()
        assert owner.running() and owner.pid != killed_pid  # started again, as a new process
        owned = await demo.owners()
        assert len(owned) == PARTITIONS
        assert len(held(owned, owner)) == len(held(owned, survivor)) == PARTITIONS // 2
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
