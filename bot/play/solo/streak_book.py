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
from bot.play.games import ADAPTIVE_GAME
from bot.play.ports import STREAK_NEXT, Alarm, Scheduler
from bot.play.round.events import FollowUp, RoundClosed
from bot.play.round.table import RoundTable
from bot.store.protocols import RoundStore, StreakStore
from bot.store.records import Round, Streak
from bot.text.i18n import Texts

GAME = ADAPTIVE_GAME.name  # a streak's hands: the game dealt for a person's skill (24)
PAUSE = 2.0  # seconds between a solved hand's result and the next hand
# The chance each hand is aimed at (bot.play.ratings.adaptive): the first well inside the
# person's skill, each next one a step harder, down to a floor that still gives a fair chance.
FIRST_AIM, STEP, FLOOR = 0.9, 0.05, 0.25


def heard(record: Round) -> bool:
    """Whether a close may be a streak's hand: a round of its game in a private chat (a private
    chat's id is its person's, positive; a group's is negative)."""
    return record.chat_id > 0 and record.game == GAME


def aim_of(solved: int) -> float:
    """The chance the next hand is aimed at, after `solved` hands solved."""
    return max(FLOOR, FIRST_AIM - STEP * solved)


class StreakBook:
    def __init__(self, store: StreakStore, rounds: RoundStore, table: RoundTable,
                 scheduler: Scheduler, pause: float = PAUSE) -> None:
        self.store = store
        self.rounds = rounds  # how a hand's round ended (the event holds it as dealt)
        self.table = table
        self.scheduler = scheduler
        self.pause = pause
        self._hands: set[int] = set()  # the rounds in play as a streak's hands, here

    def playing(self, round_id: int) -> None:
        """The round is a streak's hand (dealt here, or found at a resume)."""
        self._hands.add(round_id)

    def ends_at_miss(self, record: Round) -> bool:
        return record.id in self._hands

    def next_hand(self, chat_id: int) -> None:
        """The streak in this private chat gets its next hand a pause from now."""
        self.scheduler.set(Alarm(STREAK_NEXT, chat_id), self.pause)

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A round closed: if it was the hand of its person's streak, the streak's step,
        riding on the round's result in its words (`texts`)."""
        record = event.round
        self._hands.discard(record.id)
        if not heard(record):
            return FollowUp()
        streak = await self.store.streak_on(record.chat_id)
        if streak is None or streak.round_id != record.id:
            return FollowUp()
        ended = await self.rounds.get_round(record.id)  # won: by its person, the only one
        if ended is not None and ended.status == "won":  # who writes in their private chat
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
