"""PTB's HTTP transport with a meter on it: every Bot API request counted by method, and every
failure by method and kind (its HTTP status, `timeout`, `network`), in bot.runtime.metrics.

It only counts; what a request sends, how long it may take and what a failure raises are
HTTPXRequest's own. Wired with `ApplicationBuilder().request(MeteredRequest(...))` and
`.get_updates_request(MeteredRequest(...))` (the builder then takes no pool settings of its
own: they go to the constructor, as HTTPXRequest's).

It is also where the leader's lease is checked before anything goes out (`guard`): a request,
getUpdates included, is sent only while the `gate` passes. Its User-Agent names the process
(`twentyfour/<pid>`), so the Bot API emulator's journal tells two processes' requests apart.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from http import HTTPStatus

from telegram import Bot
from telegram._utils.types import ODVInput
from telegram.error import TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.runtime import metrics


class MeteredRequest(HTTPXRequest):
    """HTTPXRequest that records each request it makes, and sends none the gate refuses."""

    USER_AGENT = f"{HTTPXRequest.USER_AGENT} twentyfour/{os.getpid()}"  # type: ignore[misc]
    gate: Callable[[], None] | None = None  # raises to keep a request from going out

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
        if self.gate is not None:
            self.gate()
        api_method = metrics.api_method(url)
        metrics.record_api_call(api_method)
        began = time.perf_counter()
        try:
            code, payload = await super().do_request(
                url, method, request_data, read_timeout=read_timeout,
                write_timeout=write_timeout, connect_timeout=connect_timeout,
                pool_timeout=pool_timeout)
        except TimedOut:
            metrics.record_api_error(api_method, "timeout")
            raise
        except Exception:  # NetworkError, and whatever else the transport raises
            metrics.record_api_error(api_method, "network")
            raise
        finally:
            metrics.observe_api_time(api_method, time.perf_counter() - began)
        if not HTTPStatus.OK <= code <= 299:
            metrics.record_api_error(api_method, str(code))
        return code, payload


def guard(bot: Bot, gate: Callable[[], None]) -> int:
    """Put `gate` before every request of the bot's MeteredRequests (its own and getUpdates');
    how many. PTB keeps the two in `Bot._request` (no public name for the getUpdates one)."""
    requests = [r for r in bot._request if isinstance(r, MeteredRequest)]
    for request in requests:
        request.gate = gate
    return len(requests)
