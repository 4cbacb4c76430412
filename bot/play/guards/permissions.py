"""Who may steer a round: the rules behind /reveal, the first /hint, /lang and /match stop.

In a private chat, anyone (it is their chat). In a group, whoever started the round (or match),
or an admin of the chat: the first hint costs everyone, so a passer-by may not take it.

Ending a round early is held to a stricter rule, because it must never change who scores: once
anyone but the starter has answered, only an admin may end it (the starter could otherwise end
it while behind); and a round ended early scores as if its time had run out, except that the
answers of whoever ended it cannot win it (bot.play.round.ending). Whether the speaker is an
admin is asked of Telegram only when it matters, through a callback the Telegram side hands
in, so these rules have no Telegram in them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

AdminCheck = Callable[[], Awaitable[bool]]
"""Whether the speaker is an admin of the chat (asked only when it matters)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Whether the speaker is in that chat (asked only when a request reaches its live round)."""


async def may_steer(chat_type: str, player_id: int, started_by: int | None,
                    is_admin: AdminCheck | None) -> bool:
    """May this player take the first hint of, or stop what `started_by` started (None:
    nobody, or nothing: only admins then, in a group)?"""
    if chat_type == "private":
        return True
    if started_by is not None and started_by == player_id:
        return True
    return is_admin is not None and await is_admin()


async def end_refusal(chat_type: str, player_id: int, started_by: int | None,
                      answerers: Iterable[int], is_admin: AdminCheck | None) -> str | None:
    """Why this player may not end a round early: "not_starter" (only its starter or an
    admin may), "others_answered" (once others answered, only an admin may); None if they
    may."""
    if chat_type == "private":
        return None
    starter = started_by is not None and started_by == player_id
    others = any(user != started_by for user in answerers)
    if starter and not others:
        return None
    if is_admin is not None and await is_admin():
        return None
    return "others_answered" if starter else "not_starter"
