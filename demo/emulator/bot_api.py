"""The Bot API methods as the bot calls them: each `api_<method>` checks what Telegram checks,
changes the shared state and answers with Telegram's result or error."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from typing import Any

from demo.emulator.records import (
    ADMIN_RIGHTS,
    ALLOWED_REACTIONS,
    BOT_ID,
    CALLBACK_TEXT_LIMIT,
    DEFAULT_UPDATE_TYPES,
    INLINE_RESULTS_LIMIT,
    NOT_MODIFIED,
    QUERY_INVALID,
    CallbackAnswer,
    Edit,
    InlineAnswer,
    MarkupEdit,
    Reaction,
    Request,
    Sent,
    TelegramError,
)
from demo.emulator.state import EmulatorState
from demo.emulator.wire import json_param, markup_of, message_text

# the pid of the bot process whose request is being answered (each request is a task of its own)
CALLER: contextvars.ContextVar[int | None] = contextvars.ContextVar("caller", default=None)


class BotApi(EmulatorState):
    """Telegram's side of each call the bot makes."""

    async def call(self, method: str, params: dict, agent: str = "") -> Any:
        """One Bot API method: its result, or TelegramError. `agent`: the caller's
        User-Agent, kept in the journal."""
        self.journal.append(Request(time.time(), method, agent))
        CALLER.set(self.journal[-1].pid)
        self.calls.append((method, params, time.perf_counter()))
        handler = getattr(self, f"api_{method.lower()}", None)
        if handler is None:
            raise TelegramError(404, "Not Found")
        answer = await handler(params)
        if self.stalls.get(method.lower()):
            await asyncio.sleep(self.stalls[method.lower()])
        return answer

    async def api_getme(self, params: dict) -> dict:
        return {**self.bot_user, "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": True}

    async def api_setmycommands(self, params: dict) -> bool:
        commands = json_param(params.get("commands"))
        if not isinstance(commands, list) or not commands:
            raise TelegramError(400, "Bad Request: commands must be a non-empty array")
        language = str(params.get("language_code") or "")
        self.menus[language] = commands
        if not language:
            self.commands = commands
        return True

    async def api_getmycommands(self, params: dict) -> list:
        return self.menus.get(str(params.get("language_code") or ""), self.commands)

    async def api_setmydescription(self, params: dict) -> bool:
        self.descriptions[_language_code(params)] = _description(params, "description", 512)
        return True

    async def api_setmyshortdescription(self, params: dict) -> bool:
        self.short_descriptions[_language_code(params)] = _description(
            params, "short_description", 120)
        return True

    async def api_getmydescription(self, params: dict) -> dict:
        return {"description": self.descriptions.get(_language_code(params), "")}

    async def api_getmyshortdescription(self, params: dict) -> dict:
        return {"short_description": self.short_descriptions.get(_language_code(params), "")}

    async def api_setwebhook(self, params: dict) -> bool:
        """Recorded only: the owner posts updates to the webhook itself, as Telegram would."""
        if not str(params.get("url") or "").startswith("https://"):
            raise TelegramError(400, "Bad Request: bad webhook: An HTTPS URL must be provided "
                                     "for webhook")
        async with self._changed:
            self.webhook = {"url": params["url"], "secret_token": params.get("secret_token"),
                            "allowed_updates": json_param(params.get("allowed_updates"))}
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
            allowed = json_param(params["allowed_updates"])
            self._allowed = frozenset(allowed) if allowed else DEFAULT_UPDATE_TYPES
        if offset and CALLER.get() in self.confirms_held and self._confirmable(offset):
            self.held.append((CALLER.get(), offset))
            async with self._changed:  # held, never applied
                await self._changed.wait_for(lambda: self._closing)
            return []
        async with self._changed:
            if offset and self._confirm(offset):
                self._changed.notify_all()  # a wait for the updates to be taken ends here
            batch = self._batch(limit)
            if not batch and timeout > 0 and not self._closing:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._changed.wait_for(self._has_updates)
                batch = self._batch(limit)
        now = time.perf_counter()
        for update in batch:
            update.setdefault("_delivered_at", now)
        return [{k: v for k, v in u.items() if not k.startswith("_")} for u in batch]

    def _confirmable(self, offset: int) -> bool:
        return bool(self.updates) and self.updates[0]["update_id"] < offset

    def _confirm(self, offset: int) -> int:
        """Forget the updates the bot confirmed (those before `offset`); how many. They are
        made in id order, so only the front of the list is read: a backlog of twenty thousand
        read whole at each of a bot's three thousand polls cost the tests' process a minute and
        a half."""
        confirmed = 0
        for update in self.updates:
            if update["update_id"] >= offset:
                break
            confirmed += 1
        del self.updates[:confirmed]
        return confirmed

    def _batch(self, limit: int) -> list[dict]:
        """The first `limit` updates of the kinds the bot asked for; those of other kinds met
        on the way are dropped (Telegram does not keep them for a later list)."""
        batch: list[dict] = []
        read = 0
        for update in self.updates:
            if len(batch) == limit:
                break
            read += 1
            if self._wanted(update):
                batch.append(update)
        self.updates[:read] = batch
        return batch

    def _wanted(self, update: dict) -> bool:
        return any(key in self._allowed for key in update if not key.startswith("_")
                   and key != "update_id")

    def _has_updates(self) -> bool:
        return self._closing or any(self._wanted(u) for u in self.updates)

    async def api_sendmessage(self, params: dict) -> dict:
        chat_id = self._known_chat(params)
        raw, shown = message_text(params)
        self._check_flood(chat_id)
        reply_to = params.get("reply_to_message_id")
        if params.get("reply_parameters"):
            reply_to = json_param(params["reply_parameters"]).get("message_id")
        markup = markup_of(params)
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
                                time.perf_counter(), params.get("parse_mode"), markup, topic,
                                CALLER.get()),
                           self.sent)
        return message

    async def api_editmessagetext(self, params: dict) -> dict | bool:
        raw, shown = message_text(params)
        markup = markup_of(params)
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
        markup = markup_of(params)
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
        results = json_param(params.get("results"))
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
                message_text({"text": content["message_text"],
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
        reaction = json_param(params.get("reaction")) or []
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
        status = self._statuses.get((chat_id, user_id)) or \
            ("left" if (chat_id, user_id) in self._left else "member")
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member.update(dict.fromkeys(ADMIN_RIGHTS, False), can_manage_chat=True)
        return member


def _language_code(params: dict) -> str:
    """A method's language_code: empty for everyone, else two letters (ISO 639-1), as Telegram
    takes it."""
    language = str(params.get("language_code") or "")
    if language and not (len(language) == 2 and language.isascii() and language.isalpha()):
        raise TelegramError(400, "Bad Request: invalid language code")
    return language


def _description(params: dict, name: str, limit: int) -> str:
    """A description as setMyDescription and setMyShortDescription take it: plain text, at most
    `limit` characters (empty removes it)."""
    text = str(params.get(name) or "")
    if len(text) > limit:
        raise TelegramError(400, f"Bad Request: {name} is too long")
    return text
