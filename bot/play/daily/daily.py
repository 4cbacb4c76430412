"""The daily puzzles (/daily [game]): in each game that has a daily (the registry's
DAILY_GAMES; a bare /daily is the first's), one hand for everyone in the world each UTC day
(bot.play.daily.puzzle), answered where nobody else sees the answer (a private chat; a group is
shown the hand with a way there), each person's first right answer counted once, their streak of
days, and the day's board across every chat: each game's apart. While its day lasts each hand is
live for everyone (bot.play.guards.live): the bot solves it for nobody, however asked.

The board ranks by how soon after the UTC day began the right answer arrived: the one moment
that is the same for everyone and that nobody can move. The hand exists from that moment on
(its order is drawn with the bot's secret), so whoever answers first solved it first. A clock
started by each person's own /daily ranked what can be faked: the hand is shown in groups, so
one could solve it anywhere, then ask and answer at once. For the same reason a second answer
the same day, after /forget deleted the first, arrives later and never ranks better: nothing of
the person is kept to stop it, since nothing needs to be."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from cachetools import FIFOCache

from bot.play.achievements.service import Achievements
from bot.play.chats.people import Chat, People, Player
from bot.play.daily.puzzle import (
    DailyHands,
    daily_deck,
    day_of,
    day_start,
    into_day,
    seconds_left,
    streaks,
)
from bot.play.games import DAILY_GAME, DAILY_GAMES, GAMES, daily_command
from bot.play.ratings.rater import Rater
from bot.play.rules.exact import judge
from bot.play.rules.records import Right, Unreadable
from bot.play.words.game import unreadable_text
from bot.play.words.places import shared_places
from bot.store.daily_store import DailyResult, DailyStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

BOARD_SHOWN = 10
SHOWN_KEPT = 10_000  # when each person was last shown the day's hand (for their rating's time)


@dataclass(frozen=True)
class DailyReply:
    """What /daily says; `go_private`: in a group, a button that opens the private chat on the
    daily (so the answer is given where nobody sees it); `withdraw`: the asking message held an
    answer in a group, and is best taken down."""

    text: str
    go_private: bool = False
    withdraw: bool = False
    share: bool = False  # solved today: a button shares the result (bot.play.daily.share)


class Daily:
    def __init__(self, store: DailyStore, people: People, hands: DailyHands,
                 clock: Callable[[], float], rater: Rater | None = None,
                 achievements: Achievements | None = None) -> None:
        self.store = store
        self.achievements = achievements  # a result's achievements, said in its reply
        self.rater = rater  # a right answer is rated with its result (a round of one)
        # (day, game, person) -> when this process first showed them the day's hand, privately;
        # a FIFO of SHOWN_KEPT (the first shown go first: one gone is rated as after a restart)
        self._shown: FIFOCache[tuple[str, str, int], float] = FIFOCache(SHOWN_KEPT)
        self.people = people
        self.clock = clock
        self.hands = hands  # the same the live puzzles hold back all day
        self.key = hands.key
        self.game = DAILY_GAME.name  # the daily a bare /daily is about

    @staticmethod
    def games() -> tuple[str, ...]:
        """The games that have a daily, the first the one a bare /daily is about."""
        return tuple(game.name for game in DAILY_GAMES)

    def hand_now(self, game: str | None = None) -> tuple[int, ...]:
        """Today's hand (UTC) of a game's daily, by this service's clock."""
        return self.hands.of(day_of(self.clock()), game or self.game)

    def hand_of(self, day: str, game: str | None = None) -> tuple[int, ...]:
        """The hand of a UTC day in a game's daily."""
        return self.hands.of(day, game or self.game)

    def target_of(self, day: str, game: str | None = None) -> int:
        """What the hand of a UTC day in a game's daily is to make."""
        return self.hands.puzzle(day, game or self.game)[1]

    async def show(self, chat: Chat, player: Player, game: str | None = None) -> DailyReply:
        """/daily [game]: today's hand, or, once solved, the person's result and streak."""
        name = game or self.game
        now = self.clock()
        day, texts = day_of(now), await self.people.texts(chat, player)
        done = await self.store.daily_result(day, name, player.id)
        if done is not None:  # in a group, without the answer: others may not have it
            private = chat.type == "private"
            return DailyReply(await self._solved(texts, name, done, now, shown=private),
                              share=private)
        if chat.type == "private":
            self._seen(day, name, player.id, now)
        hand, target = self.hands.puzzle(day, name)
        key = "daily_deal_private" if chat.type == "private" else "daily_deal_group"
        text = texts(key, numbers=markup.numbers(hand), target=target, day=day,
                     left=time_left(texts, now), **named(texts, name))
        others = [markup.typed(daily_command(game)) for game in self.games() if game != name]
        if chat.type == "private" and others:  # where the other games' dailies are
            text = f"{text}\n{texts('daily_others', commands=' · '.join(others))}"
        return DailyReply(text, go_private=chat.type != "private")

    async def answer(self, chat: Chat, player: Player, text: str,
                     game: str | None = None) -> DailyReply:
        """/daily [game] <expression>: judged in a private chat only; the first right one
        counts."""
        name = game or self.game
        texts = await self.people.texts(chat, player)
        if chat.type != "private":
            return DailyReply(texts("daily_answer_privately"), go_private=True, withdraw=True)
        now = self.clock()
        day = day_of(now)
        hand, target = self.hands.puzzle(day, name)
        done = await self.store.daily_result(day, name, player.id)
        if done is not None:
            return DailyReply(await self._solved(texts, name, done, now), share=True)
        words, as_round = GAMES[name].words, _as_round(chat, name, hand, target, day, texts)
        verdict = judge(text, hand, target, True)  # in the loop, as a round's answers are
        if isinstance(verdict, Unreadable):  # a refusal, its example typed as /daily [game]
            return DailyReply(words.refused(unreadable_text(verdict, texts), as_round, texts,
                                            command=daily_command(name)))
        if not isinstance(verdict, Right):
            return DailyReply(texts("daily_wrong", why=words.verdict_text(
                verdict, as_round, texts), **named(texts, name)))
        await self.people.remember(chat, player)
        await self._record(day, name, player.id, chat.id, hand, target, verdict.expression, now)
        # the first right answer stored
        done = await self.store.daily_result(day, name, player.id)
        assert done is not None
        solved = await self._solved(texts, name, done, now, just=True)
        if self.achievements is not None:
            new = await self.achievements.after_daily(player.id, chat.id, done.seconds, done.at,
                                                      texts)
            solved = f"{solved}\n{new}" if new else solved
        return DailyReply(solved, share=True)

    async def shared(self, player: Player, game: str | None = None) -> str | None:
        """The line that shares the person's result of today in a game's daily, without a
        spoiler: the game, the day's number, when it was solved, the streak; never the answer
        nor the hand (None: not solved today)."""
        name = game or self.game
        now = self.clock()
        day = day_of(now)
        done = await self.store.daily_result(day, name, player.id)
        if done is None:
            return None
        current, _best = streaks(await self.store.daily_days(player.id, name), day)
        texts = await self.people.texts(Chat(player.id, "private", None), player)
        return texts("daily_share", number=str(daily_number(day)), at=day_clock(done.seconds),
                     streak=current, game=texts.game(name))

    async def latest_shared(self, player: Player) -> str | None:
        """The share line of the daily the person solved last today (None: none today)."""
        day = day_of(self.clock())
        solved = [(done.seconds, name) for name in self.games()
                  if (done := await self.store.daily_result(day, name, player.id)) is not None]
        return await self.shared(player, max(solved)[1]) if solved else None

    def _seen(self, day: str, game: str, user_id: int, now: float) -> None:
        if (day, game, user_id) not in self._shown:  # the first showing counts
            self._shown[day, game, user_id] = now

    async def _record(self, day: str, game: str, user_id: int, chat_id: int,
                      hand: tuple[int, ...], target: int, answer: str, now: float) -> None:
        """The day's first right answer, rated with it when ratings are kept: as a round of one
        that took from when the hand was shown here (unknown, as after a restart or for an
        answer without asking: the usual round's length, a solve that says little of speed)."""
        seconds = max(0.0, into_day(now))
        if self.rater is None or not GAMES[game].rated:
            await self.store.record_daily(day, game, user_id, chat_id, answer, seconds, now)
            return
        shown = self._shown.pop((day, game, user_id), None)
        took = now - shown if shown is not None else None
        rating = await self.rater.of_daily(game, user_id, hand, target, took, now)
        if await self.rater.store.record_daily(day, game, user_id, chat_id, answer,
                                               seconds, now, rating):
            self.rater.written(rating)

    async def _solved(self, texts: Texts, game: str, done: DailyResult, now: float,
                      just: bool = False, shown: bool = True) -> str:
        """The person's result of the day, their place and streak (`shown`: with the answer,
        said in their private chat only)."""
        current, best = streaks(await self.store.daily_days(done.user_id, game), day_of(now))
        rank = await self.store.daily_rank(done.day, game, done.user_id)
        key = "daily_solved" if just else "daily_already" if shown else "daily_already_group"
        return texts(key, answer=markup.code(done.answer), name=markup.name(done.name),
                     at=day_clock(done.seconds), rank=rank or 1,
                     count=await self.store.daily_count(done.day, game), streak=current,
                     best=best, left=time_left(texts, now))

    async def board(self, chat: Chat, player: Player, game: str | None = None) -> str:
        """/top daily [game]: today's earliest solvers of a game's daily in every chat, with
        their streaks, and the asker's own place when it is not among them."""
        name = game or self.game
        now = self.clock()
        day, texts = day_of(now), await self.people.texts(chat, player)
        count = await self.store.daily_count(day, name)
        if not count:
            return texts("daily_board_empty", day=day, **named(texts, name))
        lines = [texts("daily_board_title", day=day, count=count, game=texts.game(name))]
        shown = await self.store.daily_board(day, name, BOARD_SHOWN)
        places = shared_places([result.seconds for result in shown])
        for rank, result in zip(places, shown, strict=True):
            lines.append(await self._line(texts, name, rank, result, day))
        if all(result.user_id != player.id for result in shown):
            mine = await self.store.daily_result(day, name, player.id)
            place = await self.store.daily_rank(day, name, player.id)
            lines.append(texts("daily_board_you", line=await self._line(
                texts, name, place, mine, day)) if mine is not None and place is not None
                else texts("daily_board_not_yet", **named(texts, name)))
        return markup.clip("\n".join(lines))

    async def _line(self, texts: Texts, game: str, rank: int, result: DailyResult,
                    day: str) -> str:
        streak, _ = streaks(await self.store.daily_days(result.user_id, game), day)
        return texts("daily_board_line", rank=rank, name=markup.name(result.name),
                     at=day_clock(result.seconds), streak=streak)


FIRST_DAY = date(2026, 1, 1)  # the daily puzzle #1 (the numbers a shared result shows)


def daily_number(day: str) -> int:
    """The day's puzzle number: #1 on FIRST_DAY, one more each UTC day."""
    return (date.fromisoformat(day) - FIRST_DAY).days + 1


def time_left(texts: Texts, now: float) -> str:
    """What is left of the day: "13 h 52 min" (the minute under way counts)."""
    minutes = int(-(-seconds_left(now) // 60))
    return texts("daily_left", hours=minutes // 60, minutes=minutes % 60)


def day_clock(seconds: float) -> str:
    """A moment of the UTC day, from how long after it began: "06:12:05"."""
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


assert day_clock(42.7) == "00:00:42" and day_clock(23 * 3600 + 129) == "23:02:09"


def named(texts: Texts, game: str) -> dict[str, str]:
    """What the daily's words name besides their own fields: the game, the command that shows
    (and answers) its daily, and the one of its board."""
    return {"game": texts.game(game), "command": daily_command(game),
            "board": daily_command(game, "/top daily")}


def _as_round(chat: Chat, game: str, hand: tuple[int, ...], target: int, day: str,
              texts: Texts) -> Round:
    """The daily hand as a round of its game, for the words of a wrong answer (the rounds' own)."""
    start = day_start(day)
    return Round(0, chat.id, game, hand, target, daily_deck(game).level, 0, texts.language, None,
                 start, start + 86400, "open", False)
