"""Streak (/streak, in a private chat): hands of 24 alone, one at a time, each aimed a little
harder at the person's skill as the ratings know it, until the first hand not solved — a wrong
answer, a give-up or the time running out ends it. The person's best is the longest streak of
theirs.

A plain class over the round service and the streak store: it starts a streak, deals its hands
and reads the boards (each person's longest of the season and of all time, everyone's or a
group's players'); what follows each close is the book's (bot.play.solo.streak_book). A
streak's rounds are ordinary rounds of 24 (rated, scored, live for the solving commands while
they are played).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.play.chats.people import Chat, People, Player
from bot.play.community.periods import ALL_TIME, season_key
from bot.play.outcomes import Dealt, Said
from bot.play.ports import Place, Target
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.solo.boards import boards_text
from bot.play.solo.streak_book import StreakBook, aim_of
from bot.store.protocols import StreakStore
from bot.store.records import Streak
from bot.text.i18n import Texts

Chats = Callable[[int], bool]


class Streaks:
    def __init__(self, book: StreakBook, store: StreakStore, people: People,
                 rounds: Rounds, table: RoundTable, outbox: Outbox) -> None:
        self.book = book  # which rounds are a streak's, the step after each close
        self.store = store
        self.people = people
        self.rounds = rounds
        self.table = table  # a hand's open round, whose deal keeps its number line
        self.outbox = outbox

    async def start(self, chat: Chat, player: Player,
                    target: Target | None = None) -> Dealt | Said:
        """/streak: a new streak and its first hand, shown; refused in a group, while the
        person's streak is on, or while a round is on in the chat."""
        outcome = await self._start(chat, player)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _start(self, chat: Chat, player: Player) -> Dealt | Said:
        texts = await self.people.texts(chat, player)
        if chat.type != "private":
            return Said(f"{texts('streak_alone')}\n\n{await self._boards(texts, chat.id)}")
        if (on := await self.store.streak_on(player.id)) is not None:
            return Said(texts("streak_on", solved=on.solved))
        if (current := self.rounds.open_round(chat.id, chat.topic)) is not None:
            return Said(self.rounds.still_open(current, texts))
        best = await self.store.best_streak(player.id)
        streak = await self.store.open_streak(player.id, chat.id, texts.language,
                                              self.rounds.clock())
        if streak is None:  # another /streak won the race
            return Said(texts("streak_on", solved=0))
        dealt = await self._hand(streak, chat, player, texts)
        if isinstance(dealt, Said):
            await self.store.end_streak(streak.id, "stopped", self.rounds.clock())
            return dealt
        line = texts("streak_begins", best=best)
        return dataclasses.replace(dealt, text=f"{dealt.text}\n{line}")

    async def deal_next(self, chat_id: int) -> Dealt | Said | None:
        """The next hand of the person's streak, if one is due, shown (None: no streak on, or
        its hand is in play). A round dealt meanwhile in the chat, or a bound, ends the
        streak with what it solved (Said)."""
        outcome = await self._deal_next(chat_id)
        await self.outbox.show(outcome, Target(chat_id, 0))
        return outcome

    async def _deal_next(self, chat_id: int) -> Dealt | Said | None:
        streak = await self.store.streak_on(chat_id)  # a private chat's id is its person's
        if streak is None or streak.round_id is not None:
            return None
        known = await self.people.as_stored(chat_id, streak.user_id, streak.lang)
        if known is None:  # the person's rows went (/forget): nothing to deal to
            await self.store.end_streak(streak.id, "stopped", self.rounds.clock())
            return None
        chat, player = known
        texts = await self.people.texts(chat, player)
        dealt = await self._hand(streak, chat, player, texts)
        if isinstance(dealt, Said):
            ended = await self.book.end(streak, "stopped", texts)
            return Said(f"{dealt.text}\n{ended}") if ended else None
        return dealt

    async def _hand(self, streak: Streak, chat: Chat, player: Player,
                    texts: Texts) -> Dealt | Said:
        """The streak's next hand, aimed by what it solved, dealt and taken as its hand, with
        its number under the deal (kept there as hints edit it)."""
        dealt = await self.rounds.deal_aimed(chat, player, aim_of(streak.solved))
        if not isinstance(dealt, Dealt):
            return dealt
        if not await self.store.play_hand(streak.id, dealt.round.id):
            return dealt  # the streak ended meanwhile: an ordinary round
        self.book.playing(dealt.round.id)
        line = texts("streak_hand", number=streak.solved + 1)
        if (opened := self.table.find(dealt.round.id)) is not None:
            opened.numbered(line)
        return dataclasses.replace(dealt, text=f"{dealt.text}\n{line}")

    async def board(self, chat: Chat, player: Player, target: Target | None = None) -> Said:
        """/streak top: the longest streaks of the season and of all time — everyone's, or in
        a group its own players' — shown."""
        texts = await self.people.texts(chat, player)
        said = Said(await self._boards(texts, None if chat.type == "private" else chat.id))
        await self.outbox.show(said, target or Target(chat.id, chat.topic))
        return said

    async def _boards(self, texts: Texts, chat_id: int | None) -> str:
        parts = (("streak_board_season", season_key(self.rounds.clock())),
                 ("streak_board_all", ALL_TIME))
        return await boards_text(texts, self.store, parts, "streak_board_empty", chat_id)

    async def resume(self, chats: Chats | None = None) -> list[tuple[Place, str]]:
        """After a restart (and after the rounds resumed, their late closes followed): the
        hands still in play are known again as a streak's, a streak between hands gets its
        next one set; a streak whose hand is gone ends, stopped. With `chats`, only those
        chats' streaks. What to say, per place."""
        said = []
        for streak in await self.store.streaks_on():
            if chats is not None and not chats(streak.chat_id):
                continue
            if streak.round_id is None:
                self.book.next_hand(streak.chat_id)
                continue
            current = self.rounds.open_round(streak.chat_id)
            if current is not None and current.id == streak.round_id:
                self.book.playing(current.id)
                continue
            texts = await self.people.chat_texts(streak.chat_id, streak.lang)
            ended = await self.book.end(streak, "stopped", texts)
            if ended is not None:
                said.append(((streak.chat_id, 0), ended))
        return said
