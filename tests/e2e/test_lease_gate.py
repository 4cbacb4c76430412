"""The lease's gate in front of everything the bot sends: every Bot API request (getUpdates
included) goes through MeteredRequest, which asks the gate first, and a webhook update is
answered only while the gate passes. A shut gate sends nothing at all."""

from __future__ import annotations

import json
import os

import pytest
import tornado.netutil
from telegram.error import NetworkError
from telegram.ext import ApplicationBuilder

from bot.runtime.config import Config
from bot.runtime.doors import Doors
from bot.store.postgres.leader import LeaseLost
from bot.telegram.app import telegram_bot
from bot.telegram.intake import Intake
from bot.telegram.metered_request import MeteredRequest
from bot.telegram.webhook import make_server
from tests.e2e.test_webhook import SECRET, UPDATE, post, update_headers


class Gate:
    """Open until shut; counts the times it was asked."""

    def __init__(self) -> None:
        self.shut = False
        self.asked = 0

    def __call__(self) -> None:
        self.asked += 1
        if self.shut:
            raise LeaseLost("the lease ended")


def test_the_bot_is_built_with_the_gate_on_both_its_requests():
    """The composition root builds the lease first and the bot with its gate: nothing is put
    into the bot's requests afterwards."""
    config = Config(token="123456:TEST-token")
    gate = Gate()
    bot = telegram_bot(config, Doors(config.person_budget, config.chat_budget), gate)
    assert len(bot._request) == 2  # the bot's requests and getUpdates'
    assert all(isinstance(r, MeteredRequest) and r.gate is gate for r in bot._request)


async def test_a_shut_gate_sends_nothing(telegram):
    request = MeteredRequest()
    gate = Gate()
    request.gate = gate
    await request.initialize()
    url = f"http://127.0.0.1:{telegram.port}/bot{telegram.token}/getMe"
    try:
        code, _ = await request.do_request(url, "POST")
        assert code == 200 and gate.asked == 1
        before = len(telegram.journal)
        gate.shut = True
        for method in ("getMe", "getUpdates", "sendMessage"):
            with pytest.raises((LeaseLost, NetworkError)):
                await request.post(url.replace("getMe", method))
        assert len(telegram.journal) == before  # not one request went out
        assert gate.asked == 4
    finally:
        await request.shutdown()


async def test_the_emulator_journals_which_process_asked(telegram):
    request = MeteredRequest()
    await request.initialize()
    try:
        await request.do_request(f"http://127.0.0.1:{telegram.port}/bot{telegram.token}/getMe",
                                 "POST")
    finally:
        await request.shutdown()
    assert telegram.journal[-1].method == "getMe" and telegram.journal[-1].pid == os.getpid()


async def test_a_webhook_update_is_not_answered_once_the_gate_shuts():
    application = ApplicationBuilder().token("123456:TEST-token").updater(None) \
        .update_queue(Intake(8)).build()
    gate = Gate()
    server = make_server(application, SECRET, check=gate)
    sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
    server.add_sockets(sockets)
    port = sockets[0].getsockname()[1]
    try:
        body = json.dumps(UPDATE).encode()
        assert (await post(port, update_headers(body), body))[0] == 200
        gate.shut = True
        assert (await post(port, update_headers(body), body))[0] == 503
        assert application.update_queue.qsize() == 1 and gate.asked == 2
    finally:
        server.stop()
        await server.close_all_connections()
