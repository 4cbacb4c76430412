"""The solo modes' boards, as both databases keep them (table `solo_bests`): each person's best of
a mode (a storm's hands solved, a streak's length) in a period — a UTC day, a season, all time —
written in the transaction that ends the storm or streak where it beats what is kept, and read
from the head of the period's index. The statements of each mode (bot.store.sql.storms,
bot.store.sql.streaks) are these, with the mode's name and table written in."""

from __future__ import annotations

from bot.store.records import SoloBest
from bot.store.sql.connection import Connection

# a board's rows: each person's best of the period, the best first (the earlier among equals),
# their name as stored: (period, limit)
BOARD = ("SELECT b.user_id, u.first_name, b.best FROM solo_bests b "
         "JOIN users u ON u.id = b.user_id WHERE b.mode = '{mode}' AND b.period = ? "
         "ORDER BY b.best DESC, b.at, b.user_id LIMIT ?")
# ... a group's board: the people who play in the group first (their rows of scores there), then
# each one's best by its key, and the names of the ten only — as a chat's rating board reads
# (bot.store.sql.ratings, LOOKED_BOARD), never a person's rows of every chat: (chat, period,
# limit)
GROUP_BOARD = ("WITH c AS MATERIALIZED (SELECT DISTINCT s.user_id FROM scores s "
               "WHERE s.chat_id = ?), "
               "b AS MATERIALIZED (SELECT k.user_id, k.best, k.at FROM c JOIN solo_bests k "
               "ON k.mode = '{mode}' AND k.period = ? AND k.user_id = c.user_id "
               "ORDER BY k.best DESC, k.at, k.user_id LIMIT ?) "
               "SELECT b.user_id, u.first_name, b.best FROM b JOIN users u ON u.id = b.user_id "
               "ORDER BY b.best DESC, b.at, b.user_id")
BEST = "SELECT best FROM solo_bests WHERE mode = '{mode}' AND period = ? AND user_id = ?"
# with a storm's or streak's end, in its transaction: its score as its person's best of a period,
# where it is better (the score read from its row, as it ended)
KEEP = ("INSERT INTO solo_bests (mode, period, user_id, best, at) "
        "SELECT '{mode}', ?, user_id, solved, started_at FROM {table} WHERE id = ? AND solved > 0 "
        "ON CONFLICT (mode, period, user_id) DO UPDATE SET best = excluded.best, "
        "at = excluded.at WHERE excluded.best > solo_bests.best")


def board_of(mode: str) -> str:
    return BOARD.format(mode=mode)


def group_board_of(mode: str) -> str:
    return GROUP_BOARD.format(mode=mode)


def best_of(mode: str) -> str:
    return BEST.format(mode=mode)


def keep_of(mode: str, table: str) -> str:
    return KEEP.format(mode=mode, table=table)


async def read_board(db: Connection, board: str, group_board: str, period: str, limit: int,
                     chat_id: int | None) -> list[SoloBest]:
    """Each person's best of the period, the best first: everyone's, or those of the people
    who play in the group `chat_id`."""
    if chat_id is None:
        rows = await db.fetch(board, (period, limit))
    else:
        rows = await db.fetch(group_board, (chat_id, period, limit))
    return [SoloBest(int(user_id), name, int(best)) for user_id, name, best in rows]


async def read_best(db: Connection, best: str, user_id: int, period: str) -> int:
    """The person's best of the period (0: none)."""
    rows = await db.fetch(best, (period, user_id))
    return int(rows[0][0]) if rows else 0
