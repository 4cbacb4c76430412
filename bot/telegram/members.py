"""Who is in a chat and who administers it, asked of Telegram (getChatMember) and remembered
for a minute.

A minute, because the answer is needed in bursts (a /reveal, a /hint and a /lang in quick
succession cost one request; a /solve that reaches a live round asks once per chat; a page's
answers) while a change should not take long to count: someone demoted keeps the power for at
most a minute, someone who joins a chat is refused its live puzzles at most a minute late.

One cache for every asker (handlers, buttons, the Mini App's page, through `belongs`), and one
failure policy: what Telegram can't tell grants nothing — not an admin's power, not a live
puzzle's solutions (counted as a member: refused), not an answer from a page (try again).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from cachetools import TTLCache
from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 60.0
MEMBERS_KEPT = 10_000  # (chat, user) answers remembered; past it the least lately asked goes
ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
OUT_STATUSES = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})


class ChatMembers:
    """One instance for the whole bot; answers whether a user administers a chat, or is in
    it."""

    def __init__(self, seconds: float = ADMIN_CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        # (chat, user) -> status: an answer lives `seconds` (TTL), MEMBERS_KEPT at most (LRU)
        self._known: TTLCache[tuple[int, int], str] = TTLCache(MEMBERS_KEPT, seconds,
                                                              lambda: self.clock())

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
        only member is its user."""
        if chat_id > 0:
            return chat_id == user_id
        status = await self._status(bot, chat_id, user_id)
        return None if status is None else status not in OUT_STATUSES

    async def _status(self, bot: Bot, chat_id: int, user_id: int,
                      fresh: bool = False) -> str | None:
        known = None if fresh else self._known.get((chat_id, user_id))
        if known is not None:
            return known
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (TelegramError, TimeoutError) as error:  # not remembered: the next may get through
            log.warning("getChatMember failed in chat %s: %s", chat_id, error)
            return None
        self._known[(chat_id, user_id)] = member.status
        return member.status
