"""The emulator's memory: chats, people, messages, the bot's membership and the update queue,
with the few operations both sides use (make a chat known, queue an update, record a call)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from demo.emulator.records import (
    BOT_ID,
    BOT_NAME,
    BOT_USERNAME,
    DEFAULT_UPDATE_TYPES,
    EPHEMERAL_WINDOW,
    CallbackAnswer,
    Deletion,
    Edit,
    FloodLimits,
    InlineAnswer,
    MarkupEdit,
    Reaction,
    Request,
    Sent,
    TelegramError,
)


@dataclass
class EmulatorState:
    """The chats, people, messages and updates the two sides share: the owner writes them (users'
    messages, presses) and the Bot API methods read and answer them."""

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
    journal: list[Request] = field(default_factory=list)  # every request, with its caller
    commands: list[dict] = field(default_factory=list)  # the default menu
    menus: dict[str, list[dict]] = field(default_factory=dict)  # by language code ("" default)
    # every list setMyCommands set: by scope (("all_group_chats",), ("chat", id)...) and language
    scoped_menus: dict[tuple[tuple, str], list[dict]] = field(default_factory=dict)
    deletions: list[Deletion] = field(default_factory=list)  # ephemeral messages deleted
    refuse_ephemeral: bool = False  # True: every ephemeral send is refused (an older Telegram)
    refuse_rich: bool = False  # True: every rich message is refused
    ephemeral_window: float = EPHEMERAL_WINDOW  # seconds after a press or an ephemeral message
    descriptions: dict[str, str] = field(default_factory=dict)  # setMyDescription, the same way
    short_descriptions: dict[str, str] = field(default_factory=dict)  # setMyShortDescription
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
        self._left: set[tuple[int, int]] = set()  # (chat, user): left it
        self._messages: dict[tuple[int, int], dict] = {}
        self._written: dict[tuple[int, int], tuple[str, str | None]] = {}  # bot's: (raw, mode)
        self._topics: dict[tuple[int, int], dict] = {}  # (chat, topic id): its opening message
        # ephemeral messages (a user's ephemeral command, the bot's to one receiver), apart from
        # the chat's: (chat, ephemeral id) -> the message, which carries its receiver
        self._ephemeral: dict[tuple[int, int], dict] = {}
        # the actions a bot may answer ephemerally, and when: a user's ephemeral message by
        # (chat, its id), a press by query id -> (chat, user, when, pressed on an ephemeral)
        self._actions: dict[tuple[int, int], tuple[int, float]] = {}
        self._presses: dict[str, tuple[int, int, float, bool]] = {}
        self._open_queries: set[str] = set()  # inline and callback queries not yet answered
        self._allowed: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._refusing: dict[int, str] = {}  # chats the bot is not in: Telegram's 403 there
        self._moved: dict[int, int] = {}  # migrated groups: old id -> the supergroup's id
        self._bot_status: dict[int, str] = {}  # the bot's status where add/remove_bot set it
        self._server: tornado.httpserver.HTTPServer | None = None
        self._closing = False
        self._in_flight = 0  # requests being answered
        self.flood_errors = 0
        # a slow network: a method's calls are done at once (a message sent reaches the chat)
        # and answered only after these seconds, when the bot may have given up waiting
        self.stalls: dict[str, float] = {}
        # bot processes (pids) whose getUpdates that would confirm an update is held until the
        # emulator stops and never confirms it: a poller stopped after it published a batch and
        # before Telegram forgot it, at a point no signal's timing could pick
        self.confirms_held: set[int] = set()
        self.held: list[tuple[int | None, int]] = []  # (pid, offset): each poll held

    @property
    def bot_user(self) -> dict:
        return {"id": BOT_ID, "is_bot": True, "first_name": BOT_NAME, "username": self.username}


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

    def _in_topic(self, message: dict, chat_id: int, topic: int) -> None:
        """Put a message in a forum topic, as Telegram does: it carries the topic's id, and
        when it replies to nothing else, it replies to the topic's opening message."""
        opening = self._topics.get((chat_id, topic))
        if opening is None:
            raise TelegramError(400, "Bad Request: message thread not found")
        message["message_thread_id"] = topic
        message["is_topic_message"] = True
        message.setdefault("reply_to_message", opening)

    # --- what the owner awaits ---------------------------------------------------------------

    async def wait_for(self, ready: Callable[[], bool], timeout: float) -> bool:
        """Wait until `ready()` holds (checked whenever something changes); False on timeout."""
        try:  # asyncio.timeout, not wait_for: on 3.11 wait_for runs the wait in another task,
            async with asyncio.timeout(timeout), self._changed:  # which may lose the lock
                await self._changed.wait_for(ready)
        except TimeoutError:
            return False
        return True

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
