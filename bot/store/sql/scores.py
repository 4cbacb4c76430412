"""Scores, as both databases store them: read from the `scores` table, which the database's
triggers keep exact as rounds close and late answers land (migrations 3 and 5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store.records import Standing, Stats
from bot.store.score_store import Board, Placing
from bot.store.sql.connection import Connection, numbered_table


def top_query(by_chat: bool, by_game: bool) -> str:
    where = ["s.points > 0", *(["s.chat_id = ?"] if by_chat else []),
             *(["s.game = ?"] if by_game else [])]
    return ("SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) AS w FROM scores s "
            f"JOIN users u ON u.id = s.user_id WHERE {' AND '.join(where)} "
            "GROUP BY s.user_id, u.first_name ORDER BY p DESC, w DESC, s.user_id LIMIT ?")


def board_totals(week: bool, by_chat: bool, by_game: bool) -> str:
    """Each player's points and wins on a board (uid, name, p, w): all time from the scores,
    or from the rounds won since a moment (a week's board: rounds keep who won, when)."""
    if week:
        where = ["r.status = 'won'", "r.ended_at >= ?", *(["r.chat_id = ?"] if by_chat else []),
                 *(["r.game = ?"] if by_game else [])]
        return ("SELECT r.winner_id AS uid, u.first_name AS name, SUM(r.awarded) AS p, "
                "COUNT(*) AS w FROM rounds r JOIN users u ON u.id = r.winner_id "
                f"WHERE {' AND '.join(where)} GROUP BY r.winner_id, u.first_name "
                "HAVING SUM(r.awarded) > 0")
    where = ["s.points > 0", *(["s.chat_id = ?"] if by_chat else []),
             *(["s.game = ?"] if by_game else [])]
    return ("SELECT s.user_id AS uid, u.first_name AS name, SUM(s.points) AS p, "
            "SUM(s.wins) AS w FROM scores s JOIN users u ON u.id = s.user_id "
            f"WHERE {' AND '.join(where)} GROUP BY s.user_id, u.first_name")


def board_query(week: bool, by_chat: bool, by_game: bool) -> str:
    return (f"SELECT uid, name, p, w FROM ({board_totals(week, by_chat, by_game)}) AS t "
            "ORDER BY p DESC, w DESC, uid LIMIT ?")


def placing_query(week: bool, by_chat: bool, by_game: bool) -> str:
    """One player's place: 1 + those ahead of them in the board's order."""
    return (f"WITH t AS ({board_totals(week, by_chat, by_game)}) "
            "SELECT 1 + (SELECT COUNT(*) FROM t AS o WHERE o.p > m.p OR (o.p = m.p AND "
            "(o.w > m.w OR (o.w = m.w AND o.uid < m.uid)))), m.uid, m.name, m.p, m.w "
            "FROM t AS m WHERE m.uid = ?")


def variants(query: Callable[[bool, bool, bool], str]) -> tuple[str, ...]:
    """The query for each board, by 4 * (a week's) + 2 * (a chat's) + (a game's)."""
    return tuple(query(week, by_chat, by_game) for week in (False, True)
                 for by_chat in (False, True) for by_game in (False, True))


def board_index(board: Board) -> int:
    return 4 * (board.since is not None) + 2 * (board.chat_id is not None) + \
        (board.game is not None)


def board_params(board: Board) -> list:
    return [value for value in (board.since, board.chat_id, board.game) if value is not None]


@dataclass(frozen=True)
class ScoreStatements:
    top: tuple[str, str, str, str]  # by 2 * (a chat given) + (a game given)
    stats: str
    board: tuple[str, ...]  # by board_index
    placing: tuple[str, ...]


QMARK = ScoreStatements(
    top=(top_query(False, False), top_query(False, True), top_query(True, False),
         top_query(True, True)),
    stats="SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
          "FROM scores WHERE chat_id = ? AND user_id = ? ORDER BY game",
    board=variants(board_query),
    placing=variants(placing_query),
)
NUMBERED = numbered_table(QMARK)


class Scores:
    def __init__(self, db: Connection, sql: ScoreStatements) -> None:
        self.db = db
        self.sql = sql

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]:
        """The best players of a chat (or of all chats), in one game or all together."""
        given = [value for value in (chat_id, game) if value is not None]
        query = self.sql.top[2 * (chat_id is not None) + (game is not None)]
        return [Standing(*row) for row in await self.db.fetch(query, (*given, limit))]

    async def stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """A player's scores in a chat, one row per game played."""
        rows = await self.db.fetch(self.sql.stats, (chat_id, user_id))
        return [Stats(*row) for row in rows]

    async def board(self, board: Board, limit: int = 10) -> list[Placing]:
        """The board's first players, best first (more points, then more wins)."""
        rows = await self.db.fetch(self.sql.board[board_index(board)],
                                   (*board_params(board), limit))
        return [Placing(rank, int(uid), name, int(points), int(wins))
                for rank, (uid, name, points, wins) in enumerate(rows, 1)]

    async def placing(self, board: Board, user_id: int) -> Placing | None:
        rows = await self.db.fetch(self.sql.placing[board_index(board)],
                                   (*board_params(board), user_id))
        if not rows:
            return None
        rank, uid, name, points, wins = rows[0]
        return Placing(int(rank), int(uid), name, int(points), int(wins))
