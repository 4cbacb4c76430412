"""Random sequences of play for tests/bot/play/test_counts_agree.py, driven through the game
services as the faces drive them: a sequence's new people (2 or 3) and groups (1 or 2) play a few
rounds of 24 in the groups and in their private chats — dealers who answer or never do, wrong and
right answers, a right answer a moment late, hints, passes, reveals, every way a round ends —
solve the daily puzzle, let days go by, and reset a group's scores now and then. What each round
was when it closed is read from the store (its facts: who dealt, answered, passed, won) into
the sequence's log (tests/bot/play/counts.py), from which the counts are defined.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt
from bot.play.services import Services
from bot.store.records import Round
from bot.store.sql.connection import numbered
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock
from tests.bot.play import counts
from tests.bot.play.counts import Answer, Closed, Daily, Log

GAME = "24"
ROUND = ("SELECT status, winner_id, awarded, win_seconds, ended_at, started_by, level, "
         "started_at, chat_id, game FROM rounds WHERE id = ?")
ANSWERS = "SELECT user_id, correct, at FROM answers WHERE round_id = ? ORDER BY at, id"
PASSES = "SELECT user_id FROM round_passes WHERE round_id = ?"
DAY = 86400


async def yes() -> bool:
    return True


async def no() -> bool:
    return False


def right_answer(hand: tuple[int, ...]) -> str:
    return solve(hand)[0]


def wrong_answer(hand: tuple[int, ...]) -> str:
    """An answer that uses every number once and does not make 24: their sum, or the first
    less the others (at most 13 - 3)."""
    return "+".join(map(str, hand)) if sum(hand) != 24 else "-".join(map(str, hand))


@dataclass
class Sequence:
    """One sequence's people and chats (new ids), its random choices and what it played."""

    services: Services
    stores: Stores
    clock: Clock
    rng: random.Random
    number: int
    postgres: bool
    log: Log = field(default_factory=Log)
    solved_days: set[tuple[int, str]] = field(default_factory=set)

    def __post_init__(self) -> None:
        base = 10 * self.number + 1_000_000
        people = self.rng.randint(2, 3)
        self.players = [Player(base + k, f"P{base + k}", language_code="en")
                        for k in range(people)]
        self.groups = [Chat(-(base + k), "group", f"G{base + k}")
                       for k in range(1 if self.rng.random() < 0.7 else 2)]
        self.admin = self.players[-1]  # a group's admin: may end any round early

    def chats(self) -> list[Chat]:
        """The sequence's groups, and the private chats a round was played in."""
        played = {r.chat_id for r in self.log.rounds}
        return [*self.groups, *(Chat(p.id, "private") for p in self.players if p.id in played)]

    def members(self, chat: Chat) -> list[Player]:
        return self.players if chat.type == "group" else \
            [p for p in self.players if p.id == chat.id]

    def is_admin(self, player: Player) -> Callable[[], Awaitable[bool]]:
        return yes if player == self.admin else no

    async def fetch(self, sql: str, *args: object) -> list:
        db = self.stores.rounds.db  # type: ignore[attr-defined]
        return await db.fetch(numbered(sql) if self.postgres else sql, args)

    def is_open(self, round_id: int) -> bool:
        return self.services.table.find(round_id) is not None

    # --- play --------------------------------------------------------------------------------

    async def play(self) -> None:
        rounds = self.rng.randint(1, 3)
        # days go by between two rounds now and then: a day (the daily's streak), or the week
        # moves on, or the season
        days = self.rng.randrange(rounds) if self.rng.random() < 0.1 else None
        for number in range(rounds):
            self.clock.now += self.rng.uniform(5, 90)
            if number == days:
                self.clock.now += self.rng.choice((1, 3, 8)) * DAY
            await self.round()
            if self.rng.random() < 0.2:
                await self.daily(self.rng.choice(self.players))
            if self.rng.random() < 0.04:
                await self.reset(self.rng.choice(self.groups))
        if self.rng.random() < 0.05:  # the daily puzzle two days in a row: a streak of two
            player = self.rng.choice(self.players)
            await self.daily(player)
            self.clock.now += DAY
            await self.daily(player)

    async def reset(self, chat: Chat) -> None:
        """/resetscores, asked and confirmed by the group's admin."""
        privacy = self.services.community.privacy
        asked = await privacy.ask_reset(chat, self.admin, yes)
        assert not isinstance(asked, str), asked
        await privacy.press(asked.token, True, chat, self.admin, yes)
        for closed in self.log.rounds:
            closed.reset = closed.reset or closed.chat_id == chat.id

    async def round(self) -> None:
        chat = self.rng.choice(self.groups) if self.rng.random() < 0.8 else \
            Chat(self.rng.choice(self.players).id, "private")
        members = self.members(chat)
        dealer = self.rng.choice(members)
        dealt = await self.services.rounds.play(chat, dealer, GAME)
        assert isinstance(dealt, Dealt), dealt
        record = dealt.round
        if self.rng.random() < 0.15:
            self.clock.now += 1
            await self.services.rounds.hint(chat, dealer, self.is_admin(dealer))
        for _ in range(self.rng.randint(0, 4)):
            self.clock.now += self.rng.uniform(1, 8)
            actor = self.rng.choice(members)
            kind = self.rng.choices(("wrong", "right", "pass", "reveal"), (5, 2, 2, 1))[0]
            await self.act(chat, actor, kind, record.hand)
            if not self.is_open(record.id):
                break
        if self.is_open(record.id):
            await self.end(chat, members, dealer, record)
        assert not self.is_open(record.id)
        closed = await self.closed(record.id)
        if closed.status == "won" and len(members) > 1 and self.rng.random() < 0.3:
            late = self.rng.choice([p for p in members if p.id != closed.winner])
            self.clock.now += self.rng.uniform(0.5, 30)  # within the minute a win is recalled
            await self.services.rounds.answer(chat, late, right_answer(record.hand), True)
            closed.late = [a for a in await self.answers(record.id) if a not in closed.answers]

    async def act(self, chat: Chat, actor: Player, kind: str, hand: tuple[int, ...]) -> None:
        rounds = self.services.rounds
        if kind == "wrong":
            await rounds.answer(chat, actor, wrong_answer(hand), True)
        elif kind == "right":
            await rounds.answer(chat, actor, right_answer(hand), True)
        elif kind == "pass":
            await rounds.pass_round(chat, actor, self.is_admin(actor))
        else:
            await rounds.reveal(chat, actor, self.is_admin(actor))

    async def end(self, chat: Chat, members: list[Player], dealer: Player,
                  record: Round) -> None:
        """The round ends one of the ways a round ends, if it is still on: its time runs out,
        everyone who answered passes, its dealer or an admin reveals it, or it is won."""
        way = self.rng.choice(("time", "passes", "reveal", "right"))
        self.clock.now += self.rng.uniform(1, 8)
        if way == "passes":
            answerers = set(await self.stores.rounds.answerers(record.id))
            self.clock.now = max(self.clock.now, (record.started_at + record.deadline) / 2)
            for player in members:
                if player.id in answerers and self.is_open(record.id):
                    await self.services.rounds.pass_round(chat, player, no)
        elif way == "reveal":
            ender = self.rng.choice((dealer, self.admin)) if chat.type == "group" else dealer
            await self.services.rounds.reveal(chat, ender, self.is_admin(ender))
        elif way == "right":
            await self.act(chat, self.rng.choice(members), "right", record.hand)
        if self.is_open(record.id):
            self.clock.now = max(self.clock.now, record.deadline)
            await self.services.rounds.expire(record.id)

    async def daily(self, player: Player) -> None:
        """The player solves the day's puzzle in their private chat (once a day), after a
        wrong try now and then."""
        daily = self.services.community.daily
        key = (player.id, counts.day(self.clock.now))
        private = Chat(player.id, "private")
        if self.rng.random() < 0.3:
            await daily.answer(private, player, wrong_answer(daily.hand_now()))
        if key in self.solved_days:
            return
        self.clock.now += 1
        await daily.answer(private, player, right_answer(daily.hand_now()))
        self.solved_days.add(key)
        self.log.dailies.append(Daily(player.id, GAME, self.clock.now))

    async def answers(self, round_id: int) -> list[Answer]:
        return [Answer(user, bool(right), float(at))
                for user, right, at in await self.fetch(ANSWERS, round_id)]

    async def closed(self, round_id: int) -> Closed:
        """The round as it closed, read from the store: its facts, not its counts."""
        [(status, winner, awarded, seconds, ended_at, dealer, level, started_at, chat_id,
          game)] = await self.fetch(ROUND, round_id)
        passes = frozenset(user for (user,) in await self.fetch(PASSES, round_id))
        closed = Closed(round_id, chat_id, game, level, dealer, float(started_at),
                        float(ended_at), status, winner, int(awarded or 0), seconds,
                        tuple(await self.answers(round_id)), passes)
        self.log.rounds.append(closed)
        return closed
