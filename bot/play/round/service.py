"""The round service: a round's life in many chats and topics — deal, answer, hint, pass, reveal,
time out — as a plain class tests drive without Telegram. It builds the units that do each and
hands every call to its unit; it decides nothing itself.

Every command has one shape: fetch the topic's round once (the table), call one transition of
the aggregate (bot.play.round.open_round), commit what it recorded (one write path: the table),
handle the events it raised once the database confirmed them (a round closed: a match adds its
scoreboard), word the outcome (bot.play.round.results, the games' words) and publish it through
the outbox, which acts on what became of it. What comes back is the typed outcome, for a face
that has more to say to its asker (a button's notice, a page's verdict). The units:
bot.play.round.dealing (new rounds), .answering (answers), .steering (hints, passes, reveals),
.ending (time-outs and ends, the result of a closed round) and .views (the deal as it stands,
its status under the puzzle).

A chat's settings (bot.play.chats.settings) say how long its next round lasts and what /play
deals there; a round keeps the terms it was dealt with.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import ChatSettings, Settings
from bot.play.dealing.adaptive import AdaptiveDeals
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.guards.permissions import AdminCheck
from bot.play.guards.throttle import Throttle
from bot.play.outcomes import Closed, Dealt, Edited, Marked, Noted, Refused, Said
from bot.play.ports import OpenRounds, OwedClaim, Target
from bot.play.round.answering import Answered, Answering, Entries, SuddenEnds
from bot.play.round.dealing import Dealing
from bot.play.round.ending import Endings
from bot.play.round.events import Closings, RoundClosed
from bot.play.round.open_round import OpenRound, Terms
from bot.play.round.outbox import Outbox
from bot.play.round.results import Results
from bot.play.round.steering import Steering
from bot.play.round.table import RoundTable, dealt_with
from bot.play.round.views import Views
from bot.play.rules import Deal, PlayOptions
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text.i18n import Texts

T = TypeVar("T")
# What a call handed to a unit returns: the unit's own coroutine, which the caller awaits (the
# facade adds no coroutine of its own to an update).
Later = Coroutine[Any, Any, T]


class Rounds:
    """Rounds in many chats. One instance for the whole bot, built at start-up: the faces, the
    alarms, matches and recovery call it, and each public method hands the call to the unit that
    does it (its docstring says what the call does), so callers need not know the units."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, dealer: Dealer,
                 analyses: Analyses, closings: Closings, outbox: Outbox, settings: Settings,
                 views: Views, throttle: Throttle | None = None,
                 adaptive: AdaptiveDeals | None = None,
                 open_rounds: OpenRounds | None = None, entries: Entries | None = None,
                 sudden: SuddenEnds | None = None) -> None:
        self.store = store
        self.adaptive = adaptive  # deals by the learned difficulty (None: the model's levels)
        self.people = people
        self.table = table
        self.dealer = dealer
        self.analyses = analyses
        self.closings = closings
        self.outbox = outbox
        self.settings = settings
        self.results = Results(people, analyses, table.live, open_rounds)
        self.views = views
        self.endings = Endings(store, people, table, self.results, closings, outbox, settings)
        self.dealing = Dealing(store, people, table, dealer, analyses, settings, adaptive,
                               self.views, self.endings, outbox, open_rounds)
        self.answering = Answering(store, people, table, self.results, throttle or Throttle(),
                                   self.views, self.endings, outbox, entries, sudden)
        self.steering = Steering(store, people, table, analyses, self.views, self.endings,
                                 outbox, settings)

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    @property
    def throttle(self) -> Throttle:
        """Who may hear a reply to what is no answer at all (the answering unit's)."""
        return self.answering.throttle

    @property
    def reads_group_messages(self) -> bool:
        """False in privacy mode: groups' plain messages never reach the bot."""
        return self.views.reads_group_messages

    # --- what is on (reading, no transition) -----------------------------------------------------

    def chat_settings(self, chat_id: int) -> Later[ChatSettings]:
        """What the chat's next round follows (the defaults where it set nothing)."""
        return self.settings.of(chat_id)

    def terms(self, chat_id: int) -> Later[Terms]:
        return self.dealing.terms(chat_id)

    async def stand_in_terms(self, records: Iterable[Round]) -> Callable[[int], Terms]:
        """For rounds stored without the terms they were dealt with (dealt before terms were
        stored), their chats' settings now, read ahead for the table's look-up."""
        known = {chat: await self.dealing.terms(chat)
                 for chat in {r.chat_id for r in records if dealt_with(r) is None}}
        return known.__getitem__

    def open_round(self, chat_id: int, topic: int = 0) -> Round | None:
        """The record of the topic's open round."""
        current = self.table.of(chat_id, topic)
        return current.record if current else None

    async def find_round(self, round_id: int) -> Round | None:
        """A round, open or closed, as stored."""
        return await self.store.get_round(round_id)

    def result_head(self, round_id: int) -> str:
        """The head of a round's result as it was sent, to keep on top while its solutions
        are paged ("" once forgotten)."""
        return self.table.head(round_id)

    def ended_here(self, chat: Chat, round_id: int, pages: bool = False) -> Later[Round | None]:
        return self.endings.ended_here(chat, round_id, pages)

    async def shown_ended(self, chat: Chat, round_id: int) -> Round | None:
        """A round that ended in this chat whose solutions its result showed: one of a game
        that lists them, whose hand no round live elsewhere reaches now (None: none such)."""
        ended = await self.endings.ended_here(chat, round_id, pages=True)
        if ended is None or await self.results.elsewhere(ended) or \
                await self.results.for_everyone(ended):
            return None
        return ended

    # --- the deal as it stands (bot.play.round.views) --------------------------------------------

    def actions(self, current: OpenRound) -> tuple[str, ...]:
        return self.views.actions(current)

    def deal_view(self, current: OpenRound) -> Later[str]:
        return self.views.deal_view(current)

    def still_open(self, current: Round, texts: Texts) -> str:
        return self.views.still_open(current, texts)

    def dealt_again(self, current: OpenRound) -> Later[Dealt]:
        return self.views.dealt_again(current)

    def rewrite(self, current: OpenRound, texts: Texts, notice: str,
                reaction: str | None = None) -> Later[Edited | None]:
        return self.views.rewrite(current, texts, notice, reaction)

    def status(self, current: OpenRound, notice: str | None = None,
               reaction: str | None = None) -> Later[Edited | Marked | Noted]:
        return self.views.status(current, notice, reaction)

    async def status_due(self, round_id: int) -> Edited | None:
        """The STATUS alarm rang: the deal with its status as it now stands, shown."""
        outcome = await self.views.status_due(round_id)
        if outcome is not None:
            await self.outbox.show(outcome, Target(outcome.round.chat_id, outcome.round.topic))
        return outcome

    # --- dealing (bot.play.round.dealing) --------------------------------------------------------

    def play(self, chat: Chat, player: Player, game: str, options: PlayOptions | None = None,
             target: Target | None = None, claim: OwedClaim | None = None
             ) -> Later[Dealt | Said | None]:
        return self.dealing.play(chat, player, game, options, target, claim)

    def replay(self, chat: Chat, player: Player, round_id: int, same_level: bool,
               target: Target | None = None) -> Later[Dealt | Said | Refused]:
        return self.dealing.replay(chat, player, round_id, same_level, target)

    def deal(self, chat: Chat, player: Player, game: str, options: PlayOptions | None = None
             ) -> Later[Dealt | Said]:
        return self.dealing.deal(chat, player, game, options)

    def deal_aimed(self, chat: Chat, player: Player, aim: float,
                   only: Callable[[str], bool] | None = None,
                   length: float | None = None) -> Later[Dealt | Said]:
        return self.dealing.deal_aimed(chat, player, aim, only, length)

    def deal_given(self, chat: Chat, player: Player | None, dealt: Deal, length: float,
                   terms: Terms) -> Later[Dealt | Said]:
        return self.dealing.deal_given(chat, player, dealt, length, terms)

    # --- answers (bot.play.round.answering) ------------------------------------------------------

    def answer(self, chat: Chat, player: Player, text: str, explicit: bool,
               replied_to: int | None = None, target: Target | None = None,
               waited: float = 0.0) -> Later[Answered]:
        return self.answering.answer(chat, player, text, explicit, replied_to, target, waited)

    # --- hints, passes, reveals (bot.play.round.steering) ----------------------------------------

    def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
             round_id: int | None = None, target: Target | None = None
             ) -> Later[Edited | Marked | Refused]:
        return self.steering.hint(chat, player, is_admin, round_id, target)

    def pass_round(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                   round_id: int | None = None, target: Target | None = None
                   ) -> Later[Closed | Edited | Marked | Refused | Said]:
        return self.steering.pass_round(chat, player, is_admin, round_id, target)

    def reveal(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
               round_id: int | None = None, target: Target | None = None
               ) -> Later[Closed | Refused]:
        return self.steering.reveal(chat, player, is_admin, round_id, target)

    def end_refusal(self, chat: Chat, player: Player, current: Round,
                    is_admin: AdminCheck | None = None) -> Later[str | None]:
        return self.steering.end_refusal(chat, player, current, is_admin)

    # --- the end (bot.play.round.ending) ---------------------------------------------------------

    def expire(self, round_id: int) -> Later[Closed | None]:
        return self.endings.expire(round_id)

    def overdue(self) -> Later[list[Closed]]:
        return self.endings.overdue()

    def end(self, current: OpenRound, status: str, texts: Texts, ended_by: Player | None = None,
            follow: bool = True, more: Callable[[], Awaitable[str]] | None = None,
            everyone_passed: bool = False) -> Later[Closed | None]:
        return self.endings.end(current, status, texts, ended_by, follow, more, everyone_passed)

    def finish(self, ended: Round, head: str, rest: str, texts: Texts, listed_all: bool,
               events: list[RoundClosed]) -> Later[Closed]:
        return self.endings.finish(ended, head, rest, texts, listed_all, events)
