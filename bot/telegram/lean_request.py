"""The Bot API transport the bot sends with: HTTP/1.1 over a few kept-alive asyncio connections,
one write per request. PTB's HTTPXRequest (httpx over httpcore) spends more CPU per request than
the bot spends on the update itself: its pool asks every idle connection's socket whether it was
closed (getpeername and poll) before and after each request, and it writes a request's head and
body apart. Here a connection the server closed is seen for free (its reader is at EOF), and
connections idle past KEEPALIVE_SECONDS are not reused.

What it sends is what HTTPXRequest sends, PTB's parameters with PTB's User-Agent, as a JSON body
rather than a form: the Bot API takes both, reads a JSON string exactly as the same form field,
and PTB's JSON of a message costs half its percent-encoding (56 µs against 100 for a deal with
its keyboard: a few percent of an update's CPU, two or three requests an update). Its
timeouts and errors are HTTPXRequest's (TimedOut, NetworkError; a read timeout bounds the
whole response, as getUpdates' long poll wants), and a request with files goes through
HTTPXRequest itself (multipart), as every request does where a proxy is set in the environment
(HTTPS_PROXY...: httpx honours them). Without a proxy, HTTPXRequest's httpx client is built by the
first request with files (`DeferredClient`): building it imports httpcore, a tenth of a second of
CPU at each start of a bot that may never send a file.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
import time
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit
from urllib.request import getproxies

import certifi
import httpx
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.telegram.metered_request import MeteredRequest
from bot.telegram.read_into import open_connection

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 5.0  # as httpcore's keepalive_expiry: servers close idle connections
HEAD_LIMIT = 64 * 1024  # bytes a response's status line and headers may take
JSON = "application/json"


@dataclass(frozen=True)
class Target:
    """Where a request URL goes: its origin (scheme, host, port) and the request line's path."""

    secure: bool
    host: str
    port: int
    path: str

    @classmethod
    def of(cls, url: str) -> Target:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise NetworkError("ConnectError: not an http(s) URL")  # the URL holds the token
        secure = parts.scheme == "https"
        path = parts.path or "/"
        return cls(secure, parts.hostname, parts.port or (443 if secure else 80),
                   f"{path}?{parts.query}" if parts.query else path)

    @property
    def origin(self) -> tuple[bool, str, int]:
        return self.secure, self.host, self.port

    @property
    def host_header(self) -> str:
        default = 443 if self.secure else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


class Connection:
    """One kept-alive HTTP/1.1 connection; `reusable` once a response was read whole."""

    __slots__ = ("idle_since", "reader", "reusable", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0
        self.reusable = False

    def alive(self, now: float) -> bool:
        """Worth a request: open, not closed by the server, not idle too long."""
        return (not self.reader.at_eof() and not self.writer.is_closing()
                and now - self.idle_since < KEEPALIVE_SECONDS)

    def close(self) -> None:
        self.writer.close()

    async def exchange(self, head: bytes, body: bytes, write_timeout: float | None,
                       read_timeout: float | None) -> tuple[int, bytes]:
        """Send one request, read its response: (status, body)."""
        self.reusable = False
        self.writer.write(head + body)
        if self.writer.transport.get_write_buffer_size():
            async with asyncio.timeout(write_timeout):
                await self.writer.drain()
        async with asyncio.timeout(read_timeout):
            status, headers, keep = await self._head()
            payload = await self._body(headers)
        self.reusable = keep and ("content-length" in headers or "chunked" in
                                  headers.get("transfer-encoding", ""))
        return status, payload

    async def _head(self) -> tuple[int, dict[str, str], bool]:
        while True:
            raw = await self.reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            version, status_text = lines[0].split(" ", 2)[:2]
            status = int(status_text)
            if not 100 <= status < 200:  # an interim response (100 Continue) is skipped
                break
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        keep = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
        return status, headers, keep

    async def _body(self, headers: dict[str, str]) -> bytes:
        if "chunked" in headers.get("transfer-encoding", "").lower():
            return await self._chunks()
        if "content-length" in headers:
            return await self.reader.readexactly(int(headers["content-length"]))
        return await self.reader.read()  # till the server closes the connection

    async def _chunks(self) -> bytes:
        parts = []
        while size := int((await self.reader.readuntil(b"\r\n")).split(b";", 1)[0], 16):
            parts.append((await self.reader.readexactly(size + 2))[:-2])
        while await self.reader.readuntil(b"\r\n") != b"\r\n":  # trailers, if any
            pass
        return b"".join(parts)


class Pool:
    """At most `size` connections to one origin; idle ones kept, the latest used first."""

    def __init__(self, target: Target, size: int, tls: ssl.SSLContext | None) -> None:
        self.target = target
        self.free = asyncio.Semaphore(size)
        self.idle: list[Connection] = []
        self.tls = tls
        self.busy: set[Connection] = set()

    async def connection(self, pool_timeout: float | None, connect_timeout: float | None
                         ) -> Connection:
        """An idle live connection or a new one, once fewer than `size` are in use."""
        if self.free.locked():
            try:
                async with asyncio.timeout(pool_timeout):
                    await self.free.acquire()
            except TimeoutError:
                raise TimedOut("Pool timeout: every connection is busy; the request was not "
                               "sent") from None
        else:
            await self.free.acquire()  # returns at once
        try:
            now = time.monotonic()
            while self.idle:
                found = self.idle.pop()
                if found.alive(now):
                    self.busy.add(found)
                    return found
                found.close()
            async with asyncio.timeout(connect_timeout):
                reader, writer = await open_connection(self.target.host, self.target.port,
                                                       self.tls, HEAD_LIMIT)
            made = Connection(reader, writer)
            self.busy.add(made)
            return made
        except BaseException:
            self.free.release()
            raise

    def give_back(self, connection: Connection, open_: bool) -> None:
        self.busy.discard(connection)
        if open_ and connection.reusable:
            connection.idle_since = time.monotonic()
            self.idle.append(connection)
        else:
            connection.close()
        self.free.release()

    def close(self) -> None:
        for connection in (*self.idle, *self.busy):
            connection.close()
        self.idle.clear()
        self.busy.clear()


@functools.cache
def authorities() -> ssl.SSLContext:
    """The process's TLS context for https: certifi's authorities, as httpx's default."""
    return ssl.create_default_context(cafile=certifi.where())


class DeferredClient:
    """HTTPXRequest's httpx client as HTTPXRequest uses it (its timeouts, `request`, `aclose`,
    `is_closed`), the client itself built by the first request."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.timeout: httpx.Timeout = settings["timeout"]
        self.client: httpx.AsyncClient | None = None
        self.is_closed = False

    async def request(self, *args: Any, **kwargs: Any) -> httpx.Response:
        if self.client is None:
            self.client = httpx.AsyncClient(**self.settings)
        return await self.client.request(*args, **kwargs)

    async def aclose(self) -> None:
        self.is_closed = True
        if self.client is not None:
            await self.client.aclose()


class LeanTransport(HTTPXRequest):
    """HTTPXRequest's settings and behaviour, its requests without files sent on lean
    connections (see the module's docstring)."""

    def __init__(self, connection_pool_size: int = 1, tls: ssl.SSLContext | None = None,
                 **settings: object) -> None:
        """HTTPXRequest's settings; `tls`: the context for https (else certifi's authorities,
        as httpx's)."""
        # one context of certifi's authorities a process, not one per client: loading them
        # costs tens of ms, and a bot builds two clients (getUpdates' and the rest)
        settings.setdefault("httpx_kwargs", {"verify": authorities()})
        self._proxied = any(kind != "no" for kind in getproxies())  # then httpx, by the proxy
        super().__init__(connection_pool_size=connection_pool_size, **settings)  # type: ignore
        self._size = connection_pool_size
        self._pools: dict[tuple[bool, str, int], Pool] = {}
        self._targets: dict[str, Target] = {}  # per URL (one per Bot API method)
        self._tls = tls
        self._open = True

    def _build_client(self) -> httpx.AsyncClient:
        """Through a proxy every request is httpx's: its client at once, as HTTPXRequest builds
        it (a proxy's missing extra said at start); else built by the first file sent."""
        if self._proxied:
            return super()._build_client()
        return cast(httpx.AsyncClient, DeferredClient(self._client_kwargs))

    async def initialize(self) -> None:
        await super().initialize()
        self._open = True

    async def shutdown(self) -> None:
        self._open = False
        for pool in self._pools.values():
            pool.close()
        self._pools.clear()
        await super().shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if method != "POST" or self._proxied or (request_data is not None
                                                 and request_data.contains_files):
            return await super().do_request(url, method, request_data, read_timeout,
                                            write_timeout, connect_timeout, pool_timeout)
        if not self._open:
            raise RuntimeError("This LeanTransport is not initialized!")
        limits = self._client.timeout
        target = self._target(url)
        body = request_data.json_payload if request_data else b"{}"
        head = (f"POST {target.path} HTTP/1.1\r\nHost: {target.host_header}\r\n"
                f"User-Agent: {self.USER_AGENT}\r\nAccept: */*\r\nContent-Type: {JSON}\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        pool = self._pool(target)
        try:
            connection = await pool.connection(
                limits.pool if isinstance(pool_timeout, DefaultValue) else pool_timeout,
                limits.connect if isinstance(connect_timeout, DefaultValue) else connect_timeout)
        except (TimeoutError, OSError) as error:  # refused, unreachable, a name not found
            raise failure(error, "ConnectError") from error
        finished = False
        try:
            answer = await connection.exchange(
                head, body, limits.write if isinstance(write_timeout, DefaultValue)
                else write_timeout,
                limits.read if isinstance(read_timeout, DefaultValue) else read_timeout)
            finished = True
            if log.isEnabledFor(logging.DEBUG):  # as httpx's line (the URL holds the token:
                log.debug('HTTP Request: POST %s "%d"', url, answer[0])  # the log masks it)
            return answer
        except (TimeoutError, OSError) as error:
            raise failure(error, error.__class__.__name__) from error
        except (EOFError, ValueError, IndexError, asyncio.LimitOverrunError) as error:
            # a cut response is an IncompleteReadError (EOFError), a garbled one a ValueError
            raise failure(error, "RemoteProtocolError") from error
        finally:
            pool.give_back(connection, finished and self._open)

    def _target(self, url: str) -> Target:
        target = self._targets.get(url)
        if target is None:
            target = Target.of(url)
            if len(self._targets) < 1024:  # the Bot API's URLs: a few dozen
                self._targets[url] = target
        return target

    def _pool(self, target: Target) -> Pool:
        pool = self._pools.get(target.origin)
        if pool is None:
            if target.secure and self._tls is None:
                self._tls = authorities()
            pool = self._pools[target.origin] = Pool(
                target, self._size, self._tls if target.secure else None)
        return pool


def failure(error: BaseException, kind: str) -> TelegramError:
    """A transport error as HTTPXRequest raises it: TimedOut, or a NetworkError whose message
    starts with the kind of failure (httpx's names where they fit: ConnectError, and
    RemoteProtocolError for an answer cut short or not HTTP)."""
    if isinstance(error, TimeoutError):
        return TimedOut()
    return NetworkError(f"{kind}: {error}")


class LeanRequest(MeteredRequest, LeanTransport):
    """The bot's request: metered (MeteredRequest.do_request counts, then calls on to
    LeanTransport.do_request by the method order), sent on lean connections."""
