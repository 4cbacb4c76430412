"""PTB's HTTP transport with a meter on it: every Bot API request counted by method, and every
failure by method and kind (its HTTP status, `timeout`, `network`), in bot.runtime.metrics.

It only counts; what a request sends, how long it may take and what a failure raises are
HTTPXRequest's own. Given to the bot as its two requests (its own and getUpdates':
bot.telegram.app.telegram_bot), with HTTPXRequest's settings.

It is also where the leader's lease is checked before anything goes out: a request, getUpdates
included, is sent only while the `gate` it was built with passes (the lease's check: the
composition root builds the lease before the bot). Its User-Agent names the process
(`twentyfour/<pid>`), so the Bot API emulator's journal tells two processes' requests apart.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from telegram._utils.types import ODVInput
from telegram.error import TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.runtime import metrics


class MeteredRequest(HTTPXRequest):
    """HTTPXRequest that records each request it makes, and sends none the gate refuses."""

    USER_AGENT = f"{HTTPXRequest.USER_AGENT} twentyfour/{os.getpid()}"  # type: ignore[misc]

    def __init__(self, *args: Any, gate: Callable[[], None] | None = None,
                 **settings: Any) -> None:
        """HTTPXRequest's settings; `gate` raises to keep a request from going out."""
        super().__init__(*args, **settings)
        self.gate = gate

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
