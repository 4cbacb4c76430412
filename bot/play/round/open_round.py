"""One open round of a chat's topic, as the bot holds it between messages: its record as stored,
the hints given so far, the deal's text as sent and the lines under it (hints, a match's time
left). What changes it are its own small transitions (`with_message`, `hinted`, `noted`); the
services do the I/O around them (bot.play.round.rounds, hints, answers).
"""

from __future__ import annotations

import dataclasses

from bot.store.records import Place, Round
from bot.text import markup


class OpenRound:
    def __init__(self, record: Round, deal_text: str | None = None) -> None:
        self.record = record
        self.deal_text = deal_text  # as dealt; None after a restart (worded again when needed)
        self.hints_given: int | None = 0 if not record.hint_used else None  # None: not read yet
        self.notes: dict[str, str] = {}  # kind -> the line under the deal

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
