"""Leaderboards and a player's statistics (/top, /stats), from the scores the database keeps."""

from __future__ import annotations

from bot.play.people import Chat, People, Player
from bot.store.protocols import ScoreStore
from bot.store.records import Stats
from bot.text import markup
from bot.text.i18n import Texts


class Standings:
    def __init__(self, store: ScoreStore, people: People) -> None:
        self.store = store
        self.people = people

    async def top(self, chat: Chat, player: Player, everywhere: bool,
                  game: str | None = None) -> str:
        """The best players of this chat (or of every chat), in one game or all."""
        texts = self.people.texts(chat, player)
        standings = await self.store.top(None if everywhere else chat.id, game)
        if not standings:
            return texts("top_empty")
        where = texts("top_all" if everywhere else "top_chat")
        title = f"{where} · {texts.game(game)}" if game else where
        lines = [texts("top_title", title=title)]
        lines += [texts("top_line", rank=i, name=markup.name(s.name), points=s.points,
                        wins=s.wins) for i, s in enumerate(standings, 1)]
        return markup.clip("\n".join(lines))

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


def stats_line(texts: Texts, row: Stats) -> str:
    fastest = texts.seconds(row.fastest_win) if row.fastest_win is not None else "—"
    return texts("stats_game", game=texts.game(row.game), points=row.points, wins=row.wins,
                 played=row.rounds_played, fastest=fastest, streak=row.current_streak,
                 best_streak=row.best_streak)
