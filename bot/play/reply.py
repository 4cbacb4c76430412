"""What a game service answers the Telegram side: the text to send, and what else to do with it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.records import Round


@dataclass(frozen=True)
class Reply:
    """Text to send, and how.

    `dealt`: a round this reply opens (its message id is wanted back). `closed`: the reply
    ended a round, `ended` is that round's id (once the reply is sent, its result counts as
    announced); `head` is the part of such a result that stays on top while its solutions are
    paged, and `listed_all` says whether it lists every solution (else it offers them all).
    `reaction`: mark the message answered with this emoji instead of sending `text` (a wrong
    attempt, a guess noted; `text` is said only if the reaction fails). `edit`: the round whose
    deal message `text` replaces (a hint), instead of sending it. `notice`: the short form,
    what a button press is told (and what is said if the edit fails).
    """

    text: str
    dealt: Round | None = None
    closed: bool = False
    ended: int | None = None
    reaction: str | None = None
    edit: Round | None = None
    notice: str | None = None
    head: str | None = None
    listed_all: bool = True

    def with_board(self, board: str | None) -> str:
        """The result with a match's scoreboard riding on it, under its head."""
        if not board:
            return self.text
        if self.head and self.text.startswith(self.head):
            return f"{self.head}\n{board}{self.text[len(self.head):]}"
        return f"{self.text}\n{board}"
