"""The page's own HTTP/1.1 server (bot.webapp.page_server), spoken to byte by byte as a client
that misbehaves would: headers past their bound, a client that never finishes its headers or
its body, pipelined requests, a body past its bound announced or chunked, both a length and
chunks (a smuggler's request), bytes that are no request; and the page's files with their
ETag, HEAD and a new version on disk."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.webapp import page_server
from bot.webapp.api import CSP, MAX_BODY
from bot.webapp.page_server import PageFile, PageServer
from bot.webapp.server import endpoints, page_files


class Plain:
    """A Speaker with no budget: the endpoint answers whatever comes."""

    doors = None
    token = "1:x"

    def now(self) -> float:
        return time.time()

    def refusal_language(self, body: dict[str, Any]) -> str:
        return "en"


async def echo(face: Any, body: dict[str, Any]) -> dict[str, Any]:
    await asyncio.sleep(0.01 if body.get("slow") else 0)  # a slow answer, overtaken if it could
    return {"got": body}


@asynccontextmanager
async def server(files: dict[str, PageFile] | None = None) -> AsyncIterator[int]:
    served = PageServer(endpoints(Plain(), {"echo": echo}),  # type: ignore[arg-type]
                        page_files() if files is None else files)
    port = await served.listen(0, "127.0.0.1")
    try:
        yield port
    finally:
        served.stop()
        await served.close_all_connections()


def post(body: bytes, path: str = "/webapp/api/echo", extra: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: bot\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
            .encode() + body)


async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One response: its status, headers (lower-cased names) and body."""
    status = int((await reader.readline()).split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0"))) \
        if status not in (100, 304) else b""
    return status, headers, body


async def closed(reader: asyncio.StreamReader) -> bool:
    return await asyncio.wait_for(reader.read(), 5) == b""


async def test_pipelined_requests_are_answered_in_their_order():
    """Three requests in one write, the first answered slowest: the answers come in order, on
    the same connection, which stays open."""
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"".join(post(json.dumps({"n": n, "slow": n == 0}).encode())
                              for n in range(3)))
        got = [await answer(reader) for _ in range(3)]
        assert [json.loads(body)["got"]["n"] for _, _, body in got] == [0, 1, 2]
        assert all(status == 200 and headers["content-security-policy"] == CSP
                   for status, headers, _ in got)
        writer.write(post(b'{"n": 3}'))
        assert json.loads((await answer(reader))[2])["got"]["n"] == 3
        writer.close()


async def test_headers_past_their_bound_get_431_and_the_connection_closes():
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(post(b"{}", extra=f"X-Pad: {'x' * page_server.MAX_HEADERS}\r\n"))
        assert (await answer(reader))[0] == 431
        assert await closed(reader)


@pytest.mark.parametrize("sent", [
    b"GET /webapp/ HTTP/1.1\r\nHost: bot\r\n",  # headers never finished
    b"POST /webapp/api/echo HTTP/1.1\r\nHost: bot\r\nContent-Length: 10\r\n\r\n{",  # the body
    b"",  # nothing at all
])
async def test_a_client_that_holds_a_connection_is_closed(monkeypatch, sent: bytes):
    """A slow client's hold (slowloris): past the time for its headers or its body the sweep
    closes its connection, unanswered."""
    monkeypatch.setattr(page_server, "IDLE_SECONDS", 0.2)
    monkeypatch.setattr(page_server, "BODY_SECONDS", 0.2)
    monkeypatch.setattr(page_server, "SWEEP_SECONDS", 0.05)
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(sent)
        assert await closed(reader)


async def test_a_kept_alive_connection_is_closed_once_idle(monkeypatch):
    # a second, not less: on a loaded machine a connection accepted and its request read a few
    # tenths of a second apart was closed as idle before it was read (reset, in a full run)
    monkeypatch.setattr(page_server, "IDLE_SECONDS", 1.0)
    monkeypatch.setattr(page_server, "SWEEP_SECONDS", 0.05)
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(post(b"{}"))
        assert (await answer(reader))[0] == 200
        assert await closed(reader)


async def test_a_body_past_its_bound_is_refused_unread():
    """Announced past MAX_BODY: 413 before a byte of it is read, and the connection closes (the
    rest is not read); sent in chunks past it: 413 as it grows."""
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"POST /webapp/api/echo HTTP/1.1\r\nHost: bot\r\n"
                     f"Content-Length: {MAX_BODY + 1}\r\n\r\n".encode())
        status, headers, _ = await answer(reader)
        assert status == 413 and headers["connection"] == "close"
        assert await closed(reader)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        chunk = b"x" * 4096
        writer.write(b"POST /webapp/api/echo HTTP/1.1\r\nHost: bot\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n" +
                     b"".join(b"1000\r\n" + chunk + b"\r\n" for _ in range(5)))
        assert (await answer(reader))[0] == 413
        assert await closed(reader)


@pytest.mark.parametrize("sent", [
    b"POST /webapp/api/echo HTTP/1.1\r\nHost: bot\r\nContent-Length: 2\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",  # smuggling: both
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # TLS spoken to it
    b"GET /webapp/ HTTP/1.1\r\nHost: bot\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
])
async def test_what_is_no_request_gets_400_and_the_connection_closes(sent: bytes):
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(sent)
        assert (await answer(reader))[0] == 400
        assert await closed(reader)


async def test_a_request_that_asks_to_close_is_closed_after_its_answer():
    async with server() as port:
        for asked in (post(b"{}", extra="Connection: close\r\n"),
                      b"POST /webapp/api/echo HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}"):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(asked)
            assert (await answer(reader))[0] == 200
            assert await closed(reader)


async def test_expect_100_continue_is_answered_before_the_body():
    async with server() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /webapp/api/echo HTTP/1.1\r\nHost: bot\r\nContent-Length: 2\r\n"
                     b"Expect: 100-continue\r\n\r\n")
        assert await asyncio.wait_for(reader.readline(), 5) == b"HTTP/1.1 100 Continue\r\n"
        assert await reader.readline() == b"\r\n"
        writer.write(b"{}")
        assert (await answer(reader))[0] == 200
        writer.close()


async def test_the_page_files_with_etag_head_and_a_new_version(tmp_path: Path):
    """A file is served with its type and ETag; asked again with that ETag, 304 and no body;
    HEAD says its length and sends nothing; once it changes on disk, the new one; an unknown
    path 404, a POST to a file 405 — each with the page's policy."""
    page = tmp_path / "index.html"
    page.write_text("<p>one</p>")
    files = {"/webapp/": PageFile(page, "text/html; charset=utf-8")}
    async with server(files) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)

        async def asked(request: str) -> tuple[int, dict[str, str], bytes]:
            writer.write(request.encode())
            return await answer(reader)
        status, headers, body = await asked("GET /webapp/?tgWebAppStartParam=1 HTTP/1.1\r\n\r\n")
        assert (status, body) == (200, b"<p>one</p>")
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["cache-control"] == "no-cache"
        tag = headers["etag"]
        status, headers, body = await asked(f"GET /webapp/ HTTP/1.1\r\nIf-None-Match: {tag}"
                                            "\r\n\r\n")
        assert (status, body, headers["etag"]) == (304, b"", tag)
        writer.write(b"HEAD /webapp/ HTTP/1.1\r\n\r\nGET /webapp/nothing HTTP/1.1\r\n\r\n")
        head = await reader.readuntil(b"\r\n\r\n")  # HEAD: the length said, no body sent
        assert head.startswith(b"HTTP/1.1 200 ") and b"Content-Length: 10\r\n" in head
        status, headers, _ = await answer(reader)
        assert status == 404 and headers["content-security-policy"] == CSP
        page.write_text("<p>two, longer</p>")
        status, headers, body = await asked(f"GET /webapp/ HTTP/1.1\r\nIf-None-Match: {tag}"
                                            "\r\n\r\n")
        assert (status, body) == (200, b"<p>two, longer</p>") and headers["etag"] != tag
        status, headers, _ = await asked("POST /webapp/ HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        assert status == 405 and headers["content-security-policy"] == CSP
        writer.close()


async def test_every_page_file_is_served():
    """The page's own files, each with its charset (what the webhook's routes serve too)."""
    async with server() as port:
        for path in page_files():
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\n\r\n".encode())
            status, headers, body = await answer(reader)
            assert status == 200 and body, path
            assert headers["content-type"].endswith("; charset=utf-8")
            writer.close()
