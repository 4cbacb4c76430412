"""A storm's standing, apart from dealing its hands: which rounds are a storm's (a miss ends them at
once, as a streak's), its step after each close (the clock moved — later for a hand solved,
earlier for one missed or given up — and the next hand set, or the storm over when its time is
up), and the aim of its hands, easy first and then harder. Like the streak's book it deals and
shows nothing, so it is built before the round service whose closes it follows; the storm service
(bot.play.solo.storms) deals on it.

The clock is the bot's: a storm's end is a moment in the database (`storms.ends_at`), moved only
here, and each hand is a round lasting what is left of it, so its own end is the storm's. A close
said late (the bot stopped meanwhile) ends the storm as stopped, with what it scored.
"""

from __future__ import annotations

from bot.play.community.periods import day_key, season_key
from bot.play.ports import STORM_NEXT, Alarm, Scheduler
from bot.play.round.events import FollowUp, RoundClosed
from bot.play.round.table import RoundTable
from bot.play.solo.hand_book import HandBook
from bot.store.protocols import RoundStore, StormStore
from bot.store.records import Storm
from bot.text.i18n import Texts

SETTING, SECONDS = "STORM_SECONDS", 180.0  # a storm's clock at its start: its setting, default
BONUS = 5.0  # seconds a solved hand adds to the clock
PENALTY = 10.0  # seconds a missed or given-up hand takes off it
PAUSE = 1.0  # seconds between a hand's result and the next hand (the clock runs on)
SHORTEST = 5.0  # a hand is dealt only with this much left: less, and the storm is over
# The chance each hand is aimed at (bot.play.ratings.adaptive): easy first, each next one a
# little harder, down to a floor that still gives a fair chance in a race against the clock.
FIRST_AIM, STEP, FLOOR = 0.95, 0.03, 0.35


def aim_of(played: int) -> float:
    """The chance the next hand is aimed at, after `played` hands of the storm."""
    return max(FLOOR, FIRST_AIM - STEP * played)


def periods_of(at: float) -> tuple[str, str]:
    """The boards a storm begun at `at` counts on: its day's and its season's."""
    return day_key(at), season_key(at)


class StormBook(HandBook[Storm]):
    def __init__(self, store: StormStore, rounds: RoundStore, table: RoundTable,
                 scheduler: Scheduler, pause: float = PAUSE) -> None:
        super().__init__(store.storm_on, rounds, table, scheduler, pause)
        self.store = store

    def left(self, storm: Storm) -> float:
        """Seconds left on the storm's clock."""
        return storm.ends_at - self.table.clock()

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A round closed: if it was the hand of its person's storm, the storm's step, riding
        on the round's result in its words (`texts`)."""
        if (closed := await self.closed_hand(event)) is None:
            return FollowUp()
        (before, status), record = closed, event.round
        solved, timed_out = status == "won", status == "expired"
        missed = not solved and not timed_out and not event.late  # a time-out is no miss
        shift = BONUS if solved else -PENALTY if missed else 0.0
        if not await self.store.hand_done(before.id, record.id, solved, missed, shift):
            return FollowUp()  # counted at its close already (its result said again)
        storm = await self.run_on(record.chat_id)
        if storm is None:
            return FollowUp()
        if event.late:  # the bot was away while the clock ran: what it scored stands (a hand
            # won before the stop among it: the round's length was within the clock)
            return FollowUp(await self.end(storm, "stopped", texts))
        if timed_out or self.left(storm) < SHORTEST:
            return FollowUp(await self.end(storm, "over", texts))
        self.scheduler.set(Alarm(STORM_NEXT, record.chat_id), self.pause)
        key = "storm_solved" if solved else "storm_missed"
        return FollowUp(texts(key, solved=storm.solved, bonus=round(BONUS),
                              penalty=round(PENALTY), seconds=round(self.left(storm))),
                        match_on=True)

    async def end(self, storm: Storm, status: str, texts: Texts) -> str | None:
        """End the storm ('over': its time is up; 'stopped'): its line with the person's best
        of the day and of the season, or None if it had ended already."""
        now = self.table.clock()
        if not await self.store.end_storm(storm.id, status, now, periods_of(storm.started_at)):
            return None
        self.scheduler.cancel(STORM_NEXT, storm.chat_id)
        today = await self.store.best_storm(storm.user_id, day_key(now))
        season = await self.store.best_storm(storm.user_id, season_key(now))
        line = texts("storm_over" if status == "over" else "storm_stopped",
                     solved=storm.solved, missed=storm.missed, today=today, season=season)
        return f"{line} 🏆" if storm.solved and storm.solved == season else line
