"""The solo modes across workers (issue 74): `python -m bot worker` processes on NATS and a real
PostgreSQL, the worker owning a person's private chat killed in the middle of their streak or
storm. The worker taking the chat over goes on as one process does after a restart
(docs/solo.md): a streak's next hand is dealt once — lost by neither worker, dealt by no two —
and the streak counts on; a storm ends "stopped" with what it scored, said once, its best kept,
and its open hand plays on as an ordinary round. A worker paused mid-storm and let go says
nothing more."""

from __future__ import annotations

import asyncio
import signal

import asyncpg
import pytest

from solver import solve
from tests.cluster.processes import Cluster, RoleProcess
from tests.cluster.test_cluster_process import owner_and_other
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = pytest.mark.slow
PERSON = {"id": 3301, "is_bot": False, "first_name": "Sol", "language_code": "en"}
CHAT = PERSON["id"]  # a private chat's id is its person's


async def begun(running: Cluster, telegram, command: str
                ) -> tuple[RoleProcess, RoleProcess, list[int]]:
    """Two workers sharing the partitions, `command` sent in the person's private chat: the
    worker owning the chat, the other, and the first hand dealt (by the owner)."""
    owner, other = await owner_and_other(running, CHAT)
    telegram.chat(CHAT, "private", None)
    await telegram.say(CHAT, PERSON, command, kind="private")
    assert await running.deliver() == [200]
    dealt = await telegram.reply(CHAT, timeout=30)
    assert dealt.pid == owner.pid
    return owner, other, hand_of(dealt.text)


async def answered(running: Cluster, telegram, hand: list[int]):
    """The hand answered right by its person: the result, as sent."""
    await telegram.say(CHAT, PERSON, f"/a {solve(hand)[0]}", kind="private")
    assert await running.deliver() == [200]
    return await telegram.reply(CHAT, timeout=30)


async def on_record(connection: asyncpg.Connection) -> None:
    """Until every deal and result sent in the chat is on record (its message id, its
    announcement): a kill before is the window docs/reliability.md states, where the next
    owner shows it again; these tests are about what the solo modes do after it."""
    await until(lambda: connection.fetchval(
        "SELECT bool_and(message_id IS NOT NULL AND (status = 'open' OR announced <> 0)) "
        "FROM rounds WHERE chat_id = $1", CHAT), "the chat's messages on record")


def hands_dealt(telegram, marker: str) -> list[str]:
    return [s.text for s in telegram.sent if s.chat_id == CHAT and marker in s.text]


async def test_a_streak_outlives_the_worker_killed_between_its_hands(telegram, cluster,
                                                                    database):
    """The first hand solved, the owner killed in the pause before the next: the next hand is
    dealt once (by the owner before it died, or by the worker taking the chat over), the
    second is solved on the new owner, and the streak counts two."""
    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=60.0)
    try:
        owner, other, hand = await begun(running, telegram, "/streak")
        won = await answered(running, telegram, hand)
        assert "Sol wins" in won.text and "Solved in a row: 1" in won.text
        await on_record(connection)
        await owner.kill()
        await running.shared([other])
        second = await telegram.reply(CHAT, timeout=40)
        assert "Streak: hand 2" in second.text, second.text
        won = await answered(running, telegram, hand_of(second.text))
        assert won.pid == other.pid and "Solved in a row: 2" in won.text
        third = await telegram.reply(CHAT, timeout=30)
        assert "Streak: hand 3" in third.text and third.pid == other.pid
        await asyncio.sleep(3)  # a second deal of any hand would be out by now
        assert len(hands_dealt(telegram, "Streak: hand")) == 3  # each hand once
        row = await connection.fetchrow(
            "SELECT solved, status, round_id FROM streaks WHERE user_id = $1", CHAT)
        assert (row["solved"], row["status"]) == (2, "on") and row["round_id"] is not None
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1 AND status = 'open'", CHAT) == 1
    finally:
        await connection.close()


async def test_a_storm_whose_worker_is_killed_stops_once_and_its_hand_plays_on(
        telegram, cluster, database):
    """One hand solved, the second dealt, the owner killed: the worker taking the chat over
    ends the storm "stopped" with the one solved, says so once, keeps it as the person's best
    of the day and season; the second hand is then an ordinary round, won with no storm line."""
    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=60.0)
    try:
        owner, other, hand = await begun(running, telegram, "/storm")
        won = await answered(running, telegram, hand)
        assert "Solved: 1" in won.text
        second = await telegram.reply(CHAT, timeout=30)
        assert "Storm: hand 2" in second.text and second.pid == owner.pid
        await until(lambda: connection.fetchval(
            "SELECT round_id IS NOT NULL FROM storms WHERE user_id = $1", CHAT),
            "the second hand taken as the storm's")
        await on_record(connection)
        await owner.kill()
        await running.shared([other])
        stopped = await telegram.reply(CHAT, timeout=40)
        assert "The storm stopped" in stopped.text and "solved 1" in stopped.text
        assert stopped.pid == other.pid
        row = await connection.fetchrow(
            "SELECT solved, status FROM storms WHERE user_id = $1", CHAT)
        assert tuple(row) == (1, "stopped")
        assert sorted(r["period"][0] for r in await connection.fetch(
            "SELECT period FROM solo_bests WHERE mode = 'storm' AND user_id = $1 AND best = 1",
            CHAT)) == ["d", "s"]
        won = await answered(running, telegram, hand_of(second.text))
        assert "Sol wins" in won.text and won.pid == other.pid
        assert "⛈" not in won.text  # an ordinary round now
        await asyncio.sleep(2)  # no next hand: the storm is over
        assert len(hands_dealt(telegram, "Storm: hand")) == 2
        assert len(hands_dealt(telegram, "The storm stopped")) == 1
    finally:
        await connection.close()


async def test_a_worker_paused_mid_storm_is_replaced_and_once_let_go_says_nothing(
        telegram, cluster, database):
    """SIGSTOP of the owner while a storm's hand is played: the other worker takes the chat
    over and stops the storm; SIGCONT: the paused worker exits having sent nothing more (no
    next hand, no second end)."""
    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=60.0)
    try:
        paused, other, _ = await begun(running, telegram, "/storm")
        await until(lambda: connection.fetchval(
            "SELECT round_id IS NOT NULL FROM storms WHERE user_id = $1", CHAT),
            "the first hand taken as the storm's")
        await on_record(connection)
        paused.signal(signal.SIGSTOP)
        await running.shared([other])
        stopped = await telegram.reply(CHAT, timeout=40)
        assert "The storm stopped" in stopped.text and stopped.pid == other.pid
        sent_before = len(telegram.journal)
        paused.signal(signal.SIGCONT)
        assert paused.process is not None
        assert await asyncio.wait_for(paused.process.wait(), 30) == 3  # LOST_LEAD
        assert [r for r in telegram.journal[sent_before:] if r.pid == paused.pid] == []
        assert len(hands_dealt(telegram, "The storm stopped")) == 1
        assert await connection.fetchval(
            "SELECT status FROM storms WHERE user_id = $1", CHAT) == "stopped"
    finally:
        await connection.close()
