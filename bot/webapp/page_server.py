"""The Mini App's own HTTP/1.1 server (a polling bot's page, the page's own process, the Mini App
role): asyncio's transport with httptools' request parser (the C parser uvicorn reads with), in
front of the API's exchanges (bot.webapp.api) and the page's files. The webhook's server, which
is tornado's, mounts the same exchanges as routes of its own (bot.webapp.server.webapp_routes).

Why not tornado's HTTPServer, as before: under one person's flood of 8,000 requests its HTTP/1
layer (a coroutine and a timeout round every read, each header checked by regular expressions,
a future for every write) cost 310-490 µs of CPU a refused request; here the same refusal costs
80-110 µs (docs/benchmarks.md, "The page's own server"). The page's process runs on the cores'
idle time, so what a refusal costs is both how long the flood's refusals wait and how much of the
machine the flood takes from the rounds.

What it keeps of tornado's bounds: a request's line and headers within MAX_HEADERS (431 past
them), read within IDLE_SECONDS of the connection's opening or its last answer, and its body
within BODY_SECONDS of its headers (a sweep closes a connection past either); the body's own
bound is the exchange's (413). A connection's requests are answered in their order; past one
waiting for its answer, reading pauses until the answers caught up. An answer given before its
request was read whole (a 413 on the announced length, a 405) closes the connection after it:
the rest is not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import formatdate
from http import HTTPStatus
from pathlib import Path

import httptools
import tornado.netutil

from bot.webapp.api import SECURE, Endpoint, Exchange

log = logging.getLogger(__name__)
MAX_HEADERS = 16 << 10  # bytes of a request's line and headers (tornado's default is 64 kB)
BODY_SECONDS = 30.0  # to send a body once its headers are in
IDLE_SECONDS = 120.0  # to send a request's headers, from the opening or the last answer
SWEEP_SECONDS = 1.0  # how often connections past their time are looked for
TEXT_HEADERS = {**SECURE, "Content-Type": "text/plain; charset=utf-8"}


@dataclass(frozen=True)
class PageFile:
    """One of the page's files: where it lies and its Content-Type."""

    path: Path
    content_type: str


class Files:
    """The page's files by URL path, read again only when one changed on disk (a new version is
    served at once, and each answer says not to keep it without asking: `no-cache`)."""

    def __init__(self, files: Mapping[str, PageFile]) -> None:
        self.files = dict(files)
        self._read: dict[str, tuple[tuple[int, int], bytes, str]] = {}

    def __contains__(self, path: str) -> bool:
        return path in self.files

    def get(self, path: str) -> tuple[bytes, str, str]:
        """The file's bytes, its ETag and its Content-Type."""
        file = self.files[path]
        stat = file.path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        kept = self._read.get(path)
        if kept is None or kept[0] != version:
            data = file.path.read_bytes()
            kept = self._read[path] = (version, data, f'"{hashlib.sha1(data).hexdigest()}"')
        return kept[1], kept[2], file.content_type


def response(status: int, headers: Mapping[str, str], body: bytes, keep_alive: bool,
             head_only: bool = False) -> bytes:
    """An answer's bytes (the headers are the server's own: no value comes from a request)."""
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"Date: {_date()}",
             *(f"{name}: {value}" for name, value in headers.items())]
    if status != HTTPStatus.NOT_MODIFIED:
        lines.append(f"Content-Length: {len(body)}")
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if head_only else body)


def _date() -> str:
    return _date_of(int(time.time()))


@functools.lru_cache(maxsize=2)
def _date_of(second: int) -> str:
    """The Date header's value, made once a second."""
    return formatdate(second, usegmt=True)


class HeadersTooLarge(Exception):
    """A request's line and headers past MAX_HEADERS."""


class Upgrade(Exception):
    """A request to speak another protocol (a WebSocket's): none is spoken here."""


class Closing(Exception):
    """A request begun on a connection that is closing (after an answer that closes it): not
    read."""


class Pending:
    """A request read (or being read) and its answer once given, in its connection's order."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.read = False  # the whole request is in
        self.keep_alive = True
        self.answer: bytes | None = None
        self.early = False  # answered before it was read whole: the connection closes after
        self.exchange: Exchange | None = None

    def send(self, status: int, headers: dict[str, str], body: bytes,
             head_only: bool = False) -> None:
        self.early = not self.read
        self.answer = response(status, headers, body, self.keep_alive and not self.early,
                               head_only)
        self.connection.flush()


class Connection(asyncio.Protocol):
    """One client's connection: its requests parsed as they arrive, answered in order."""

    def __init__(self, server: PageServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpRequestParser(self)
        self.pipeline: deque[Pending] = deque()
        self.current: Pending | None = None
        self.deadline: float | None = time.monotonic() + IDLE_SECONDS
        self.paused = False
        self._url = bytearray()
        self._size = 0
        self._length: str | None = None
        self._etag: bytes | None = None
        self._continue = False

    # asyncio's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        for pending in self.pipeline:
            if pending.exchange is not None:
                pending.exchange.on_connection_close()
        self.pipeline.clear()

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, HeadersTooLarge):
                return self.fail(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
            if isinstance(error.__context__, Upgrade):
                return self.fail(HTTPStatus.BAD_REQUEST)
            if isinstance(error.__context__, Closing):
                return None
            log.exception("the page's server failed on a request")
            return self.fail(HTTPStatus.INTERNAL_SERVER_ERROR)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade):
            return self.fail(HTTPStatus.BAD_REQUEST)
        return None

    def fail(self, status: int) -> None:
        """What can't be read as a request: said (once the requests before it are answered:
        else not), and the connection closed."""
        if self.current is not None:
            self.pipeline.remove(self.current)
            self.current = None
        if self.transport is not None and not self.transport.is_closing():
            if not self.pipeline:
                self.transport.write(response(status, TEXT_HEADERS,
                                              HTTPStatus(status).phrase.encode(), False))
            self.transport.close()

    # the parser's side

    def on_message_begin(self) -> None:
        if self.transport is None or self.transport.is_closing():
            raise Closing
        self._url.clear()
        self._size, self._length, self._etag, self._continue = 0, None, None, False
        self.current = Pending(self)
        self.pipeline.append(self.current)

    def on_url(self, url: bytes) -> None:
        self._url += url
        self._grown(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        self._grown(len(name) + len(value) + 4)
        name = name.lower()
        if name == b"content-length":
            self._length = value.decode("latin-1")
        elif name == b"if-none-match":
            self._etag = value
        elif name == b"expect":
            self._continue = value.lower() == b"100-continue"

    def _grown(self, size: int) -> None:
        self._size += size
        if self._size > MAX_HEADERS:
            raise HeadersTooLarge

    def on_headers_complete(self) -> None:
        if self.parser.should_upgrade():
            raise Upgrade
        self.deadline = time.monotonic() + BODY_SECONDS
        pending = self.current
        assert pending is not None
        path = self._url.split(b"?", 1)[0].decode("latin-1")
        endpoint = self.server.endpoints.get(path)
        if endpoint is not None:
            pending.exchange = Exchange(endpoint, pending.send, path)
            pending.exchange.begin(self.parser.get_method().decode("latin-1"), self._length)
        if self._continue and pending.answer is None and self.transport is not None:
            self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")

    def on_body(self, body: bytes) -> None:
        if self.current is not None and self.current.exchange is not None:
            self.current.exchange.data_received(body)

    def on_message_complete(self) -> None:
        pending, self.current = self.current, None
        assert pending is not None
        pending.read, self.deadline = True, None
        pending.keep_alive = self.parser.should_keep_alive()
        if pending.answer is None:
            if pending.exchange is not None:
                pending.exchange.finish()
            else:
                self.server.page_file(pending, self.parser.get_method(),
                                      self._url.split(b"?", 1)[0].decode("latin-1"),
                                      self._etag)
        if len(self.pipeline) > 1 and self.transport is not None and not self.paused:
            # a client sending before it was answered (pipelining): nothing more is read
            # until the answers caught up (a client that waits costs no pause and resume)
            self.paused = True
            self.transport.pause_reading()

    # the answers, in order

    def flush(self) -> None:
        """Write every answer ready at the head of the line; close after one that says so."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        while self.pipeline and self.pipeline[0].answer is not None:
            pending = self.pipeline.popleft()
            transport.write(pending.answer or b"")
            if pending.early or not pending.keep_alive:
                transport.close()
                return
        if not self.pipeline:
            self.deadline = time.monotonic() + IDLE_SECONDS
        if self.paused and len(self.pipeline) <= 1:
            self.paused = False
            transport.resume_reading()


class PageServer:
    """The page's files and the API's endpoints on the sockets `listen` binds."""

    def __init__(self, endpoints: Mapping[str, Endpoint], files: Mapping[str, PageFile]) -> None:
        self.endpoints = dict(endpoints)  # by URL path
        self.files = Files(files)
        self.connections: set[Connection] = set()
        self._servers: list[asyncio.Server] = []
        self._sweep: asyncio.TimerHandle | None = None

    async def listen(self, port: int, address: str) -> int:
        """Serve on `address`:`port` (0: a free one); the port."""
        loop = asyncio.get_running_loop()
        for sock in tornado.netutil.bind_sockets(port, address):
            self._servers.append(await loop.create_server(lambda: Connection(self), sock=sock))
        self._sweep = loop.call_later(SWEEP_SECONDS, self.sweep)
        return int(self._servers[0].sockets[0].getsockname()[1])

    def sweep(self) -> None:
        """Close each connection past its time for headers or a body (a slow client's hold)."""
        now = time.monotonic()
        for connection in list(self.connections):
            if connection.deadline is not None and now > connection.deadline \
                    and connection.transport is not None:
                connection.transport.close()
        self._sweep = asyncio.get_running_loop().call_later(SWEEP_SECONDS, self.sweep)

    def page_file(self, pending: Pending, method: bytes, path: str, etag: bytes | None) -> None:
        """One of the page's files (GET or HEAD; 304 when the asker has it), else 404 or 405."""
        if path not in self.files:
            return pending.send(HTTPStatus.NOT_FOUND, TEXT_HEADERS, b"Not Found")
        if method not in (b"GET", b"HEAD"):
            return pending.send(HTTPStatus.METHOD_NOT_ALLOWED, TEXT_HEADERS,
                                b"Method Not Allowed")
        data, tag, content_type = self.files.get(path)
        headers = {**SECURE, "Content-Type": content_type, "Cache-Control": "no-cache",
                   "ETag": tag}
        log.debug("webapp %s %s", method.decode(), path)
        if etag is not None and tag.encode() in etag.replace(b"W/", b"").split(b", "):
            return pending.send(HTTPStatus.NOT_MODIFIED, headers, b"", head_only=True)
        return pending.send(HTTPStatus.OK, headers, data, head_only=method == b"HEAD")

    def stop(self) -> None:
        """No new connection."""
        for server in self._servers:
            server.close()
        if self._sweep is not None:
            self._sweep.cancel()

    async def close_all_connections(self) -> None:
        """Every open connection closed (its answers in flight dropped)."""
        for connection in list(self.connections):
            if connection.transport is not None:
                connection.transport.close()
        for _ in range(100):
            if not self.connections:
                break
            await asyncio.sleep(0.01)
        for server in self._servers:
            with contextlib.suppress(Exception):
                await server.wait_closed()
