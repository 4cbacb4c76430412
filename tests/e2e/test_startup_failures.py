"""`python -m bot` against a Bot API that misbehaves at start-up says why in one line (at most
three on stderr: the first failure, the verdict) and exits with a documented status; stopped
with SIGTERM while it polls (`docker stop`), it exits 0 without a traceback.

Each misbehaving server listens on 127.0.0.1 (the DNS case names a host under `.invalid`, which
no resolver answers); STARTUP_SECONDS is short here, so a case takes a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.__main__ import BAD_SETTINGS, NO_TELEGRAM
from demo.emulator import BotApiEmulator
from tests.conftest import ROOT
from tests.waiting import until as until_true

EXIT_WITHIN = 60.0  # seconds: a hang, not slowness, is what this catches
STARTUP_SECONDS = 3.0
MOST_LINES = 3
TOKEN = "123456:AAAA-fake-token-for-a-server-that-is-not-telegram"

Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def clean_env(**settings: str) -> dict[str, str]:
    base = {key: value for key, value in os.environ.items()
            if not key.startswith(("TELEGRAM_", "DATABASE_", "WEBHOOK_", "METRICS_"))}
    return {**base, "SOLVER_WORKERS": "1", "RATE_LIMIT": "off", "LOG_LEVEL": "INFO",
            "STARTUP_SECONDS": str(STARTUP_SECONDS), **settings}


async def run_bot(env: dict[str, str]) -> tuple[int, str, float]:
    """`python -m bot` without a terminal: its exit status, its stderr, and how long it ran."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), EXIT_WITHIN)
    except TimeoutError:
        process.kill()
        out, err = await process.communicate()
        raise AssertionError("the bot did not exit:\n" + err.decode()) from None
    assert process.returncode is not None
    assert not out.strip(), out.decode()
    return process.returncode, err.decode(), time.monotonic() - started


def assert_short(stderr: str, *words: str) -> str:
    """At most MOST_LINES lines, no traceback, no token; the last line says all of `words`."""
    lines = stderr.strip().splitlines()
    assert 1 <= len(lines) <= MOST_LINES, stderr
    assert "Traceback" not in stderr and TOKEN.split(":")[1] not in stderr, stderr
    for word in words:
        assert word in lines[-1], f"{word!r} not in the last line:\n{stderr}"
    return lines[-1]


@contextlib.asynccontextmanager
async def server(serve: Serve) -> AsyncIterator[str]:
    """A TCP server on 127.0.0.1 that answers with `serve`; yields its base URL."""
    tasks: set[asyncio.Task[None]] = set()

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tasks.add(task := asyncio.current_task())  # type: ignore[arg-type]
        try:
            await serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            tasks.discard(task)  # type: ignore[arg-type]

    listening = await asyncio.start_server(connected, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/bot"
    finally:
        listening.close()
        for task in list(tasks):
            task.cancel()
        await listening.wait_closed()


async def read_request(reader: asyncio.StreamReader) -> bytes:
    """One HTTP request, headers and body (PTB always sends a Content-Length)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length:\s*(\d+)", head)
    body = await reader.readexactly(int(length.group(1))) if length else b""
    return head + body


def answer(status: str, body: bytes, kind: str = "text/html") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            "\r\n").encode() + body


async def html_501(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    page = b"<html><head><title>501</title></head><body>" + b"<p>Not Implemented</p>\n" * 200
    while True:
        await read_request(reader)
        writer.write(answer("501 Not Implemented", page + b"</body></html>"))
        await writer.drain()


async def hang(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    await asyncio.sleep(3600)  # never answers


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once it is closed


def env_for(base_url: str, tmp_path: Path, **settings: str) -> dict[str, str]:
    return clean_env(**{"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": base_url,
                        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), **settings})


async def test_an_html_501_page(tmp_path: Path):
    async with server(html_501) as url:
        status, err, _ = await run_bot(env_for(url, tmp_path))
    assert status == NO_TELEGRAM
    line = assert_short(err, "cannot reach the Bot API at http://127.0.0.1", "501",
                        "not the Bot API's JSON")
    assert "<p>" not in err and len(line) < 400
    assert not (tmp_path / "bot.sqlite3").exists(), "the database is opened after getMe"


async def test_connection_refused(tmp_path: Path):
    status, err, _ = await run_bot(env_for(f"http://127.0.0.1:{closed_port()}/bot", tmp_path))
    assert status == NO_TELEGRAM
    assert_short(err, "cannot reach the Bot API", "ConnectError")


async def test_a_host_that_does_not_resolve(tmp_path: Path):
    status, err, _ = await run_bot(env_for("http://nonexistent.invalid/bot", tmp_path))
    assert status == NO_TELEGRAM
    assert_short(err, "cannot reach the Bot API at http://nonexistent.invalid", "ConnectError")


async def test_a_server_that_never_answers(tmp_path: Path):
    async with server(hang) as url:
        status, err, took = await run_bot(env_for(url, tmp_path))
    assert status == NO_TELEGRAM
    assert_short(err, "no answer in time", f"in {STARTUP_SECONDS:g} s")
    assert took < EXIT_WITHIN


async def test_a_token_telegram_rejects(telegram: BotApiEmulator, tmp_path: Path):
    """The emulator answers a wrong token as Telegram does: 401 Unauthorized, in JSON."""
    status, err, _ = await run_bot(env_for(telegram.base_url, tmp_path))
    assert status == BAD_SETTINGS
    assert_short(err, "Telegram rejected TELEGRAM_BOT_TOKEN")
    assert len(err.strip().splitlines()) == 1, err  # no retry: a wrong token stays wrong
    assert not telegram.calls  # the emulator records only calls with its own token


async def slow_proxy(target: str, delay: float) -> Serve:
    """A proxy to the emulator that holds each request `delay` seconds before passing it on."""
    host, port = re.match(r"http://([\d.]+):(\d+)/", target).groups()  # type: ignore[union-attr]

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))

        async def back() -> None:
            while data := await upstream_reader.read(65536):
                writer.write(data)
                await writer.drain()

        answering = asyncio.create_task(back())
        try:
            while True:
                request = await read_request(reader)
                await asyncio.sleep(delay)
                upstream_writer.write(request)
                await upstream_writer.drain()
        finally:
            answering.cancel()
            upstream_writer.close()

    return serve


def long_polling(telegram: BotApiEmulator) -> bool:
    """Whether the bot's last request is a long poll (which the emulator holds open)."""
    if not telegram.calls:
        return False
    method, params, _ = telegram.calls[-1]
    return method == "getUpdates" and float(params.get("timeout") or 0) > 0


async def start_and_stop(env: dict[str, str], telegram: BotApiEmulator,
                         until: asyncio.Task[None] | None = None) -> tuple[int, str]:
    """Start the bot, wait until it polls (and `until` is done), send SIGTERM (what `docker
    stop` sends)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        for _ in range(int(EXIT_WITHIN / 0.1)):
            await asyncio.sleep(0.1)
            if "getUpdates" in [call[0] for call in telegram.calls]:
                break
            assert process.returncode is None
        else:
            raise AssertionError("the bot never polled")
        if until is not None:
            await asyncio.wait_for(until, EXIT_WITHIN)
        await until_true(lambda: long_polling(telegram), "a long poll")
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), EXIT_WITHIN)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, err.decode()


async def test_a_slow_api_still_starts(telegram: BotApiEmulator, tmp_path: Path):
    """Every request held for a second: slow, not broken; the bot starts and stops cleanly."""
    async with server(await slow_proxy(telegram.base_url, 1.0)) as url:
        env = env_for(url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token)
        status, err = await start_and_stop(env, telegram)
    assert status == 0, err
    assert "Traceback" not in err and "WARNING" not in err and "ERROR" not in err, err


async def test_sigterm_while_polling_is_a_clean_stop(telegram: BotApiEmulator, tmp_path: Path):
    """`docker stop` sends SIGTERM: the long poll is cut short without a traceback."""
    env = env_for(telegram.base_url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token)
    status, err = await start_and_stop(env, telegram)
    assert status == 0, err
    assert "Traceback" not in err and "ERROR" not in err and "CRITICAL" not in err, err


async def test_a_failure_that_passes_costs_one_warning(telegram: BotApiEmulator, tmp_path: Path):
    """A Bot API whose first answer is a proxy's 502 page (Telegram's front end has its bad
    moments), then the real thing: one WARNING, and the bot starts."""
    host, port = re.match(r"http://([\d.]+):(\d+)/", telegram.base_url).groups()  # type: ignore[union-attr]
    answered: list[int] = []

    async def bad_then_forward(reader: asyncio.StreamReader,
                               writer: asyncio.StreamWriter) -> None:
        if not answered:
            answered.append(502)
            await read_request(reader)
            writer.write(answer("502 Bad Gateway", b"<html><body>Bad Gateway</body></html>"))
            await writer.drain()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()

        try:
            await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))
        finally:
            upstream_writer.close()

    async with server(bad_then_forward) as url:
        env = env_for(url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token, STARTUP_SECONDS="30")
        status, err = await start_and_stop(env, telegram)
    assert answered == [502]
    assert status == 0, err
    warnings = [line for line in err.splitlines() if "WARNING" in line]
    assert len(warnings) == 1 and "trying again" in warnings[0] and "502" in warnings[0], err
    assert "Traceback" not in err and " ERROR " not in err, err


def test_version_names_the_project_ptb_and_the_core():
    import subprocess

    import telegram

    from solver import native

    done = subprocess.run([sys.executable, "-m", "bot", "--version"], cwd=ROOT,
                          env=clean_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"twentyfour \d+\.\d+\.\d+\S*", lines[0]), lines
    assert f"native core: {native.STATUS}" in lines
    assert f"python-telegram-bot {telegram.__version__}" in lines


@pytest.mark.parametrize(("value", "said"), [("0.1", "at least"), ("x", "number")])
async def test_startup_seconds_is_checked(tmp_path: Path, value: str, said: str):
    status, err, _ = await run_bot(env_for("http://127.0.0.1:9/bot", tmp_path,
                                           STARTUP_SECONDS=value))
    assert status == BAD_SETTINGS
    assert_short(err, "STARTUP_SECONDS", said)


async def stop_when(env: dict[str, str], ready: Callable[[], bool]) -> tuple[int, str]:
    """Start the bot, send SIGTERM as soon as `ready()`, and return how it ended."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        for _ in range(int(EXIT_WITHIN / 0.05)):
            if ready():
                break
            await asyncio.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), EXIT_WITHIN)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, err.decode()


async def test_sigterm_while_reaching_telegram(tmp_path: Path):
    """`docker stop` while the Bot API does not answer: status 0 at once, not after the wait."""
    seen: list[bytes] = []

    async def hang_and_note(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await read_request(reader))
        await asyncio.sleep(3600)

    async with server(hang_and_note) as url:
        status, err = await stop_when(env_for(url, tmp_path, STARTUP_SECONDS="60"),
                                      lambda: bool(seen))
    assert seen, "the bot never asked"
    assert status == 0, err
    assert "Traceback" not in err and "CRITICAL" not in err, err


async def test_sigterm_during_post_init(telegram: BotApiEmulator, tmp_path: Path):
    """SIGTERM once getMe answered, while the menus are set (each request held 0.5 s): the
    start-up ends in order, the stores closed, without a traceback."""
    async with server(await slow_proxy(telegram.base_url, 0.5)) as url:
        env = env_for(url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token)
        status, err = await stop_when(env, lambda: any(call[0] == "setMyCommands"
                                                       for call in telegram.calls))
    assert status == 0, err
    assert "Traceback" not in err and "ERROR" not in err and "destroyed" not in err, err
    assert not any(call[0] == "getUpdates" for call in telegram.calls)


async def test_telegram_gone_then_sigterm_is_a_few_lines(telegram: BotApiEmulator, tmp_path: Path):
    """The Bot API goes away while the bot polls (a network outage), then `docker stop`: each
    network error is one line (the poll's, the last getUpdates'), no traceback, status 0."""
    env = env_for(telegram.base_url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        for _ in range(int(EXIT_WITHIN / 0.1)):
            if "getUpdates" in [call[0] for call in telegram.calls]:
                break
            await asyncio.sleep(0.1)
        await until_true(lambda: long_polling(telegram), "a long poll")
        await telegram.stop()  # the long poll is cut, and nothing answers any more
        await asyncio.sleep(1.5)
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), EXIT_WITHIN)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    text = err.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text, text
    said = [line for line in text.splitlines() if " ERROR " in line or " WARNING " in line]
    assert said and all("NetworkError" in line or "ConnectError" in line for line in said), \
        text


async def test_webhook_mode_fails_the_same_way(tmp_path: Path):
    """The webhook server reaches the Bot API through the same start-up: one line, status 4."""
    port = closed_port()
    env = env_for(f"http://127.0.0.1:{closed_port()}/bot", tmp_path,
                  WEBHOOK_URL="https://bot.example/telegram", WEBHOOK_PORT=str(port))
    status, err, _ = await run_bot(env)
    assert status == NO_TELEGRAM
    assert_short(err, "cannot reach the Bot API", "ConnectError")
