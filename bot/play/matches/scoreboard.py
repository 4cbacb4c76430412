"""A match's standings in words: a line a player, and the podium with medals at the end (players
level on points and wins share a place: bot.play.words.places)."""

from __future__ import annotations

from bot.play.words.places import shared_places
from bot.store.records import MatchScore
from bot.text import markup
from bot.text.i18n import Texts

MEDALS = ("🥇", "🥈", "🥉")


def board(texts: Texts, scores: list[MatchScore], medals: bool = False) -> list[str]:
    """The standings, one line a player (medals for the first three on the podium)."""
    if not scores:
        return [texts("match_nobody")]
    places = shared_places([(s.points, s.wins) for s in scores])
    return [texts("match_line", place=MEDALS[p - 1] if medals and p <= len(MEDALS) else f"{p}.",
                  name=markup.name(s.name), points=s.points, wins=s.wins)
            for p, s in zip(places, scores, strict=True)]


def podium(texts: Texts, key: str, played: int, count: int, scores: list[MatchScore]) -> str:
    """The end of a match: how many rounds were played, and the standings with medals."""
    return "\n".join([texts(key, played=played, count=count),
                      *board(texts, scores, medals=True)])
