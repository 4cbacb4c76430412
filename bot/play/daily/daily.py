"""The daily puzzle (/daily): one hand of 24 for everyone in the world each UTC day
(bot.play.daily.puzzle), answered where nobody else sees the answer (a private chat; a group is
shown the hand with a way there), each person's first right answer counted once, their streak
of days, and the day's board across every chat. While its day lasts the hand is live for
everyone (bot.play.guards.live): the bot solves it for nobody, however asked.

How long a person took is counted from the first time the bot showed them the day's hand (kept
in memory); after a restart, or for an answer given unseen, from the start of the day."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.play.chats.people import Chat, People, Player
from bot.play.daily.puzzle import (
    TARGET,
    daily_hand,
    day_of,
    day_start,
    seconds_left,
    streaks,
)
from bot.play.games import GAMES
from bot.play.games.twentyfour import GAME, judge
from bot.play.guards.live import LivePuzzles
from bot.store.daily_store import DailyResult, DailyStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

BOARD_SHOWN = 10


@dataclass(frozen=True)
class DailyReply:
    """What /daily says; `go_private`: in a group, a button that opens the private chat on the
    daily (so the answer is given where nobody sees it); `withdraw`: the asking message held an
    answer in a group, and is best taken down."""

    text: str
    go_private: bool = False
    withdraw: bool = False


class Daily:
    def __init__(self, store: DailyStore, people: People, live: LivePuzzles,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.people = people
        self.clock = clock
        self._seen: dict[int, tuple[str, float]] = {}  # user -> (day, first shown that day)
        live.hold_daily(self.hand_now)

    def hand_now(self) -> tuple[int, ...]:
        """Today's hand (UTC)."""
        return daily_hand(day_of(self.clock()))

    async def show(self, chat: Chat, player: Player) -> DailyReply:
        """/daily: today's hand, or, once solved, the person's result and streak."""
        now = self.clock()
        day, texts = day_of(now), self.people.texts(chat, player)
        done = await self.store.daily_result(day, player.id)
        if done is not None:  # in a group, without the answer: others may not have it
            return DailyReply(await self._solved(texts, done, now, shown=chat.type == "private"))
        self._saw(player.id, day, now)
        key = "daily_deal_private" if chat.type == "private" else "daily_deal_group"
        return DailyReply(texts(key, numbers=markup.numbers(daily_hand(day)), target=TARGET,
                                day=day, left=time_left(texts, now)),
                          go_private=chat.type != "private")

    async def answer(self, chat: Chat, player: Player, text: str) -> DailyReply:
        """/daily <expression>: judged in a private chat only; the first right one counts."""
        texts = self.people.texts(chat, player)
        if chat.type != "private":
            return DailyReply(texts("daily_answer_privately"), go_private=True, withdraw=True)
        now = self.clock()
        day = day_of(now)
        hand = daily_hand(day)
        done = await self.store.daily_result(day, player.id)
        if done is not None:
            return DailyReply(await self._solved(texts, done, now))
        verdict = judge(text, hand, TARGET, True)  # in the loop, as a round's answers are
        if verdict.kind != "right":
            return DailyReply(texts("daily_wrong", why=GAMES[GAME].verdict_text(
                verdict, _as_round(chat, hand, day, texts), texts)))
        await self.people.remember(chat, player)
        seen = self._seen.get(player.id)
        began = seen[1] if seen is not None and seen[0] == day else day_start(day)
        await self.store.record_daily(day, player.id, chat.id, verdict.expression,
                                      max(0.0, now - began), now)
        done = await self.store.daily_result(day, player.id)  # the first right answer stored
        assert done is not None
        return DailyReply(await self._solved(texts, done, now, just=True))

    async def _solved(self, texts: Texts, done: DailyResult, now: float, just: bool = False,
                      shown: bool = True) -> str:
        """The person's result of the day, their place and streak (`shown`: with the answer,
        said in their private chat only)."""
        current, best = streaks(await self.store.daily_days(done.user_id), day_of(now))
        rank = await self.store.daily_rank(done.day, done.user_id)
        key = "daily_solved" if just else "daily_already" if shown else "daily_already_group"
        return texts(key, answer=markup.code(done.answer), name=markup.name(done.name),
                     took=clock_time(done.seconds), rank=rank or 1,
                     count=await self.store.daily_count(done.day), streak=current, best=best,
                     left=time_left(texts, now))

    async def board(self, chat: Chat, player: Player) -> str:
        """/top daily: today's fastest solvers in every chat, with their streaks, and the
        asker's own place when it is not among them."""
        now = self.clock()
        day, texts = day_of(now), self.people.texts(chat, player)
        count = await self.store.daily_count(day)
        if not count:
            return texts("daily_board_empty", day=day)
        lines = [texts("daily_board_title", day=day, count=count)]
        shown = await self.store.daily_board(day, BOARD_SHOWN)
        for rank, result in enumerate(shown, 1):
            lines.append(await self._line(texts, rank, result, day))
        if all(result.user_id != player.id for result in shown):
            mine = await self.store.daily_result(day, player.id)
            place = await self.store.daily_rank(day, player.id)
            lines.append(texts("daily_board_you", line=await self._line(texts, place, mine, day))
                         if mine is not None and place is not None
                         else texts("daily_board_not_yet"))
        return markup.clip("\n".join(lines))

    async def _line(self, texts: Texts, rank: int, result: DailyResult, day: str) -> str:
        streak, _ = streaks(await self.store.daily_days(result.user_id), day)
        return texts("daily_board_line", rank=rank, name=markup.name(result.name),
                     took=clock_time(result.seconds), streak=streak)

    def forget(self, user_id: int) -> None:
        """A person asked to be forgotten: when they last saw the hand goes too."""
        self._seen.pop(user_id, None)

    def _saw(self, user_id: int, day: str, now: float) -> None:
        seen = self._seen.get(user_id)
        if seen is None or seen[0] != day:
            if seen is None and len(self._seen) > 100_000:  # a new day: drop the old days
                self._seen = {u: s for u, s in self._seen.items() if s[0] == day}
            self._seen[user_id] = (day, now)


def time_left(texts: Texts, now: float) -> str:
    """What is left of the day: "13 h 52 min" (the minute under way counts)."""
    minutes = int(-(-seconds_left(now) // 60))
    return texts("daily_left", hours=minutes // 60, minutes=minutes % 60)


def clock_time(seconds: float) -> str:
    """A time taken as a clock shows it: "0:42", "12:05", "3:02:09"."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


assert clock_time(42.7) == "0:42" and clock_time(3 * 3600 + 129) == "3:02:09"


def _as_round(chat: Chat, hand: tuple[int, ...], day: str, texts: Texts) -> Round:
    """The daily hand as a round of 24, for the words of a wrong answer (the rounds' own)."""
    start = day_start(day)
    return Round(0, chat.id, GAME, hand, TARGET, "medium", 0, texts.language, None, start,
                 start + 86400, "open", False)
