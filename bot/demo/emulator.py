"""A local Telegram Bot API emulator: real HTTP on 127.0.0.1, Telegram's wire format, no network.

The demo (`python -m bot --demo`) runs the real bot against it, and the tests do too. Requests are
POST or GET /bot<token>/<method>, form-encoded, multipart or JSON (python-telegram-bot sends form
fields, JSON for objects); answers are {"ok": true, "result": ...} or Telegram's error shape. It
checks what Telegram checks for the methods the bot uses (HTML entities, 4096 characters, empty
text, inline results), serves getUpdates long polling with offsets and allowed_updates, can enforce
Telegram's flood limits (429 with retry_after), answers getChatMember (everyone is a member
unless its owner made them an admin with `promote`), takes reactions (setMessageReaction, with
Telegram's list of emoji; a chat in `no_reactions` refuses them), has the bot's privacy mode
(`privacy_mode`: getMe says so, and a group's plain messages that are neither replies to the bot
nor mention it are not delivered), has forum topics (`topic` opens one in a supergroup; a
message in it carries its message_thread_id, and, as Telegram does, replies to the topic's
opening message; the bot's messages go to the topic it names, or the topic of the message it
replies to, else to General; an unknown topic is refused), has the bot's own membership
(`remove_bot`: kicked, removed or blocked, then a my_chat_member update and Telegram's 403 for
what the bot sends there; `add_bot`; a group `migrate`d to a supergroup answers a send to its
old id with 400 and migrate_to_chat_id), and lets its owner inject users'
messages, inline queries and button presses, then read or await what the bot sent. It keeps
everything in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web
from telegram.constants import ReactionEmoji

from bot.text.html_text import EntityError, visible_text

BOT_ID = 7_000_000_001
BOT_USERNAME = "twentyfour_test_bot"
BOT_NAME = "Twenty-Four"
TEXT_LIMIT = 4096
INLINE_RESULTS_LIMIT = 50
CALLBACK_TEXT_LIMIT = 200
CALLBACK_DATA_LIMIT = 64  # bytes
ALLOWED_REACTIONS = frozenset(e.value for e in ReactionEmoji)  # what a bot may react with
ADMIN_RIGHTS = ("can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
                "can_delete_stories")
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message")
# what getUpdates delivers when allowed_updates is not given or empty (Telegram's default)
DEFAULT_UPDATE_TYPES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages", "inline_query",
    "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
    "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_join_request",
    "chat_boost", "removed_chat_boost"})


class TelegramError(Exception):
    """An error answer: HTTP status and error_code `code`, Telegram's `description`."""

    def __init__(self, code: int, description: str, retry_after: int | None = None,
                 migrate_to: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to = migrate_to  # the supergroup a migrated group's id now names


@dataclass
class Sent:
    """A message the bot sent, as the emulator stored it (`text` is what the chat shows)."""

    chat_id: int
    message_id: int
    html: str
    text: str
    reply_to: int | None
    at: float
    parse_mode: str | None = None
    reply_markup: dict | None = None
    topic: int = 0  # the forum topic it went to (0: General, or a chat without topics)


@dataclass
class Edit:
    """A text the bot replaced with editMessageText (in a chat, or of an inline message)."""

    chat_id: int | None
    message_id: int | None
    inline_message_id: str | None
    html: str
    text: str
    at: float
    parse_mode: str | None = None
    reply_markup: dict | None = None


@dataclass
class MarkupEdit:
    """Buttons the bot replaced with editMessageReplyMarkup (`reply_markup` None: removed)."""

    chat_id: int
    message_id: int
    reply_markup: dict | None
    at: float


@dataclass
class InlineAnswer:
    """What the bot answered to an inline query."""

    query_id: str
    results: list[dict]
    params: dict
    at: float


@dataclass
class CallbackAnswer:
    """What the bot answered to a button press (its toast text, if any)."""

    query_id: str
    text: str | None
    show_alert: bool
    at: float


@dataclass
class Reaction:
    """A reaction the bot set on a message (`emoji` empty: it removed its reaction)."""

    chat_id: int
    message_id: int
    emoji: str
    at: float


@dataclass
class FloodLimits:
    """Telegram's limits on sending: per bot per second, per group per minute."""

    per_second: int = 30
    per_chat_minute: int = 20


@dataclass
class BotApiEmulator:
    """Start with `await emulator.start()`; `emulator.base_url` goes into TELEGRAM_BASE_URL."""

    token: str = "123456:TEST-token"
    flood: FloodLimits | None = None
    username: str = BOT_USERNAME
    open_chats: bool = False  # True: a chat it never saw is made up instead of "chat not found"
    privacy_mode: bool = False  # the bot sees only commands and replies/mentions in groups
    no_reactions: set[int] = field(default_factory=set)  # chats that turned reactions off
    updates: list[dict] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    inline_answers: list[InlineAnswer] = field(default_factory=list)
    callback_answers: list[CallbackAnswer] = field(default_factory=list)
    markup_edits: list[MarkupEdit] = field(default_factory=list)
    reactions: list[Reaction] = field(default_factory=list)
    calls: list[tuple[str, dict, float]] = field(default_factory=list)
    commands: list[dict] = field(default_factory=list)  # the default menu
    menus: dict[str, list[dict]] = field(default_factory=dict)  # by language code ("" default)
    webhook: dict = field(default_factory=dict)  # setWebhook's url, secret_token, allowed_updates
    port: int = 0
    _read: dict = field(default_factory=dict)
    updates_log: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        # like Telegram's, update ids never repeat, even across runs of the emulator (the demo
        # keeps its database, and the bot skips an update id it has handled before)
        self._update_ids = itertools.count(int(time.time() * 1000))
        self._message_ids = itertools.count(1000)
        self._query_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._chats: dict[int, dict] = {}
        self._users: dict[int, dict] = {}  # everyone who wrote, by id
        self._statuses: dict[tuple[int, int], str] = {}  # (chat, user): creator | administrator
        self._messages: dict[tuple[int, int], dict] = {}
        self._written: dict[tuple[int, int], tuple[str, str | None]] = {}  # bot's: (raw, mode)
        self._topics: dict[tuple[int, int], dict] = {}  # (chat, topic id): its opening message
        self._open_queries: set[str] = set()  # inline and callback queries not yet answered
        self._allowed: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._refusing: dict[int, str] = {}  # chats the bot is not in: Telegram's 403 there
        self._moved: dict[int, int] = {}  # migrated groups: old id -> the supergroup's id
        self._bot_status: dict[int, str] = {}  # the bot's status where add/remove_bot set it
        self._server: tornado.httpserver.HTTPServer | None = None
        self._closing = False
        self._in_flight = 0  # requests being answered
        self.flood_errors = 0

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on an ephemeral port of 127.0.0.1."""
        app = tornado.web.Application([(r"/bot([^/]+)/(\w+)", _Handler, {"emulator": self})])
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        self._server = tornado.httpserver.HTTPServer(app)
        self._server.add_sockets(sockets)

    async def stop(self) -> None:
        """Answer the long polls still waiting, then close every connection."""
        self._closing = True
        async with self._changed:
            self._changed.notify_all()
        for _ in range(200):  # up to 2 s for the answers to be written
            if not self._in_flight:
                break
            await asyncio.sleep(0.01)
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def bot_user(self) -> dict:
        return {"id": BOT_ID, "is_bot": True, "first_name": BOT_NAME, "username": self.username}

    # --- what the owner does: people, chats and what they write ------------------------------

    def chat(self, chat_id: int, kind: str = "group", title: str | None = "Test group",
             forum: bool = False) -> dict:
        """Make a chat known (bots can only write to chats they know); `forum`: a supergroup
        with topics."""
        chat: dict[str, Any] = {"id": chat_id, "type": "supergroup" if forum else kind}
        if kind != "private":
            chat["title"] = title or "Group"
        else:
            chat["first_name"] = "Private"
        if forum:
            chat["is_forum"] = True
        self._chats[chat_id] = chat
        return chat

    def topic(self, chat_id: int, name: str, creator: dict | None = None) -> int:
        """Open a topic in a forum; its id (message_thread_id) is its opening message's."""
        chat = self._chats.get(chat_id)
        if chat is None or not chat.get("is_forum"):
            raise ValueError(f"chat {chat_id} is not a forum")
        topic_id = next(self._message_ids)
        opening = {"message_id": topic_id, "date": int(time.time()), "chat": chat,
                   "from": creator or {"id": 1, "is_bot": False, "first_name": "Owner"},
                   "message_thread_id": topic_id, "is_topic_message": True,
                   "forum_topic_created": {"name": name, "icon_color": 7322096}}
        self._messages[(chat_id, topic_id)] = opening
        self._topics[(chat_id, topic_id)] = opening
        return topic_id

    def delete_topic(self, chat_id: int, topic_id: int) -> None:
        """An admin deletes a forum topic: sending to it is then refused ("message thread not
        found")."""
        self._topics.pop((chat_id, topic_id), None)

    def user(self, user_id: int, first_name: str, username: str | None = None) -> dict:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name,
                                "language_code": "en"}
        if username:
            user["username"] = username
        return user

    def promote(self, chat_id: int, user_id: int, status: str = "administrator") -> None:
        """Make a user the chat's "creator" or an "administrator" ("member" demotes them)."""
        if status == "member":
            self._statuses.pop((chat_id, user_id), None)
        else:
            self._statuses[(chat_id, user_id)] = status

    def message(self, chat_id: int, message_id: int) -> dict | None:
        """A message of the chat, as Telegram would send it in an update (None if unknown)."""
        return self._messages.get((chat_id, message_id))

    async def say(self, chat_id: int, user: dict, text: str, reply_to: int | None = None,
                  kind: str = "group", topic: int | None = None) -> dict:
        """A user writes in a chat (in a forum, in `topic`, or in the topic of the message
        replied to): queued as an Update for getUpdates; returns the message."""
        chat = self._chats.get(chat_id) or self.chat(chat_id, kind)
        self._users[user["id"]] = user
        message: dict[str, Any] = {"message_id": next(self._message_ids),
                                   "date": int(time.time()), "chat": chat, "from": user,
                                   "text": text}
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        original = self._messages.get((chat_id, reply_to)) if reply_to is not None else None
        if original is not None:
            message["reply_to_message"] = original
            if chat.get("is_forum"):
                topic = topic or original.get("message_thread_id")
            elif chat["type"] == "supergroup":  # a chain of replies: its first message's id
                message["message_thread_id"] = original.get("message_thread_id") or reply_to
        if topic:
            self._in_topic(message, chat_id, topic)
        self._messages[(chat_id, message["message_id"])] = message
        if self._bot_sees(message) and chat_id not in self._refusing:
            await self._queue({"message": message})
        return message

    def _in_topic(self, message: dict, chat_id: int, topic: int) -> None:
        """Put a message in a forum topic, as Telegram does: it carries the topic's id, and
        when it replies to nothing else, it replies to the topic's opening message."""
        opening = self._topics.get((chat_id, topic))
        if opening is None:
            raise TelegramError(400, "Bad Request: message thread not found")
        message["message_thread_id"] = topic
        message["is_topic_message"] = True
        message.setdefault("reply_to_message", opening)

    def _bot_sees(self, message: dict) -> bool:
        """In privacy mode a group's message reaches the bot only if it is a command (not one
        addressed to another bot), a reply to the bot, or mentions it."""
        if not self.privacy_mode or message["chat"]["type"] == "private":
            return True
        text = message.get("text", "")
        if text.startswith("/"):
            command = text.split()[0]
            return "@" not in command or command.endswith("@" + self.username)
        replied = message.get("reply_to_message") or {}
        return replied.get("from", {}).get("id") == BOT_ID or f"@{self.username}" in text

    async def migrate(self, old_id: int, new_id: int, user: dict, notify: bool = True) -> None:
        """A group becomes a supergroup with a new id; a send to the old id is then refused
        with migrate_to_chat_id. `notify=False`: the bot misses the service message."""
        chat = self._chats.get(old_id) or self.chat(old_id)
        message = {"message_id": next(self._message_ids), "date": int(time.time()), "chat": chat,
                   "from": user, "migrate_to_chat_id": new_id}
        self.chat(new_id, "supergroup", chat.get("title"))
        self._moved[old_id] = new_id
        if notify:
            await self._queue({"message": message})

    async def remove_bot(self, chat_id: int, by: dict, status: str = "kicked",
                         notify: bool = True) -> None:
        """The bot leaves a chat: an admin removes ("left") or bans ("kicked") it from a group,
        or a user blocks it in a private chat ("kicked"). Telegram then says so in a
        my_chat_member update (unless `notify` is False: an update the bot missed), answers
        whatever the bot sends there with 403, and delivers nothing more from the chat."""
        chat = self._chats.get(chat_id) or self.chat(chat_id)
        if chat["type"] == "private":
            why = "bot was blocked by the user"
        else:
            kind = "supergroup chat" if chat["type"] == "supergroup" else "group chat"
            why = f"bot was kicked from the {kind}" if status == "kicked" else \
                f"bot is not a member of the {kind}"
        self._refusing[chat_id] = f"Forbidden: {why}"
        old = self._bot_status.get(chat_id, "member")
        self._bot_status[chat_id] = status
        if notify:
            await self._membership(chat, by, old, status)

    async def add_bot(self, chat_id: int, by: dict, kind: str = "group",
                      status: str = "member") -> None:
        """Someone adds the bot to a group (or unblocks it, or changes its status there, as
        promoting it): a my_chat_member update, and the chat takes its messages again."""
        chat = self._chats.get(chat_id) or self.chat(chat_id, kind)
        self._users[by["id"]] = by
        old = self._bot_status.get(chat_id, "left")
        self._bot_status[chat_id] = status
        self._refusing.pop(chat_id, None)
        await self._membership(chat, by, old, status)

    async def _membership(self, chat: dict, by: dict, old: str, new: str) -> None:
        """A my_chat_member update: the bot's status in the chat changed from `old` to `new`."""
        await self._queue({"my_chat_member": {
            "chat": chat, "from": by, "date": int(time.time()),
            "old_chat_member": self._member(old), "new_chat_member": self._member(new)}})

    def _member(self, status: str) -> dict:
        """The bot as a ChatMember of that status, with the fields Telegram sends for it."""
        member: dict[str, Any] = {"status": status, "user": self.bot_user}
        if status == "kicked":
            member["until_date"] = 0
        elif status == "administrator":
            member.update(dict.fromkeys(ADMIN_RIGHTS, False), can_manage_chat=True)
        return member

    async def inline_query(self, user: dict, query: str, chat_type: str = "sender") -> str:
        """A user types `@bot query` in some chat; returns the query id to find the answer by."""
        query_id = str(next(self._query_ids))
        self._open_queries.add(query_id)
        await self._queue({"inline_query": {"id": query_id, "from": user, "query": query,
                                            "offset": "", "chat_type": chat_type}})
        return query_id

    async def press(self, chat_id: int, message_id: int, user: dict, data: str) -> str:
        """A user's client sends a button press on the bot's message with this callback data
        (any data: a modified client can forge it); returns the query id."""
        message = self._messages.get((chat_id, message_id))
        if message is None:
            raise KeyError(f"no message {message_id} in chat {chat_id}")
        self._users[user["id"]] = user
        query_id = str(next(self._query_ids))
        self._open_queries.add(query_id)
        await self._queue({"callback_query": {"id": query_id, "from": user, "message": message,
                                              "chat_instance": str(chat_id), "data": data}})
        return query_id

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str]]:
        """The (label, callback data) of the buttons a message shows now, row by row."""
        message = self._messages.get((chat_id, message_id)) or {}
        rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
        return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]

    async def press_button(self, chat_id: int, message_id: int, user: dict, label: str) -> str:
        """A user presses the button with this label (as a real client can: only one the
        message shows now); KeyError if it shows none; returns the query id."""
        for text, data in self.buttons(chat_id, message_id):
            if text == label and data:
                return await self.press(chat_id, message_id, user, data)
        raise KeyError(f"message {message_id} in chat {chat_id} has no button {label!r}")

    def callback_answer(self, query_id: str) -> CallbackAnswer | None:
        """What the bot answered to a button press (None: not yet)."""
        return next((a for a in self.callback_answers if a.query_id == query_id), None)

    # --- what the owner awaits ---------------------------------------------------------------

    async def wait_for(self, ready: Callable[[], bool], timeout: float) -> bool:
        """Wait until `ready()` holds (checked whenever something changes); False on timeout."""
        try:  # asyncio.timeout, not wait_for: on 3.11 wait_for runs the wait in another task,
            async with asyncio.timeout(timeout), self._changed:  # which may lose the lock
                await self._changed.wait_for(ready)
        except TimeoutError:
            return False
        return True

    async def replies(self, chat_id: int, count: int = 1, timeout: float = 15.0,
                      topic: int | None = None) -> list[Sent]:
        """Wait until the bot has sent `count` more messages to the chat (to one of its topics,
        if `topic` is given: 0 for General) than were read so far."""
        key = ("read", chat_id, topic)
        start = self._read.get(key, 0)

        def mine() -> list[Sent]:
            return [s for s in self.sent
                    if s.chat_id == chat_id and (topic is None or s.topic == topic)]

        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: len(mine()) >= start + count)
        self._read[key] = start + count
        return mine()[start:start + count]

    async def reply(self, chat_id: int, timeout: float = 15.0, topic: int | None = None) -> Sent:
        return (await self.replies(chat_id, 1, timeout, topic))[0]

    async def _queue(self, update: dict) -> None:
        update["update_id"] = next(self._update_ids)
        update["_queued_at"] = time.perf_counter()
        async with self._changed:
            self.updates.append(update)
            self.updates_log.append(update)
            self._changed.notify_all()

    async def _record(self, item: Any, into: list) -> None:
        async with self._changed:
            into.append(item)
            self._changed.notify_all()

    # --- the Bot API -------------------------------------------------------------------------

    async def call(self, method: str, params: dict) -> Any:
        """One Bot API method: its result, or TelegramError."""
        self.calls.append((method, params, time.perf_counter()))
        handler = getattr(self, f"api_{method.lower()}", None)
        if handler is None:
            raise TelegramError(404, "Not Found")
        return await handler(params)

    async def api_getme(self, params: dict) -> dict:
        return {**self.bot_user, "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": True}

    async def api_setmycommands(self, params: dict) -> bool:
        commands = _json(params.get("commands"))
        if not isinstance(commands, list) or not commands:
            raise TelegramError(400, "Bad Request: commands must be a non-empty array")
        language = str(params.get("language_code") or "")
        self.menus[language] = commands
        if not language:
            self.commands = commands
        return True

    async def api_getmycommands(self, params: dict) -> list:
        return self.menus.get(str(params.get("language_code") or ""), self.commands)

    async def api_setwebhook(self, params: dict) -> bool:
        """Recorded only: the owner posts updates to the webhook itself, as Telegram would."""
        if not str(params.get("url") or "").startswith("https://"):
            raise TelegramError(400, "Bad Request: bad webhook: An HTTPS URL must be provided "
                                     "for webhook")
        async with self._changed:
            self.webhook = {"url": params["url"], "secret_token": params.get("secret_token"),
                            "allowed_updates": _json(params.get("allowed_updates"))}
            self._changed.notify_all()
        return True

    async def api_deletewebhook(self, params: dict) -> bool:
        self.webhook = {}
        return True

    async def api_getupdates(self, params: dict) -> list:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        if "allowed_updates" in params:  # Telegram keeps the last list it was given
            allowed = _json(params["allowed_updates"])
            self._allowed = frozenset(allowed) if allowed else DEFAULT_UPDATE_TYPES
        async with self._changed:
            if offset:
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
            self.updates = [u for u in self.updates if self._wanted(u)]
            if not self.updates and timeout > 0 and not self._closing:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._changed.wait_for(self._has_updates)
                self.updates = [u for u in self.updates if self._wanted(u)]
            batch = self.updates[:limit]
        now = time.perf_counter()
        for update in batch:
            update.setdefault("_delivered_at", now)
        return [{k: v for k, v in u.items() if not k.startswith("_")} for u in batch]

    def _wanted(self, update: dict) -> bool:
        return any(key in self._allowed for key in update if not key.startswith("_")
                   and key != "update_id")

    def _has_updates(self) -> bool:
        return self._closing or any(self._wanted(u) for u in self.updates)

    async def api_sendmessage(self, params: dict) -> dict:
        chat_id = self._known_chat(params)
        raw, shown = _message_text(params)
        self._check_flood(chat_id)
        reply_to = params.get("reply_to_message_id")
        if params.get("reply_parameters"):
            reply_to = _json(params["reply_parameters"]).get("message_id")
        markup = _markup(params)
        message: dict[str, Any] = {
            "message_id": next(self._message_ids), "date": int(time.time()),
            "chat": self._chats[chat_id], "from": self.bot_user, "text": shown}
        if markup is not None:
            message["reply_markup"] = markup
        replied = self._messages.get((chat_id, int(reply_to))) if reply_to is not None else None
        if replied is not None:
            message["reply_to_message"] = replied
        forum = bool(self._chats[chat_id].get("is_forum"))
        topic = int(params.get("message_thread_id") or 0) or \
            ((replied or {}).get("message_thread_id") or 0 if forum else 0)
        if topic:
            if not forum:
                raise TelegramError(400, "Bad Request: message thread not found")
            self._in_topic(message, chat_id, topic)
        self._messages[(chat_id, message["message_id"])] = message
        self._written[(chat_id, message["message_id"])] = (raw, params.get("parse_mode"))
        await self._record(Sent(chat_id, message["message_id"], raw, shown,
                                int(reply_to) if reply_to is not None else None,
                                time.perf_counter(), params.get("parse_mode"), markup, topic),
                           self.sent)
        return message

    async def api_editmessagetext(self, params: dict) -> dict | bool:
        raw, shown = _message_text(params)
        markup = _markup(params)
        inline_id = params.get("inline_message_id")
        if inline_id:
            await self._record(Edit(None, None, str(inline_id), raw, shown, time.perf_counter(),
                                    params.get("parse_mode"), markup), self.edits)
            return True
        chat_id, message_id, message = self._editable(params)
        written = (raw, params.get("parse_mode"))
        if self._written.get((chat_id, message_id)) == written \
                and message.get("reply_markup") == markup:
            raise TelegramError(400, NOT_MODIFIED)
        self._written[(chat_id, message_id)] = written
        message.update(text=shown, edit_date=int(time.time()))
        message.pop("reply_markup", None)
        if markup is not None:
            message["reply_markup"] = markup
        await self._record(Edit(chat_id, message_id, None, raw, shown, time.perf_counter(),
                                params.get("parse_mode"), markup), self.edits)
        return message

    def _editable(self, params: dict) -> tuple[int, int, dict]:
        """The bot's own message that an edit names, as Telegram finds it or refuses."""
        chat_id = self._known_chat(params)
        message_id = int(params.get("message_id") or 0)
        message = self._messages.get((chat_id, message_id))
        if message is None:
            raise TelegramError(400, "Bad Request: message to edit not found")
        if message["from"]["id"] != BOT_ID:
            raise TelegramError(400, "Bad Request: message can't be edited")
        return chat_id, message_id, message

    async def api_editmessagereplymarkup(self, params: dict) -> dict:
        """New buttons for a message of the bot; without reply_markup, none."""
        markup = _markup(params)
        chat_id, message_id, message = self._editable(params)
        if message.get("reply_markup") == markup:
            raise TelegramError(400, NOT_MODIFIED)
        message.pop("reply_markup", None)
        if markup is not None:
            message["reply_markup"] = markup
        await self._record(MarkupEdit(chat_id, message_id, markup, time.perf_counter()),
                           self.markup_edits)
        return message

    async def api_answerinlinequery(self, params: dict) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        results = _json(params.get("results"))
        if not isinstance(results, list):
            raise TelegramError(400, "Bad Request: can't parse inline query results JSON object")
        if len(results) > INLINE_RESULTS_LIMIT:
            raise TelegramError(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = []
        for result in results:
            if not isinstance(result, dict) or "type" not in result:
                raise TelegramError(400, "Bad Request: can't parse inline query result")
            result_id = str(result.get("id", ""))
            if not 1 <= len(result_id.encode()) <= 64:
                raise TelegramError(400, "Bad Request: RESULT_ID_INVALID")
            ids.append(result_id)
            content = result.get("input_message_content")
            if isinstance(content, dict) and "message_text" in content:
                _message_text({"text": content["message_text"],
                               "parse_mode": content.get("parse_mode")})
        if len(set(ids)) != len(ids):
            raise TelegramError(400, "Bad Request: RESULT_ID_DUPLICATE")
        if query_id not in self._open_queries:
            raise TelegramError(400, QUERY_INVALID)
        self._open_queries.discard(query_id)
        await self._record(InlineAnswer(query_id, results, params, time.perf_counter()),
                           self.inline_answers)
        return True

    async def api_answercallbackquery(self, params: dict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        text = params.get("text") or None
        if text is not None and len(text) > CALLBACK_TEXT_LIMIT:
            raise TelegramError(400, "Bad Request: MESSAGE_TOO_LONG")
        if query_id not in self._open_queries:
            raise TelegramError(400, QUERY_INVALID)
        self._open_queries.discard(query_id)
        show_alert = str(params.get("show_alert", "")).lower() in ("true", "1")
        await self._record(CallbackAnswer(query_id, text, show_alert, time.perf_counter()),
                           self.callback_answers)
        return True

    async def api_setmessagereaction(self, params: dict) -> bool:
        chat_id = self._known_chat(params)
        message_id = int(params.get("message_id") or 0)
        if (chat_id, message_id) not in self._messages:
            raise TelegramError(400, "Bad Request: message to react not found")
        reaction = _json(params.get("reaction")) or []
        if not isinstance(reaction, list) or len(reaction) > 1:
            raise TelegramError(400, "Bad Request: REACTIONS_TOO_MANY")
        emoji = ""
        for kind in reaction:
            emoji = kind.get("emoji", "") if isinstance(kind, dict) else ""
            if not isinstance(kind, dict) or kind.get("type") != "emoji" \
                    or emoji not in ALLOWED_REACTIONS:
                raise TelegramError(400, "Bad Request: REACTION_INVALID")
        if chat_id in self.no_reactions and emoji:
            raise TelegramError(400, "Bad Request: REACTION_INVALID")
        await self._record(Reaction(chat_id, message_id, emoji, time.perf_counter()),
                           self.reactions)
        return True

    def _known_chat(self, params: dict) -> int:
        try:
            chat_id = int(params.get("chat_id", 0))
        except (TypeError, ValueError):
            raise TelegramError(400, "Bad Request: chat not found") from None
        if chat_id in self._moved:
            raise TelegramError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                                migrate_to=self._moved[chat_id])
        if chat_id in self._refusing:
            raise TelegramError(403, self._refusing[chat_id])
        if chat_id not in self._chats:
            if not self.open_chats:
                raise TelegramError(400, "Bad Request: chat not found")
            self.chat(chat_id, "private" if chat_id > 0 else "group", None)
        return chat_id

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
        return self._chats[self._known_chat(params)]

    async def api_getchatmember(self, params: dict) -> dict:
        chat_id = self._known_chat(params)
        try:
            user_id = int(params.get("user_id", 0))
        except (TypeError, ValueError):
            raise TelegramError(400, "Bad Request: invalid user_id specified") from None
        user = self._users.get(user_id) or {"id": user_id, "is_bot": False, "first_name": "User"}
        status = self._statuses.get((chat_id, user_id), "member")
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member.update(dict.fromkeys(ADMIN_RIGHTS, False), can_manage_chat=True)
        return member


def _message_text(params: dict) -> tuple[str, str]:
    """The text as sent and as the chat shows it; TelegramError where Telegram refuses it."""
    raw = params.get("text", "")
    shown = raw
    if params.get("parse_mode") == "HTML":
        try:
            shown = visible_text(raw)
        except EntityError as error:
            raise TelegramError(400, f"Bad Request: can't parse entities: {error}") from None
    if not shown.strip():
        raise TelegramError(400, "Bad Request: message text is empty")
    if len(shown.encode("utf-16-le")) // 2 > TEXT_LIMIT:  # Telegram counts UTF-16 code units
        raise TelegramError(400, "Bad Request: message is too long")
    return raw, shown


def _markup(params: dict) -> dict | None:
    """A message's inline keyboard, checked as Telegram checks it (None: no keyboard); an empty
    one counts as none, as Telegram takes it."""
    if not params.get("reply_markup"):
        return None
    markup = _json(params["reply_markup"])
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


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class _Handler(tornado.web.RequestHandler):
    def initialize(self, emulator: BotApiEmulator) -> None:
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
            result = await self.emulator.call(method, self._params())
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
