"""The intake (issue 54): at most its bound of updates in hand; the poller asks Telegram only for
what there is room for and sends no getUpdates while full; the webhook holds a request, its body
unread, until there is room (503 when none comes in time, or the bot stops); nothing is lost,
and Telegram's order is kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import pytest
import tornado.netutil
from telegram.ext import ApplicationBuilder

from bot.runtime.config import Config
from bot.telegram import webhook
from bot.telegram.app import ALLOWED_UPDATES
from bot.telegram.intake import Intake
from bot.telegram.polling import Poller, PollingBot
from demo.emulator import BotApiEmulator
from tests.e2e.test_webhook import SECRET, UPDATE, post, update_headers
from tests.waiting import until

USER = {"id": 5, "is_bot": False, "first_name": "Ann"}


async def test_room_is_promised_up_to_the_bound_and_given_back():
    intake = Intake(3)
    assert await intake.room(2) == 2 and intake.free() == 1
    assert await intake.room(5) == 1 and intake.free() == 0
    intake.take("a")
    intake.give_back(1)  # one promised place no update took
    assert intake.in_hand == 1 and intake.promised == 1 and intake.free() == 1
    assert await intake.room(1) == 1
    intake.take("b")
    intake.take("c")
    assert intake.in_hand == 3 and intake.most == 3 and intake.promised == 0
    waiting = asyncio.create_task(intake.room(10))
    await asyncio.sleep(0.01)
    assert not waiting.done()  # full: no room promised
    assert intake.get_nowait() == "a"
    intake.task_done()  # the application is done with an update: one place free
    assert await asyncio.wait_for(waiting, 5) == 1
    assert await intake.room(1, timeout=0.01) == 0  # none comes in time
    intake.close()
    assert await intake.room(1) == 0  # a closed intake promises nothing, and at once


async def test_a_closed_intake_answers_whoever_waits():
    intake = Intake(1)
    await intake.room(1)
    intake.take("a")
    waiting = asyncio.create_task(intake.room(1))
    await asyncio.sleep(0.01)
    intake.close()
    assert await asyncio.wait_for(waiting, 5) == 0


class Handled:
    """What the application would do with the intake: take each update, hold it a while, be
    done with it; the most held at once, as the handlers saw it."""

    def __init__(self, intake: Intake, seconds: float) -> None:
        self.intake = intake
        self.seconds = seconds
        self.ids: list[int] = []
        self.taken: list[int] = []
        self.running: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        while True:
            update = await self.intake.get()
            self.taken.append(update.update_id)
            task = asyncio.create_task(self.handle(update))
            self.running.add(task)
            task.add_done_callback(self.running.discard)

    async def handle(self, update: object) -> None:
        await asyncio.sleep(self.seconds)
        self.ids.append(update.update_id)  # type: ignore[attr-defined]
        self.intake.task_done()


@contextlib.asynccontextmanager
async def polling(telegram: BotApiEmulator, messages: int, intake: Intake,
                  gather: float | None = None) -> AsyncIterator[Poller]:
    """`messages` /lang waiting in a group, and a poller taking them into `intake` while the
    block runs (`gather`: its longest wait for a batch's room); stopped after it."""
    telegram.chat(-1)
    for n in range(messages):
        await telegram.say(-1, USER, f"/lang {n}")
    bot = PollingBot(telegram.token, base_url=telegram.base_url)
    await bot.initialize()
    stop = asyncio.Event()
    poller = Poller(bot, intake, ALLOWED_UPDATES, timeout=1)
    if gather is not None:
        poller.gather = gather
    running = asyncio.create_task(poller.run(stop))
    try:
        yield poller
    finally:
        stop.set()
        await running
        await bot.shutdown()


async def test_the_poller_takes_no_more_than_there_is_room_for(telegram: BotApiEmulator):
    telegram.chat(-1)
    sent = [await telegram.say(-1, USER, f"/lang {n}") for n in range(60)]
    bot = PollingBot(telegram.token, base_url=telegram.base_url)
    await bot.initialize()
    intake = Intake(7)
    handled = Handled(intake, 0.01)
    consumer = asyncio.create_task(handled.run())
    stop = asyncio.Event()
    poller = Poller(bot, intake, ALLOWED_UPDATES, timeout=1)
    polling = asyncio.create_task(poller.run(stop))
    try:
        await until(lambda: len(handled.ids) == 60, "every update handled")
    finally:
        stop.set()
        await polling
        consumer.cancel()
        await poller.confirm()
        await bot.shutdown()
    limits = [int(params["limit"]) for method, params, _ in telegram.calls
              if method == "getUpdates"]
    assert max(limits) <= 7 and intake.most <= 7  # never more than the bound in hand
    assert len(limits) >= 60 // 7  # so it took them in many polls
    assert handled.taken == [u["update_id"] for u in telegram.updates_log]  # Telegram's order
    assert sorted(handled.ids) == handled.taken and len(sent) == 60
    assert telegram.updates == []  # the last poll confirmed them all


async def test_while_full_the_poller_sends_no_getupdates(telegram: BotApiEmulator):
    intake = Intake(2)
    async with polling(telegram, 5, intake) as poller:
        await until(lambda: intake.in_hand == 2, "the intake full")
        polls = poller.polls
        await asyncio.sleep(0.3)  # nobody is done with an update: the poller waits
        assert poller.polls == polls and intake.qsize() == 2
        assert len(telegram.updates) == 5  # the rest wait at Telegram, unconfirmed
        intake.get_nowait()
        intake.task_done()
        await until(lambda: intake.in_hand == 2 and poller.polls > polls, "one more taken")
    queued = [u["update_id"] for u in telegram.updates_log]
    assert poller.offset == queued[2] + 1
    assert [u["update_id"] for u in telegram.updates] == queued[2:]  # unconfirmed, in order
    assert not any("_delivered_at" in u for u in telegram.updates_log[3:])  # never taken


async def test_the_polls_follow_one_another_in_one_task(telegram: BotApiEmulator, monkeypatch):
    """A task and a wait of its own for each poll were three more turns of a busy event loop
    between two polls, while a flood's forty batches and everything behind them at Telegram
    waited: each poll now follows the last in the same task, and a stop still cancels the one
    in flight."""
    intake = Intake(100)
    tasks: list[asyncio.Task[object] | None] = []
    async with polling(telegram, 30, intake) as poller:
        asking = poller.poll_once

        async def recorded() -> int:
            tasks.append(asyncio.current_task())
            return await asking()
        monkeypatch.setattr(poller, "poll_once", recorded)
        await until(lambda: len(tasks) >= 3, "three polls")  # the last: a long poll, waiting
    assert len(set(map(id, tasks))) == 1
    assert tasks[0] is not None and tasks[0].cancelled()  # the long poll in flight: stopped


@pytest.fixture
async def door():
    """The webhook's server before an application whose intake holds one update."""
    application = ApplicationBuilder().token("123456:TEST-token").updater(None) \
        .update_queue(Intake(1)).build()
    server = webhook.make_server(application, SECRET)
    sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
    server.add_sockets(sockets)
    yield application, sockets[0].getsockname()[1]
    server.stop()
    await server.close_all_connections()


async def test_a_webhook_request_waits_for_room_and_is_then_taken(door):
    application, port = door
    intake: Intake = application.update_queue
    body = json.dumps(UPDATE).encode()
    assert (await post(port, update_headers(body), body))[0] == 200
    second = {**UPDATE, "update_id": 8}
    body2 = json.dumps(second).encode()
    held = asyncio.create_task(post(port, update_headers(body2), body2))
    await asyncio.sleep(0.2)
    assert not held.done() and intake.in_hand == 1  # held at the door, its body unread
    assert intake.get_nowait().update_id == 7
    intake.task_done()
    status, _ = await asyncio.wait_for(held, 10)
    assert status == 200 and intake.get_nowait().update_id == 8


async def test_a_webhook_request_with_no_room_in_time_is_answered_503(
        door, monkeypatch: pytest.MonkeyPatch):
    application, port = door
    monkeypatch.setattr(webhook, "HOLD_SECONDS", 0.2)
    body = json.dumps(UPDATE).encode()
    assert (await post(port, update_headers(body), body))[0] == 200
    status, response = await post(port, update_headers(body), body)
    assert status == 503 and b"Retry-After" in response  # Telegram sends it again later
    assert application.update_queue.in_hand == 1 and application.update_queue.promised == 0
    held = asyncio.create_task(post(port, update_headers(body), body))
    await asyncio.sleep(0.05)
    application.update_queue.close()  # the bot stops: a request held is let go at once
    assert (await asyncio.wait_for(held, 5))[0] == 503


def test_telegram_opens_no_more_requests_than_the_bound():
    assert webhook.max_connections(Config(token="1:x")) == 100  # Telegram's most
    assert webhook.max_connections(Config(token="1:x", max_updates_in_flight=30)) == 30


def test_the_bound_is_a_setting():
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x"}, None).max_updates_in_flight == 256
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "MAX_UPDATES_IN_FLIGHT": "40"},
                           None).max_updates_in_flight == 40
    from bot.runtime.config import ConfigError

    for bad in ("0", "-3", "many"):
        with pytest.raises(ConfigError, match="MAX_UPDATES_IN_FLIGHT"):
            Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "MAX_UPDATES_IN_FLIGHT": bad}, None)


async def test_once_full_the_poller_waits_for_a_batch_of_room(telegram: BotApiEmulator):
    """A full intake frees a place at a time: the poller asks again only when a batch's room
    (a quarter of the bound) is free, and asks for all of it — not an update a getUpdates."""
    intake = Intake(40)
    assert intake.batch() == 10
    # no giving up on the batch within the test
    async with polling(telegram, 60, intake, gather=60.0) as poller:
        await until(lambda: intake.in_hand == 40, "the intake full")
        polls = poller.polls
        for _ in range(9):  # nine places free, one by one: not yet a batch
            intake.get_nowait()
            intake.task_done()
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        assert poller.polls == polls and intake.in_hand == 31
        intake.get_nowait()
        intake.task_done()  # the tenth: a batch
        await until(lambda: intake.in_hand == 40, "a batch taken")
    limits = [int(params["limit"]) for method, params, _ in telegram.calls
              if method == "getUpdates"]
    assert limits[-1] == 10 and poller.polls == polls + 1  # the batch in one poll
    assert poller.offset == telegram.updates_log[49]["update_id"] + 1  # fifty taken, in order


async def test_a_batch_that_never_frees_is_given_up_for_what_is_free(telegram: BotApiEmulator):
    """A handler stuck with most of the intake: after `gather` the poller takes the room there
    is, so the bot does not stop taking updates."""
    intake = Intake(40)
    async with polling(telegram, 45, intake, gather=0.2) as poller:
        await until(lambda: intake.in_hand == 40, "the intake full")
        for _ in range(3):  # three free, and no more ever
            intake.get_nowait()
            intake.task_done()
        await until(lambda: intake.in_hand == 40, "what was free taken after the gather")
    assert poller.offset == telegram.updates_log[42]["update_id"] + 1
