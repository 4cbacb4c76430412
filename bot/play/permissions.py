"""Who may steer a round: the one rule behind /reveal, the first /hint, /lang and /match stop.

In a private chat, anyone (it is their chat). In a group, whoever started the round (or match),
or an admin of the chat: ending a round early or taking the hint costs everyone, so a passer-by
may not. Whether the speaker is an admin is asked of Telegram only when it matters, through a
callback the Telegram side hands in, so this rule has no Telegram in it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

AdminCheck = Callable[[], Awaitable[bool]]
"""Whether the speaker is an admin of the chat (asked only when it matters)."""


async def may_steer(chat_type: str, player_id: int, started_by: int | None,
                    is_admin: AdminCheck | None) -> bool:
    """May this player end early, take the first hint of, or stop what `started_by` started
    (None: nobody, or nothing: only admins then, in a group)?"""
    if chat_type == "private":
        return True
    if started_by is not None and started_by == player_id:
        return True
    return is_admin is not None and await is_admin()
