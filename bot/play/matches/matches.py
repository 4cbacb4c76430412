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
from bot.play.games import FIRST, GAMES
from bot.play.guards.permissions import AdminCheck, may_steer
from bot.play.matches.book import PAUSE, WARN, MatchBook, played
from bot.play.matches.scoreboard import podium
from bot.play.outcomes import Closed, Dealt, Edited, Said
from bot.play.ports import NEXT_DEAL, WARNING, Alarm, Scheduler, Target
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.showing import time_left
from bot.play.round.table import RoundTable
from bot.store.protocols import MatchStore
from bot.store.records import Match, Place, Round
from bot.text.i18n import Texts

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 2, 20, 10
__all__ = ["DEFAULT_ROUNDS", "MAX_ROUNDS", "MIN_ROUNDS", "PAUSE", "WARN", "Matches", "match_pause"]


def match_pause(round_seconds: float) -> float:
    """The pause between a match's rounds: PAUSE, or a quarter of a round if rounds are short."""
    return min(PAUSE, round_seconds / 4)


class Matches:
    """Matches in many chats. One instance for the whole bot, built at start-up: it starts,
    deals, notices and stops them (its step after each close is the book's:
    bot.play.matches.book)."""

    def __init__(self, book: MatchBook, store: MatchStore, people: People,
                 rounds: Rounds, table: RoundTable, scheduler: Scheduler,
                 outbox: Outbox, pause: float = PAUSE) -> None:
        self.book = book  # whether a match is on, its alarms, its quiet end
        self.store = store
        self.outbox = outbox
        self.people = people
        self.rounds = rounds  # deals a match's rounds, closes one a stop ends
        self.table = table
        self.scheduler = scheduler
        self.pause = pause

    async def is_on(self, chat_id: int, topic: int = 0) -> bool:
        return await self.book.is_on(chat_id, topic)

    async def start(self, chat: Chat, player: Player, count: int | None = None,
                    target: Target | None = None, game: str | None = None) -> Dealt | Said:
        """Start a match of `count` rounds (None: the chat's setting) of `game` (None: the
        first game's) in this topic and deal its first round, shown (refused while a match or
        a round is on there)."""
        outcome = await self._start(chat, player, count, game or FIRST.name)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _start(self, chat: Chat, player: Player, count: int | None,
                     game: str) -> Dealt | Said:
        texts = await self.people.texts(chat, player)
        count = count or (await self.rounds.chat_settings(chat.id)).match
        if (on := await self.store.match_on(chat.id, chat.topic)) is not None:
            return Said(await self._on_text(on, texts))
        if self.table.of(chat.id, chat.topic) is not None:
            return Said(texts("match_round_on"))
        dealt = await self.rounds.deal(chat, player, game)
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
        rounds = await self.store.match_rounds(match.id)
        if played(rounds) >= match.rounds:
            return None
        known = await self.people.as_stored(chat_id, match.started_by or 0, match.lang, topic)
        if known is None:  # cannot happen: the first deal stored both; end rather than guess
            await self.store.end_match(match.id, "stopped", self.table.clock())
            return None
        chat, starter = known
        dealt = await self.rounds.deal(chat, starter, rounds[0].game if rounds else FIRST.name)
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
        """The podium of a stopped match, worded once its last round is closed: stopped in
        its last round, every round was played, and it says so."""
        async def final() -> str:
            done = played(await self.store.match_rounds(match.id))
            return podium(texts, "match_over" if done >= match.rounds else "match_stopped",
                          done, match.rounds, await self.store.match_scores(match.id))
        return final

    async def _on_text(self, match: Match, texts: Texts) -> str:
        rounds = await self.store.match_rounds(match.id)
        number = max((r.number for r in rounds), default=0)
        return texts("match_on", number=max(number, 1), count=match.rounds)

    def warning_delay(self, round_: Round) -> float:
        return self.book.warning_delay(round_)

    def _set_warning(self, round_: Round) -> None:
        self.book.set_warning(round_)

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
            puzzle=GAMES[current.game].words.puzzle_html(current)))
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
            text, _on = await self.book.step(match, None, resumed=True)
            if text is not None:
                said.append((match.place, text))
        return said

    async def stop_all(self, chat_id: int, topic: int | None = None) -> None:
        await self.book.stop_all(chat_id, topic)

    def follow_chat(self, old_id: int, new_id: int, moved: Round | None) -> None:
        self.book.follow_chat(old_id, new_id, moved)
