"""A chat's share of the turns (bot.telegram.fairness, issue 70): within its budget a chat's work
starts as any chat's would up to its share; past it, only when no other chat's update waits to
start, and a few such at a time — the bot's slack. A person's pages and cards are read, not
played: they always wait for the slack. Attacked: another chat served after the flooding one, the
share coming back with time, a chat's own order across the change, a crowd of pages arriving
first, the slack's own bound."""

from __future__ import annotations

import asyncio

from bot.telegram.fairness import FairUpdates, submit_as
from tests.bot.telegram.test_fairness import A, B, settle, update_of


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Seen:
    def __init__(self) -> None:
        self.started: list[str] = []
        self.done: list[str] = []

    async def handle(self, name: str, gate: asyncio.Event | None = None) -> None:
        self.started.append(name)
        if gate is not None:
            await gate.wait()
        self.done.append(name)


def one_at_a_time(clock: Clock, burst: float = 2.0, slack_running: int = 1) -> FairUpdates:
    return FairUpdates(concurrent=1, per_chat_running=1, share=(1.0, burst),
                       slack_running=slack_running, clock=clock)


async def past_its_share_while_b_runs(clock: Clock, advance: float) -> list[str]:
    """A spends its share of two (a1, a2), then B is served after it (b1, held); while b1
    runs, A's a3 and B's b2 wait. A was served less lately: without the share it would be next."""
    fair, seen, gate = one_at_a_time(clock), Seen(), asyncio.Event()
    for name in ("a1", "a2"):
        await fair.process_update(update_of(A), seen.handle(name))
    held = asyncio.create_task(fair.process_update(update_of(B), seen.handle("b1", gate)))
    await settle()
    waiting = [asyncio.create_task(fair.process_update(update_of(chat), seen.handle(name)))
               for chat, name in ((A, "a3"), (B, "b2"))]
    await settle()
    clock.now += advance
    gate.set()
    await asyncio.gather(held, *waiting)
    return seen.done


async def test_a_chat_past_its_share_waits_behind_a_chat_served_after_it():
    assert await past_its_share_while_b_runs(Clock(), 0.0) == ["a1", "a2", "b1", "b2", "a3"]


async def test_its_share_comes_back_with_time():
    assert await past_its_share_while_b_runs(Clock(), 1.0) == ["a1", "a2", "b1", "a3", "b2"]


async def test_a_chats_own_updates_keep_their_order_across_its_share():
    fair, seen, gate = one_at_a_time(Clock(), burst=3), Seen(), asyncio.Event()
    held = asyncio.create_task(fair.process_update(update_of(B), seen.handle("b0", gate)))
    await settle()
    burst = [asyncio.create_task(fair.process_update(update_of(A), seen.handle(f"a{i}")))
             for i in range(8)]
    others = [asyncio.create_task(fair.process_update(update_of(B), seen.handle(f"b{i}")))
              for i in range(1, 4)]
    await settle()
    gate.set()
    await asyncio.gather(held, *burst, *others)
    assert [name for name in seen.done if name[0] == "a"] == [f"a{i}" for i in range(8)]
    assert seen.done.index("a7") == len(seen.done) - 1  # the last of A's, past its share: last


async def test_past_its_share_a_chat_has_the_slack_s_few_at_a_time():
    fair = FairUpdates(concurrent=8, per_chat_running=4, share=(0.0, 1.0), slack_running=1,
                       clock=Clock())
    seen, gate = Seen(), asyncio.Event()
    burst = [asyncio.create_task(fair.process_update(update_of(A), seen.handle(f"a{i}", gate)))
             for i in range(4)]
    await settle()
    assert seen.started == ["a0", "a1"]  # its share's one, and one in the slack
    await fair.process_update(update_of(B), seen.handle("b"))  # another chat is not held
    assert seen.done == ["b"]
    gate.set()
    await asyncio.gather(*burst)
    assert seen.done == ["b", "a0", "a1", "a2", "a3"]


async def test_a_page_waits_for_every_chat_that_plays():
    """Fifty members' pages, all arrived before a group's answer: the answer is started first;
    the pages are read once no chat's update waits."""
    fair, seen, gate = one_at_a_time(Clock(), burst=50), Seen(), asyncio.Event()
    held = asyncio.create_task(fair.process_update(update_of(B), seen.handle("b0", gate)))
    await settle()
    pages = [asyncio.create_task(submit_as(fair, 100 + i, 100 + i, seen.handle(f"page{i}"),
                                           page=True)) for i in range(5)]
    await settle()
    answer = asyncio.create_task(fair.process_update(update_of(A), seen.handle("answer")))
    await settle()
    gate.set()
    await asyncio.gather(held, answer, *pages)
    assert seen.done[:2] == ["b0", "answer"]
    assert sorted(seen.done[2:]) == [f"page{i}" for i in range(5)]


async def test_a_page_is_read_at_once_on_an_idle_bot():
    fair, seen = FairUpdates(), Seen()
    await asyncio.wait_for(submit_as(fair, 7, 7, seen.handle("page"), page=True), 1)
    assert seen.done == ["page"]


def test_the_shares_kept_are_bounded_as_the_turns_are():
    fair = FairUpdates(bound=1_000)
    assert fair._shares.maxsize == fair._served.maxsize


async def test_while_the_bot_is_busy_work_past_its_share_trickles():
    """Past its share a chat's work waits for the slack; while the bot's core is busy even the
    slack's few start only TRICKLE a second, the next asked for when it may start."""
    from bot.telegram.fairness import TRICKLE

    clock, busy = Clock(), [True]
    fair = FairUpdates(concurrent=8, per_chat_running=4, share=(0.0, 1.0), slack_running=2,
                       clock=clock, busy=lambda: busy[0])
    seen, gate = Seen(), asyncio.Event()
    burst = [asyncio.create_task(fair.process_update(update_of(A), seen.handle(f"a{i}", gate)))
             for i in range(4)]
    await settle()
    assert seen.started == ["a0", "a1"]  # its share's one; one from the slack, then none yet
    await fair.process_update(update_of(B), seen.handle("b"))  # another chat: at once
    assert seen.done == ["b"]
    clock.now += 1 / TRICKLE
    await asyncio.sleep(1.5 / TRICKLE)  # the dispatch asked for when the next may start
    assert seen.started == ["a0", "a1", "b", "a2"]
    busy[0] = False  # no longer busy: the rest as the slack's few let them
    gate.set()
    await asyncio.gather(*burst)
    assert seen.done == ["b", "a0", "a1", "a2", "a3"]


def test_busy_is_more_than_three_quarters_of_a_core_over_the_last_window():
    from bot.telegram.fairness import BUSY_WINDOW, CpuBusy

    wall, cpu = [0.0], [0.0]
    busy = CpuBusy(lambda: wall[0], lambda: cpu[0])
    wall[0], cpu[0] = BUSY_WINDOW, 0.9 * BUSY_WINDOW
    assert busy()
    wall[0] += BUSY_WINDOW / 2  # within the window: as it was
    assert busy()
    wall[0] += BUSY_WINDOW / 2
    cpu[0] += 0.1 * BUSY_WINDOW
    assert not busy()
