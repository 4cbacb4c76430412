"""Match mode (/match N): N rounds of 24 in a row in one chat, a scoreboard after each round, a
"30 s left" notice in each, and a podium at the end.

A plain class over the round service and the match store: it says what to send, and sets the
next deal and the notices through the scheduler port. Everything is read from the database
(tables `matches` and `match_rounds`), so a restart resumes a match where it stopped: its open
round goes on, or the next one is dealt. Where the bot can no longer write (removed from the
chat, or its topic gone), `stop_all` ends the place's matches without a word.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from bot.play.chats.people import Chat, People, Player
from bot.play.guards.permissions import AdminCheck, may_steer
from bot.play.matches.scoreboard import board, podium
from bot.play.outcomes import Closed, Dealt, Edited, Said
from bot.play.ports import NEXT_DEAL, WARNING, Alarm, Scheduler, Target
from bot.play.round.events import Closings, FollowUp, RoundClosed
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.showing import time_left
from bot.play.round.table import RoundTable
from bot.play.words import WORDS
from bot.store.protocols import MatchStore, PeopleStore
from bot.store.records import Match, MatchRound, Place, Round
from bot.text.i18n import Texts

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 2, 20, 10
PAUSE = 5.0  # seconds between the end of a round and the next deal
WARN = 30.0  # the notice comes this long before a round ends (half a round, if rounds are short)


def match_pause(round_seconds: float) -> float:
    """The pause between a match's rounds: PAUSE, or a quarter of a round if rounds are short."""
    return min(PAUSE, round_seconds / 4)


class Matches:
    """Matches in many chats. One instance for the whole bot, built at start-up; it follows
    every round's close (`after_round`)."""

    def __init__(self, store: MatchStore, people_store: PeopleStore, people: People,
                 rounds: Rounds, table: RoundTable, scheduler: Scheduler, closings: Closings,
                 outbox: Outbox, pause: float = PAUSE, warn: float = WARN) -> None:
        self.store = store
        self.outbox = outbox
        self.people_store = people_store
        self.people = people
        self.rounds = rounds  # deals a match's rounds, closes one a stop ends
        self.table = table
        self.scheduler = scheduler
        self.pause = pause
        self.warn = warn
        closings.follow(self.after_round)

    async def is_on(self, chat_id: int, topic: int = 0) -> bool:
        return await self.store.match_on(chat_id, topic) is not None

    async def start(self, chat: Chat, player: Player, count: int | None = None,
                    target: Target | None = None) -> Dealt | Said:
        """Start a match of `count` rounds (None: the chat's setting) in this topic and deal
        its first round, shown (refused while a match or a round is on there)."""
        outcome = await self._start(chat, player, count)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _start(self, chat: Chat, player: Player, count: int | None) -> Dealt | Said:
        texts = await self.people.texts(chat, player)
        count = count or (await self.rounds.chat_settings(chat.id)).match
        if (on := await self.store.match_on(chat.id, chat.topic)) is not None:
            return Said(await self._on_text(on, texts))
        if self.table.of(chat.id, chat.topic) is not None:
            return Said(texts("match_round_on"))
        dealt = await self.rounds.deal(chat, player, "24")
        if not isinstance(dealt, Dealt):
            return dealt
        match = await self.store.open_match(chat.id, count, player.id, texts.language,
                                            self.table.clock(), chat.topic)
        if match is None:  # another /match won the race: this stays an ordinary round
            return dealt
        return await self._numbered(match, dealt, texts)

    async def deal_next(self, chat_id: int, topic: int = 0) -> Dealt | Said | None:
        """The next round of the topic's match, if one is due, shown (None: no match on, a
        round is on, or the match has had its rounds). Said: why none was dealt; the next try
        is then set a pause later."""
        outcome = await self._deal_next(chat_id, topic)
        await self.outbox.show(outcome, Target(chat_id, topic))
        return outcome

    async def _deal_next(self, chat_id: int, topic: int) -> Dealt | Said | None:
        match = await self.store.match_on(chat_id, topic)
        if match is None or self.table.of(chat_id, topic) is not None:
            return None
        if _played(await self.store.match_rounds(match.id)) >= match.rounds:
            return None
        known = await self.people_store.chat_and_user(chat_id, match.started_by or 0)
        if known is None:  # cannot happen: the first deal stored both; end rather than guess
            await self.store.end_match(match.id, "stopped", self.table.clock())
            return None
        (kind, title), (first_name, username) = known
        chat = Chat(chat_id, kind, title, topic)
        starter = Player(match.started_by or 0, first_name, username, match.lang)
        dealt = await self.rounds.deal(chat, starter, "24")
        if not isinstance(dealt, Dealt):
            if self.table.of(chat_id, topic) is None:  # too slow: try again shortly
                self.scheduler.set(Alarm(NEXT_DEAL, chat_id, topic=topic), self.pause)
            return dealt
        return await self._numbered(match, dealt, await self.people.texts(chat, starter))

    async def _numbered(self, match: Match, dealt: Dealt, texts: Texts) -> Dealt:
        """A round dealt into the match: its number, and its "30 s left" notice set."""
        number = await self.store.add_match_round(match.id, dealt.round.id)
        self._set_warning(dealt.round)
        line = texts("match_round", number=number, count=match.rounds)
        if (opened := self.table.find(dealt.round.id)) is not None:
            opened.numbered(line)  # hints and notices edit it as it is
        return dataclasses.replace(dealt, text=dealt.text + "\n" + line)

    async def after_round(self, event: RoundClosed) -> FollowUp:
        """A round ended in a topic with a match on: the scoreboard (the next deal is set), or
        the podium; it rides on the round's result."""
        match = await self.store.match_on(*event.round.place)
        if match is None:
            return FollowUp()
        said, on = await self._step(match, event.round.id, resumed=False)
        return FollowUp(said, match_on=on)

    async def _step(self, match: Match, round_id: int | None, resumed: bool
                    ) -> tuple[str | None, bool]:
        """The match's next step once a round ended: what to say, and whether it goes on."""
        if self.table.of(*match.place) is not None:
            return None, True  # a round is on: its end brings the next step
        rounds = await self.store.match_rounds(match.id)
        played, texts = _played(rounds), await self.people.chat_texts(match.chat_id, match.lang)
        scores = await self.store.match_scores(match.id)
        if played >= match.rounds:
            if not await self.store.end_match(match.id, "done", self.table.clock()):
                return None, False
            return podium(texts, "match_over", played, match.rounds, scores), False
        self.scheduler.set(Alarm(NEXT_DEAL, match.chat_id, topic=match.topic), self.pause)
        if not resumed and round_id not in {r.round_id for r in rounds}:
            return None, True  # a round outside the match ended: go on with it
        head = texts("match_resumed", number=played + 1, count=match.rounds) if resumed else \
            texts("match_scores", number=played, count=match.rounds)
        return "\n".join([head, *board(texts, scores),
                          texts("match_next", seconds=round(self.pause))]), True

    async def stop(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                   target: Target | None = None) -> Closed | Said:
        """/match stop: end the topic's match now (whoever started it, or a chat admin), its
        open round with it under the rule of an early end (bot.play.guards.permissions: once
        others have answered it, only an admin), and show the podium so far."""
        outcome = await self._stop(chat, player, is_admin)
        target = target or Target(chat.id, chat.topic)
        await self.outbox.show(outcome, Target(target.chat_id, target.topic, target.reply_to,
                                               False, target.public_only))
        return outcome

    async def _stop(self, chat: Chat, player: Player, is_admin: AdminCheck | None
                    ) -> Closed | Said:
        texts = await self.people.texts(chat, player)
        match = await self.store.match_on(chat.id, chat.topic)
        if match is None:
            return Said(texts("match_none"))
        if not await may_steer(chat.type, player.id, match.started_by, is_admin):
            return Said(texts("match_stop_not_allowed",
                              starter=await self.people.starter(match.started_by, texts)))
        rounds = await self.store.match_rounds(match.id)
        current = self.table.of(chat.id, chat.topic)
        if current is not None and current.id not in {r.round_id for r in rounds}:
            current = None  # a round outside the match goes on
        if current is not None and await self.rounds.end_refusal(
                chat, player, current.record, is_admin) is not None:
            return Said(texts("match_stop_wait", left=time_left(
                texts, current.record.deadline - self.table.clock())))
        if not await self.store.end_match(match.id, "stopped", self.table.clock()):
            return Said(texts("match_none"))
        self.scheduler.cancel(NEXT_DEAL, chat.id, chat.topic)
        self.scheduler.cancel(WARNING, chat.id, chat.topic)
        ended = None
        if current is not None:
            ended = await self.rounds.end(current, "revealed", texts, ended_by=player,
                                          more=self._final(match, texts))
        return ended or Said(await self._final(match, texts)())

    def _final(self, match: Match, texts: Texts) -> Callable[[], Awaitable[str]]:
        """The podium of a stopped match, worded once its last round is closed."""
        async def final() -> str:
            played = _played(await self.store.match_rounds(match.id))
            return podium(texts, "match_stopped", played, match.rounds,
                          await self.store.match_scores(match.id))
        return final

    async def _on_text(self, match: Match, texts: Texts) -> str:
        rounds = await self.store.match_rounds(match.id)
        number = max((r.number for r in rounds), default=0)
        return texts("match_on", number=max(number, 1), count=match.rounds)

    def warning_delay(self, round_: Round) -> float:
        """Seconds after the round's start when its "30 s left" notice is due."""
        length = round_.deadline - round_.started_at
        return length - (self.warn if length >= 2 * self.warn else length / 2)

    def _set_warning(self, round_: Round) -> None:
        """The round's "30 s left" notice (skipped when that moment has passed)."""
        delay = round_.started_at + self.warning_delay(round_) - self.table.clock()
        if delay > 0:
            self.scheduler.set(Alarm(WARNING, round_.chat_id, round_.id, round_.topic), delay)
        else:
            self.scheduler.cancel(WARNING, round_.chat_id, round_.topic)

    async def warning(self, chat_id: int, round_id: int, topic: int = 0) -> Edited | None:
        """The "30 s left" notice, if the round is still on: a line under its deal, shown."""
        opened = self.table.of(chat_id, topic)
        if opened is None or opened.id != round_id:
            return None
        current = opened.record
        texts = await self.people.chat_texts(chat_id, current.lang)
        left = max(1, round(current.deadline - self.table.clock()))
        opened.note("warn", texts("match_time_left", seconds=left))
        outcome = await self.rounds.rewrite(opened, texts, texts(
            "match_time_left_alone", seconds=left,
            puzzle=WORDS[current.game].puzzle_html(current)))
        await self.outbox.show(outcome, Target(chat_id, topic))
        return outcome

    async def resume(self, chats: Callable[[int], bool] | None = None
                     ) -> list[tuple[Place, str]]:
        """After a restart (and after the rounds resumed): the notices of match rounds still
        running are set again, and per match what to send (the next deal is set); with
        `chats`, only those chats' matches."""
        said = []
        for match in await self.store.matches_on():
            if chats is not None and not chats(match.chat_id):
                continue
            current = self.rounds.open_round(*match.place)
            if current is not None:
                rounds = await self.store.match_rounds(match.id)
                if current.id in {r.round_id for r in rounds}:
                    self._set_warning(current)
                continue  # its end brings the next step
            text, _on = await self._step(match, None, resumed=True)
            if text is not None:
                said.append((match.place, text))
        return said

    async def stop_all(self, chat_id: int, topic: int | None = None) -> None:
        """The bot can no longer write to the chat (or, given a `topic`, to that topic): its
        matches stop without a word."""
        for match in await self.store.matches_on():
            if match.chat_id == chat_id and topic in (None, match.topic):
                await self.store.end_match(match.id, "stopped", self.table.clock())
                self.scheduler.cancel(NEXT_DEAL, chat_id, match.topic)
                self.scheduler.cancel(WARNING, chat_id, match.topic)

    def follow_chat(self, old_id: int, new_id: int, moved: Round | None) -> None:
        """A group became a supergroup: a pending deal and notice follow it to the new id."""
        if self.scheduler.pending(NEXT_DEAL, old_id) is not None:
            self.scheduler.cancel(NEXT_DEAL, old_id)
            self.scheduler.set(Alarm(NEXT_DEAL, new_id), self.pause)
        if self.scheduler.pending(WARNING, old_id) is not None:
            self.scheduler.cancel(WARNING, old_id)
            if moved is not None:
                self._set_warning(moved)


def _played(rounds: list[MatchRound]) -> int:
    return sum(r.status != "open" for r in rounds)
