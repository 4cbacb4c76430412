"""Storm (/storm, in a private chat): as many hands of 24 as a person solves before the bot's clock
runs out — three minutes at the start (a setting), a few seconds more for each hand solved, more
taken off for each missed or given up. The hands start easy and get harder. The boards show each
person's best storm of the day and of the season: everyone's, or in a group its own players'.

A plain class over the round service and the storm store: it starts a storm, deals its hands and
reads the boards; what follows each close is the book's (bot.play.solo.storm_book). A storm's
rounds are ordinary rounds of 24 (rated, scored, live for the solving commands while they are
played), each lasting what is left of the clock. A restart ends a storm with what it scored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.play.chats.people import Chat, People, Player
from bot.play.community.periods import day_key, season_key
from bot.play.outcomes import Dealt, Said
from bot.play.ports import Place, Target
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.solo.boards import boards_text
from bot.play.solo.storm_book import (
    BONUS,
    PENALTY,
    SECONDS,
    SHORTEST,
    StormBook,
    aim_of,
)
from bot.store.protocols import StormStore
from bot.store.records import Storm
from bot.text.i18n import Texts

Chats = Callable[[int], bool]


class Storms:
    def __init__(self, book: StormBook, store: StormStore, people: People,
                 rounds: Rounds, table: RoundTable, outbox: Outbox,
                 seconds: float = SECONDS) -> None:
        self.book = book  # which rounds are a storm's, the step after each close
        self.store = store
        self.people = people
        self.rounds = rounds
        self.table = table  # a hand's open round, whose deal keeps its line
        self.outbox = outbox
        self.seconds = seconds  # a storm's clock at its start

    async def start(self, chat: Chat, player: Player,
                    target: Target | None = None) -> Dealt | Said:
        """/storm: a new storm and its first hand, shown; in a group, where it is played and
        the group's board; while the person's storm is on, where it stands."""
        outcome = await self._start(chat, player)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _start(self, chat: Chat, player: Player) -> Dealt | Said:
        texts = await self.people.texts(chat, player)
        if chat.type != "private":
            alone = texts("storm_alone", seconds=round(self.seconds))
            return Said(f"{alone}\n\n{await self._boards(texts, chat.id)}")
        if (on := await self.store.storm_on(player.id)) is not None:
            return Said(texts("storm_on", solved=on.solved,
                              seconds=max(0, round(self.book.left(on)))))
        if (current := self.rounds.open_round(chat.id, chat.topic)) is not None:
            return Said(self.rounds.still_open(current, texts))
        now = self.rounds.clock()
        today = await self.store.best_storm(player.id, day_key(now))
        storm = await self.store.open_storm(player.id, chat.id, texts.language, now,
                                            now + self.seconds)
        if storm is None:  # another /storm won the race
            return Said(texts("storm_on", solved=0, seconds=round(self.seconds)))
        dealt = await self._hand(storm, chat, player, texts)
        if isinstance(dealt, Said):
            await self.store.end_storm(storm.id, "stopped", self.rounds.clock())
            return dealt
        line = texts("storm_begins", seconds=round(self.seconds), bonus=round(BONUS),
                     penalty=round(PENALTY), today=today)
        return dataclasses.replace(dealt, text=f"{dealt.text}\n{line}")

    async def deal_next(self, chat_id: int) -> Dealt | Said | None:
        """The next hand of the person's storm, if one is due, shown (None: no storm on, or
        its hand is in play); a storm whose time is up, or that a round dealt meanwhile in
        the chat (or a bound) leaves no hand, ends with what it scored (Said)."""
        outcome = await self._deal_next(chat_id)
        await self.outbox.show(outcome, Target(chat_id, 0))
        return outcome

    async def _deal_next(self, chat_id: int) -> Dealt | Said | None:
        storm = await self.store.storm_on(chat_id)  # a private chat's id is its person's
        if storm is None or storm.round_id is not None:
            return None
        known = await self.people.as_stored(chat_id, storm.user_id, storm.lang)
        if known is None:  # the person's rows went (/forget): nothing to deal to
            await self.store.end_storm(storm.id, "stopped", self.rounds.clock())
            return None
        chat, player = known
        texts = await self.people.texts(chat, player)
        if self.book.left(storm) < SHORTEST:
            ended = await self.book.end(storm, "over", texts)
            return Said(ended) if ended else None
        dealt = await self._hand(storm, chat, player, texts)
        if isinstance(dealt, Said):
            ended = await self.book.end(storm, "stopped", texts)
            return Said(f"{dealt.text}\n{ended}") if ended else None
        return dealt

    async def _hand(self, storm: Storm, chat: Chat, player: Player,
                    texts: Texts) -> Dealt | Said:
        """The storm's next hand, aimed by how many it played, lasting what is left of its
        clock, dealt and taken as its hand, with its line under the deal."""
        played = storm.solved + storm.missed
        dealt = await self.rounds.deal_aimed(chat, player, aim_of(played),
                                             length=self.book.left(storm))
        if not isinstance(dealt, Dealt):
            return dealt
        if not await self.store.play_hand(storm.id, dealt.round.id):
            return dealt  # the storm ended meanwhile: an ordinary round
        self.book.playing(dealt.round.id)
        line = texts("storm_hand", number=played + 1, solved=storm.solved)
        if (opened := self.table.find(dealt.round.id)) is not None:
            opened.numbered(line)
        return dataclasses.replace(dealt, text=f"{dealt.text}\n{line}")

    async def board(self, chat: Chat, player: Player, target: Target | None = None) -> Said:
        """/storm top: the best storms of the day and of the season — everyone's, or in a
        group its own players' — shown."""
        texts = await self.people.texts(chat, player)
        said = Said(await self._boards(texts, None if chat.type == "private" else chat.id))
        await self.outbox.show(said, target or Target(chat.id, chat.topic))
        return said

    async def _boards(self, texts: Texts, chat_id: int | None) -> str:
        now = self.rounds.clock()
        return await boards_text(texts, self.store, (("storm_board_day", day_key(now)),
                                                     ("storm_board_season", season_key(now))),
                                 "storm_board_empty", chat_id)

    async def resume(self, chats: Chats | None = None) -> list[tuple[Place, str]]:
        """After a restart (and after the rounds resumed, their late closes followed): every
        storm still on ends, stopped, with what it scored — its clock ran while the bot was
        away. With `chats`, only those chats' storms. What to say, per place."""
        said = []
        for storm in await self.store.storms_on():
            if chats is not None and not chats(storm.chat_id):
                continue
            texts = await self.people.chat_texts(storm.chat_id, storm.lang)
            ended = await self.book.end(storm, "stopped", texts)
            if ended is not None:
                said.append(((storm.chat_id, 0), ended))
        return said

