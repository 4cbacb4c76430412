"""The bot's Bot API requests on aiohttp (one ClientSession, kept-alive connections, aiohttp's
compiled HTTP parser), to measure against the bot's own transport (bot/telegram/lean_request.py)
in the same burst: bench_bot_load.py and bench_guard.py with BENCH_TRANSPORT=aiohttp in the
environment (bench/run_bot.py puts it in the bot's place). Metered and gated as the bot's own
(MeteredRequest); a request with files, as there, goes through HTTPXRequest. aiohttp is not a
dependency of the bot: the `bench` extra brings it (`make bench-transport`)."""

from __future__ import annotations

import asyncio

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.telegram.lean_request import JSON, KEEPALIVE_SECONDS
from bot.telegram.metered_request import MeteredRequest

HEADERS = {"Content-Type": JSON, "Accept": "*/*"}


class AiohttpTransport(HTTPXRequest):
    """HTTPXRequest's settings; its requests without files sent through an aiohttp session."""

    def __init__(self, connection_pool_size: int = 1, **settings: object) -> None:
        super().__init__(connection_pool_size=connection_pool_size, **settings)  # type: ignore
        self._size = connection_pool_size
        self._session: aiohttp.ClientSession | None = None
        limits = self._client.timeout
        self._timeout = self._timeout_of(limits.pool, limits.connect, limits.read)

    @staticmethod
    def _timeout_of(pool: float | None, connect: float | None,
                    read: float | None) -> aiohttp.ClientTimeout:
        """aiohttp's connect timeout includes the wait for a free connection (the pool's)."""
        waits = None if pool is None or connect is None else pool + connect
        return aiohttp.ClientTimeout(total=None, connect=waits, sock_connect=connect,
                                     sock_read=read)

    async def initialize(self) -> None:
        await super().initialize()
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._size,
                                               keepalive_timeout=KEEPALIVE_SECONDS),
                headers={"User-Agent": self.USER_AGENT}, auto_decompress=False)

    async def shutdown(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
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
        if method != "POST" or (request_data is not None and request_data.contains_files):
            return await super().do_request(url, method, request_data, read_timeout,
                                            write_timeout, connect_timeout, pool_timeout)
        if self._session is None:
            raise RuntimeError("This AiohttpTransport is not initialized!")
        timeout = self._timeout
        if not all(isinstance(t, DefaultValue) for t in (read_timeout, connect_timeout,
                                                         pool_timeout)):
            limits = self._client.timeout
            timeout = self._timeout_of(
                limits.pool if isinstance(pool_timeout, DefaultValue) else pool_timeout,
                limits.connect if isinstance(connect_timeout, DefaultValue) else connect_timeout,
                limits.read if isinstance(read_timeout, DefaultValue) else read_timeout)
        body = request_data.json_payload if request_data else b"{}"
        try:
            async with self._session.post(url, data=body, headers=HEADERS,
                                          timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            raise TimedOut() from error
        except (aiohttp.ClientError, OSError, asyncio.IncompleteReadError) as error:
            raise NetworkError(f"{type(error).__name__}: {error}") from error


class AiohttpRequest(MeteredRequest, AiohttpTransport):
    """As the bot's LeanRequest: metered, then sent through aiohttp."""
