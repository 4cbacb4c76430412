"""A tournament in words: its terms, its state, the line under each deal, and the board after a
round — the round's hand and answers, this group's result, the best players across the groups,
this group's players, the groups ranked — and the podium at the end. Words only: the service
decides and reads, this says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.play.tournaments.rules import BEST_PLAYERS, MIX
from bot.store.tournament_records import (
    GroupStanding,
    PlayerStanding,
    Solve,
    Tournament,
    TournamentRound,
)
from bot.text import markup
from bot.text.i18n import Texts

MEDALS = ("🥇", "🥈", "🥉")
SHOWN = 5  # players and groups a board lists (this group's own place is said besides)
PODIUM = 3


@dataclass(frozen=True)
class Board:
    """What the board after round `done.number` shows in one chat (`chat_id`; `played`: a
    group that was dealt the round, not a follower); `next_in`: seconds to the next round
    (None: it was the last)."""

    tournament: Tournament
    done: TournamentRound
    answers: str
    chat_id: int
    played: bool
    here: Solve | None
    players: Sequence[PlayerStanding]
    own: Sequence[PlayerStanding]
    groups: Sequence[GroupStanding]
    next_in: float | None


def level_words(texts: Texts, level: str) -> str:
    return texts("tournament_level_mix") if level == MIX else texts(f"level_{level}")


def terms(texts: Texts, tournament: Tournament) -> str:
    """"10 rounds of 24 (a mix of levels), 2 minutes each"."""
    return texts("tournament_terms", rounds=tournament.rounds,
                 game=texts.game(tournament.game), level=level_words(texts, tournament.level),
                 seconds=round(tournament.seconds))


def named(texts: Texts, tournaments: Sequence[Tournament]) -> str:
    """The tournaments' names in bold, as a sentence lists them: "<b>Cup</b> and <b>Open</b>"."""
    return texts.listing([f"<b>{markup.name(t.name)}</b>" for t in tournaments])


def when(texts: Texts, tournament: Tournament, now: float) -> str:
    """When it starts: in how long, and at what time (UTC)."""
    moment = int(tournament.starts_at) % (24 * 3600)
    return texts("tournament_when", seconds=max(0, round(tournament.starts_at - now)),
                 time=f"{moment // 3600:02d}:{moment // 60 % 60:02d}")


def group_name(title: str | None, chat_id: int) -> str:
    return markup.name(title or str(chat_id))


def place_mark(place: int, medals: bool) -> str:
    return MEDALS[place - 1] if medals and place <= len(MEDALS) else f"{place}."


def player_lines(texts: Texts, players: Sequence[PlayerStanding], titles: dict[int, str | None],
                 medals: bool = False, first: int = 1) -> list[str]:
    return [texts("tournament_player_line", place=place_mark(first + i, medals),
                  name=markup.name(p.name), group=group_name(titles.get(p.chat_id), p.chat_id),
                  points=p.points, seconds=texts.seconds(p.seconds))
            for i, p in enumerate(players)]


def group_lines(texts: Texts, groups: Sequence[GroupStanding], medals: bool = False
                ) -> list[str]:
    return [texts("tournament_group_line", place=place_mark(i + 1, medals),
                  group=group_name(g.title, g.chat_id), points=g.points)
            for i, g in enumerate(groups)]


def board_text(texts: Texts, board: Board) -> str:
    """The board after a round, in one chat."""
    t, done = board.tournament, board.done
    titles = {g.chat_id: g.title for g in board.groups}
    lines = [texts("tournament_board_head", name=markup.name(t.name), number=done.number,
                   count=t.rounds), board.answers]
    if board.played:
        lines.append(texts("tournament_here_won", name=markup.name(board.here.name),
                           seconds=texts.seconds(board.here.seconds))
                     if board.here is not None else texts("tournament_here_nobody"))
    last = board.next_in is None
    lines += ["", texts("tournament_podium_players" if last else "tournament_top_players")]
    shown = board.players[:PODIUM if last else SHOWN]
    lines += player_lines(texts, shown, titles, medals=last) or [texts("tournament_nobody")]
    if board.played and board.own and not last:
        lines += ["", texts("tournament_own_players")]
        lines += player_lines(texts, board.own[:SHOWN], titles)
    lines += ["", texts("tournament_podium_groups" if last else "tournament_top_groups",
                        best=BEST_PLAYERS)]
    lines += group_lines(texts, board.groups[:PODIUM if last else SHOWN], medals=last)
    own = next((i for i, g in enumerate(board.groups) if g.chat_id == board.chat_id), None)
    if board.played and own is not None:
        lines.append(texts("tournament_own_place", place=own + 1, groups=len(board.groups),
                           points=board.groups[own].points))
    lines += ["", texts("tournament_over", name=markup.name(t.name)) if last
              else texts("tournament_next", seconds=round(board.next_in or 0))]
    return "\n".join(lines)
