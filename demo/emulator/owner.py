"""The emulator as its owner (a test, the demo) drives it: start and stop the server, make chats,
people and topics, write as users, press buttons, change the bot's membership, and await what
the bot sent."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from demo.emulator.bot_api_10 import BotApi10
from demo.emulator.records import (
    ADMIN_RIGHTS,
    BOT_ID,
    CallbackAnswer,
    InlineAnswer,
    Sent,
    TelegramError,
)
from demo.emulator.wire import Handler


@dataclass
class BotApiEmulator(BotApi10):
    """Start with `await emulator.start()`; `emulator.base_url` goes into TELEGRAM_BASE_URL."""

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on an ephemeral port of 127.0.0.1."""
        app = tornado.web.Application([(r"/bot([^/]+)/(\w+)", Handler, {"emulator": self})])
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

    # --- what the owner does: people, chats and what they write ------------------------------

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

    def leave(self, chat_id: int, user_id: int) -> None:
        """The user is not (or no longer) in the chat: getChatMember says "left"."""
        self._left.add((chat_id, user_id))
        self._statuses.pop((chat_id, user_id), None)

    async def member_changes(self, chat_id: int, user: dict, status: str,
                             by: dict | None = None) -> None:
        """A user's status in a group changes (they join: "member", leave: "left", are banned
        by `by`: "kicked", promoted...): getChatMember says so from now on, and a bot that is
        an admin there is told in a chat_member update (Telegram sends those to admins alone,
        and only when asked for in allowed_updates)."""
        chat = self._chats.get(chat_id) or self.chat(chat_id)
        self._users[user["id"]] = user
        key = (chat_id, user["id"])
        old = self._statuses.get(key) or ("left" if key in self._left else "member")
        self._left.discard(key)
        self._statuses.pop(key, None)
        if status in ("left", "kicked"):
            self._left.add(key)
        elif status != "member":
            self._statuses[key] = status
        if self._bot_status.get(chat_id) in ("administrator", "creator"):
            await self._queue({"chat_member": {
                "chat": chat, "from": by or user, "date": int(time.time()),
                "old_chat_member": self._member(old, user),
                "new_chat_member": self._member(status, user)}})

    def promote(self, chat_id: int, user_id: int, status: str = "administrator") -> None:
        """Make a user the chat's "creator" or an "administrator" ("member" demotes them)."""
        if status == "member":
            self._statuses.pop((chat_id, user_id), None)
        else:
            self._statuses[(chat_id, user_id)] = status

    def message(self, chat_id: int, message_id: int) -> dict | None:
        """A message of the chat, or an ephemeral one, as Telegram would send it in an update
        (None if unknown)."""
        return self._messages.get((chat_id, message_id)) or \
            self._ephemeral.get((chat_id, message_id))

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
        if self.is_ephemeral_command(chat, user, text):
            return await self._say_ephemeral(message, topic, reply_to)
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

    async def _say_ephemeral(self, message: dict, topic: int | None,
                             reply_to: int | None) -> dict:
        """A command its sender's list declares ephemeral (Bot API 10.2): seen by its sender
        and the bot alone, never in the chat's history, carrying its ephemeral_message_id (the
        emulator gives it the same number as message_id) and its receiver, the bot. Answering
        it opens the 15 seconds in which any bot may answer its sender alone."""
        chat_id = message["chat"]["id"]
        message.update(ephemeral_message_id=message["message_id"], receiver_user=self.bot_user)
        if message["chat"].get("is_forum"):
            original = self._messages.get((chat_id, reply_to)) if reply_to is not None else None
            topic = topic or (original or {}).get("message_thread_id")
        if topic:
            if (chat_id, topic) not in self._topics:
                raise TelegramError(400, "Bad Request: message thread not found")
            message.update(message_thread_id=topic, is_topic_message=True)
        self._ephemeral[(chat_id, message["message_id"])] = message
        self._actions[(chat_id, message["message_id"])] = (message["from"]["id"],
                                                           time.monotonic())
        if chat_id not in self._refusing:
            await self._queue({"message": message})
        return message

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

    def _member(self, status: str, user: dict | None = None) -> dict:
        """The bot (or `user`) as a ChatMember of that status, with the fields Telegram sends
        for it."""
        member: dict[str, Any] = {"status": status, "user": user or self.bot_user}
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
        ephemeral = self._ephemeral.get((chat_id, message_id)) if message is None else None
        if ephemeral is not None and ephemeral["receiver_user"]["id"] == user["id"]:
            message = ephemeral  # only its receiver sees it, and can press its buttons
        if message is None:
            raise KeyError(f"no message {message_id} in chat {chat_id} that "
                           f"{user['first_name']} sees")
        self._users[user["id"]] = user
        query_id = str(next(self._query_ids))
        self._open_queries.add(query_id)
        self._presses[query_id] = (chat_id, user["id"], time.monotonic(), message is ephemeral)
        await self._queue({"callback_query": {"id": query_id, "from": user, "message": message,
                                              "chat_instance": str(chat_id), "data": data}})
        return query_id

    def keyboard(self, chat_id: int, message_id: int) -> list[dict]:
        """The buttons a message shows now (a chat's, or an ephemeral one's), row by row, as
        Telegram's InlineKeyboardButton objects (a link's `url`, a Mini App's `web_app`, a
        press's `callback_data`...)."""
        message = self._messages.get((chat_id, message_id)) or \
            self._ephemeral.get((chat_id, message_id)) or {}
        rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str]]:
        """The (label, callback data) of the buttons a message shows now, row by row (""
        for a button that sends no press: a link, a Mini App, a share)."""
        return [(b["text"], b.get("callback_data", ""))
                for b in self.keyboard(chat_id, message_id)]

    async def press_button(self, chat_id: int, message_id: int, user: dict, label: str) -> str:
        """A user presses the button with this label (as a real client can: only one the
        message shows now); KeyError if it shows none; returns the query id."""
        for text, data in self.buttons(chat_id, message_id):
            if text == label and data:
                return await self.press(chat_id, message_id, user, data)
        raise KeyError(f"message {message_id} in chat {chat_id} has no button {label!r}")

    def inline_answer(self, query_id: str) -> InlineAnswer | None:
        """What the bot answered to an inline query (None: not yet)."""
        return next((a for a in self.inline_answers if a.query_id == query_id), None)

    def callback_answer(self, query_id: str) -> CallbackAnswer | None:
        """What the bot answered to a button press (None: not yet)."""
        return next((a for a in self.callback_answers if a.query_id == query_id), None)

    # --- what the owner awaits ---------------------------------------------------------------

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
