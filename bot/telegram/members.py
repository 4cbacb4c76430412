"""Who is in a chat and who administers it, asked of Telegram (getChatMember) and remembered
for a minute, or told by Telegram without asking.

A minute, because the answer is needed in bursts (a /reveal, a /hint and a /lang in quick
succession cost one request; a /solve that reaches a live round asks once per chat; a page's
answers) while a change should not take long to count: someone demoted keeps the power for at
most a minute, someone who joins a chat is refused its live puzzles at most a minute late. To a
group's admin bot that asks for them, Telegram says at once whose status changed (a chat_member
update), and what the bot remembered of them is replaced by it (`changed`): one who left is
refused from the next request on, not a minute later. What the bot's own status says (a
my_chat_member update: `bot_changed`) counts the same way: where the bot is not, nobody can be
vouched for.

One cache for every asker (handlers, buttons, the Mini App's page, through `belongs`), and one
failure policy: what Telegram can't tell grants nothing — not an admin's power, not a live
puzzle's solutions (counted as a member: refused), not an answer from a page (try again). Where
the bot is not (removed, or Telegram does not know the chat to it: `NO_CHAT`), it is remembered
as long as an answer: nobody there is asked about, nobody is vouched for (a page refuses at
once), and a live puzzle there is still withheld.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram import Bot, ChatMember
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.runtime.timed import Timed

log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 60.0
# (chat, user) answers remembered; past it the least lately asked goes. An answer lives a minute,
# so this is 33 look-ups a second before one is asked again early; at 10,000 the soak's bursts
# left 1,600 answers (0.6 MB) that a day at its pace would have let expire
MEMBERS_KEPT = 2_000
ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
OUT_STATUSES = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})
# What a 400 says when the bot cannot see the chat (PTB drops "Bad Request: "): never in it, or
# it is gone; as a 403 (removed from it), nobody there can be vouched for
NO_CHAT = "chat not found"

Key = tuple[int, int]  # (chat, user)


def standing(member: ChatMember) -> str:
    """The member's status as it counts here: a restricted user who left the group (Telegram
    keeps the restrictions of one who left, `is_member` False) is out, not in."""
    restricted = member.status == ChatMemberStatus.RESTRICTED
    if restricted and getattr(member, "is_member", True) is False:
        return ChatMemberStatus.LEFT
    return member.status


class ChatMembers:
    """One instance for the whole bot; answers whether a user administers a chat, or is in
    it."""

    def __init__(self, seconds: float = ADMIN_CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        # (chat, user) -> (standing, when it was learnt: a count): an answer lives `seconds`,
        # MEMBERS_KEPT at most (past it the first learnt go: the first to expire)
        self._known: Timed[Key, tuple[str, int]] = Timed(MEMBERS_KEPT, seconds,
                                                         lambda: self.clock())
        # chats the bot is not in (my_chat_member, or Telegram's 403): nobody there is asked
        # about; as long-lived and as many as the answers
        self._absent: Timed[int, bool] = Timed(MEMBERS_KEPT, seconds, lambda: self.clock())
        self._asking: dict[Key, int] = {}  # look-ups in flight, by (chat, user): their use
        self._learnt = 0  # counts what was learnt, so an answer older than another is known

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int, fresh: bool = False) -> bool:
        """Whether the user is the chat's creator or one of its admins (False if Telegram can't
        tell: the safe answer, since it only withholds a power); `fresh`: asked of Telegram
        now, whatever is remembered."""
        status = await self._status(bot, chat_id, user_id, fresh)
        return status is not None and status in ADMIN_STATUSES

    async def is_member(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether the user is in the chat, having spoken there or not (True if Telegram can't
        tell: the safe answer, since it only withholds a live puzzle's solutions). A private
        chat's only member is its user."""
        if chat_id > 0:
            return chat_id == user_id
        status = await self._status(bot, chat_id, user_id)
        return status is None or status not in OUT_STATUSES

    async def belongs(self, bot: Bot, chat_id: int, user_id: int) -> bool | None:
        """Whether the user is in the chat (None: Telegram can't tell now); a private chat's
        only member is its user; where the bot is not, nobody is."""
        if chat_id > 0:
            return chat_id == user_id
        if self.away(chat_id):
            return False
        status = await self._status(bot, chat_id, user_id)
        if status is None:
            return False if self.away(chat_id) else None
        return status not in OUT_STATUSES

    def known(self, chat_id: int, user_id: int) -> str | None:
        """What the bot was told or answered lately of the user's standing in the chat,
        without asking (None: nothing)."""
        found = self._known.get((chat_id, user_id))
        return found[0] if found is not None else None

    def away(self, chat_id: int) -> bool:
        """Whether the bot is lately known not to be in the chat (removed from it, or Telegram
        would not say who is in it)."""
        return chat_id in self._absent

    def changed(self, chat_id: int, member: ChatMember) -> None:
        """Telegram says the member's status in the chat changed (a chat_member update): what
        was remembered of them, or is being asked now, is this. Nobody else is remembered for
        it: a group's joins and leaves must not push out the answers in use."""
        key = (chat_id, member.user.id)
        if key in self._known or key in self._asking:
            self._learn(key, standing(member))

    def bot_changed(self, chat_id: int, member: ChatMember) -> None:
        """The bot's own status in the chat changed (a my_chat_member update). Out of it, it
        hears of no one's changes there any more, and nobody there can be vouched for: what
        it remembered of the chat goes, and its being out stands in for every answer. (A
        private chat's only member is its user, never asked.)"""
        if chat_id > 0:
            return
        if standing(member) not in OUT_STATUSES:
            self._absent.pop(chat_id, None)
            return
        for key in [key for key in self._known if key[0] == chat_id]:
            self._known.pop(key, None)
        self._absent[chat_id] = True

    def _learn(self, key: Key, status: str) -> None:
        self._learnt += 1
        self._known[key] = (status, self._learnt)

    async def _status(self, bot: Bot, chat_id: int, user_id: int,
                      fresh: bool = False) -> str | None:
        known = None if fresh else self.known(chat_id, user_id)
        if known is not None or (self.away(chat_id) and not fresh):
            return known  # where the bot is not, nobody is asked about: it can't tell
        key, begun = (chat_id, user_id), self._learnt
        self._asking[key] = self._asking.get(key, 0) + 1
        try:
            status = await self._ask(bot, chat_id, user_id)
        finally:
            self._asking[key] -= 1
            if not self._asking[key]:
                del self._asking[key]
        if status is None:  # not remembered: the next may get through
            return None
        found = self._known.get(key)
        if found is not None and found[1] > begun:  # told or answered meanwhile: newer
            return found[0]
        self._learn(key, status)
        return status

    async def _ask(self, bot: Bot, chat_id: int, user_id: int) -> str | None:
        """The user's standing in the chat as Telegram says it now (None: it can't tell; the
        bot not in the chat, a 403 or a chat it does not know, is remembered: `away`)."""
        try:
            return standing(await bot.get_chat_member(chat_id, user_id))
        except (Forbidden, BadRequest) as error:
            if isinstance(error, Forbidden) or NO_CHAT in str(error).lower():
                log.info("getChatMember in chat %s: %s; the bot is not there", chat_id, error)
                self._absent[chat_id] = True
                return None
            log.warning("getChatMember failed in chat %s: %s", chat_id, error)
        except (TelegramError, TimeoutError) as error:
            log.warning("getChatMember failed in chat %s: %s", chat_id, error)
        return None
