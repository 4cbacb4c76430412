"""Answering a round: an answer taken by the open round (/a, a reply to the deal, a typed message, a
page's steps), committed, and what it did put in words — a win's result, a miss in the deal's
status, a sealed guess's mark, the reply to what is no answer at all (throttled). The aggregate
judges; this only fetches, commits and words.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol

from bot.play.chats.people import Chat, People, Player
from bot.play.games import GAMES
from bot.play.games.help import no_round
from bot.play.guards.throttle import Admission, Throttle
from bot.play.outcomes import Closed, Edited, Marked, Noted, Said
from bot.play.ports import Target
from bot.play.round.decisions import (
    Accepted,
    Answer,
    Guessed,
    LateRight,
    Missed,
    NoGuessesLeft,
    Over,
    Unread,
    Won,
)
from bot.play.round.ending import Endings
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.results import Results, too_late
from bot.play.round.table import RoundTable
from bot.play.round.views import Views
from bot.play.round.writes import Committed
from bot.runtime import metrics
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

Answered = Closed | Edited | Marked | Noted | Said | None


class Entries(Protocol):
    """Who may answer a round that is part of something wider (a tournament between groups,
    bot.play.tournaments): built before the rounds and handed in."""

    async def refusal(self, record: Round, chat: Chat, player: Player,
                      texts: Texts) -> str | None:
        """Why the player's attempt at this round does not count (they play for another
        group of its tournament), or None: it counts (and binds them here, if it is their
        first)."""


class SuddenEnds(Protocol):
    """Which rounds end at their first wrong answer (a streak's: bot.play.solo): known in
    memory, asked at each miss."""

    def ends_at_miss(self, record: Round) -> bool: ...


class Answering:
    """Answers to the open rounds, judged one by one as they arrive."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, results: Results,
                 throttle: Throttle, views: Views, endings: Endings, outbox: Outbox,
                 entries: Entries | None = None, sudden: SuddenEnds | None = None) -> None:
        self.store = store
        self.entries = entries  # who may answer a tournament's round (None: anyone)
        self.sudden = sudden  # rounds a first miss ends (None: none)
        self.people = people
        self.table = table
        self.results = results
        self.throttle = throttle
        self.views = views
        self.endings = endings
        self.outbox = outbox

    async def answer(self, chat: Chat, player: Player, text: str, explicit: bool,
                     replied_to: int | None = None, target: Target | None = None,
                     waited: float = 0.0) -> Answered:
        """Judge an answer and show what it did; None means stay silent (not an attempt, no
        round, throttled). `explicit`: given as an answer (/a, a page); a reply to the deal
        (`replied_to` its message) is one too. `waited`: seconds since the answer reached the
        bot (bot.runtime.arrivals) — it is timed from then, not from when it is judged."""
        target = target or Target(chat.id, chat.topic)
        current = self.table.get(chat.id, chat.topic)
        replied = replied_to is not None and current is not None and \
            current.is_deal(replied_to)
        explicit = explicit or replied
        if current is None:
            outcome: Answered = Said(no_round(await self.people.texts(chat, player))) \
                if explicit else None
        else:
            outcome = await self._answer(current, chat, player, text, explicit, replied,
                                         target.alone, waited)
        await self.outbox.show(outcome, target)
        return outcome

    async def _answer(self, current: OpenRound, chat: Chat, player: Player, text: str,
                      explicit: bool, replied: bool, private: bool = False,
                      waited: float = 0.0) -> Answered:
        """The round takes the answer, what it recorded is committed, and what it did is
        worded."""
        rules = current.rules
        if rules.guesses is not None and current.is_open and \
                not current.knows_guesses(player.id):  # after a restart: read once
            current.guesses_known(player.id,
                                  await self.store.guesses_made(current.id, player.id))
        typing = chat.type == "private" or current.terms.typing
        if self.entries is not None and current.is_open and \
                _attempt(current, text, explicit, replied, typing):
            texts = await self.people.texts(chat, player)
            refused = await self.entries.refusal(current.record, chat, player, texts)
            if refused is not None:
                return self._in_words(chat, player, texts, refused)
        judging = time.monotonic()
        # when it came, never before the round began (a message typed before the deal arrived)
        came = max(self.table.clock() - waited, current.record.started_at)
        taken = current.accept(Answer(player.id, player.first_name, text, explicit, replied,
                                      typing, private), came)
        metrics.observe_answer_latency(current.record.game, time.monotonic() - judging)
        if taken is None:
            return None
        texts = await self.people.texts(chat, player)
        await self.people.remember(chat, player)
        committed = await self.table.commit(current)
        if isinstance(taken, Won):
            return await self._won(current, taken, committed, player, texts)
        if isinstance(taken, Missed) and self.sudden is not None and current.is_open and \
                self.sudden.ends_at_miss(current.record):
            return await self._sudden_end(current, taken, player, texts)
        if private and isinstance(taken, Missed):  # its verdict to its author alone
            return Said(GAMES[current.record.game].words.verdict_text(taken.verdict, current.record,
                                                                 texts)) \
                if current.is_open else None
        return await self._worded(current, taken, chat, player, texts)

    async def _won(self, current: OpenRound, taken: Won, committed: Committed, player: Player,
                   texts: Texts) -> Closed | Said:
        """The round's result with its winner — unless the database had it closed already,
        then who won it, from the store."""
        record = current.record
        if not committed.closed:
            winner = await self.store.race(record.id)
            return Said(too_late(winner.name, self.table.clock() - winner.at, texts)
                        if winner else texts("round_over"))
        shown: str | None = markup.code(taken.verdict.expression) \
            if taken.verdict.expression else f"<code>{taken.verdict.value}</code>"
        if await self.results.for_everyone(record):
            shown = None  # a tournament's hand other groups still play: not even this answer
        head = self.results.won_head(record, player.first_name, shown, taken.elapsed, texts)
        details = await self.results.win_details(record, texts)
        return await self.endings.finish(record, head, f"\n\n{details}" if details else "",
                                         texts, await self.results.one_way(record),
                                         committed.events,
                                         missed=bool(current.answered - {player.id}))

    async def _sudden_end(self, current: OpenRound, taken: Missed, player: Player,
                          texts: Texts) -> Closed | Said:
        """A miss that ends its round (a streak's): the round closed as given up by its
        player, the verdict on top of its result."""
        said = GAMES[current.record.game].words.verdict_text(taken.verdict, current.record,
                                                             texts)
        closed = await self.endings.end(current, "revealed", texts, ended_by=player)
        if closed is None:  # closed meanwhile: its result says the rest
            return Said(said)
        return replace(closed, text=f"{said}\n{closed.text}", head=f"{said}\n{closed.head}")

    async def _worded(self, current: OpenRound, taken: Accepted, chat: Chat, player: Player,
                      texts: Texts) -> Answered:
        """What an answer that did not win did, in words: too late, over, a sealed guess's
        mark, no guesses left, no answer at all, or a miss written into the deal's status."""
        record = current.record
        words = GAMES[record.game].words
        if isinstance(taken, Over):
            return Said(texts("round_over"))
        if isinstance(taken, LateRight):
            return Said(too_late(taken.winner, taken.gap, texts))
        if isinstance(taken, Guessed):  # sealed: the same mark whatever its distance
            return Marked(words.guess_mark(), words.verdict_text(taken.verdict, record, texts,
                                                                 taken.left))
        if isinstance(taken, NoGuessesLeft):
            return self._in_words(chat, player, texts, texts(
                "no_guesses_left", guesses=taken.limit, name=markup.name(player.first_name)))
        if isinstance(taken, Unread):
            return self._in_words(chat, player, texts, words.verdict_text(taken.verdict, record,
                                                                          texts))
        assert isinstance(taken, Missed)
        if not current.is_open:  # closed meanwhile: its result says the rest
            return None
        said = words.verdict_text(taken.verdict, record, texts)
        if record.message_id is None:  # no deal to write the status into (never sent)
            return self._in_words(chat, player, texts, said)
        status = await self.views.status(current, said)
        return Noted(status.text) if isinstance(status, Marked) else status

    def _in_words(self, chat: Chat, player: Player, texts: Texts, said: str) -> Said | None:
        """What is not an answer at all is said in words, throttled: a reply to the first few,
        one note to slow down, then silence until the bucket refills."""
        admission = self.throttle.admit(chat.id, player.id)
        if admission is Admission.QUIET:
            return None
        if admission is Admission.NOTE:
            return Said(texts("slow_down", name=markup.name(player.first_name)))
        return Said(said)


def _attempt(current: OpenRound, text: str, explicit: bool, replied: bool, typing: bool) -> bool:
    """Whether the text is an attempt at the round, as its rules tell one (what `accept` takes
    further than chatter)."""
    rules = current.rules
    if not explicit and not (typing and rules.looks_like_answer(text)):
        return False
    return not (replied and not rules.tries(text, current.record))
