"""Leaderboards and a player's statistics (/top, /stats), from the scores the database keeps and
the rounds won lately; the asker's own place when the board's first ten leave them out."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.play.chats.people import Chat, People, Player
from bot.play.community.boards import BoardAsk
from bot.store.protocols import ScoreStore
from bot.store.records import Stats
from bot.store.score_store import Board, Placing
from bot.text import markup
from bot.text.i18n import Texts

SHOWN = 10
WEEK = 7 * 86400


class Standings:
    def __init__(self, store: ScoreStore, people: People,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.people = people
        self.clock = clock

    async def top(self, chat: Chat, player: Player, everywhere: bool,
                  game: str | None = None) -> str:
        """The best players of this chat (or of every chat), in one game or all, all time."""
        return await self.board(chat, player, BoardAsk("all", everywhere, game))

    async def board(self, chat: Chat, player: Player, ask: BoardAsk) -> str:
        """The first ten of a board (all time, or the rounds won in the last 7 days), and the
        asker's own place below them when they have points there but not among the ten."""
        texts = self.people.texts(chat, player)
        week = ask.period == "week"
        board = Board(None if ask.everywhere else chat.id, ask.game,
                      self.clock() - WEEK if week else None)
        if week:
            lines = [(p.name, p.points, p.wins) for p in await self.store.board(board, SHOWN)]
        else:
            lines = [(s.name, s.points, s.wins)
                     for s in await self.store.top(board.chat_id, board.game, SHOWN)]
        if not lines:
            return texts("board_week_empty" if week else "top_empty")
        where = texts("top_all" if ask.everywhere else "top_chat")
        if week:
            where = texts("board_week", where=where)
        title = f"{where} · {texts.game(ask.game)}" if ask.game else where
        shown = [texts("top_title", title=title)]
        shown += [texts("top_line", rank=i, name=markup.name(name), points=points, wins=wins)
                  for i, (name, points, wins) in enumerate(lines, 1)]
        mine = await self.store.placing(board, player.id)
        if mine is not None and mine.rank > len(lines):
            shown.append(own_line(texts, mine))
        return markup.clip("\n".join(shown))

    async def stats(self, chat: Chat, player: Player) -> str:
        """The player's points, wins, rounds, fastest win and streaks in this chat, per game."""
        texts = self.people.texts(chat, player)
        name = markup.name(player.first_name)
        rows = [row for row in await self.store.stats(chat.id, player.id) if row.rounds_played]
        if not rows:
            return texts("stats_none", name=name)
        lines = [texts("stats_title", name=name)]
        lines += [stats_line(texts, row) for row in rows]
        if len(rows) > 1:
            lines.append(texts("stats_overall", points=sum(r.points for r in rows),
                               wins=sum(r.wins for r in rows),
                               played=sum(r.rounds_played for r in rows)))
        return "\n".join(lines)


def own_line(texts: Texts, mine: Placing) -> str:
    return texts("board_you", line=texts("top_line", rank=mine.rank, name=markup.name(mine.name),
                                         points=mine.points, wins=mine.wins))


def stats_line(texts: Texts, row: Stats) -> str:
    fastest = texts.seconds(row.fastest_win) if row.fastest_win is not None else "—"
    return texts("stats_game", game=texts.game(row.game), points=row.points, wins=row.wins,
                 played=row.rounds_played, fastest=fastest, streak=row.current_streak,
                 best_streak=row.best_streak)
