"""Webhook mode over loopback: the secret is checked and the size capped before the body is read,
a good update is handled, and `python -m bot` runs a whole webhook session against the emulator."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import tornado.netutil
from telegram.ext import Application, ApplicationBuilder

from bot.runtime.config import Config, ConfigError
from bot.telegram.intake import Intake
from bot.telegram.webhook import MAX_BODY, SECRET_HEADER, WEBHOOK_PATH, make_server
from demo.emulator import BotApiEmulator
from demo.ports import free_port
from tests.conftest import ROOT
from tests.e2e.test_bot_process import ANN, GROUP

SECRET = "s3cret_for-this-test"
UPDATE = {"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/start",
                                      "chat": {"id": GROUP, "type": "group", "title": "G"},
                                      "from": ANN}}


async def post(port: int, headers: dict[str, str], body: bytes = b"",
               method: str = "POST") -> tuple[int, bytes]:
    """One raw HTTP request (the body exactly as given, whatever Content-Length says): the status
    and the response's bytes, read until the server answers and closes or 10 s pass."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = [f"{method} /{WEBHOOK_PATH} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    await writer.drain()
    try:
        response = await asyncio.wait_for(reader.read(65536), 10)
    finally:
        writer.close()
    return int(response.split(b" ", 2)[1]), response


def update_headers(body: bytes, secret: str | None = SECRET) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
    if secret is not None:
        headers[SECRET_HEADER] = secret
    return headers


@pytest.fixture
async def served() -> AsyncIterator[tuple[Application, int]]:
    """The webhook server alone, on an ephemeral port, in front of an application's queue."""
    application = ApplicationBuilder().token("123456:TEST-token").updater(None) \
        .update_queue(Intake(8)).build()
    server = make_server(application, SECRET)
    sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
    server.add_sockets(sockets)
    yield application, sockets[0].getsockname()[1]
    server.stop()
    await server.close_all_connections()


async def test_a_good_update_is_queued(served):
    application, port = served
    body = json.dumps(UPDATE).encode()
    status, _ = await post(port, update_headers(body), body)
    assert status == 200
    update = application.update_queue.get_nowait()
    assert update.update_id == 7 and update.effective_message.text == "/start"


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET + "x", SECRET[:-1], "秘密"])
async def test_a_missing_or_wrong_secret_is_403(served, secret):
    application, port = served
    body = json.dumps(UPDATE).encode()
    status, _ = await post(port, update_headers(body, secret), body)
    assert status == 403 and application.update_queue.empty()


async def test_the_secret_is_checked_before_the_size_and_both_before_the_body(served):
    application, port = served
    huge = {"Content-Type": "application/json", "Content-Length": str(100 * MAX_BODY)}
    # no body is sent at all: an answer proves the server did not wait to read it
    status, _ = await post(port, huge)
    assert status == 403
    status, _ = await post(port, {**huge, SECRET_HEADER: SECRET})
    assert status == 413
    status, _ = await post(port, {**huge, SECRET_HEADER: SECRET, "Content-Length": "9" * 5000})
    assert status == 413  # a 5000-digit length neither crashes nor is read as a number
    assert application.update_queue.empty()


async def test_a_chunked_body_past_the_cap_is_refused(served):
    application, port = served
    chunk = b"x" * 65536
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(MAX_BODY // 65536 + 2))
    headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked",
               SECRET_HEADER: SECRET}
    try:
        status, _ = await post(port, headers, chunks + b"0\r\n\r\n")
    except ConnectionResetError:  # the server may close before it has read what was sent
        status = 400
    assert status == 400 and application.update_queue.empty()  # tornado's answer, then it closes


async def test_not_an_update_and_other_methods(served):
    application, port = served
    for body in (b"not json", b"[1, 2]", b'{"no": "update_id"}', b"\xff\xfe"):
        status, response = await post(port, update_headers(body), body)
        assert status == 400 and b"Traceback" not in response
    status, _ = await post(port, {SECRET_HEADER: SECRET}, method="GET")
    assert status == 405
    assert application.update_queue.empty()


def test_webhook_settings():
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "WEBHOOK_URL": "https://a.b/telegram"},
                             env_file=None)
    assert config.webhook_listen == "127.0.0.1" and config.webhook_secret is None
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "WEBHOOK_LISTEN": "0.0.0.0",
                              "WEBHOOK_SECRET": "A-z_09"}, env_file=None)
    assert config.webhook_listen == "0.0.0.0" and config.webhook_secret == "A-z_09"
    for bad in ("has space", "semi;colon", "x" * 257, "秘密"):
        with pytest.raises(ConfigError, match="WEBHOOK_SECRET"):
            Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "WEBHOOK_SECRET": bad}, env_file=None)


# --- the real bot in webhook mode ---------------------------------------------------------------

@pytest.mark.parametrize("configured", [None, SECRET])
async def test_python_m_bot_in_webhook_mode(telegram: BotApiEmulator, tmp_path: Path, configured):
    port = free_port()
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": telegram.token,
           "TELEGRAM_BASE_URL": telegram.base_url, "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
           "SOLVER_WORKERS": "1", "RATE_LIMIT": "off", "LOG_LEVEL": "DEBUG",
           "WEBHOOK_URL": f"https://bot.example/{WEBHOOK_PATH}", "WEBHOOK_PORT": str(port)}
    env.pop("WEBHOOK_SECRET", None)
    env.pop("WEBHOOK_LISTEN", None)
    if configured:
        env["WEBHOOK_SECRET"] = configured
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=out, stderr=out,
            stdin=asyncio.subprocess.DEVNULL)
    try:
        assert await telegram.wait_for(lambda: bool(telegram.webhook), 60), log.read_text()
        secret = telegram.webhook["secret_token"]
        assert telegram.webhook["url"] == env["WEBHOOK_URL"]
        assert secret == configured if configured else len(secret) >= 32
        telegram.chat(GROUP)
        message = await telegram.say(GROUP, ANN, "/solve 3 8 3 8")
        body = json.dumps({"update_id": 1, "message": message}).encode()
        assert (await post(port, update_headers(body, "wrong"), body))[0] == 403
        assert (await post(port, update_headers(body, secret), body))[0] == 200
        assert (await telegram.reply(GROUP)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    finally:
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 30)
    assert code == 0
    text = log.read_text()
    assert secret not in text
    assert ("random secret" in text) == (configured is None)
    assert f"webhook server on 127.0.0.1:{port}" in text
