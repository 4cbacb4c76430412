"""A streak's standing, apart from dealing its hands: which rounds are a streak's (a first miss
ends them), its step after each close (one more solved and the next hand set, or the streak over
with the person's best), and its aim, which rises hand by hand. It deals nothing and shows
nothing, so it is built before the round service (whose closes it follows and whose misses ask
it); the streak service (bot.play.solo.streaks) deals on it.

Everything is read from the database (table `streaks`), so a restart goes on: the hand in play
goes on as a round does, a streak between hands gets its next one. A close said late (the bot
stopped meanwhile) ends a streak whose hand was not solved as stopped, not missed: the time ran
out while the bot was away, and what it solved stands.
"""

from __future__ import annotations

from bot.play.community.periods import ALL_TIME, season_key
from bot.play.ports import STREAK_NEXT, Alarm, Scheduler
from bot.play.round.events import FollowUp, RoundClosed
from bot.play.round.table import RoundTable
from bot.play.solo.hand_book import HandBook
from bot.store.protocols import RoundStore, StreakStore
from bot.store.records import Streak
from bot.text.i18n import Texts

PAUSE = 2.0  # seconds between a solved hand's result and the next hand
# The chance each hand is aimed at (bot.play.ratings.adaptive): the first well inside the
# person's skill, each next one a step harder, down to a floor that still gives a fair chance.
FIRST_AIM, STEP, FLOOR = 0.9, 0.05, 0.25


def aim_of(solved: int) -> float:
    """The chance the next hand is aimed at, after `solved` hands solved."""
    return max(FLOOR, FIRST_AIM - STEP * solved)


class StreakBook(HandBook[Streak]):
    def __init__(self, store: StreakStore, rounds: RoundStore, table: RoundTable,
                 scheduler: Scheduler, pause: float = PAUSE) -> None:
        super().__init__(store.streak_on, rounds, table, scheduler, pause)
        self.store = store

    def next_hand(self, chat_id: int) -> None:
        """The streak in this private chat gets its next hand a pause from now."""
        self.scheduler.set(Alarm(STREAK_NEXT, chat_id), self.pause)

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A round closed: if it was the hand of its person's streak, the streak's step,
        riding on the round's result in its words (`texts`)."""
        if (closed := await self.closed_hand(event)) is None:
            return FollowUp()
        (streak, status), record = closed, event.round
        if status == "won":
            if not await self.store.hand_solved(streak.id, record.id):
                return FollowUp()  # counted at its close already (its result said again)
            self.next_hand(record.chat_id)
            return FollowUp(texts("streak_solved", solved=streak.solved + 1,
                                  seconds=round(self.pause)), match_on=True)
        return FollowUp(await self.end(streak, "stopped" if event.late else "missed", texts))

    async def end(self, streak: Streak, status: str, texts: Texts) -> str | None:
        """End the streak ('missed' or 'stopped'): its line with the person's best, or None
        if it had ended already."""
        if not await self.store.end_streak(streak.id, status, self.table.clock(),
                                           (season_key(streak.started_at), ALL_TIME)):
            return None
        self.scheduler.cancel(STREAK_NEXT, streak.chat_id)
        best = await self.store.best_streak(streak.user_id)
        line = texts("streak_over" if status == "missed" else "streak_stopped",
                     solved=streak.solved, best=best)
        return f"{line} 🏆" if streak.solved and streak.solved == best else line
