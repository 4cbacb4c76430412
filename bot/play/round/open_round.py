"""One open round of a chat's topic: the aggregate. It holds its record, its rules, the terms it was
dealt with, its state between messages (hints given, the deal's text and the lines under it, the
attempts that missed since the status was last written; who answered, passed, guessed, and the
closest answers where the closest wins: bot.play.round.takers) and, once won, who won it.

It changes only through its own transitions — `accept` an answer, `hint`, `pass_`, `close`, `sent`,
`restarted`, `numbered`, `move`, `status_written`, `rewritten` — each deciding in memory (this
process is the database's only writer, so memory decides first and the database's conditional
writes only confirm) and recording what must be written (`pending`, written by the table's
`commit`) and what happened (`events`, handled by the round service once the writes are done).
Nothing outside assigns to its fields. What the status shows, and what the deal was last
rewritten to show, are held here only, not stored: after a restart they start again empty. What
its transitions take and decide are values of bot.play.round.decisions; what they record, of
bot.play.round.writes.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from bot.play.games import GAMES
from bot.play.round.decisions import (
    Accepted,
    Answer,
    Attempt,
    Ending,
    Guessed,
    LateRight,
    Missed,
    NoGuessesLeft,
    Over,
    Unread,
    Winner,
    Won,
)
from bot.play.round.events import RoundClosed
from bot.play.round.takers import Takers
from bot.play.round.writes import (
    AnswerWrite,
    ClockWrite,
    CloseWrite,
    HintWrite,
    MessageWrite,
    PassWrite,
    Write,
)
from bot.play.rules.records import Ignored, Near, Right, Unreadable, Verdict, Wrong
from bot.store.records import Place, Round

MISSES_SHOWN = 10  # the most misses the deal's status names at once (a burst inside a second)

# --- what a round was dealt with ------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """The chat's settings a round was dealt with: a change applies from the next round."""

    hints: bool = True
    typing: bool = True


# what a deal message shows: its text, its buttons' actions and the language of their labels
View = tuple[str, tuple[str, ...], str]


class OpenRound:
    """Slotted, its collections made only when something first goes into them (or tuples,
    made again on a change): a burst holds a thousand rounds open at once, and eight empty
    collections a round were 0.7 KB of the 1.4 its aggregate held (docs/benchmarks.md)."""

    __slots__ = ("_clock_waits", "_closed", "_deal_text", "_deal_went", "_fresh",
                 "_hints_given", "_notes", "_record", "_shown", "_status_at", "_takers",
                 "_unwritten", "_winner", "_written", "events", "pending", "rules", "terms")

    def __init__(self, record: Round, terms: Terms | None = None,
                 deal_text: str | None = None, fresh: bool = False) -> None:
        self._record = record
        self.rules = GAMES[record.game].rules
        self.terms = terms or Terms()
        self._deal_text = deal_text  # as dealt; None after a restart (worded again when needed)
        self._hints_given: int | None = 0 if not record.hint_used else None  # None: not read yet
        self._notes: dict[str, str] | None = None  # kind -> the line under the deal
        self._unwritten: tuple[Attempt, ...] = ()  # misses since the status was last written
        self._written: tuple[Attempt, ...] = ()  # the misses the status showed when last written
        self._takers = Takers()  # who answered, passed, guessed; each player's closest
        self._fresh = fresh  # dealt by this process: nothing of it is stored that memory lacks
        self._deal_went = record.message_id is not None  # its deal was sent once (the clock set)
        self._clock_waits = fresh  # its clock starts again as its deal first goes
        self._status_at: float | None = None  # when the status was last written into the deal
        self._shown: bytes | None = None  # what the deal was last rewritten to show: its digest
        self._winner: Winner | None = None
        self._closed = False
        self.pending: tuple[Write, ...] = ()  # a handful a round: a tuple made again is enough
        self.events: tuple[RoundClosed, ...] = ()

    # --- reading ---------------------------------------------------------------------------

    @property
    def record(self) -> Round:
        return self._record

    @property
    def id(self) -> int:
        return self._record.id

    @property
    def place(self) -> Place:
        return self._record.place

    @property
    def is_open(self) -> bool:
        return not self._closed

    @property
    def winner(self) -> Winner | None:
        return self._winner

    @property
    def deal_text(self) -> str | None:
        return self._deal_text

    @property
    def hints_given(self) -> int | None:
        return self._hints_given

    @property
    def answered(self) -> frozenset[int]:
        return self._takers.answered

    @property
    def passed(self) -> tuple[str, ...]:
        """The names of those who passed, in order."""
        return self._takers.passed

    @property
    def passer_ids(self) -> frozenset[int]:
        return self._takers.passer_ids

    @property
    def misses(self) -> tuple[Attempt, ...]:
        """The attempts that did not win which the status names: every one since it was last
        written (so none that came inside one interval between two writes goes unseen), else
        those it showed then; the last MISSES_SHOWN at most."""
        return tuple((self._unwritten or self._written)[-MISSES_SHOWN:])

    def knows_guesses(self, user_id: int) -> bool:
        return self._fresh or self._takers.guessed(user_id) is not None

    def is_deal(self, message_id: int) -> bool:
        """Whether the message is this round's deal: a reply to it is an answer."""
        return self._record.message_id == message_id

    def leaders(self, most: int = 3) -> list[Attempt]:
        """The closest valid answers, one a player, closest first (ties: the earlier)."""
        return self._takers.leaders(most)

    def view(self, base: str | None = None) -> str:
        """The deal's lines as they stand: its text as dealt (or `base`, worded again after a
        restart) with the notes under it (hints, a match's time left, the status)."""
        return "\n".join([self._deal_text or base or "", *(self._notes or {}).values()])

    def shows(self, view: View) -> bool:
        """Whether the deal was last rewritten to show exactly this (Telegram refuses an edit
        that changes nothing: "message is not modified")."""
        return self._shown == _digest(view)

    def status_wait(self, now: float, every: float) -> float:
        """How long until the status may be written into the deal again (0: now)."""
        if self._status_at is None:
            return 0.0
        return max(0.0, self._status_at + every - now)

    # --- transitions -----------------------------------------------------------------------

    def accept(self, answer: Answer, now: float) -> Accepted | None:
        """Take an answer (None: it is no attempt at this round, say nothing): a right one wins
        the round at once, in memory (two at once make one winner: the first to arrive); an
        answer to a round won a moment ago is late."""
        rules = self.rules
        if not answer.explicit and not (answer.typing and rules.looks_like_answer(answer.text)):
            return None  # chatter: not even worth a trip to the judge
        if answer.replied and not rules.tries(answer.text, self._record):
            return None  # talk about the deal, not an answer to it
        verdict = rules.judge(self._record, answer.text, answer.explicit)
        if isinstance(verdict, Ignored):
            return None
        if self._closed:
            return self._late(answer, verdict, now)
        text = answer.text[:200]
        if isinstance(verdict, Unreadable):  # stored all the same: its player took part
            self.pending += (AnswerWrite(answer.user_id, text, False, now, None),)
            return Unread(verdict)
        if (none_left := self._write(answer, text, verdict, now)) is not None:
            return none_left
        if isinstance(verdict, Right):
            return self._win(answer, verdict, now)
        return self._missed(answer, verdict, now)

    def _write(self, answer: Answer, text: str, verdict: Right | Near | Wrong, now: float
               ) -> NoGuessesLeft | None:
        """The attempt recorded to be written; a limited guess (sealed guesses) is counted, unless
        the player has none left."""
        rules = self.rules
        distance = verdict.distance if isinstance(verdict, Near) else \
            0 if isinstance(verdict, Right) and rules.closest_wins else None
        if rules.guesses is not None and distance is not None:
            if not self._takers.guess(answer.user_id, rules.guesses):
                return NoGuessesLeft(rules.guesses)
            self.pending += (AnswerWrite(answer.user_id, text, isinstance(verdict, Right),
                                         now, distance, rules.guesses),)
        else:
            self.pending += (AnswerWrite(answer.user_id, text, isinstance(verdict, Right),
                                         now, distance),)
        return None

    def _missed(self, answer: Answer, verdict: Near | Wrong, now: float) -> Guessed | Missed:
        """An attempt that does not win: a sealed guess is counted, anything else becomes the
        latest attempt (and the player's closest, if it is)."""
        rules = self.rules
        self._takers.answer(answer.user_id)
        if rules.guesses is not None:
            return Guessed(verdict, rules.guesses - (self._takers.guessed(answer.user_id) or 0))
        valid = verdict.distance if isinstance(verdict, Near) else None
        attempt = Attempt(answer.user_id, answer.name, verdict, valid, now)
        if not answer.private:  # what only the bot saw stays out of the deal
            self._unwritten = (*self._unwritten[1 - MISSES_SHOWN:], attempt)
        self._takers.closer(attempt)
        return Missed(verdict)

    def _win(self, answer: Answer, verdict: Right, now: float) -> Won:
        record = self._record
        elapsed = now - record.started_at
        self._closed = True
        self._winner = Winner(answer.user_id, answer.name, now)
        self.pending += (CloseWrite("won", now, answer.user_id, verdict.shown, record.points,
                                    elapsed),)
        self.events += (RoundClosed(record),)
        return Won(verdict, elapsed)

    def won_before(self, user_id: int, shown: str, at: float) -> None:
        """A right answer stored before a restart closes the round it won (the answer is in
        the store already; only the close is written)."""
        record = self._record
        self._closed = True
        self.pending += (CloseWrite("won", at, user_id, shown, record.points,
                                    at - record.started_at),)
        self.events += (RoundClosed(record),)

    def _late(self, answer: Answer, verdict: Verdict, now: float) -> LateRight | Over | None:
        """An answer to the round just won: a right one is stored (its player played, and lost
        the race by a hair) and told by how much; anything else, if explicit, that it is over."""
        won = self._winner
        if not isinstance(verdict, Right) or won is None or won.user_id == answer.user_id:
            return Over() if answer.explicit else None
        distance = 0 if self.rules.closest_wins else None
        self.pending += (AnswerWrite(answer.user_id, answer.text[:200], True, now, distance),)
        return LateRight(won.name, max(0.0, now - won.at))  # came as it won: judged after

    def guesses_known(self, user_id: int, made: int) -> None:
        """How many guesses a player made in this round, as stored (after a restart)."""
        self._takers.guesses_known(user_id, made)

    def hints_known(self, given: int) -> None:
        """How many steps were given, as stored (after a restart)."""
        if self._hints_given is None:
            self._hints_given = given

    def hint(self, points: int) -> int:
        """The next step is given (the hint's line goes under the deal): the round is now worth
        `points`. Returns how many steps were given."""
        given = (self._hints_given or 0) + 1
        self._hints_given = given
        self._record = dataclasses.replace(self._record, points=points, hint_used=True)
        self.pending += (HintWrite(given, points),)
        return given

    def note(self, kind: str, line: str) -> None:
        """The line of this kind under the deal is now `line` (none, if empty)."""
        if line:
            if self._notes is None:
                self._notes = {}
            self._notes[kind] = line
        elif self._notes:
            self._notes.pop(kind, None)

    def numbered(self, line: str) -> None:
        """A match took the round: its number goes into the deal's text for good."""
        self._deal_text = f"{self._deal_text}\n{line}" if self._deal_text else line

    def worded(self, text: str) -> None:
        """The deal's text, worded again after a restart."""
        if self._deal_text is None:
            self._deal_text = text

    def status_written(self, now: float) -> None:
        """The status was written into the deal: the misses it named are shown."""
        self._status_at = now
        if self._unwritten:
            self._written, self._unwritten = self._unwritten, ()

    def rewritten(self, view: View) -> None:
        """The deal is being sent, or rewritten, to show this."""
        self._shown = _digest(view)

    def passes_known(self, answerers: list[int], passers: list[tuple[int, str]]) -> None:
        """Who answered and who passed, as stored: the status names them (a pass made here
        and not yet stored is kept)."""
        self._takers.known(answerers, passers)

    def pass_(self, user_id: int, name: str, now: float) -> bool:
        """The player gives up on the round (False: they passed already)."""
        if not self._takers.pass_(user_id, name):
            return False
        self.pending += (PassWrite(user_id, now),)
        return True

    def close(self, ending: Ending, now: float) -> None:
        """The round ends without a right answer (its time ran out, or it was ended early):
        the closest answer wins it where the closest wins."""
        best, winner = ending.best, ending.winner
        self._closed = True
        self.pending += (CloseWrite(
            "won" if winner else ending.status, now, winner,
            best.text if winner and best else None, ending.points,
            best.at - self._record.started_at if winner and best else None),)
        self.events += (RoundClosed(self._record),)

    def abandoned(self) -> None:
        """Its chat takes no more messages: the round ended quietly (closed in the store)."""
        self._closed = True

    def forget(self, user_id: int) -> None:
        """The person was forgotten (/forget): nothing of theirs stays held to be shown or
        written — their attempt as the latest or the closest, their pass, their guesses, that
        they answered, their answers and pass not yet written, and their id as its starter."""
        self._unwritten = tuple(a for a in self._unwritten if a.user_id != user_id)
        self._written = tuple(a for a in self._written if a.user_id != user_id)
        self._takers.forget(user_id)
        self.pending = tuple(write for write in self.pending if not (
            isinstance(write, AnswerWrite | PassWrite) and write.user_id == user_id))
        if self._record.started_by == user_id:
            self._record = dataclasses.replace(self._record, started_by=None)

    def sent(self, message_id: int | None, at: float | None = None) -> bool:
        """The deal was sent as this message (None: forgotten, its group moved), at `at`: the
        clock starts as the deal first goes, its length kept (a send limit, a 429 held it), if
        nobody touched the round yet. Whether it moved (its end alarm must move with it)."""
        record, moved = self._record, False
        if message_id is not None and at is not None and at > record.started_at and \
                self._clock_waits and not self._deal_went and self._untouched():
            shift = at - record.started_at
            record = dataclasses.replace(record, started_at=at,
                                         deadline=record.deadline + shift)
            moved = True
        self._deal_went = self._deal_went or message_id is not None
        self._record = dataclasses.replace(record, message_id=message_id)
        if moved:  # written before its message: a clock starts again only for a deal unshown
            self.pending += (ClockWrite(record.started_at, record.deadline),)
        if message_id is not None:
            self.pending += (MessageWrite(message_id),)
        return moved

    def _untouched(self) -> bool:
        """Nothing yet depends on when it started: no answer, hint, pass or close."""
        return not (self._closed or self._takers or self._hints_given or self.pending)

    def restarted(self, now: float) -> bool:
        """Its deal was never shown (its dealer stopped before the message went): its clock
        starts again, whole, as the deal now shown is the first its chat sees. Whether it did."""
        record = self._record
        if record.message_id is not None or self._closed:
            return False
        self._record = record = dataclasses.replace(
            record, started_at=now, deadline=now + record.deadline - record.started_at)
        self.pending += (ClockWrite(now, record.deadline),)
        self._clock_waits = True  # and again when it goes (a send limit between)
        return True

    def move(self, chat_id: int) -> bool:
        """Its group became a supergroup (a group has no topics): the round is there now, and
        its deal, left behind in the old group, is no longer its message. Whether it had one."""
        had_deal = self._record.message_id is not None
        self._record = dataclasses.replace(self._record, chat_id=chat_id, topic=0,
                                           message_id=None)
        self._shown = None
        return had_deal

    def taken(self) -> tuple[list[Write], list[RoundClosed]]:
        """What the transitions recorded, handed over once (to be written, then handled)."""
        writes, events = self.pending, self.events
        self.pending, self.events = (), ()
        return list(writes), list(events)


def _digest(view: View) -> bytes:
    """A view in 16 bytes, not its 0.5 KB of text kept only to be compared (2^-128 a pair)."""
    return hashlib.blake2b(repr(view).encode(), digest_size=16).digest()
