"""Fair update handling (bot.telegram.fairness): a user's burst waits behind the updates of
users served less lately, a user has a few updates handled at a time, a burst past its bound is
dropped (its coroutines closed, never run), and the processor works inside a real Application."""

from __future__ import annotations

import asyncio
import inspect
from types import SimpleNamespace

from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, TypeHandler

from bot.demo.emulator import BotApiEmulator
from bot.telegram.fairness import FairUpdates, install, sender

A, B, C = 1, 2, 3


def update_of(user: int | None, chat: int | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        effective_user=None if user is None else SimpleNamespace(id=user),
        effective_chat=None if chat is None else SimpleNamespace(id=chat))


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


class Recorder:
    def __init__(self) -> None:
        self.order: list[str] = []
        self.gate = asyncio.Event()

    async def handle(self, name: str, wait: bool = False) -> None:
        self.order.append(f"start {name}")
        if wait:
            await self.gate.wait()
        self.order.append(name)


async def test_a_burst_waits_behind_everyone_elses_updates():
    fair, seen = FairUpdates(concurrent=1, per_user_running=1), Recorder()
    tasks = [asyncio.create_task(fair.process_update(update_of(A), seen.handle("a1", True)))]
    await settle()
    for i in range(2, 5):
        tasks.append(asyncio.create_task(fair.process_update(update_of(A), seen.handle(f"a{i}"))))
    await settle()
    for user, name in ((B, "b1"), (C, "c1")):
        tasks.append(asyncio.create_task(fair.process_update(update_of(user), seen.handle(name))))
    await settle()
    assert fair.waiting() == 5
    seen.gate.set()
    await asyncio.gather(*tasks)
    assert [n for n in seen.order if not n.startswith("start")] == \
        ["a1", "b1", "c1", "a2", "a3", "a4"]


async def test_a_user_has_few_updates_handled_at_a_time():
    fair, seen = FairUpdates(concurrent=8, per_user_running=2), Recorder()
    burst = [asyncio.create_task(fair.process_update(update_of(A), seen.handle(f"a{i}", True)))
             for i in range(5)]
    await settle()
    assert seen.order == ["start a0", "start a1"] and fair.waiting(("user", A)) == 3
    await fair.process_update(update_of(B), seen.handle("b"))  # not held behind A's burst
    assert seen.order[-1] == "b"
    seen.gate.set()
    await asyncio.gather(*burst)
    assert sum(n.startswith("start a") for n in seen.order) == 5


async def test_past_its_bound_a_burst_is_dropped_unrun():
    fair, seen = FairUpdates(concurrent=1, per_user_running=1, per_user_waiting=3), Recorder()
    first = asyncio.create_task(fair.process_update(update_of(A), seen.handle("a0", True)))
    await settle()
    coroutines = [seen.handle(f"a{i}") for i in range(1, 10)]
    burst = [asyncio.create_task(fair.process_update(update_of(A), c)) for c in coroutines]
    await settle()
    assert fair.dropped == 6 and fair.waiting() == 3
    assert sum(inspect.getcoroutinestate(c) == inspect.CORO_CLOSED for c in coroutines) == 6
    other = asyncio.create_task(fair.process_update(update_of(B), seen.handle("b")))
    await settle()
    seen.gate.set()
    await asyncio.gather(first, other, *burst)
    done = [n for n in seen.order if not n.startswith("start")]
    assert done == ["a0", "b", "a1", "a2", "a3"]


async def test_a_cancelled_update_gives_its_place_back():
    fair, seen = FairUpdates(concurrent=1, per_user_running=1), Recorder()
    first = asyncio.create_task(fair.process_update(update_of(A), seen.handle("a", True)))
    await settle()
    waiting = asyncio.create_task(fair.process_update(update_of(B), seen.handle("b")))
    await settle()
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    seen.gate.set()
    await first
    await fair.process_update(update_of(C), seen.handle("c"))
    assert [n for n in seen.order if not n.startswith("start")] == ["a", "c"]
    assert fair.waiting() == 0


def test_whose_update_it_is():
    assert sender(update_of(7, -5)) == ("user", 7)
    assert sender(update_of(None, -5)) == ("chat", -5)
    assert sender(object()) == ("other", 0)


async def test_in_a_real_application_updates_are_served_fairly(telegram: BotApiEmulator):
    app = ApplicationBuilder().token(telegram.token).base_url(telegram.base_url) \
        .updater(None).build()
    fair = install(app, FairUpdates(concurrent=1, per_user_running=1))
    assert app.update_processor is fair
    order: list[int] = []
    gate = asyncio.Event()

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.update_id == 1:
            await gate.wait()
        order.append(update.update_id)

    app.add_handler(TypeHandler(Update, record))
    user = {"id": A, "is_bot": False, "first_name": "A"}
    other = {"id": B, "is_bot": False, "first_name": "B"}
    await app.initialize()
    await app.start()
    try:
        for update_id, who in ((1, user), (2, user), (3, user), (4, other)):
            message = {"message_id": update_id, "date": 0, "from": who, "text": "x",
                       "chat": {"id": -9, "type": "group", "title": "g"}}
            await app.update_queue.put(Update.de_json(
                {"update_id": update_id, "message": message}, app.bot))
        for _ in range(100):
            if fair.waiting() == 3:
                break
            await asyncio.sleep(0.01)
        gate.set()
        for _ in range(500):
            if len(order) == 4:
                break
            await asyncio.sleep(0.01)
    finally:
        await app.stop()
        await app.shutdown()
    assert order == [1, 4, 2, 3]


def test_the_bot_is_built_with_the_fair_processor():
    from bot.runtime.config import Config
    from bot.telegram.app import CONCURRENT_UPDATES, build_application

    application = build_application(Config(token="123:abc"))
    assert isinstance(application.update_processor, FairUpdates)
    assert application.update_processor.concurrent == CONCURRENT_UPDATES


ANONYMOUS_ADMIN = {"id": 1087968824, "is_bot": True, "first_name": "Group"}  # every group's


async def test_an_anonymous_admins_flood_cannot_drop_another_groups_answer(
        telegram: BotApiEmulator):
    """Every group's anonymous admins write as one user: keyed by the chat they write for,
    group A's flood fills A's queue only, and group B's right answer is handled."""
    app = ApplicationBuilder().token(telegram.token).base_url(telegram.base_url) \
        .updater(None).build()
    fair = install(app, FairUpdates(concurrent=1, per_user_running=1, per_user_waiting=3))
    handled: list[int] = []
    gate = asyncio.Event()

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.update_id == 1:
            await gate.wait()
        handled.append(update.update_id)

    app.add_handler(TypeHandler(Update, record))
    await app.initialize()
    await app.start()
    try:
        for update_id in range(1, 12):
            group = -101 if update_id <= 10 else -202  # ten from A, then B's answer
            chat = {"id": group, "type": "supergroup", "title": "g"}
            message = {"message_id": update_id, "date": 0, "from": ANONYMOUS_ADMIN,
                       "sender_chat": chat, "chat": chat, "text": "/a 8/(3-8/3)"}
            await app.update_queue.put(Update.de_json(
                {"update_id": update_id, "message": message}, app.bot))
        for _ in range(200):
            if fair.waiting() + len(handled) + fair.dropped >= 10:
                break
            await asyncio.sleep(0.01)
        gate.set()
        for _ in range(500):
            if 11 in handled:
                break
            await asyncio.sleep(0.01)
    finally:
        await app.stop()
        await app.shutdown()
    assert 11 in handled and fair.dropped == 6  # A's burst past its bound, never B's
    assert sender(Update.de_json({"update_id": 1, "message": {
        "message_id": 1, "date": 0, "from": ANONYMOUS_ADMIN, "text": "x",
        "sender_chat": {"id": -202, "type": "supergroup", "title": "g"},
        "chat": {"id": -202, "type": "supergroup", "title": "g"}}}, None)) == ("chat", -202)


async def test_every_press_of_a_burst_is_answered(harness):
    """300 presses at once from one person (issue 35, item 8): those past the person's bound
    are dropped unread, and each of them, too, is answered — with a notice to slow down."""
    from bot.text.html_text import visible_text
    from bot.text.i18n import Texts
    from tests.bot.test_buttons import ALICE, BOB, GROUP, deal

    fair = harness.app.update_processor
    assert isinstance(fair, FairUpdates)
    sent, _ = await deal(harness)
    [(_, reveal)] = [b for b in harness.telegram.buttons(GROUP, sent.message_id)
                     if b[0] == "Reveal"]
    queries = [await harness.telegram.press(GROUP, sent.message_id, BOB, reveal)
               for _ in range(300)]
    updates = [Update.de_json({k: v for k, v in u.items() if not k.startswith("_")},
                              harness.app.bot)
               for u in harness.telegram.updates if "callback_query" in u]
    harness.telegram.updates.clear()
    for update in updates:  # as the bot's fetcher takes them: through the fair processor
        await harness.app.update_queue.put(update)
    await harness.telegram.wait_for(
        lambda: all(harness.telegram.callback_answer(q) for q in queries), 60)
    answers = [harness.telegram.callback_answer(q) for q in queries]
    assert all(answers), f"{answers.count(None)} of 300 presses never answered"
    slow = visible_text(Texts("en")("button_slow_down"))
    assert fair.dropped >= 200  # the burst did pass the bound
    assert sum(a.text == slow for a in answers if a) == fair.dropped
    assert harness.services.rounds.open_round(GROUP) is not None  # Bob may not end it
    assert ALICE["id"] != BOB["id"]
