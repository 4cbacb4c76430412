"""What a game service answers the Telegram side: the text to send, and what else to do with it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.records import Round


@dataclass(frozen=True)
class Reply:
    """Text to send; `dealt` is a round this reply opens (its message id is wanted back),
    `closed` says the reply ended the chat's round, `ended` is that round's id (once the reply
    is sent, its result counts as announced). `reaction`: mark the answer with this emoji
    instead of sending `text` (a wrong typed attempt; `text` is said only if the reaction
    fails)."""

    text: str
    dealt: Round | None = None
    closed: bool = False
    ended: int | None = None
    reaction: str | None = None
