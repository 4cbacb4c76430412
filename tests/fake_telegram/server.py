"""A fake Telegram Bot API server for tests: real HTTP on 127.0.0.1, Telegram's wire format.

Requests: POST or GET /bot<token>/<method>, form-encoded, multipart or JSON (PTB sends form
fields, JSON for objects). Responses: {"ok": true, "result": ...} or Telegram's error shape.
It validates what Telegram validates for the methods the bot uses (HTML entities, 4096
characters, empty text), serves getUpdates long polling with offsets, can enforce Telegram's
flood limits (429 with retry_after), and lets tests inject user messages and await replies.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import tornado.httpserver
import tornado.netutil
import tornado.web

from tests.fake_telegram.html_check import EntityError, visible_text

BOT_ID = 7_000_000_001
BOT_USERNAME = "twentyfour_test_bot"


class TelegramError(Exception):
    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after


@dataclass
class Sent:
    """A message the bot sent, as the server stored it."""

    chat_id: int
    message_id: int
    html: str
    text: str
    reply_to: int | None
    at: float


@dataclass
class FloodLimits:
    per_second: int = 30
    per_chat_minute: int = 20


@dataclass
class FakeTelegram:
    """Start with `await server.start()`; `server.base_url` goes into TELEGRAM_BASE_URL."""

    token: str = "123456:TEST-token"
    flood: FloodLimits | None = None
    updates: list[dict] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    calls: list[tuple[str, dict, float]] = field(default_factory=list)
    commands: list[dict] = field(default_factory=list)
    port: int = 0
    _read: dict = field(default_factory=dict)
    updates_log: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._changed = asyncio.Condition()
        self._chats: dict[int, dict] = {}
        self._messages: dict[tuple[int, int], dict] = {}
        self._server: tornado.httpserver.HTTPServer | None = None
        self.flood_errors = 0

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = tornado.web.Application([(r"/bot([^/]+)/(\w+)", _Handler, {"fake": self})])
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        self._server = tornado.httpserver.HTTPServer(app)
        self._server.add_sockets(sockets)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # --- what tests do -----------------------------------------------------------------------

    def chat(self, chat_id: int, kind: str = "group", title: str | None = "Test group") -> dict:
        chat = {"id": chat_id, "type": kind}
        if kind != "private":
            chat["title"] = title or "Group"
        else:
            chat["first_name"] = "Private"
        self._chats[chat_id] = chat
        return chat

    def user(self, user_id: int, first_name: str, username: str | None = None) -> dict:
        user = {"id": user_id, "is_bot": False, "first_name": first_name, "language_code": "en"}
        if username:
            user["username"] = username
        return user

    async def say(self, chat_id: int, user: dict, text: str, reply_to: int | None = None,
                  kind: str = "group") -> dict:
        """A user writes in a chat: queued as an Update for getUpdates; returns the message."""
        chat = self._chats.get(chat_id) or self.chat(chat_id, kind)
        message: dict[str, Any] = {"message_id": next(self._message_ids),
                                   "date": int(time.time()), "chat": chat, "from": user,
                                   "text": text}
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if reply_to is not None:
            original = self._messages.get((chat_id, reply_to))
            if original is not None:
                message["reply_to_message"] = original
        self._messages[(chat_id, message["message_id"])] = message
        await self._queue({"message": message})
        return message

    async def migrate(self, old_id: int, new_id: int, user: dict) -> None:
        chat = self._chats.get(old_id) or self.chat(old_id)
        message = {"message_id": next(self._message_ids), "date": int(time.time()), "chat": chat,
                   "from": user, "migrate_to_chat_id": new_id}
        self.chat(new_id, "supergroup", chat.get("title"))
        await self._queue({"message": message})

    async def replies(self, chat_id: int, count: int = 1, timeout: float = 15.0) -> list[Sent]:
        """Wait until the bot has sent `count` more messages to the chat than were read so far."""
        key = ("read", chat_id)
        start = self._read.get(key, 0)

        def ready() -> bool:
            return len([s for s in self.sent if s.chat_id == chat_id]) >= start + count

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(ready), timeout)
        mine = [s for s in self.sent if s.chat_id == chat_id]
        self._read[key] = start + count
        return mine[start:start + count]

    async def reply(self, chat_id: int, timeout: float = 15.0) -> Sent:
        return (await self.replies(chat_id, 1, timeout))[0]


    async def _queue(self, update: dict) -> None:
        update["update_id"] = next(self._update_ids)
        update["_queued_at"] = time.perf_counter()
        async with self._changed:
            self.updates.append(update)
            self.updates_log.append(update)
            self._changed.notify_all()

    # --- the Bot API -------------------------------------------------------------------------

    async def call(self, method: str, params: dict) -> Any:
        self.calls.append((method, params, time.perf_counter()))
        handler = getattr(self, f"api_{method.lower()}", None)
        if handler is None:
            raise TelegramError(404, "Not Found")
        return await handler(params)

    async def api_getme(self, params: dict) -> dict:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Twenty-Four",
                "username": BOT_USERNAME, "can_join_groups": True,
                "can_read_all_group_messages": False, "supports_inline_queries": False}

    async def api_setmycommands(self, params: dict) -> bool:
        commands = _json(params.get("commands"))
        if not isinstance(commands, list) or not commands:
            raise TelegramError(400, "Bad Request: commands must be a non-empty array")
        self.commands = commands
        return True

    async def api_getmycommands(self, params: dict) -> list:
        return self.commands

    async def api_deletewebhook(self, params: dict) -> bool:
        return True

    async def api_getupdates(self, params: dict) -> list:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        async with self._changed:
            if offset:
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
            if not self.updates and timeout > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait_for(lambda: bool(self.updates)),
                                           timeout)
            batch = self.updates[:limit]
        now = time.perf_counter()
        for update in batch:
            update.setdefault("_delivered_at", now)
        return [{k: v for k, v in u.items() if not k.startswith("_")} for u in batch]

    async def api_sendmessage(self, params: dict) -> dict:
        chat_id = int(params.get("chat_id", 0))
        if chat_id not in self._chats:
            raise TelegramError(400, "Bad Request: chat not found")
        raw = params.get("text", "")
        shown = raw
        if params.get("parse_mode") == "HTML":
            try:
                shown = visible_text(raw)
            except EntityError as error:
                raise TelegramError(400, f"Bad Request: can't parse entities: {error}") from None
        if not shown.strip():
            raise TelegramError(400, "Bad Request: message text is empty")
        if len(shown) > 4096:
            raise TelegramError(400, "Bad Request: message is too long")
        self._check_flood(chat_id)
        reply_to = params.get("reply_to_message_id")
        if params.get("reply_parameters"):
            reply_to = _json(params["reply_parameters"]).get("message_id")
        message: dict[str, Any] = {
            "message_id": next(self._message_ids), "date": int(time.time()),
            "chat": self._chats[chat_id],
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Twenty-Four",
                     "username": BOT_USERNAME},
            "text": shown}
        if reply_to is not None and (chat_id, int(reply_to)) in self._messages:
            message["reply_to_message"] = self._messages[(chat_id, int(reply_to))]
        self._messages[(chat_id, message["message_id"])] = message
        async with self._changed:
            self.sent.append(Sent(chat_id, message["message_id"], raw, shown,
                                  int(reply_to) if reply_to is not None else None,
                                  time.perf_counter()))
            self._changed.notify_all()
        return message

    def _check_flood(self, chat_id: int) -> None:
        if self.flood is None:
            return
        now = time.perf_counter()
        last_second = [s for s in self.sent if now - s.at < 1.0]
        chat_minute = [s for s in self.sent if s.chat_id == chat_id and now - s.at < 60.0]
        if len(last_second) >= self.flood.per_second:
            self.flood_errors += 1
            raise TelegramError(429, "Too Many Requests: retry after 1", retry_after=1)
        if len(chat_minute) >= self.flood.per_chat_minute:
            self.flood_errors += 1
            wait = int(60 - (now - chat_minute[0].at)) + 1
            raise TelegramError(429, f"Too Many Requests: retry after {wait}", retry_after=wait)

    async def api_sendchataction(self, params: dict) -> bool:
        return True

    async def api_getchat(self, params: dict) -> dict:
        chat_id = int(params.get("chat_id", 0))
        if chat_id not in self._chats:
            raise TelegramError(400, "Bad Request: chat not found")
        return self._chats[chat_id]


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class _Handler(tornado.web.RequestHandler):
    def initialize(self, fake: FakeTelegram) -> None:
        self.fake = fake

    async def get(self, token: str, method: str) -> None:
        await self.post(token, method)

    async def post(self, token: str, method: str) -> None:
        if token != self.fake.token:
            return self._send(401, {"ok": False, "error_code": 401,
                                    "description": "Unauthorized"})
        params = self._params()
        try:
            result = await self.fake.call(method, params)
        except TelegramError as error:
            body: dict[str, Any] = {"ok": False, "error_code": error.code,
                                    "description": error.description}
            if error.retry_after is not None:
                body["parameters"] = {"retry_after": error.retry_after}
            return self._send(error.code, body)
        self._send(200, {"ok": True, "result": result})

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

    def _send(self, status: int, body: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(body))
