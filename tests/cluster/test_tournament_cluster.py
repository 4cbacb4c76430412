"""A tournament on the cluster: an ingress and three workers against the Bot API emulator, a
real PostgreSQL and NATS, six groups spread over the workers' partitions. The schedule is one
worker's (the tournament's row names its lease); every group is dealt each round by the worker
owning it, the errands to the other workers' groups carried through the stream; the worker that
runs the schedule is killed after the first deals, and the tournament goes on: another worker
takes the schedule over (its lease ran out) and the dead worker's groups (their partitions), and
every round is played in every group, its board shown once in each, the podium at the end. The
kill comes once every deal of the round is on record (its message id stored): outside the one
window a message can be shown twice in (docs/reliability.md), so every deal, group's result and
board is shown once (issue 70)."""

from __future__ import annotations

import re
from collections import Counter

import asyncpg
import pytest

from bot.cluster.partitions import partition_of
from demo.emulator import BotApiEmulator
from solver import solve
from tests.cluster.processes import PARTITIONS
from tests.waiting import until

pytestmark = pytest.mark.slow
ROUNDS = 3
GROUPS = [-(5100 + n) for n in range(40)]
HAND = re.compile(r"^(\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)
KINDS = {"deal": r"round (\d+) of \d+, the same hand", "result": r"round (\d+) of \d+: this group "
         "is done", "board": r"round (\d+) of \d+ is over in every group"}


def spread(count: int) -> list[int]:
    """Groups in `count` different partitions."""
    found: dict[int, int] = {}
    for group in GROUPS:
        found.setdefault(partition_of(group, PARTITIONS), group)
    return list(found.values())[:count]


def person(n: int) -> dict:
    return {"id": 5200 + n, "is_bot": False, "first_name": f"P{n}", "language_code": "en"}


async def schedule_owner(database: str) -> int:
    """The pid of the worker whose lease owns the tournament's schedule."""
    connection = await asyncpg.connect(database)
    try:
        holder = await connection.fetchval(
            "SELECT w.holder FROM tournaments t JOIN worker_leases w ON w.epoch = t.owner "
            "AND w.expires_at > now()")
    finally:
        await connection.close()
    return int(holder.split("@")[0]) if holder else 0


async def deals_on_record(database: str, number: int) -> bool:
    """Whether every group's deal of round `number` has its message id stored."""
    connection = await asyncpg.connect(database)
    try:
        return await connection.fetchval(
            "SELECT COUNT(*) FROM tournament_deals d JOIN rounds r ON r.id = d.round_id "
            "WHERE d.number = $1 AND r.message_id IS NOT NULL", number) == 6
    finally:
        await connection.close()


async def test_a_tournament_outlives_the_worker_running_its_schedule(
        telegram: BotApiEmulator, cluster, database):
    running = cluster()
    running.env.update(TOURNAMENT_PAUSE="1")
    await running.start_ingress()
    workers = [await running.start_worker(name) for name in "abc"]
    await running.shared(workers)
    by_worker: dict[int, list[int]] = {}
    for group in spread(PARTITIONS):  # two groups of each worker's
        owner = await running.owner(group)
        assert owner is not None and owner.pid is not None
        by_worker.setdefault(owner.pid, []).append(group)
    groups = [group for mine in by_worker.values() for group in mine[:2]]
    assert len(groups) == 6
    players = {group: person(n) for n, group in enumerate(groups)}
    for group in groups:
        telegram.chat(group, "supergroup", f"G{group}")
        telegram.promote(group, players[group]["id"], "creator")
    await telegram.say(groups[0], players[groups[0]],
                       f"/tournament new Cluster Cup rounds={ROUNDS} seconds=60")
    assert await running.deliver() == [200]
    code = re.search(r"Code: ([A-Z0-9]{6})", (await telegram.reply(groups[0], 30)).text)
    assert code is not None
    for group in groups[1:]:
        await telegram.say(group, players[group], f"/tournament join {code.group(1)}")
    assert set(await running.deliver()) == {200}
    for group in groups[1:]:
        assert "joined" in (await telegram.reply(group, 30)).text
    await telegram.say(groups[0], players[groups[0]], "/tournament start")
    assert await running.deliver() == [200]
    assert "starts now, with 6 groups" in (await telegram.reply(groups[0], 30)).text
    killed = None
    for number in range(1, ROUNDS + 1):
        deals = {group: await telegram.reply(group, 60) for group in groups}
        for deal in deals.values():
            assert f"round {number} of {ROUNDS}, the same hand in 6 groups" in deal.text, \
                deal.text
        hands = {HAND.search(d.text).groups() for d in deals.values()}  # type: ignore[union-attr]
        assert len(hands) == 1, "the same hand in every group"
        if killed is None:  # the schedule's worker dies with the round dealt
            await until(lambda n=number: deals_on_record(database, n), "the deals on record")
            pid = await schedule_owner(database)
            killed = next(w for w in workers if w.pid == pid)
            await killed.kill()
        answer = solve(tuple(int(n) for n in hands.pop()))[0]
        for group in groups:
            await telegram.say(group, players[group], f"/a {answer}")
        assert set(await running.deliver()) == {200}
        for group in groups:  # the group's result, then the board once every group closed
            assert "solves it in" in (await telegram.reply(group, 60)).text
        for group in groups:
            board = await telegram.reply(group, 90)
            assert f"round {number} of {ROUNDS} is over in every group" in board.text
    assert killed is not None
    assert await schedule_owner(database) != killed.pid
    boards = Counter((s.chat_id, m.group(1)) for s in telegram.sent
                     if (m := re.search(r"round (\d+) of \d+ is over in every group", s.text)))
    assert set(boards.values()) == {1} and len(boards) == 6 * ROUNDS  # each once, none lost
    shown = Counter((s.chat_id, kind, m.group(1)) for s in telegram.sent
                    for kind, pattern in KINDS.items() if (m := re.search(pattern, s.text)))
    assert len(shown) == 3 * 6 * ROUNDS and [k for k, n in shown.items() if n > 1] == []
    for group in groups:
        last = [s for s in telegram.sent if s.chat_id == group][-1]
        assert "The podium — players:" in last.text and "is over. Thank you" in last.text
    connection = await asyncpg.connect(database)
    try:
        assert await connection.fetchval("SELECT status FROM tournaments") == "done"
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM tournament_deals WHERE status = 'dealt'") == 6 * ROUNDS
        won = await connection.fetch("SELECT r.chat_id, COUNT(*) FROM tournament_deals d "
                                     "JOIN rounds r ON r.id = d.round_id WHERE r.status = 'won' "
                                     "GROUP BY r.chat_id")
        assert sorted(count for _, count in won) == [ROUNDS] * 6
    finally:
        await connection.close()
    await until(lambda: not killed.running(), "the killed worker gone")
