"""Scores, as both databases store them: read from the `scores` table, which the database's
triggers keep exact as rounds close and late answers land (migrations 3 and 5), and the all-time
boards over several games or chats from the totals those triggers keep in turn (migration 12),
so that no board sums a year of scores when it is asked for: each reads its first rows, and a
place its rows ahead, in an index of the board's order. Every chat's week is read from the
week's totals (migration 31) set right for the moments between their start and the week asked
for; a chat's week sums that chat's rounds of the week."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
    if week and not by_chat:
        return positional(every_week_board(by_game))[0]
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
    if week and not by_chat:
        return positional(every_week_place(by_game))[0]
    if not week:
        table = totals(by_chat, by_game)
        place = CHAT_PLACE.format(table=table) if by_chat else EVERY_CHAT_PLACE
        return (f"{place}FROM {table} m JOIN shown_users u ON u.id = m.user_id "
                f"WHERE {totals_where(by_chat, by_game, 'm', board=False)} AND m.user_id = ?")
    return (f"WITH t AS ({week_totals(by_chat, by_game)}) "
            "SELECT 1 + (SELECT COUNT(*) FROM t AS o WHERE o.p > m.p OR (o.p = m.p AND "
            "o.w > m.w)), m.uid, u.first_name, m.p, m.w "
            "FROM t AS m JOIN shown_users u ON u.id = m.uid WHERE m.uid = ?")


# Every chat's week (migration 31): the totals kept from week_start.since on (`k`), set right for
# the rounds won between that start and the week's (`b`: lo to hi; taken off when the week begins
# later, added when earlier: minutes, as the housekeeping moves the start on), per winner (`c`),
# whose exact week is then `t`. A board is those corrected players and the first of the others
# in the totals' index; a place, the players on the steps above less the corrected and the
# forgotten there, plus the corrected above. Written with :names, each a parameter (WEEK_NAMES).
WEEK_WINDOW = (
    "b AS MATERIALIZED (SELECT CASE WHEN :since < since THEN :since ELSE since END AS lo, "
    "CASE WHEN :since < since THEN since ELSE :since END AS hi, "
    "CASE WHEN :since < since THEN 1 ELSE -1 END AS sign FROM week_start), "
    # the window's ends as values (not a join), so that each planner reads the won rounds by
    # time in their index; `+ 0`: SQLite would otherwise read every winner in their index's order
    "c AS MATERIALIZED (SELECT r.winner_id AS uid, (SELECT sign FROM b) * SUM(r.awarded) AS p, "
    "(SELECT sign FROM b) * COUNT(*) AS w FROM rounds r WHERE r.status = 'won' "
    "AND r.ended_at >= (SELECT lo FROM b) AND r.ended_at < (SELECT hi FROM b) "
    "AND {game}r.winner_id + 0 IS NOT NULL GROUP BY r.winner_id), "
    # each corrected player's totals looked up by key (a join may read the game's every row)
    "t AS MATERIALIZED (SELECT c.uid, COALESCE((SELECT k.points FROM week_totals k "
    "WHERE k.user_id = c.uid AND k.game = {kind}), 0) + c.p AS p, COALESCE((SELECT k.wins "
    "FROM week_totals k WHERE k.user_id = c.uid AND k.game = {kind}), 0) + c.w AS w FROM c)")
NOT_ERASING = "NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = {})"


def every_week(by_game: bool, body: str) -> str:
    """An every-chat week's statement: the window's CTEs, then `body`, {kind} the game's."""
    kind = ":game" if by_game else "''"
    window = WEEK_WINDOW.format(game="r.game = :game AND " if by_game else "", kind=kind)
    return f"WITH {window} " + body.format(kind=kind)


def every_week_board(by_game: bool) -> str:
    """(uid, name, points, wins) of every chat's week's first players."""
    return every_week(by_game, (
        "SELECT x.uid, u.first_name, x.p, x.w FROM ("
        f"SELECT t.uid, t.p, t.w FROM t WHERE t.p > 0 AND {NOT_ERASING.format('t.uid')} "
        "UNION ALL SELECT o.uid, o.p, o.w FROM (SELECT k.user_id AS uid, k.points AS p, "
        "k.wins AS w FROM week_totals k WHERE k.game = {kind} AND k.points > 0 "
        f"AND k.user_id NOT IN (SELECT c.uid FROM c) AND {NOT_ERASING.format('k.user_id')} "
        "ORDER BY k.points DESC, k.wins DESC, k.user_id LIMIT :limit) AS o "
        "ORDER BY p DESC, w DESC, uid LIMIT :limit) AS x "
        "JOIN shown_users u ON u.id = x.uid ORDER BY x.p DESC, x.w DESC, x.uid"))


def every_week_place(by_game: bool) -> str:
    """(place, uid, name, points, wins) of one player on every chat's week (none: no points)."""
    ahead = "(o.points > m.p OR (o.points = m.p AND o.wins > m.w))"
    return every_week(by_game, (
        "SELECT 1 + COALESCE((SELECT SUM(s.players) FROM week_steps s WHERE s.game = {kind} "
        "AND s.points >= m.p AND (s.points > m.p OR s.wins > m.w)), 0) "
        # each looked up by key (a scalar subquery: never a walk of the totals from the top)
        "- (SELECT COUNT(*) FROM (SELECT c.uid FROM c UNION SELECT f.user_id FROM forgets f) "
        "AS x WHERE (SELECT 1 FROM week_totals o WHERE o.game = {kind} AND o.user_id = x.uid "
        f"AND o.points > 0 AND {ahead}) IS NOT NULL) "
        "+ (SELECT COUNT(*) FROM (SELECT t.uid, t.p AS points, t.w AS wins FROM t) AS o "
        f"WHERE o.points > 0 AND {ahead} AND {NOT_ERASING.format('o.uid')}), "
        "u.id, u.first_name, m.p, m.w FROM (SELECT t.p, t.w FROM t WHERE t.uid = :user "
        "UNION ALL SELECT k.points, k.wins FROM week_totals k WHERE k.game = {kind} "
        "AND k.user_id = :user AND k.user_id NOT IN (SELECT c.uid FROM c)) AS m "
        "JOIN shown_users u ON u.id = :user WHERE m.p > 0"))


NAMED = re.compile(r":(since|game|limit|user)\b")


def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """A statement with :names, as `?` markers and the names in their order."""
    return NAMED.sub("?", sql), tuple(NAMED.findall(sql))


def variants(query: Callable[[bool, bool, bool], str]) -> tuple[str, ...]:
    """The query for each board, by 4 * (a week's) + 2 * (a chat's) + (a game's)."""
    return tuple(query(week, by_chat, by_game) for week in (False, True)
                 for by_chat in (False, True) for by_game in (False, True))


def board_index(board: Board) -> int:
    return 4 * (board.since is not None) + 2 * (board.chat_id is not None) + \
        (board.game is not None)


def board_params(board: Board) -> list:
    return [value for value in (board.since, board.chat_id, board.game) if value is not None]


# The names of every chat's week's parameters, in order (all games, then one game's)
WEEK_NAMES = {"board": tuple(positional(every_week_board(by_game))[1] for by_game in (False, True)),
              "placing": tuple(positional(every_week_place(by_game))[1]
                               for by_game in (False, True))}


def asked(kind: str, board: Board, last: dict[str, Any]) -> list:
    """A board's statement's parameters: since, chat, game as given, then `last`'s value
    (the limit, or the player); every chat's week's by their names."""
    if board.since is not None and board.chat_id is None:
        given = {"since": board.since, "game": board.game, **last}
        return [given[name] for name in WEEK_NAMES[kind][board.game is not None]]
    return [*board_params(board), *last.values()]


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
                                   asked("board", board, {"limit": limit}))
        return [Placing(rank, int(uid), name, int(points), int(wins))
                for rank, (uid, name, points, wins) in enumerate(rows, 1)]

    async def placing(self, board: Board, user_id: int) -> Placing | None:
        rows = await self.db.fetch(self.sql.placing[board_index(board)],
                                   asked("placing", board, {"user": user_id}))
        if not rows:
            return None
        rank, uid, name, points, wins = rows[0]
        return Placing(int(rank), int(uid), name, int(points), int(wins))
