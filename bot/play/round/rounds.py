"""The round service: a round's life in many chats and topics — deal, reveal, time out, close —
as a plain class tests drive without Telegram.

Each open round is an `OpenRound` in the `RoundTable` (opening one there arms its end and makes
its puzzle live). Closing a round is three steps kept apart: decide how it ended (`_ending`),
write it (one closing statement: the database decides), then word the result and raise the
`RoundClosed` event, whose followers (a match) add their lines (`finish`). What comes back is a
typed outcome (bot.play.round.outcomes). Answers are judged in bot.play.round.answers, hints
given in bot.play.round.hints, a restart resumed in bot.play.round.recovery. A chat's own
settings (bot.play.chats.settings) say how long its next round lasts and what /play deals there.

The deal carries a status under its puzzle (bot.play.round.status): attempts that did not win,
Countdown's closest answers and who passed (/pass) are written there, at most once a second,
instead of a message each. When everyone who answered has passed, the round ends as if its time
had run out.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import ChatSettings, Settings
from bot.play.dealing.analyses import ANALYSES
from bot.play.dealing.dealer import Dealer
from bot.play.games import GAMES, Deal, PlayOptions, Revealed
from bot.play.guards.permissions import AdminCheck, end_refusal
from bot.play.ports import Alarm
from bot.play.round.events import Closings, RoundClosed
from bot.play.round.open_round import OpenRound
from bot.play.round.outcomes import (
    Closed,
    Dealt,
    Edited,
    Marked,
    Noted,
    Refused,
    Said,
)
from bot.play.round.showing import deal_actions, result_actions, time_left
from bot.play.round.status import STATUS, STATUS_EVERY, status_line
from bot.play.round.table import RoundTable
from bot.runtime import metrics
from bot.runtime.pool import SolverPool
from bot.store.protocols import RoundStore
from bot.store.records import BestAnswer, Place, Round
from bot.text import markup
from bot.text.i18n import Texts

DEFAULT_SECONDS = {"24": 120.0, "countdown": 60.0, "yahtzee": 300.0}
# Each open round makes the solving commands refuse its chat's members a few hands (the rule of
# bot.play.guards.live), so how many one person, or one group's topics, keep open is bounded:
# one account then refuses a member of its group under 1% of the 1,820 four-number hands.
ROUNDS_PER_PLAYER = 3  # open rounds one person started, in all chats
ROUNDS_PER_CHAT = 5  # open rounds in one group's forum topics
OVERDUE_GRACE = 1.0  # a round's alarm gets this long to ring before the sweep ends the round
PASSED_REACTION = "👌"  # on a /pass noted, when the status is written a moment later


@dataclass(frozen=True)
class Ending:
    """How a round closed without a right answer: its status, and the closest answer that
    wins it where the closest wins (with its points)."""

    status: str
    best: BestAnswer | None
    points: int
    early: bool


class Rounds:
    """Rounds in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, dealer: Dealer,
                 pool: SolverPool, closings: Closings,
                 seconds: Mapping[str, float] | None = None,
                 reads_group_messages: bool = True, settings: Settings | None = None) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.dealer = dealer
        self.pool = pool
        self.closings = closings
        self.seconds = {**DEFAULT_SECONDS, **(seconds or {})}
        # False in privacy mode: groups' plain messages never reach the bot, so deals there do
        # not invite players to just type the answer
        self.reads_group_messages = reads_group_messages
        self.settings = settings
        self._dealing: dict[Place, tuple[asyncio.Lock, int]] = {}  # topic -> lock, its users

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    def chat_settings(self, chat_id: int) -> ChatSettings:
        """What the chat's next round follows (the defaults where it set nothing)."""
        if self.settings is not None:
            return self.settings.of(chat_id)
        return ChatSettings(seconds=self.seconds)

    def actions(self, current: OpenRound) -> tuple[str, ...]:
        """The buttons under an open round's deal as it stands."""
        return deal_actions(current.record, self.chat_settings(current.record.chat_id).hints,
                            bool(current.answered))

    def open_round(self, chat_id: int, topic: int = 0) -> Round | None:
        """The record of the topic's open round."""
        current = self.table.of(chat_id, topic)
        return current.record if current else None

    async def find_round(self, round_id: int) -> Round | None:
        """A round, open or closed, as stored."""
        return await self.store.get_round(round_id)

    # --- dealing -------------------------------------------------------------------------------

    async def play(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None) -> Dealt | Said:
        """Deal a new round of the game, or say which round is on in this topic already.

        One deal at a time per topic: a /play sent meanwhile waits, then shows the new round.
        """
        texts = self.people.texts(chat, player)
        options = options or PlayOptions()
        async with self._one_deal_at_a_time(chat.id, chat.topic):
            current = self.table.of(chat.id, chat.topic)
            if current is not None:
                return Said(self.still_open(current.record, texts))
            if (bounded := self._bound(chat, player, texts)) is not None:
                return bounded
            rules = GAMES[game]
            if self.settings is not None:
                options = self.settings.options(chat.id, game, options)
            dealt = await self.dealer.deal(rules, options, player.id, chat.id, texts)
            if isinstance(dealt, str):
                return Said(dealt)
            return await self._open(chat, player, dealt, options, texts)

    def _bound(self, chat: Chat, player: Player, texts: Texts) -> Said | None:
        """Why no new round may open now: the player has ROUNDS_PER_PLAYER open, or the
        group's topics ROUNDS_PER_CHAT."""
        if self.table.started_by(player.id) >= ROUNDS_PER_PLAYER:
            return Said(texts("play_too_many_rounds", most=ROUNDS_PER_PLAYER))
        if self.table.in_chat(chat.id) >= ROUNDS_PER_CHAT:
            return Said(texts("play_too_many_topics", most=ROUNDS_PER_CHAT))
        return None

    async def replay(self, chat: Chat, player: Player, round_id: int, same_level: bool
                     ) -> Dealt | Said | Refused:
        """Play again (or Same level) under the result of round `round_id`: the same game as
        its rules say, unless a round is on in the topic (a notice says so). A press naming a
        round that never ended in this chat is refused."""
        texts = self.people.texts(chat, player)
        ended = await self.ended_here(chat, round_id)
        if ended is None:
            return Refused(texts("button_unknown"))
        if (current := self.table.of(chat.id, chat.topic)) is not None:
            return Refused(self.still_open(current.record, texts))
        return await self.play(chat, player, ended.game,
                               GAMES[ended.game].replay_options(ended, same_level))

    async def ended_here(self, chat: Chat, round_id: int, pages: bool = False) -> Round | None:
        """The ended round of this chat a result's button names (`pages`: one whose game pages
        its solutions), or None: a forged press names a round that never ended here."""
        ended = await self.store.get_round(round_id)
        if ended is None or ended.chat_id != chat.id or ended.status == "open" or \
                (pages and not GAMES[ended.game].pages_solutions):
            return None
        return ended

    async def _open(self, chat: Chat, player: Player, dealt: Deal, options: PlayOptions,
                    texts: Texts) -> Dealt | Said:
        """Store the dealt round and arm its end (before anything is sent, so that a failed
        send cannot leave a round without an end)."""
        await self.people.remember(chat, player)
        now = self.clock()
        length = self.chat_settings(chat.id).seconds[dealt.game]
        new = await self.store.open_round(chat.id, dealt.game, dealt.hand, dealt.target,
                                          dealt.level, dealt.points, texts.language, now,
                                          now + length, player.id, chat.topic)
        if new is None:  # another /play won the race while this hand was dealt
            current = self.open_round(chat.id, chat.topic) or \
                await self.store.open_round_of(chat.id, chat.topic)
            return Said(self.still_open(current, texts) if current else texts("no_round"))
        metrics.record_round_dealt(new.game)
        if dealt.analysis is not None:
            ANALYSES.keep(new.game, new.hand, new.target, dealt.analysis)
        text = self._deal_text(new, texts, chat.type)
        if options.level is not None and dealt.level != options.level:
            text += "\n" + texts("play_other_level", wanted=texts(f"level_{options.level}"),
                                 level=texts(f"level_{dealt.level}"), target=dealt.target)
        self.table.open(new, text)
        return self.dealt(new, text, texts)

    def dealt(self, new: Round, text: str, texts: Texts) -> Dealt:
        """The outcome of a deal: once sent, its message id is stored."""
        async def after(message_id: int | None) -> None:
            if message_id is not None:
                await self.set_message(new.id, message_id)

        return Dealt(new, text, texts, deal_actions(new, self.chat_settings(new.chat_id).hints),
                     after)

    async def set_message(self, round_id: int, message_id: int) -> None:
        """The deal was sent as this message: replies to it are answers, hints edit it."""
        await self.store.set_message(round_id, message_id)
        self.table.set_message(round_id, message_id)

    def _deal_text(self, current: Round, texts: Texts, chat_type: str) -> str:
        typing = (self.reads_group_messages and self.chat_settings(current.chat_id).typing) \
            or chat_type == "private"
        rules = GAMES[current.game]
        return "\n".join(filter(None, [rules.deal_text(current, texts),
                                        rules.how_to_answer(texts, typing)]))

    @asynccontextmanager
    async def _one_deal_at_a_time(self, chat_id: int, topic: int) -> AsyncIterator[None]:
        """A lock per chat and topic, kept while someone holds or waits for it: ten /play at
        once in a topic make one deal, not ten."""
        place = (chat_id, topic)
        lock, users = self._dealing.get(place, (asyncio.Lock(), 0))
        self._dealing[place] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._dealing[place]
            if users == 1:
                del self._dealing[place]
            else:
                self._dealing[place] = (lock, users - 1)

    def still_open(self, current: Round, texts: Texts) -> str:
        return GAMES[current.game].still_open_text(
            current, texts, time_left(texts, current.deadline - self.clock()))

    def is_deal(self, chat_id: int, message_id: int, topic: int = 0) -> bool:
        """Whether a message is the deal of the topic's round (open, or just won): a reply to
        it is an answer."""
        return self.table.is_deal(chat_id, message_id, topic)

    def deal_view(self, current: OpenRound, note: tuple[str, str] | None = None) -> str:
        """The deal's text as it stands (see OpenRound.view); after a restart it is worded
        again, less its level note and match number."""
        if current.deal_text is None:
            record = current.record
            current.deal_text = self._deal_text(
                record, self.people.round_texts(record),
                "private" if record.chat_id > 0 else "group")
        return current.view(current.deal_text, note)

    # --- ending early --------------------------------------------------------------------------

    async def reveal(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                     round_id: int | None = None) -> Closed | Refused:
        """/reveal (or the Reveal button of round `round_id`): end the round now and show the
        answers (see `end_refusal` for who may)."""
        texts = self.people.texts(chat, player)
        current = self.table.of(chat.id, chat.topic)
        if current is None or (round_id is not None and current.id != round_id):
            return Refused(texts("round_over" if round_id is not None else "no_round"))
        refusal = await self.end_refusal(chat, player, current.record, is_admin)
        if refusal is not None:
            return Refused(refusal)
        closed = await self.close(current.record, "revealed", texts, ended_by=player)
        return closed or Refused(texts("no_round"))

    async def end_refusal(self, chat: Chat, player: Player, current: Round,
                          is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not end the round early (None: they may): only its starter
        or an admin may, and once others have answered, only an admin
        (bot.play.guards.permissions), so that ending a round never changes who scores."""
        texts = self.people.texts(chat, player)
        answerers = await self.store.answerers(current.id) if chat.type != "private" else []
        why = await end_refusal(chat.type, player.id, current.started_by, answerers, is_admin)
        if why is None:
            return None
        left = time_left(texts, current.deadline - self.clock())
        if why == "others_answered":
            return texts("reveal_others_answered", left=left)
        return texts("reveal_not_allowed", left=left,
                     starter=await self.people.starter(current.started_by, texts))

    # --- the status under the deal, and passing ------------------------------------------------

    def status(self, current: OpenRound, notice: str | None = None,
               reaction: str | None = None) -> Edited | Marked | Noted:
        """The deal with its status as it stands, if it may be written now; else the STATUS
        alarm is set to write it when it may (at most once every STATUS_EVERY seconds), and a
        `reaction` (if given) marks what asked for it meanwhile. A deal never sent can't be
        edited: its `notice` is then said."""
        record = current.record
        worded = self.people.round_texts(record)  # the deal's language
        line = current.noted("status", status_line(current, worded, len(current.answered)))
        wait = current.status_due(self.clock(), STATUS_EVERY)
        if wait > 0 and record.message_id is not None:
            if not self.table.scheduler.pending(STATUS, record.chat_id, record.topic):
                self.table.scheduler.set(Alarm(STATUS, record.chat_id, record.id, record.topic),
                                         wait)
            return Marked(reaction, notice or line) if reaction is not None else \
                Noted(notice or line)
        current.status_at = self.clock()
        return Edited(record, self.deal_view(current), worded, self.actions(current),
                      notice if notice is not None else line)

    def status_due(self, round_id: int) -> Edited | None:
        """The STATUS alarm rang: the round's deal with its status as it now stands."""
        current = self.table.find(round_id)
        if current is None or current.record.message_id is None:
            return None
        current.status_at = self.clock()
        texts = self.people.round_texts(current.record)
        current.noted("status", status_line(current, texts, len(current.answered)))
        return Edited(current.record, self.deal_view(current), texts, self.actions(current), "")

    async def pass_round(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                         round_id: int | None = None) -> Closed | Edited | Marked | Refused:
        """/pass (or the Pass button): a player who answered gives up on the round; when all
        who answered have passed, it ends as at its time-out. Whoever may end it early now (its
        starter while nobody else answered, an admin, anyone in a private chat) ends it, as
        /reveal does; anyone else who has not answered is told who may."""
        texts = self.people.texts(chat, player)
        opened = self.table.of(chat.id, chat.topic)
        if opened is None or (round_id is not None and opened.id != round_id):
            return Refused(texts("round_over" if round_id is not None else "no_round"))
        current = opened.record
        answerers = await self.store.answerers(current.id)
        if player.id not in answerers:
            if await self.end_refusal(chat, player, current, is_admin) is None:
                closed = await self.close(current, "revealed", texts, ended_by=player)
                return closed or Refused(texts("no_round"))
            return Refused(texts("pass_not_answered",
                                 left=time_left(texts, current.deadline - self.clock())))
        if not await self.store.record_pass(current.id, player.id, self.clock()):
            return Refused(texts("pass_again"))
        passers = await self.store.passers(current.id)
        opened.answered.update(answerers)
        opened.passed = [name for _, name in passers]
        if set(answerers) <= {user for user, _ in passers}:
            closed = await self.close(current, "revealed", texts, everyone_passed=True)
            return closed or Refused(texts("no_round"))
        notice = texts("pass_noted", count=len(passers), answered=len(answerers))
        shown = self.status(opened, notice, PASSED_REACTION)
        return shown if not isinstance(shown, Noted) else Marked(PASSED_REACTION, notice)

    # --- the end -------------------------------------------------------------------------------

    async def expire(self, round_id: int) -> Closed | None:
        """The round's time ran out: its result, if this call closed it."""
        current = self.table.find(round_id)
        if current is None:
            return None
        return await self.close(current.record, "expired", self.people.round_texts(current.record))

    async def overdue(self) -> list[Closed]:
        """End every open round whose deadline passed more than OVERDUE_GRACE ago (its alarm
        should have rung: the loop stalled, the process was paused): their results."""
        now = self.clock()
        late = [r.id for r in self.table.rounds() if r.record.deadline + OVERDUE_GRACE <= now]
        ended = [await self.expire(round_id) for round_id in late]
        return [closed for closed in ended if closed is not None]

    async def close(self, current: Round, status: str, texts: Texts,
                    ended_by: Player | None = None, follow: bool = True,
                    more: Callable[[], Awaitable[str]] | None = None,
                    everyone_passed: bool = False) -> Closed | None:
        """Close a round without a right answer; None if it was closed already. Where the
        closest answer wins, it does, whether the time ran out or the round was ended early
        — but never an answer of `ended_by`, who ended it. `follow`: raise the event (not at
        a restart, where matches resume on their own); `more` words lines for under the
        result's head once the round is closed (a stopped match's podium); `everyone_passed`:
        all who answered passed (it scores as at its time-out)."""
        ending = await self._ending(current, status, ended_by)
        ended_by_answered = ended_by is not None and ending.early and \
            ended_by.id in await self.store.answerers(current.id)
        best, winner = ending.best, ending.best.user_id if ending.points > 0 and ending.best \
            else None
        if not await self.store.close_round(
                current.id, "won" if winner else status, self.clock(), winner,
                best.text if winner and best else None, ending.points,
                best.at - current.started_at if winner and best else None):
            return None
        metrics.record_round_ended(current.game, "won" if winner else status)
        self.table.close(current)
        head = self._ending_head(current, ending, texts, ended_by, ended_by_answered)
        if everyone_passed:
            head = f"{head}\n{texts('ended_by_passes')}"
        revealed = await self.answers_shown(current, texts)
        if more is not None:
            head = f"{head}\n{await more()}"
        return await self.finish(current, head, "\n" + revealed.text, texts, revealed.complete,
                                 follow)

    async def _ending(self, current: Round, status: str, ended_by: Player | None) -> Ending:
        """How the round ends: ended early or not, and the closest answer that wins it (not
        one of whoever ended it early)."""
        rules = GAMES[current.game]
        early = status == "revealed" and self.clock() < current.deadline
        best = None
        if rules.closest_wins:
            best = await self.store.best_answer(
                current.id, excluding=ended_by.id if early and ended_by else None)
        points = rules.points_for(best.distance) if best is not None else 0
        return Ending(status, best, points, early)

    def _ending_head(self, current: Round, ending: Ending, texts: Texts,
                     ended_by: Player | None, ended_by_answered: bool = False) -> str:
        """The result's head for a round that closed without a right answer (that its ender's
        answers could not win it is said only if they gave any)."""
        rules = GAMES[current.game]
        lines = [texts("timeout" if ending.status == "expired" else "revealed",
                       goal=rules.goal_html(current, texts))]
        if ending.best is not None and ending.points > 0:
            lines.append(texts("closest_wins", name=markup.name(ending.best.name),
                               answer=markup.code(ending.best.text),
                               distance=ending.best.distance, points=ending.points))
        elif rules.closest_wins:
            lines.append(texts("nobody_close"))
        if ending.early and rules.closest_wins and ended_by is not None:
            lines.append(texts("ended_early" if ended_by_answered else "ended_early_quietly",
                               name=markup.name(ended_by.first_name)))
        return "\n".join(lines)

    async def finish(self, ended: Round, head: str, rest: str, texts: Texts,
                     listed_all: bool, follow: bool = True) -> Closed:
        """A closed round's result, `head` then `rest`: the event raised (`follow`; a match
        adds its scoreboard under the head), its buttons, and what follows its sending
        (announced: a restart sends it no more)."""
        followed = await self.closings.closed(RoundClosed(ended)) if follow else None
        if followed is not None and followed.lines:
            head = f"{head}\n{followed.lines}"
        text = head + rest
        actions = result_actions(ended, followed.match_on if followed else False, listed_all)

        async def after(message_id: int | None) -> None:
            await self.store.set_announced([ended.id])
            if message_id is not None:
                self.table.remember_head(ended.id, head)

        return Closed(ended, text, head, texts, actions, after)

    async def answers_shown(self, current: Round, texts: Texts) -> Revealed:
        """The puzzle's answers for its result, or a line saying they are kept back while
        the same puzzle is live in another chat (the bot solves no live round for anyone)."""
        if self.table.live.elsewhere(current):
            return Revealed(texts("answers_held_back"), complete=False)
        return await GAMES[current.game].reveal(self.pool, current, texts)

    def result_head(self, round_id: int) -> str:
        """The head of a round's result as it was sent, to keep on top while its solutions
        are paged ("" once forgotten)."""
        return self.table.head(round_id)
