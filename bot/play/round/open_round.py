"""One open round of a chat's topic, as the bot holds it between messages: its record as stored,
the hints given so far, the deal's text as sent and the lines under it (hints, a match's time
left, the status: the latest wrong attempt, Countdown's closest answers, who passed). What
changes it are its own small transitions (`with_message`, `hinted`, `attempted`, ...); the
services do the I/O around them (bot.play.round.rounds, hints, answers).

What the status shows is held here only, not stored: after a restart it starts again empty
(the result is worked out from the stored answers, whatever the status showed).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.play.games.records import Verdict
from bot.store.records import Place, Round
from bot.text import markup


@dataclass(frozen=True)
class Attempt:
    """An answer that did not win (yet), as the status names it: who, and its verdict
    (`distance`: a valid Countdown answer, this far from the target)."""

    user_id: int
    name: str
    verdict: Verdict
    distance: int | None = None
    at: float = 0.0


class OpenRound:
    def __init__(self, record: Round, deal_text: str | None = None) -> None:
        self.record = record
        self.deal_text = deal_text  # as dealt; None after a restart (worded again when needed)
        self.hints_given: int | None = 0 if not record.hint_used else None  # None: not read yet
        self.notes: dict[str, str] = {}  # kind -> the line under the deal
        self.latest: Attempt | None = None  # the latest attempt that did not win
        self.closest: dict[int, Attempt] = {}  # Countdown: each player's closest valid answer
        self.answered: set[int] = set()  # who answered (since this process holds the round)
        self.passed: list[str] = []  # the names of those who passed, in order
        self.status_at: float | None = None  # when the status was last written into the deal

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def place(self) -> Place:
        return self.record.place

    def change(self, **changes: object) -> Round:
        """The record with some fields changed (its message, points, chat)."""
        self.record = dataclasses.replace(self.record, **changes)  # type: ignore[arg-type]
        return self.record

    def with_message(self, message_id: int) -> Round:
        """The deal was sent as this message: replies to it are answers, hints edit it."""
        return self.change(message_id=message_id)

    def hinted(self, given: int, points: int) -> Round:
        """A hint was given: `given` steps so far, the round now worth `points`."""
        self.hints_given = given
        return self.change(points=points, hint_used=True)

    def view(self, base: str, note: tuple[str, str] | None = None) -> str:
        """The deal's text as it stands: `base` (as dealt) with the notes under it; `note`
        (kind, line) is added or replaced first."""
        if note is not None:
            self.notes[note[0]] = note[1]
        return markup.clip("\n".join([base, *self.notes.values()]))

    def noted(self, kind: str, line: str) -> str:
        """The line of this kind under the deal is now `line` (none, if empty)."""
        if line:
            self.notes[kind] = line
        else:
            self.notes.pop(kind, None)
        return line

    def attempted(self, attempt: Attempt) -> None:
        """An answer that did not win: the status names it; a valid Countdown answer stands
        if it is its player's closest (the earlier one keeps a tie)."""
        self.answered.add(attempt.user_id)
        self.latest = attempt
        if attempt.distance is not None:
            best = self.closest.get(attempt.user_id)
            if best is None or best.distance is None or attempt.distance < best.distance:
                self.closest[attempt.user_id] = attempt

    def leaders(self, most: int = 3) -> list[Attempt]:
        """The closest valid answers, one a player, closest first (ties: the earlier)."""
        return sorted(self.closest.values(), key=lambda a: (a.distance, a.at))[:most]

    def status_due(self, now: float, every: float) -> float:
        """How long until the status may be written into the deal again (0: now)."""
        if self.status_at is None:
            return 0.0
        return max(0.0, self.status_at + every - now)
