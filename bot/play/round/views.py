"""How an open round's deal reads as it stands: its text and buttons, the deal rewritten (never to
what it shows already), its status written at most once every STATUS_EVERY seconds, a running
round named to whoever asks for another. It changes no round's state but what its deal shows,
and sends nothing: its callers show what it words (so what acts on a chat's fate can word a
moved deal before the outbox exists).
"""

from __future__ import annotations

from bot.play.chats.people import People
from bot.play.games import GAMES
from bot.play.outcomes import Dealt, Edited, Marked, Noted
from bot.play.ports import STATUS, Alarm
from bot.play.round.open_round import OpenRound, Terms
from bot.play.round.showing import deal_actions, time_left
from bot.play.round.status import STATUS_EVERY, status_line
from bot.play.round.table import RoundTable
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts


class Views:
    """The deal as it stands, for every round service that shows or rewrites it."""

    def __init__(self, people: People, table: RoundTable,
                 reads_group_messages: bool = True) -> None:
        self.people = people
        self.table = table
        # False in privacy mode: groups' plain messages never reach the bot, so deals there do
        # not invite players to just type the answer
        self.reads_group_messages = reads_group_messages

    def deal_text(self, current: Round, texts: Texts, chat_type: str, terms: Terms) -> str:
        """A deal's words: its puzzle, and how to answer it where it is played."""
        typing = (self.reads_group_messages and terms.typing) or chat_type == "private"
        words = GAMES[current.game].words
        return "\n".join(filter(None, [words.deal_text(current, texts),
                                        words.how_to_answer(texts, typing)]))

    def actions(self, current: OpenRound) -> tuple[str, ...]:
        """The buttons under an open round's deal as it stands."""
        return deal_actions(current.record, current.terms.hints, bool(current.answered))

    async def deal_view(self, current: OpenRound) -> str:
        """The deal's text as it stands (its lines and the notes under them); after a restart it
        is worded again, less its level note and match number."""
        record = current.record
        if current.deal_text is None:
            current.worded(self.deal_text(record, await self.people.round_texts(record),
                                          "private" if record.chat_id > 0 else "group",
                                          current.terms))
        return markup.clip(current.view())

    def still_open(self, current: Round, texts: Texts) -> str:
        """Which round is on, and for how long still: the answer to a deal asked for over it."""
        return GAMES[current.game].words.still_open_text(
            current, texts, time_left(texts, current.deadline - self.table.clock()))

    async def dealt_again(self, current: OpenRound) -> Dealt:
        """A running round's deal, shown again (its message unknown after a restart, or left
        behind in a group that became a supergroup)."""
        texts, view = await self.people.round_texts(current.record), await self.deal_view(current)
        actions = self.actions(current)
        current.rewritten((view, actions, texts.language))
        return Dealt(current.record, view, texts, actions)

    async def rewrite(self, current: OpenRound, texts: Texts, notice: str,
                      reaction: str | None = None) -> Edited | None:
        """The deal rewritten as it now stands, or None when that is what it was last
        rewritten to show: an edit that changes nothing is never sent (Telegram would refuse
        it, 400 "message is not modified")."""
        view = (await self.deal_view(current), self.actions(current), texts.language)
        if current.shows(view):
            return None
        current.rewritten(view)
        return Edited(current.record, view[0], texts, view[1], notice, reaction)

    async def status(self, current: OpenRound, notice: str | None = None,
                     reaction: str | None = None) -> Edited | Marked | Noted:
        """The deal with its status as it stands, if it may be written now; else the STATUS
        alarm is set to write it when it may (at most once every STATUS_EVERY seconds), and a
        `reaction` (if given) marks what asked for it meanwhile. A deal never sent can't be
        edited: its `notice` is then said."""
        record = current.record
        worded = await self.people.round_texts(record)  # the deal's language
        line = status_line(current, worded, len(current.answered))
        current.note("status", line)
        wait = current.status_wait(self.table.clock(), STATUS_EVERY)
        scheduler = self.table.scheduler
        if wait > 0 and record.message_id is not None:
            if not scheduler.pending(STATUS, record.chat_id, record.topic):
                scheduler.set(Alarm(STATUS, record.chat_id, record.id, record.topic), wait)
            return Marked(reaction, notice or line) if reaction is not None else \
                Noted(notice or line)
        edited = await self.rewrite(current, worded, notice if notice is not None else line)
        if edited is None:  # the deal shows just that already
            return Marked(reaction, notice or line) if reaction is not None else \
                Noted(notice or line)
        current.status_written(self.table.clock())
        return edited

    async def status_due(self, round_id: int) -> Edited | None:
        """The STATUS alarm rang: the round's deal with its status as it now stands, to show
        (None: nothing to show)."""
        current = self.table.find(round_id)
        if current is None or current.record.message_id is None:
            return None
        record = current.record
        texts = await self.people.round_texts(record)
        current.note("status", status_line(current, texts, len(current.answered)))
        outcome = await self.rewrite(current, texts, "")
        if outcome is None:  # nothing changed since the deal was last rewritten
            return None
        current.status_written(self.table.clock())
        return outcome
