"""A match's standings in words: a line a player, and the podium with medals at the end."""

from __future__ import annotations

from bot.store.records import MatchScore
from bot.text import markup
from bot.text.i18n import Texts

MEDALS = ("🥇", "🥈", "🥉")


def board(texts: Texts, scores: list[MatchScore], medals: bool = False) -> list[str]:
    """The standings, one line a player (medals for the first three on the podium)."""
    if not scores:
        return [texts("match_nobody")]
    places = shared_places(scores)
    return [texts("match_line", place=MEDALS[p - 1] if medals and p <= len(MEDALS) else f"{p}.",
                  name=markup.name(s.name), points=s.points, wins=s.wins)
            for p, s in zip(places, scores, strict=True)]


def shared_places(scores: list[MatchScore]) -> list[int]:
    """Each player's place (from 1), the standings' order kept: players level on points and
    wins share a place, and the next place after them is skipped (1, 1, 3), so a tie is never
    shown as gold and silver."""
    places: list[int] = []
    for i, score in enumerate(scores):
        level = i > 0 and (score.points, score.wins) == (scores[i - 1].points,
                                                         scores[i - 1].wins)
        places.append(places[-1] if level else i + 1)
    return places


def podium(texts: Texts, key: str, played: int, count: int, scores: list[MatchScore]) -> str:
    """The end of a match: how many rounds were played, and the standings with medals."""
    return "\n".join([texts(key, played=played, count=count),
                      *board(texts, scores, medals=True)])
