"""What Bot API 10.1 to 10.3 added, as the emulator answers it: command lists by scope (what makes a
user's command ephemeral), ephemeral messages (seen by their receiver alone; sent, edited and
deleted with their own methods, within 15 seconds of the action they answer unless the bot is an
admin), and rich messages with mathematical blocks. `refuse_ephemeral` and `refuse_rich` make it
refuse every ephemeral send and every rich message, as a Telegram without them would.

Telegram's pages give the rules, not every error's wording: the descriptions of the refusals below
are the emulator's own, in Telegram's shape ("Bad Request: ...") (docs/bot-api.md).
"""

from __future__ import annotations

import time
from typing import Any

from demo.emulator.bot_api import CALLER, BotApi
from demo.emulator.records import BOT_ID, NOT_MODIFIED, Deletion, Edit, Sent, TelegramError
from demo.emulator.wire import json_param, markup_of, message_text

GROUPS = ("group", "supergroup")
ADMINS = ("creator", "administrator")
BLOCKS = {"paragraph": "text", "mathematical_expression": "expression"}  # what the bot sends
NO_EPHEMERAL = "Bad Request: ephemeral messages can't be sent to this chat"
NO_RICH = "Bad Request: rich messages can't be sent to this chat"


def scope_of(params: dict) -> tuple:
    """A BotCommandScope as a key: ("default",), ("all_group_chats",), ("chat", id),
    ("chat_administrators", id), ..."""
    scope = json_param(params.get("scope")) or {"type": "default"}
    if not isinstance(scope, dict) or not isinstance(scope.get("type"), str):
        raise TelegramError(400, "Bad Request: can't parse BotCommandScope JSON object")
    kind = scope["type"]
    if kind in ("chat", "chat_administrators", "chat_member"):
        chat = int(scope.get("chat_id") or 0)
        return (kind, chat, int(scope.get("user_id") or 0)) if kind == "chat_member" \
            else (kind, chat)
    return (kind,)


class BotApi10(BotApi):
    """Telegram's side of Bot API 10.1 to 10.3, over the methods of 10.0."""

    async def api_sendmessage(self, params: dict) -> dict:
        if not params.get("ephemeral_message_parameters"):
            return await super().api_sendmessage(params)
        chat_id = self._known_chat(params)
        self._check_flood(chat_id)
        return await self.send_ephemeral_text(params, chat_id)

    async def api_editmessagetext(self, params: dict) -> dict | bool:
        if not params.get("rich_message"):
            return await super().api_editmessagetext(params)
        rich, shown = self.rich_of(params)
        chat_id, message_id, message = self._editable(params)
        markup = markup_of(params)
        if message.get("rich_message") == rich and message.get("reply_markup") == markup:
            raise TelegramError(400, NOT_MODIFIED)
        for key in ("text", "rich_message", "reply_markup"):
            message.pop(key, None)
        message.update(rich_message=rich, edit_date=int(time.time()))
        if markup is not None:
            message["reply_markup"] = markup
        self._written.pop((chat_id, message_id), None)
        await self._record(Edit(chat_id, message_id, None, shown, shown, time.perf_counter(),
                                None, markup, rich=rich), self.edits)
        return message

    # --- command lists by scope ----------------------------------------------------------------

    async def api_setmycommands(self, params: dict) -> bool:
        done = await super().api_setmycommands(params)
        commands = json_param(params.get("commands"))
        for line in commands:
            if not isinstance(line, dict) or not isinstance(line.get("is_ephemeral", False),
                                                             bool):
                raise TelegramError(400, "Bad Request: can't parse BotCommand JSON object")
        self.scoped_menus[(scope_of(params), str(params.get("language_code") or ""))] = commands
        return done

    async def api_deletemycommands(self, params: dict) -> bool:
        self.scoped_menus.pop((scope_of(params), str(params.get("language_code") or "")), None)
        return True

    def commands_for(self, chat: dict, user: dict) -> list[dict]:
        """The command list a user sees in a chat: the first scope that has one, narrowest
        first, in the user's language or else the list without one (as Telegram picks it)."""
        chat_id, user_id = chat["id"], user["id"]
        admin = self._statuses.get((chat_id, user_id)) in ADMINS
        if chat["type"] == "private":
            order: list[tuple] = [("chat", chat_id), ("all_private_chats",)]
        else:
            order = [("chat_member", chat_id, user_id)]
            order += [("chat_administrators", chat_id)] if admin else []
            order += [("chat", chat_id)]
            order += [("all_chat_administrators",)] if admin else []
            order += [("all_group_chats",)]
        language = str(user.get("language_code") or "")[:2]
        for scope in [*order, ("default",)]:
            for code in (language, ""):
                if (scope, code) in self.scoped_menus:
                    return self.scoped_menus[(scope, code)]
        return []

    def is_ephemeral_command(self, chat: dict, user: dict, text: str) -> bool:
        """Whether the user's message is a command their list declares ephemeral there."""
        if chat["type"] not in GROUPS or not text.startswith("/"):
            return False
        name, _, addressee = text.split()[0][1:].partition("@")
        if addressee and addressee != self.username:
            return False
        return any(line.get("command") == name and line.get("is_ephemeral")
                   for line in self.commands_for(chat, user))

    # --- ephemeral messages --------------------------------------------------------------------

    def _whispered(self, chat_id: int, params: dict) -> tuple[int, int | None] | None:
        """The receiver of an ephemeral send, and the ephemeral message it answers (None: not an
        ephemeral send); TelegramError where Telegram would refuse it."""
        given = json_param(params.get("ephemeral_message_parameters"))
        if not given:
            return None
        if self.refuse_ephemeral:
            raise TelegramError(400, NO_EPHEMERAL)
        if not isinstance(given, dict) or not isinstance(given.get("receiver_user_id"), int):
            raise TelegramError(400, "Bad Request: can't parse EphemeralMessageParameters")
        if self._chats[chat_id]["type"] not in GROUPS:  # "for group and supergroup chats only"
            raise TelegramError(400, NO_EPHEMERAL)
        receiver = given["receiver_user_id"]
        if receiver == BOT_ID or self._users.get(receiver, {}).get("is_bot"):
            raise TelegramError(400, "Bad Request: the receiver can't be a bot")
        replied = json_param(params.get("reply_parameters")) or {}
        answers = replied.get("ephemeral_message_id") if isinstance(replied, dict) else None
        if not self._eligible(chat_id, receiver, given, answers):
            raise TelegramError(400, "Bad Request: no eligible action to answer with an "
                                     "ephemeral message")
        return receiver, answers

    def _eligible(self, chat_id: int, receiver: int, given: dict, answers: Any) -> bool:
        """An ephemeral message answers the receiver's press or ephemeral message of the last
        15 seconds, or comes from an admin bot (at any time)."""
        now = time.monotonic()
        query = given.get("callback_query_id")
        if query is not None:
            press = self._presses.get(str(query))
            if press is None or press[:2] != (chat_id, receiver) or \
                    now - press[2] > self.ephemeral_window:
                return False
            if given.get("replace_callback_query_message") and press[3]:
                raise TelegramError(400, "Bad Request: a press on an ephemeral message can't "
                                         "be answered in place of it")
            return True
        if answers is not None:
            action = self._actions.get((chat_id, int(answers)))
            return action is not None and action[0] == receiver and \
                now - action[1] <= self.ephemeral_window
        return self._bot_status.get(chat_id) == "administrator"

    async def send_ephemeral_text(self, params: dict, chat_id: int) -> dict:
        whispered = self._whispered(chat_id, params)
        assert whispered is not None
        raw, shown = message_text(params)
        message = self._ephemeral_message(chat_id, params, whispered[0], {"text": shown})
        await self._record(Sent(chat_id, message["message_id"], raw, shown, None,
                                time.perf_counter(), params.get("parse_mode"),
                                message.get("reply_markup"),
                                int(params.get("message_thread_id") or 0),
                                receiver=whispered[0], reply_to_ephemeral=whispered[1]),
                           self.sent)
        return message

    def _ephemeral_message(self, chat_id: int, params: dict, receiver: int,
                           content: dict) -> dict:
        """The bot's ephemeral message to `receiver`, kept apart from the chat's."""
        number = next(self._message_ids)
        message: dict[str, Any] = {
            "message_id": number, "ephemeral_message_id": number, "date": int(time.time()),
            "chat": self._chats[chat_id], "from": self.bot_user,
            "receiver_user": self._users.get(receiver) or {"id": receiver, "is_bot": False,
                                                           "first_name": "User"}, **content}
        if (markup := markup_of(params)) is not None:
            message["reply_markup"] = markup
        if topic := int(params.get("message_thread_id") or 0):
            message.update(message_thread_id=topic, is_topic_message=True)
        self._ephemeral[(chat_id, number)] = message
        return message

    def _bots_ephemeral(self, params: dict) -> tuple[int, int, dict]:
        """The bot's ephemeral message an edit or a delete names, or Telegram's refusal."""
        chat_id = self._known_chat(params)
        number = int(params.get("ephemeral_message_id") or 0)
        message = self._ephemeral.get((chat_id, number))
        receiver = params.get("receiver_user_id")
        if message is None or message["from"]["id"] != BOT_ID or \
                str(message["receiver_user"]["id"]) != str(receiver):
            raise TelegramError(400, "Bad Request: ephemeral message not found")
        return chat_id, number, message

    async def api_editephemeralmessagetext(self, params: dict) -> bool:
        chat_id, number, message = self._bots_ephemeral(params)
        markup = markup_of(params)
        rich: dict | None = None
        content: dict[str, Any]
        if params.get("rich_message"):
            rich, shown = self.rich_of(params)
            raw, mode, content = shown, None, {"rich_message": rich}
        else:
            raw, shown = message_text(params)
            mode, content = params.get("parse_mode"), {"text": shown}
        if all(message.get(k) == v for k, v in content.items()) and \
                message.get("reply_markup") == markup:
            raise TelegramError(400, NOT_MODIFIED)
        for key in ("text", "rich_message", "reply_markup"):
            message.pop(key, None)
        message.update(content, edit_date=int(time.time()))
        if markup is not None:
            message["reply_markup"] = markup
        await self._record(Edit(chat_id, number, None, raw, shown, time.perf_counter(), mode,
                                markup, receiver=message["receiver_user"]["id"], rich=rich),
                           self.edits)
        return True

    async def api_editephemeralmessagereplymarkup(self, params: dict) -> bool:
        _, _, message = self._bots_ephemeral(params)
        markup = markup_of(params)
        if message.get("reply_markup") == markup:
            raise TelegramError(400, NOT_MODIFIED)
        message.pop("reply_markup", None)
        if markup is not None:
            message["reply_markup"] = markup
        return True

    async def api_deleteephemeralmessage(self, params: dict) -> bool:
        chat_id, number, message = self._bots_ephemeral(params)
        del self._ephemeral[(chat_id, number)]
        await self._record(Deletion(chat_id, number, message["receiver_user"]["id"],
                                    time.perf_counter()), self.deletions)
        return True

    # --- rich messages -------------------------------------------------------------------------

    def rich_of(self, params: dict) -> tuple[dict, str]:
        """An InputRichMessage as Telegram checks it (the kinds of block the bot sends), and its
        text: a line a block."""
        if self.refuse_rich:
            raise TelegramError(400, NO_RICH)
        rich = json_param(params.get("rich_message"))
        if not isinstance(rich, dict) or \
                sum(1 for key in ("html", "markdown", "blocks") if rich.get(key)) != 1:
            raise TelegramError(400, "Bad Request: exactly one of html, markdown and blocks "
                                     "must be specified")
        blocks = rich.get("blocks")
        if not isinstance(blocks, list):
            raise TelegramError(400, "Bad Request: the emulator reads only blocks")
        lines = []
        for block in blocks:
            field = BLOCKS.get(str(block.get("type"))) if isinstance(block, dict) else None
            body = block.get(field) if field else None
            if not isinstance(body, str) or not body.strip():
                raise TelegramError(400, "Bad Request: can't parse InputRichBlock")
            lines.append(body)
        return rich, "\n".join(lines)

    async def api_sendrichmessage(self, params: dict) -> dict:
        chat_id = self._known_chat(params)
        rich, shown = self.rich_of(params)
        self._check_flood(chat_id)
        whispered = self._whispered(chat_id, params)
        topic = int(params.get("message_thread_id") or 0)
        if whispered is not None:
            message = self._ephemeral_message(chat_id, params, whispered[0],
                                              {"rich_message": rich})
            await self._record(Sent(chat_id, message["message_id"], shown, shown, None,
                                    time.perf_counter(), None, message.get("reply_markup"),
                                    topic, CALLER.get(), receiver=whispered[0],
                                    reply_to_ephemeral=whispered[1], rich=rich,
                                    method="sendRichMessage"), self.sent)
            return message
        replied = json_param(params.get("reply_parameters")) or {}
        reply_to = replied.get("message_id") if isinstance(replied, dict) else None
        message = {"message_id": next(self._message_ids), "date": int(time.time()),
                   "chat": self._chats[chat_id], "from": self.bot_user, "rich_message": rich}
        if (markup := markup_of(params)) is not None:
            message["reply_markup"] = markup
        if topic:
            self._in_topic(message, chat_id, topic)
        self._messages[(chat_id, message["message_id"])] = message
        await self._record(Sent(chat_id, message["message_id"], shown, shown,
                                int(reply_to) if reply_to is not None else None,
                                time.perf_counter(), None, markup, topic, CALLER.get(),
                                rich=rich, method="sendRichMessage"), self.sent)
        return message

    # --- what the owner reads ------------------------------------------------------------------

    def seen_by(self, chat_id: int, user_id: int) -> list[Sent]:
        """What the bot sent to the chat that this user sees: the chat's messages, and the
        ephemeral ones sent to them."""
        return [s for s in self.sent if s.chat_id == chat_id and s.receiver in (None, user_id)]
