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
    return [texts("match_line", place=MEDALS[i] if medals and i < len(MEDALS) else f"{i + 1}.",
                  name=markup.name(s.name), points=s.points, wins=s.wins)
            for i, s in enumerate(scores)]


def podium(texts: Texts, key: str, played: int, count: int, scores: list[MatchScore]) -> str:
    """The end of a match: how many rounds were played, and the standings with medals."""
    return "\n".join([texts(key, played=played, count=count),
                      *board(texts, scores, medals=True)])
