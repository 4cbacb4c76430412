"""Who administers a chat, asked of Telegram (getChatMember) and remembered for a minute.

A minute, because the answer is needed in bursts (a /reveal, a /hint and a /lang in quick
succession cost one request) while a change of admins should not take long to count: someone
demoted keeps the power for at most a minute, someone promoted waits at most that long.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 60.0
ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})


class AdminCache:
    """One instance for the whole bot; answers whether a user administers a chat."""

    def __init__(self, seconds: float = ADMIN_CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}  # (chat, user): admin, until

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether the user is the chat's creator or one of its admins (False if Telegram can't
        tell: the safe answer, since it only withholds a power)."""
        now = self.clock()
        known = self._known.get((chat_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramError as error:  # not remembered: the next ask may get through
            log.warning("getChatMember failed in chat %s: %s", chat_id, error)
            return False
        admin = member.status in ADMIN_STATUSES
        if len(self._known) > 10_000:
            self._known = {k: v for k, v in self._known.items() if v[1] > now}
        self._known[(chat_id, user_id)] = (admin, now + self.seconds)
        return admin
