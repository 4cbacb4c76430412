"""What a round shows beside its words: the buttons under a deal and under a result, a time
left as a clock says it, and what a hint leaves of the points. Pure functions of the round's
record, apart from the round service that decides when they are shown."""

from __future__ import annotations

from bot.play.games import GAMES
from bot.play.outcomes import AGAIN, COACH, HINT, PASS, REVEAL, SAME, SOLUTIONS
from bot.store.records import Round
from bot.text.i18n import Texts


def hint_points(points: int) -> int:
    """A round won after a hint gives half the points (rounded up)."""
    return (points + 1) // 2


def deal_actions(record: Round, hints: bool = True, answered: bool = False
                 ) -> tuple[str, ...]:
    """The buttons under a deal: Hint (in games that give hints, where the chat has them on),
    Pass in a group once someone answered — from the start where guesses are sealed (a game of
    rolls: a guess is marked with a reaction and writes no status, so the deal would never show it
    otherwise) — and Reveal."""
    rules = GAMES[record.game].rules
    hint = (HINT,) if hints and rules.gives_hints else ()
    passing = (PASS,) if (answered or rules.guesses is not None) and record.chat_id < 0 else ()
    return hint + passing + (REVEAL,)


def time_left(texts: Texts, seconds: float) -> str:
    """A time left as a clock says it: "45 seconds", "4 min 44 s", "5 minutes"."""
    whole = max(0, round(seconds))
    if whole < 60 or whole % 60 == 0:
        return texts.duration(whole)
    return texts("time_min_sec", minutes=whole // 60, seconds=whole % 60)


def result_actions(record: Round, match_on: bool, listed_all: bool,
                   coach: bool = False) -> tuple[str, ...]:
    """The buttons under a result: Play again (and Same level, where the game deals by level),
    unless a match deals the next round itself; Show all solutions when the result does not
    list them all; What did I miss? (`coach`: someone missed, bot.play.coaching)."""
    rules = GAMES[record.game].rules
    again = () if match_on else (AGAIN, SAME) if rules.levels else (AGAIN,)
    return again + ((SOLUTIONS,) if not listed_all and rules.pages_solutions else ()) + \
        ((COACH,) if coach else ())
