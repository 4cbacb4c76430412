"""Telegram's wire format: the HTTP handler (form, multipart or JSON in; {"ok": ..., "result"} or
Telegram's error shape out) and the checks on what a bot sends (HTML text, keyboards)."""

from __future__ import annotations

import contextlib
import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from bot.text.html_text import EntityError, visible_text
from demo.emulator.records import (
    CALLBACK_DATA_LIMIT,
    TEXT_LIMIT,
    TelegramError,
)

if TYPE_CHECKING:
    from demo.emulator.bot_api import BotApi


@lru_cache(maxsize=4096)
def shown_html(raw: str) -> str:
    """A message's HTML as the chat shows it, or EntityError: a test's bot sends the same
    texts thousands of times (a backlog of /lang), each read once."""
    return visible_text(raw)


def message_text(params: dict) -> tuple[str, str]:
    """The text as sent and as the chat shows it; TelegramError where Telegram refuses it."""
    raw = params.get("text", "")
    shown = raw
    if params.get("parse_mode") == "HTML":
        try:
            shown = shown_html(raw)
        except EntityError as error:
            raise TelegramError(400, f"Bad Request: can't parse entities: {error}") from None
    if not shown.strip():
        raise TelegramError(400, "Bad Request: message text is empty")
    if len(shown.encode("utf-16-le")) // 2 > TEXT_LIMIT:  # Telegram counts UTF-16 code units
        raise TelegramError(400, "Bad Request: message is too long")
    return raw, shown


def markup_of(params: dict) -> dict | None:
    """A message's inline keyboard, checked as Telegram checks it (None: no keyboard); an empty
    one counts as none, as Telegram takes it."""
    if not params.get("reply_markup"):
        return None
    markup = json_param(params["reply_markup"])
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise TelegramError(400, "Bad Request: can't parse reply keyboard markup JSON object")
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not str(button.get("text") or "").strip():
            raise TelegramError(400, "Bad Request: can't parse inline keyboard button: Text "
                                     "buttons are unallowed in the inline keyboard")
        data = button.get("callback_data")
        if data is not None and not 1 <= len(str(data).encode()) <= CALLBACK_DATA_LIMIT:
            raise TelegramError(400, "Bad Request: BUTTON_DATA_INVALID")
    return markup if any(rows) else None


def json_param(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class Handler(tornado.web.RequestHandler):
    def initialize(self, emulator: BotApi) -> None:
        self.emulator = emulator

    async def get(self, token: str, method: str) -> None:
        await self.post(token, method)

    async def post(self, token: str, method: str) -> None:
        self.emulator._in_flight += 1
        try:
            status, body = await self._answer(token, method)
            self.set_status(status)
            self.set_header("Content-Type", "application/json")
            with contextlib.suppress(tornado.iostream.StreamClosedError):  # the client left
                await self.finish(json.dumps(body))
        finally:
            self.emulator._in_flight -= 1

    async def _answer(self, token: str, method: str) -> tuple[int, dict]:
        if token != self.emulator.token:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        try:
            result = await self.emulator.call(method, self._params(),
                                              self.request.headers.get("User-Agent", ""))
        except TelegramError as error:
            body: dict[str, Any] = {"ok": False, "error_code": error.code,
                                    "description": error.description}
            if error.retry_after is not None:
                body["parameters"] = {"retry_after": error.retry_after}
            if error.migrate_to is not None:
                body["parameters"] = {"migrate_to_chat_id": error.migrate_to}
            return error.code, body
        return 200, {"ok": True, "result": result}

    def _params(self) -> dict:
        params = {k: v[-1].decode() for k, v in self.request.query_arguments.items()}
        content_type = self.request.headers.get("Content-Type", "")
        if "application/json" in content_type and self.request.body:
            params.update(json.loads(self.request.body))
        elif "multipart/form-data" in content_type:
            params.update({k: v[-1].decode() for k, v in self.request.body_arguments.items()})
        elif self.request.body:
            params.update(dict(parse_qsl(self.request.body.decode())))
        return params
