"""The counts a person can read, as docs/counts.md defines them, recomputed in Python from what a
test played: each closed round as it closed (who dealt it, who answered before the close and who
after, who passed, who won and what it awarded) and each daily puzzle solved. Every figure a
surface shows is compared with these (tests/bot/play/test_counts_agree.py), so this module
follows the definitions' words and nothing of the SQL or the services it checks.
"""

from __future__ import annotations

import calendar
import time
from collections import Counter
from dataclasses import dataclass, field

from tests.bot.scoring import calendar_week

DAY = 86400
WEEK = 7 * DAY
YEAR = 365 * DAY
RATED = frozenset({"24", "countdown"})  # the games a rating is kept for (docs/ratings.md)


def season(moment: float) -> str:
    """The season of a moment: its UTC month, "2026-12"."""
    day = time.gmtime(moment)
    return f"{day.tm_year:04d}-{day.tm_mon:02d}"


def day(moment: float) -> str:
    """The UTC day of a moment: "2026-12-01"."""
    return time.strftime("%Y-%m-%d", time.gmtime(moment))


@dataclass(frozen=True)
class Answer:
    user: int
    right: bool
    at: float


@dataclass
class Closed:
    """A round as it closed, the right answers stored after its close (a moment late), and
    whether its chat's scores were reset since (/resetscores: its answers go, its winner's
    name with them; it stays a round won, and rated)."""

    id: int
    chat_id: int
    game: str
    level: str
    dealer: int | None
    started_at: float
    ended_at: float
    status: str  # won, expired, revealed
    winner: int | None
    awarded: int
    win_seconds: float | None
    answers: tuple[Answer, ...]  # stored before the close
    passes: frozenset[int]
    late: list[Answer] = field(default_factory=list)
    reset: bool = False

    def answered(self, user: int) -> bool:
        """Whether the person answered in the round, before its close or after (and it was
        not reset since)."""
        return not self.reset and any(a.user == user for a in (*self.answers, *self.late))

    def won_by(self, user: int) -> bool:
        return not self.reset and self.winner == user

    def played(self, user: int) -> bool:
        """A round played: answered (at any time) or won."""
        return self.answered(user) or self.won_by(user)

    def took_part(self, user: int) -> bool:
        """What the rating counts: dealt, answered before the close, or passed."""
        return self.dealer == user or user in self.passes or \
            any(a.user == user for a in self.answers)

    def first_answer(self, user: int) -> float:
        return min(a.at for a in (*self.answers, *self.late) if a.user == user)

    def solved_by(self, user: int) -> bool:
        """Right at least once (a late right answer too), not necessarily first."""
        return any(a.user == user and a.right for a in (*self.answers, *self.late))


@dataclass(frozen=True)
class Daily:
    user: int
    game: str
    at: float


@dataclass
class Log:
    rounds: list[Closed] = field(default_factory=list)
    dailies: list[Daily] = field(default_factory=list)


@dataclass(frozen=True)
class Score:
    """A person's figures in one chat and game: what /stats shows, and the boards' points and
    wins."""

    points: int
    wins: int
    rounds: int
    fastest: float | None
    streak: int
    best: int


def played_in(log: Log, chat_id: int | None, user: int, game: str) -> list[Closed]:
    """The rounds the person played in a chat (None: every chat) and game, as dealt."""
    return sorted((r for r in log.rounds if r.game == game and chat_id in (None, r.chat_id)
                   and r.played(user)), key=lambda r: r.id)


def score(log: Log, chat_id: int, user: int, game: str) -> Score:
    """Points, wins, rounds played, the fastest win and the streaks in one chat and game: a
    streak is a run of wins among the rounds the person played there, in the order dealt."""
    played = played_in(log, chat_id, user, game)
    won = [r for r in played if r.won_by(user)]
    times = [r.win_seconds for r in won if r.win_seconds is not None]
    run = best = 0
    for r in played:
        run = run + 1 if r.won_by(user) else 0
        best = max(best, run)
    return Score(sum(r.awarded for r in won), len(won), len(played),
                 min(times) if times else None, run, best)


def rated(log: Log, user: int, game: str, now: float) -> int:
    """The rounds the rating of this season is from: the rated game's rounds closed this
    season, in every chat, that the person dealt, answered before the close or passed in, and
    each daily puzzle of the game they solved this season."""
    if game not in RATED:
        return 0
    rounds = sum(1 for r in log.rounds if r.game == game and season(r.ended_at) == season(now)
                 and r.took_part(user))
    return rounds + sum(1 for d in log.dailies if d.user == user and d.game == game
                        and season(d.at) == season(now))


def week(log: Log, user: int, now: float, chat_id: int | None = None,
         game: str | None = None) -> tuple[int, int]:
    """Points and wins of the rounds the person won in the last seven days (to the second)."""
    won = [r for r in log.rounds if r.won_by(user) and r.ended_at >= now - WEEK
           and chat_id in (None, r.chat_id) and game in (None, r.game)]
    return sum(r.awarded for r in won), len(won)


def all_chats(log: Log, user: int, game: str) -> Score:
    """Every chat's figures together: rounds, wins and points summed, the fastest win the
    least, and as the streaks the longest run of one chat (a run is counted within a chat)."""
    chats = {r.chat_id for r in log.rounds if r.game == game and r.played(user)}
    each = [score(log, chat_id, user, game) for chat_id in chats]
    times = [s.fastest for s in each if s.fastest is not None]
    return Score(sum(s.points for s in each), sum(s.wins for s in each),
                 sum(s.rounds for s in each), min(times) if times else None, 0,
                 max((s.best for s in each), default=0))


def levels(log: Log, user: int, now: float) -> dict[tuple[str, str], tuple[int, int]]:
    """(rounds answered, rounds solved) per game and level, of the rounds whose first answer
    of the person's came in the past year."""
    found: dict[tuple[str, str], tuple[int, int]] = {}
    for r in log.rounds:
        if r.answered(user) and r.first_answer(user) >= now - YEAR:
            rounds, solved = found.get((r.game, r.level), (0, 0))
            found[(r.game, r.level)] = (rounds + 1, solved + r.solved_by(user))
    return found


def days_played(log: Log, user: int, now: float) -> Counter[str]:
    """Each UTC day of the past year the person played, and how much: a round answered counts
    on the day of their first answer in it, a daily puzzle solved on its day."""
    found: Counter[str] = Counter(
        day(r.first_answer(user)) for r in log.rounds
        if r.answered(user) and r.first_answer(user) >= now - YEAR)
    found.update({day(d.at) for d in log.dailies if d.user == user and day(d.at) >= day(
        now - YEAR)})
    return found


def rounds_won_in(log: Log, chat_id: int, now: float, weeks: int = 52) -> int:
    """A group's rounds won in its last `weeks` calendar weeks (Monday 00:00 to Sunday's end,
    UTC), the last this one: by anyone, reset since or not."""
    first = calendar_week(now) - weeks + 1
    return sum(1 for r in log.rounds if r.chat_id == chat_id and r.status == "won"
               and r.ended_at <= now and calendar_week(r.ended_at) >= first)


def runs(days: set[int], today: int) -> tuple[int, int]:
    """(the run of days, numbered, that reaches today or yesterday, the longest run)."""
    numbers = sorted(days)
    run = longest = 0
    for at, number in enumerate(numbers):
        run = run + 1 if at and number == numbers[at - 1] + 1 else 1
        longest = max(longest, run)
    alive = bool(numbers) and today - numbers[-1] <= 1
    return (run if alive else 0), longest


def daily_streaks(log: Log, user: int, game: str, now: float) -> tuple[int, int]:
    """The daily puzzle's streaks: runs of days it was solved."""
    return runs({int(d.at // DAY) for d in log.dailies if d.user == user and d.game == game},
                int(now // DAY))


def day_streaks(days: Counter[str], now: float) -> tuple[int, int]:
    """The page's runs of days played (a round answered or the daily puzzle solved)."""
    return runs({calendar.timegm(time.strptime(d, "%Y-%m-%d")) // DAY for d in days},
                int(now // DAY))
