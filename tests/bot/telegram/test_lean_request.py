"""The bot's lean Bot API transport (bot.telegram.lean_request) against a scripted HTTP server on
loopback: kept-alive connections, a server that closes one, every way a response can be framed,
timeouts, the pool's bound, cancellation, files through httpx, and the meter."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from telegram import Bot
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.runtime import metrics
from bot.telegram.lean_request import LeanRequest
from demo.emulator import BotApiEmulator
from tests.waiting import until

OK = b'{"ok":true,"result":true}'


def framed(body: bytes = OK, *headers: str) -> bytes:
    head = "".join(f"{h}\r\n" for h in headers) or f"Content-Length: {len(body)}\r\n"
    return f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{head}\r\n".encode() + body


class Server:
    """Reads each request whole; answers it with `respond(index)`: bytes to write, then the
    connection is closed if `close_after(index)`; None: say nothing (a stalled server)."""

    def __init__(self, respond: Callable[[int], bytes | None] = lambda _: framed(),
                 close_after: Callable[[int], bool] = lambda _: False) -> None:
        self.respond, self.close_after = respond, close_after
        self.requests: list[tuple[int, bytes, bytes]] = []  # (connection, head, body)
        self.connections = 0
        self.closed_by_client = 0

    async def __aenter__(self) -> Server:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/botT"
        return self

    async def __aexit__(self, *_: object) -> None:
        self.server.close()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    self.closed_by_client += 1
                    return
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length"))
                body = await reader.readexactly(length)
                index = len(self.requests)
                self.requests.append((number, head, body))
                answer = self.respond(index)
                if answer is None:
                    await asyncio.sleep(30)
                    return
                writer.write(answer)
                await writer.drain()
                if self.close_after(index):
                    return
        finally:
            writer.close()


def data(**values: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in values.items()])


async def transport(size: int = 2, **settings: object) -> LeanRequest:
    request = LeanRequest(connection_pool_size=size, **settings)  # type: ignore[arg-type]
    await request.initialize()
    return request


async def post(request: LeanRequest, server: Server, method: str = "sendMessage",
               **values: object) -> tuple[int, bytes]:
    return await request.do_request(f"{server.url}/{method}", "POST",
                                    data(chat_id=5, text="hi & bye", **values))


async def test_requests_share_one_kept_alive_connection_and_say_what_httpx_says() -> None:
    async with Server() as server:
        request = await transport()
        for _ in range(3):
            assert await post(request, server, reply_markup={"a": [1]}) == (200, OK)
        await request.shutdown()
    assert server.connections == 1
    _, head, body = server.requests[0]
    assert head.startswith(b"POST /botT/sendMessage HTTP/1.1\r\n")
    assert b"\r\nContent-Type: application/json\r\n" in head
    assert f"\r\nUser-Agent: {LeanRequest.USER_AGENT}\r\n".encode() in head
    # PTB's parameters, each as its form field would be (the Bot API reads a JSON string as
    # the same field)
    assert json.loads(body) == {"chat_id": "5", "text": "hi & bye", "reply_markup": '{"a": [1]}'}


async def test_a_connection_the_server_closed_is_not_reused() -> None:
    async with Server(close_after=lambda index: index == 0) as server:
        request = await transport(size=1)
        assert await post(request, server) == (200, OK)
        (kept,) = [c for pool in request._pools.values() for c in pool.idle]
        await until(kept.reader.at_eof, "the server's FIN at the kept connection")
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert server.connections == 2


@pytest.mark.parametrize("answer", [
    framed(b"", "Transfer-Encoding: chunked")
    + b'5\r\n{"ok"\r\n14;x=1\r\n:true,"result":true}\r\n0\r\nX-Trailer: 1\r\n\r\n',
    framed(OK, f"Content-Length: {len(OK)}", "Connection: close"),
    framed(OK, "X-Nothing: 1"),  # no length: the body runs till the server closes
])
async def test_every_framing_of_a_response_is_read_whole(answer: bytes) -> None:
    chunked = b"chunked" in answer
    async with Server(lambda _: answer, close_after=lambda _: not chunked) as server:
        request = await transport(size=1)
        assert await post(request, server) == (200, OK)
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert server.connections == (1 if chunked else 2)


async def test_a_body_far_past_the_read_buffer_is_read_whole() -> None:
    """A getUpdates answer of a hundred updates is larger than the reader's buffer limit."""
    big = b'{"ok":true,"result":"' + b"x" * (1 << 20) + b'"}'
    chunked = framed(b"", "Transfer-Encoding: chunked") + b"".join(
        b"%x\r\n%s\r\n" % (len(part), part)
        for part in (big[i:i + 300_000] for i in range(0, len(big), 300_000))) + b"0\r\n\r\n"
    async with Server(lambda index: framed(big) if index == 0 else chunked) as server:
        request = await transport(size=1)
        assert await post(request, server) == (200, big)
        assert await post(request, server) == (200, big)
        await request.shutdown()
    assert server.connections == 1


def threaded_server(answers: int) -> tuple[socket.socket, threading.Thread]:
    """A server on a thread of its own, reading a few KiB at a time (so that what it reads
    allocates little), answering `answers` requests on one connection."""
    listening = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        connection, _ = listening.accept()
        with connection:
            for _ in range(answers):
                got = b""
                while b"\r\n\r\n" not in got:
                    got += connection.recv(4096)
                head, _, body = got.partition(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length"))
                while len(body) < length:
                    body += connection.recv(4096)
                connection.sendall(framed())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listening, thread


async def test_a_read_allocates_no_block_of_asyncio_s_receive_size() -> None:
    """asyncio's plain-TCP reads allocate 256 KiB each, cut to what came: on a long-lived bot
    those blocks fragment the heap (bot.telegram.read_into). Each response here is read into the
    connection's own buffer: a request's allocations peak far below one such block."""
    listening, thread = threaded_server(answers=21)
    url = f"http://127.0.0.1:{listening.getsockname()[1]}/botT/sendMessage"
    request = await transport(size=1)
    try:
        assert await request.do_request(url, "POST", data(chat_id=5)) == (200, OK)  # connected
        tracemalloc.start()
        try:
            peaks = []
            for _ in range(20):
                before = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                assert await request.do_request(url, "POST", data(chat_id=5)) == (200, OK)
                peaks.append(tracemalloc.get_traced_memory()[1] - before)
        finally:
            tracemalloc.stop()
    finally:
        await request.shutdown()
        listening.close()
    thread.join(5)
    assert max(peaks) < 64 * 1024, peaks


async def test_an_interim_response_is_skipped_and_an_error_status_returned() -> None:
    answer = (b"HTTP/1.1 100 Continue\r\n\r\n"
              + framed(b'{"ok":false}').replace(b"200 OK", b"429 Too Many Requests"))
    async with Server(lambda _: answer) as server:
        request = await transport()
        assert await post(request, server) == (429, b'{"ok":false}')
        await request.shutdown()


async def test_a_silent_server_times_out_and_its_connection_is_dropped() -> None:
    async with Server(lambda index: None if index == 0 else framed()) as server:
        request = await transport(size=1, read_timeout=0.2)
        with pytest.raises(TimedOut):
            await post(request, server)
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert server.connections == 2


async def test_a_garbled_or_cut_response_is_a_network_error() -> None:
    for answer in (b"SPAM\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n{"):
        async with Server(lambda _, a=answer: a, close_after=lambda _: True) as server:
            request = await transport()
            with pytest.raises(NetworkError, match=r"^RemoteProtocolError: "):
                await post(request, server)
            await request.shutdown()


async def test_nobody_listening_is_a_network_error() -> None:
    async with Server() as server:
        url = server.url
    request = await transport()
    with pytest.raises(NetworkError, match=r"^ConnectError: "):
        await request.do_request(f"{url}/sendMessage", "POST", data(chat_id=1))
    with pytest.raises(NetworkError, match=r"^ConnectError: not an http") as raised:
        await request.do_request("ftp://example.org/bot123:SECRET/getMe", "POST", data())
    assert "SECRET" not in str(raised.value)
    await request.shutdown()


async def test_the_pool_bounds_connections_and_times_out_a_request_waiting_too_long() -> None:
    stalled = asyncio.Event()

    def respond(index: int) -> bytes | None:
        if index == 0:
            stalled.set()
            return None
        return framed()

    async with Server(respond) as server:
        request = await transport(size=1, read_timeout=1.0, pool_timeout=0.1)
        first = asyncio.create_task(post(request, server))
        await stalled.wait()
        with pytest.raises(TimedOut, match="Pool timeout"):
            await post(request, server)
        with pytest.raises(TimedOut):
            await first
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert server.connections == 2
    assert len(server.requests) == 2  # the one refused by the pool was never sent


async def test_a_cancelled_request_frees_its_place_and_drops_its_connection() -> None:
    stalled = asyncio.Event()

    def respond(index: int) -> bytes | None:
        if index == 0:
            stalled.set()
            return None
        return framed()

    async with Server(respond) as server:
        request = await transport(size=1, pool_timeout=0.5)
        first = asyncio.create_task(post(request, server))
        await stalled.wait()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert server.connections == 2


async def test_shutdown_closes_the_idle_connections() -> None:
    async with Server() as server:
        request = await transport()
        await post(request, server)
        await request.shutdown()
        await until(lambda: server.closed_by_client == 1, "the client's FIN at the server")


async def test_through_the_bot_against_the_emulator_every_call_metered(
) -> None:
    emulator = BotApiEmulator()
    await emulator.start()
    sent = metrics.API_REQUESTS.labels("sendMessage")
    before = sent._value.get()
    try:
        async with Bot(emulator.token, base_url=emulator.base_url,
                       request=LeanRequest(connection_pool_size=2)) as bot:
            chat = emulator.chat(-100)["id"]
            messages = await asyncio.gather(*(bot.send_message(chat, f"<b>{n}</b>",
                                                               parse_mode="HTML")
                                              for n in range(5)))
            assert [m.text for m in messages] == [str(n) for n in range(5)]
            assert sent._value.get() - before == 5
    finally:
        await emulator.stop()


async def test_a_request_with_files_goes_by_httpx_as_multipart() -> None:
    async with Server() as server:
        request = await transport()
        files = RequestData([RequestParameter.from_input("chat_id", 5),
                             RequestParameter.from_input("document", _file())])
        assert files.contains_files
        assert await request.do_request(f"{server.url}/sendDocument", "POST", files) == (200, OK)
        await request.shutdown()
    assert b"multipart/form-data" in server.requests[0][1]


async def test_httpx_s_client_is_built_by_the_first_file_and_again_after_a_restart() -> None:
    async with Server() as server:
        request = await transport()
        await post(request, server)
        assert request._client.client is None  # type: ignore[attr-defined]
        for _ in range(2):  # and once more after a shutdown and a new start
            files = RequestData([RequestParameter.from_input("chat_id", 5),
                                 RequestParameter.from_input("document", _file())])
            assert await request.do_request(f"{server.url}/sendDocument", "POST", files) \
                == (200, OK)
            await request.shutdown()
            await request.initialize()
        await request.shutdown()
    assert sum(b"multipart/form-data" in head for _, head, _ in server.requests) == 2


def test_a_bot_that_sends_no_file_never_loads_httpcore() -> None:
    """httpx's client imports httpcore when it is built: a tenth of a second of CPU at each
    start, for the requests with files alone (without a proxy)."""
    probe = ("import asyncio, sys\n"
             "from bot.telegram.lean_request import LeanRequest\n"
             "async def main():\n"
             "    request = LeanRequest(connection_pool_size=2)\n"
             "    await request.initialize()\n"
             "    await request.shutdown()\n"
             "asyncio.run(main())\n"
             "print('httpcore' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, env=env, check=True)
    assert done.stdout.strip() == "False", done.stderr


def _file() -> object:
    from telegram import InputFile
    return InputFile(b"24", filename="hand.txt")


async def test_a_proxy_in_the_environment_sends_every_request_through_httpx(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with Server() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url.rsplit("/", 1)[0])
        request = await transport()
        assert await request.do_request("http://api.example.invalid/botT/getMe", "POST",
                                        data()) == (200, OK)
        await request.shutdown()
    assert proxy.requests[0][1].startswith(b"POST http://api.example.invalid/botT/getMe ")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the certificate")
async def test_https_with_the_server_name_checked(tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    server = Server()
    listening = await asyncio.start_server(server.serve, "127.0.0.1", 0, ssl=served)
    port = listening.sockets[0].getsockname()[1]
    trusting = ssl.create_default_context(cafile=str(cert))
    try:
        request = await transport(tls=trusting)
        for _ in range(2):
            assert await request.do_request(f"https://localhost:{port}/botT/getMe", "POST",
                                            data()) == (200, OK)
        assert b"\r\nHost: localhost:" in server.requests[0][1]
        strangers = await transport()  # certifi's authorities never signed this one
        with pytest.raises(NetworkError, match=r"^ConnectError: .*CERTIFICATE_VERIFY_FAILED"):
            await strangers.do_request(f"https://localhost:{port}/botT/getMe", "POST", data())
        await request.shutdown()
        await strangers.shutdown()
    finally:
        listening.close()
    assert server.connections == 1  # both requests on one TLS connection; the refused one
    # never got past the handshake


def test_the_bot_sends_and_polls_with_the_lean_transport(tmp_path: Path) -> None:
    from bot.runtime.config import Config
    from bot.runtime.doors import Doors
    from bot.telegram.app import CONNECTIONS, telegram_bot

    config = Config(token="123456:TEST", database_path=tmp_path / "db")
    bot = telegram_bot(config, Doors(config.person_budget, config.chat_budget), gate=print)
    polls, sends = bot._request  # PTB keeps (getUpdates', everything else's)
    assert polls.gate is sends.gate is print  # the lease's gate, before each request
    assert isinstance(sends, LeanRequest) and sends._size == CONNECTIONS
    assert isinstance(polls, LeanRequest) and polls._size == 1


async def test_the_lease_gate_keeps_a_request_from_going_out() -> None:
    """The leader's gate (MeteredRequest's, the lease's check it is built with) comes before
    the lean send."""
    class LeaseLost(Exception):
        pass

    def refuse() -> None:
        raise LeaseLost

    async with Server() as server:
        request = await transport()
        request.gate = refuse
        with pytest.raises(LeaseLost):
            await post(request, server)
        request.gate = None
        assert await post(request, server) == (200, OK)
        await request.shutdown()
    assert len(server.requests) == 1
    assert b" twentyfour/" in server.requests[0][1]  # MeteredRequest's User-Agent names the pid
