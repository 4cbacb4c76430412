"""The scores a database should hold, recomputed in Python from its rounds and answers.

The definitions (docs/reliability.md, "Scores"): a player played a closed round if they answered in
it (before or after it closed, right or wrong) or won it; rounds played, wins, points (what each
won round awarded) and the fastest win count those rounds, per chat and game. The current streak is
the number of won rounds at the end of the rounds that player played there, in round order (most
recent first, up to the first one not won); the best streak is the longest such run of wins. Tests
and the crash trials compare the `scores` table with this, so it must stay independent of the SQL
it checks.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

Key = tuple[int, int, str]  # chat, user, game
Score = tuple[int, int, int, float | None, int, int]  # points, wins, played, fastest, streaks


@dataclass(frozen=True)
class RoundRow:
    id: int
    chat_id: int
    game: str
    status: str
    winner_id: int | None
    awarded: int
    win_seconds: float | None


def expected_scores(rounds: Iterable[RoundRow],
                    answers: Iterable[tuple[int, int]]) -> dict[Key, Score]:
    """Scores by (chat, user, game) from rounds and (round id, user id) answer pairs."""
    players: dict[int, set[int]] = defaultdict(set)
    for round_id, user_id in answers:
        players[round_id].add(user_id)
    history: dict[Key, list[RoundRow]] = defaultdict(list)
    for row in sorted(rounds, key=lambda r: r.id):
        if row.status == "open":
            continue
        everyone = players[row.id] | ({row.winner_id} if row.winner_id is not None else set())
        for user in everyone:
            history[(row.chat_id, user, row.game)].append(row)
    return {key: _score(key[1], played) for key, played in history.items()}


def _score(user: int, played: list[RoundRow]) -> Score:
    won = [r for r in played if r.winner_id == user]
    times = [r.win_seconds for r in won if r.win_seconds is not None]
    current = best = run = 0
    for row in played:
        run = run + 1 if row.winner_id == user else 0
        best = max(best, run)
    for row in reversed(played):
        if row.winner_id != user:
            break
        current += 1
    return (sum(r.awarded for r in won), len(won), len(played), min(times) if times else None,
            current, best)


def read_rows(rows_of_rounds: Iterable[tuple], rows_of_answers: Iterable[tuple]
              ) -> tuple[list[RoundRow], list[tuple[int, int]]]:
    return [RoundRow(*row) for row in rows_of_rounds], [tuple(row) for row in rows_of_answers]


ROUNDS_SQL = "SELECT id, chat_id, game, status, winner_id, awarded, win_seconds FROM rounds"
ANSWERS_SQL = "SELECT round_id, user_id FROM answers"
SCORES_SQL = ("SELECT chat_id, user_id, game, points, wins, rounds_played, fastest_win, "
              "current_streak, best_streak FROM scores")


def stored_scores(rows: Iterable[tuple]) -> dict[Key, Score]:
    return {(r[0], r[1], r[2]): (r[3], r[4], r[5], r[6], r[7], r[8]) for r in rows}


def score_mismatches(database: sqlite3.Connection) -> list[str]:
    """Where the scores table differs from the recomputation (empty: none)."""
    rounds, answers = read_rows(database.execute(ROUNDS_SQL), database.execute(ANSWERS_SQL))
    expected = expected_scores(rounds, answers)
    stored = stored_scores(database.execute(SCORES_SQL))
    return [f"{key}: stored {stored.get(key)}, expected {expected.get(key)}"
            for key in sorted(set(expected) | set(stored), key=repr)
            if stored.get(key) != expected.get(key)]


def expected_records(scores: dict[Key, Score], chat_id: int, hidden: set[int] = frozenset()
                     ) -> list[tuple[str, str, int, float]]:
    """A group's records (the group's page, docs/counts.md) from its scores, by game and kind:
    the fastest win, the longest run of wins and the most wins (those two above nothing), each
    the best of every row, held by the least user id among those level on it that may be shown
    (`hidden`: a /forget under way); none where nobody may. (game, kind, user, value)"""
    found = []
    for game in sorted({g for c, _, g in scores if c == chat_id}):
        rows = {u: score for (c, u, g), score in scores.items() if c == chat_id and g == game}
        kinds = (("fastest", lambda s: s[3], min), ("run", lambda s: s[5], max),
                 ("wins", lambda s: s[1], max))
        for kind, value_of, best_of in kinds:
            values = [v for s in rows.values() if (v := value_of(s)) is not None]
            if not values or (kind != "fastest" and best_of(values) <= 0):
                continue
            best = best_of(values)
            holders = sorted(u for u, s in rows.items() if value_of(s) == best and u not in hidden)
            if holders:
                found.append((game, kind, holders[0], float(best)))
    return found


# --- a group's weeks (schema step 39) ---------------------------------------------------------

MONDAY_BEFORE_1970 = date(1969, 12, 29)  # the Monday of the week 1970-01-01 fell in: week 0
WON_SQL = "SELECT chat_id, ended_at FROM rounds WHERE status = 'won'"
CHAT_WEEKS_SQL = "SELECT chat_id, week, wins FROM chat_weeks"


def calendar_week(moment: float) -> int:
    """A moment's calendar week (Monday to Sunday, UTC) numbered from the one 1970 began in,
    by the calendar rather than the step's arithmetic."""
    return (datetime.fromtimestamp(moment, UTC).date() - MONDAY_BEFORE_1970).days // 7


def expected_chat_weeks(won: Iterable[tuple[int, float | None]]
                        ) -> dict[tuple[int, int], int]:
    """Rounds won per group (a negative chat id) and week, from (chat, ended_at) of each (one
    with no moment in none)."""
    weeks: dict[tuple[int, int], int] = defaultdict(int)
    for chat_id, ended_at in won:
        if chat_id < 0 and ended_at is not None:
            weeks[(chat_id, calendar_week(ended_at))] += 1
    return dict(weeks)


async def chat_weeks_hold(db) -> None:  # either engine's connection
    """The kept weeks are the won rounds counted: no row at nothing, none of a private chat."""
    kept = {(chat, week): wins for chat, week, wins in await db.fetch(CHAT_WEEKS_SQL)}
    assert kept == expected_chat_weeks(await db.fetch(WON_SQL))
