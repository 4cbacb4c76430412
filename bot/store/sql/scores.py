"""Scores, as both databases store them: read from the `scores` table, which the database's
triggers keep exact as rounds close and late answers land (migrations 3 and 5), and the all-time
boards over several games or chats from the totals those triggers keep in turn (migration 12),
so that no board sums a year of scores when it is asked for: each reads its first rows, and a
place its rows ahead, in an index of the board's order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store.records import Standing, Stats
from bot.store.score_store import Board, Placing
from bot.store.sql.connection import Connection, numbered_table


def top_query(by_chat: bool, by_game: bool) -> str:
    """(name, points, wins) of an all-time board's first players, in the order of its index."""
    return (f"SELECT u.first_name, t.points, t.wins FROM {totals(by_chat, by_game)} t "
            f"JOIN shown_users u ON u.id = t.user_id WHERE {totals_where(by_chat, by_game, 't')} "
            "ORDER BY t.points DESC, t.wins DESC, t.user_id LIMIT ?")


def totals(by_chat: bool, by_game: bool) -> str:
    """Where an all-time board's rows (user_id, points, wins) are (migration 12): a chat's in
    one game are its scores; a chat's over all games and every chat's (chat 0), the totals."""
    return "scores" if by_chat and by_game else "player_totals"


def totals_where(by_chat: bool, by_game: bool, alias: str, board: bool = True) -> str:
    """A board's rows in its table: those of the chat (or chat 0) and game ('' for all games)
    that have points. Not `board`: one player's row, found by its key (`+`: the board's index,
    whose condition is `points > 0`, would read the chat's players to find it)."""
    chat = "?" if by_chat else "0"
    game = "?" if by_game else "''"
    points = f"{alias}.points" if board else f"+{alias}.points"
    return f"{alias}.chat_id = {chat} AND {alias}.game = {game} AND {points} > 0"


def week_totals(by_chat: bool, by_game: bool) -> str:
    """Each player's points and wins from the rounds won since a moment (uid, p, w): a week's
    board (rounds keep who won, when). Names are joined after, to the few rows shown."""
    # `+ 0`: SQLite would otherwise read every winner in the order of their index
    where = ["r.status = 'won'", "r.ended_at >= ?", *(["r.chat_id = ?"] if by_chat else []),
             *(["r.game = ?"] if by_game else []), "r.winner_id + 0 IS NOT NULL"]
    # a person whose /forget is under way is left out before the board's first rows are
    # taken (the names' join after them would leave the board a line short)
    return ("SELECT r.winner_id AS uid, SUM(r.awarded) AS p, COUNT(*) AS w FROM rounds r "
            f"WHERE {' AND '.join(where)} GROUP BY r.winner_id HAVING SUM(r.awarded) > 0 "
            "AND NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = r.winner_id)")


def board_query(week: bool, by_chat: bool, by_game: bool) -> str:
    if not week:
        return (f"SELECT t.user_id, u.first_name, t.points, t.wins FROM "
                f"{totals(by_chat, by_game)} t JOIN shown_users u ON u.id = t.user_id "
                f"WHERE {totals_where(by_chat, by_game, 't')} "
                "ORDER BY t.points DESC, t.wins DESC, t.user_id LIMIT ?")
    shown = f"{week_totals(by_chat, by_game)} ORDER BY p DESC, w DESC, uid LIMIT ?"
    return (f"SELECT t.uid, u.first_name, t.p, t.w FROM ({shown}) AS t "
            "JOIN shown_users u ON u.id = t.uid ORDER BY t.p DESC, t.w DESC, t.uid")


# A player's place on every chat's board: 1 + the players on the steps above theirs (more points,
# or as many and more wins); those level with them share their place (bot.play.words.places).
# Migration 12 keeps the steps.
EVERY_CHAT_PLACE = (
    "SELECT 1 + COALESCE((SELECT SUM(s.players) FROM board_steps s WHERE s.game = m.game "
    "AND s.points >= m.points AND (s.points > m.points OR s.wins > m.wins)), 0), "
    "m.user_id, u.first_name, m.points, m.wins ")
# ... on one chat's board: 1 + the players of that chat ahead (read in its index from the top)
CHAT_PLACE = (
    "SELECT 1 + (SELECT COUNT(*) FROM {table} o WHERE o.chat_id = m.chat_id "
    "AND o.game = m.game AND o.points > 0 AND o.points >= m.points AND (o.points > m.points "
    "OR o.wins > m.wins)), "
    "m.user_id, u.first_name, m.points, m.wins ")


def placing_query(week: bool, by_chat: bool, by_game: bool) -> str:
    """One player's place: 1 + those strictly ahead of them (ties share a place)."""
    if not week:
        table = totals(by_chat, by_game)
        place = CHAT_PLACE.format(table=table) if by_chat else EVERY_CHAT_PLACE
        return (f"{place}FROM {table} m JOIN shown_users u ON u.id = m.user_id "
                f"WHERE {totals_where(by_chat, by_game, 'm', board=False)} AND m.user_id = ?")
    return (f"WITH t AS ({week_totals(by_chat, by_game)}) "
            "SELECT 1 + (SELECT COUNT(*) FROM t AS o WHERE o.p > m.p OR (o.p = m.p AND "
            "o.w > m.w)), m.uid, u.first_name, m.p, m.w "
            "FROM t AS m JOIN shown_users u ON u.id = m.uid WHERE m.uid = ?")


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
    # nothing while the person's /forget is under way (their scores go last of all)
    stats="SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
          "FROM scores s WHERE s.chat_id = ? AND s.user_id = ? "
          "AND EXISTS (SELECT 1 FROM shown_users u WHERE u.id = s.user_id) ORDER BY game",
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
