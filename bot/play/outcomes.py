"""What a round's transitions hand a face: one typed outcome each, saying what to show and nothing
of how. Play publishes it through the Publisher port (bot.play.ports) and acts on what the face
says became of it (bot.play.round.outbox: a deal's message id stored, a result counted as
announced, a chat gone or moved), so no face calls back into a service to finish the job.

The buttons a message carries are named by what they do (`HINT`, `AGAIN`...); the face turns
them into keyboards.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.records import Round
from bot.text.i18n import Texts

# what a button under a deal or a result does
HINT, REVEAL, AGAIN, SAME, SOLUTIONS = "hint", "reveal", "again", "same", "solutions"
PASS = "pass"
COACH = "coach"  # under a result: what a player who missed did not see (bot.play.coaching)


@dataclass(frozen=True)
class Said:
    """Words in answer (a usage line, a refusal, a note)."""

    text: str


@dataclass(frozen=True)
class Refused:
    """Why not: a button press is told it as a notice, a command in words; `over`: the round
    named is over (its deal's buttons, if pressed, can go)."""

    text: str
    over: bool = False


@dataclass(frozen=True)
class Marked:
    """An answer marked with a reaction instead of words (a wrong attempt, a sealed guess);
    `text` is said only where the chat takes no reaction."""

    reaction: str
    text: str


@dataclass(frozen=True)
class Noted:
    """An answer taken in whose words go into the deal's status a moment later (its STATUS
    alarm): nothing to send now; `text` is what it would say (a Mini App's page shows it)."""

    text: str


@dataclass(frozen=True)
class Dealt:
    """A new round's deal, with its buttons; once sent, its message's id is stored (replies to
    it are answers, hints edit it)."""

    round: Round
    text: str
    texts: Texts
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Edited:
    """The open round's deal, rewritten (a hint, a match's "time left"), its buttons kept;
    `notice` is the short form, told to a button press or said where the deal can't be edited;
    `reaction` marks the command that asked for it."""

    round: Round
    text: str
    texts: Texts
    actions: tuple[str, ...]
    notice: str
    reaction: str | None = None


@dataclass(frozen=True)
class Closed:
    """A round's result: `head` (who won, or how it ended, and a match's scoreboard) stays on top
    while its solutions are paged; `actions` are the buttons under it; the ended deal's buttons
    go. Once sent (or refused for good) it counts as announced."""

    round: Round
    text: str
    head: str
    texts: Texts
    actions: tuple[str, ...]


Outcome = Said | Refused | Marked | Noted | Dealt | Edited | Closed


def text_of(outcome: Outcome) -> str:
    """The words an outcome stands for (what a test or a log reads)."""
    return outcome.text
