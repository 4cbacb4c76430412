"""The tournaments' statements, as both databases run them (bot.store.sql.tournaments is the
store that runs them): each table's columns, every statement of the store (QMARK for SQLite,
NUMBERED and POSTGRES for PostgreSQL, whose due schedules are a worker's and whose follow holds
the chat's row), and what a group's move to its supergroup does to every row that names it
(`CHAT_MOVE`, run by bot.store.sql.people in the move's last transaction)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.store.sql.connection import Step, numbered_table

ON = ("open", "running")  # a tournament not over: joining, or playing

TOURNAMENT_COLUMNS = ("id, code, name, game, level, rounds, seconds, starts_at, chat_id, "
                      "created_by, lang, created_at, status, ended_at, next_at")
T_COLUMNS = ", ".join(f"t.{column}" for column in TOURNAMENT_COLUMNS.split(", "))
ROUND_COLUMNS = ("tournament_id, number, game, hand, target, level, points, status, opened_at, "
                 "closed_at")
DEAL_COLUMNS = ("tournament_id, number, chat_id, round_id, status, claimed_at, dealt_at, "
                "shown_at")
# a group's round of a tournament round that is not over: no deal yet for a group playing, a
# deal claimed and not dealt, a round dealt and open
NOT_OVER = """
    FROM tournament_groups g
    LEFT JOIN tournament_deals d ON d.tournament_id = g.tournament_id AND d.chat_id = g.chat_id
        AND d.number = ?
    LEFT JOIN rounds r ON r.id = d.round_id
    WHERE g.tournament_id = ? AND ((d.chat_id IS NULL AND g.playing = 1)
        OR d.status = 'dealing' OR (d.status = 'dealt' AND r.status = 'open'))"""
# each player's wins for their group (a person plays for one group: tournament_players), of
# the rounds closed in every group: a round still played anywhere counts nowhere yet (a board
# or a page read meanwhile would tell the groups still at it who won it where, and how fast)
WINS = """
    SELECT r.chat_id AS chat_id, r.winner_id AS user_id, SUM(r.awarded) AS points,
           COUNT(*) AS wins, SUM(COALESCE(r.win_seconds, 0)) AS seconds
    FROM tournament_deals d JOIN rounds r ON r.id = d.round_id
    JOIN tournament_rounds t ON t.tournament_id = d.tournament_id AND t.number = d.number
    WHERE d.tournament_id = ? AND t.status = 'closed' AND r.status = 'won'
        AND r.winner_id IS NOT NULL
    GROUP BY r.chat_id, r.winner_id"""


@dataclass(frozen=True)
class TournamentStatements:
    create: str
    by_code: str
    by_id: str
    of_chat: str
    join: str
    ongoing_of: str
    joined_before: str
    unjoin: str
    discard: str
    hold_tournament: str
    hold_chat: str
    follow: str
    follows: str
    followers_count: str
    followed: str
    unfollow: str
    entrants: str
    followers: str
    due: str
    set_next: str
    start: str
    reschedule: str
    finish: str
    release: str
    open_round: str
    rounds: str
    live_rounds: str
    close_round: str
    claim_deal: str
    deal: str
    deals: str
    dealt: str
    skip_deal: str
    skip_claimed: str
    skip_missing: str
    not_over: str
    seat: str
    claim_board: str
    claim_follower: str
    unclaim_board: str
    unclaim_follower: str
    drop_group: str
    bind_player: str
    bound_to: str
    players: str
    group_players: str
    groups_board: str
    solves: str
    on_in: str


QMARK = TournamentStatements(
    create="INSERT INTO tournaments (code, name, game, level, rounds, seconds, starts_at, "
           "chat_id, created_by, lang, created_at, next_at) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    by_code=f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE code = ?",
    by_id=f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?",
    # the tournament not over that the chat joined (made, or joined): one at most (step 27),
    # found from the chat's row, never by reading every tournament down from the latest (a
    # join's plan would: bench/bench_year.py's 200 tournaments, tests/bot/store/
    # test_query_plans.py)
    of_chat=f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = (SELECT g.tournament_id "
            "FROM tournament_groups g WHERE g.chat_id = ? AND g.ongoing = 1 "
            "ORDER BY g.tournament_id DESC LIMIT 1)",
    # no row where the group is in this one already, nor where it is in another not over (the
    # index of step 27: of joins at once, one goes in, the others find it)
    join="INSERT INTO tournament_groups (tournament_id, chat_id, topic, joined_by, joined_at, "
         "lang) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ongoing_of="SELECT tournament_id FROM tournament_groups WHERE chat_id = ? AND ongoing = 1",
    # how many joined before this group did (the first MAX stay: joins at once keep the bound)
    joined_before="SELECT COUNT(*) FROM tournament_groups g, tournament_groups mine "
                  "WHERE g.tournament_id = ? AND mine.tournament_id = g.tournament_id "
                  "AND mine.chat_id = ? AND (g.joined_at < mine.joined_at "
                  "OR (g.joined_at = mine.joined_at AND g.chat_id < mine.chat_id))",
    unjoin="DELETE FROM tournament_groups WHERE tournament_id = ? AND chat_id = ?",
    # a tournament just made whose group another tournament took meanwhile: nobody saw it
    discard="DELETE FROM tournaments WHERE id = ? AND NOT EXISTS "
            "(SELECT 1 FROM tournament_groups WHERE tournament_id = ?)",
    # a follow's transaction: the tournament's row, while it is not over, then the chat's, held
    # (in this order) until the follow is written, so follows at once count each other
    hold_tournament="UPDATE tournaments SET owner = owner WHERE id = ? "
                    "AND status IN ('open', 'running')",
    hold_chat="SELECT id FROM chats WHERE id = ?",
    # the chat follows, within the bounds: the tournament's followers, the chat's tournaments
    # not over
    follow="INSERT INTO tournament_followers (tournament_id, chat_id, lang) "
           "SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT) "
           "WHERE (SELECT COUNT(*) FROM tournament_followers WHERE tournament_id = ?) < ? "
           "AND (SELECT COUNT(*) FROM tournament_followers f JOIN tournaments t "
           "ON t.id = f.tournament_id WHERE f.chat_id = ? "
           "AND t.status IN ('open', 'running')) < ? "
           "ON CONFLICT (tournament_id, chat_id) DO NOTHING",
    follows="SELECT 1 FROM tournament_followers WHERE tournament_id = ? AND chat_id = ?",
    followers_count="SELECT COUNT(*) FROM tournament_followers WHERE tournament_id = ?",
    followed=f"SELECT {T_COLUMNS} FROM tournaments t JOIN tournament_followers f "
             "ON f.tournament_id = t.id WHERE f.chat_id = ? "
             "AND t.status IN ('open', 'running') ORDER BY t.id",
    unfollow="DELETE FROM tournament_followers WHERE tournament_id = ? AND chat_id = ?",
    # each group's title looked up by its key (a join may read every chat's: PostgreSQL's
    # generic plan merges with the chats' whole key where chats are few)
    entrants="SELECT g.chat_id, g.topic, (SELECT c.title FROM chats c WHERE c.id = g.chat_id), "
             "g.joined_by, g.lang, g.playing FROM tournament_groups g "
             "WHERE g.tournament_id = ? ORDER BY g.joined_at, g.chat_id",
    followers="SELECT chat_id, lang FROM tournament_followers WHERE tournament_id = ? "
              "ORDER BY chat_id",
    due="SELECT id FROM tournaments WHERE status IN ('open', 'running') AND next_at <= ? "
        "ORDER BY next_at, id",
    set_next="UPDATE tournaments SET next_at = ? WHERE id = ?",
    start="UPDATE tournaments SET status = 'running', next_at = ? WHERE id = ? "
          "AND status = 'open'",
    reschedule="UPDATE tournaments SET starts_at = ?, next_at = ? WHERE id = ? "
               "AND status = 'open'",
    finish="UPDATE tournaments SET status = ?, ended_at = ? WHERE id = ? "
           "AND status IN ('open', 'running')",
    # ... and its groups are free to join another (in the same transaction)
    release="UPDATE tournament_groups SET ongoing = 0 WHERE tournament_id = ?",
    open_round="INSERT INTO tournament_rounds (tournament_id, number, game, hand, target, level, "
               "points, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
               "ON CONFLICT (tournament_id, number) DO NOTHING",
    rounds=f"SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = ? "
           "ORDER BY number",
    live_rounds=f"SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE status = 'live' "
                "ORDER BY tournament_id, number",
    close_round="UPDATE tournament_rounds SET status = 'closed', closed_at = ? "
                "WHERE tournament_id = ? AND number = ? AND status = 'live'",
    claim_deal="INSERT INTO tournament_deals (tournament_id, number, chat_id, claimed_at) "
               "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, number, chat_id) DO NOTHING",
    deal=f"SELECT {DEAL_COLUMNS} FROM tournament_deals WHERE tournament_id = ? AND number = ? "
         "AND chat_id = ?",
    deals=f"SELECT {DEAL_COLUMNS} FROM tournament_deals WHERE tournament_id = ? AND number = ? "
          "ORDER BY chat_id",
    dealt="UPDATE tournament_deals SET round_id = ?, status = 'dealt', dealt_at = ? "
          "WHERE tournament_id = ? AND number = ? AND chat_id = ? AND status = 'dealing'",
    skip_deal="UPDATE tournament_deals SET status = 'skipped' WHERE tournament_id = ? "
              "AND number = ? AND chat_id = ? AND status = 'dealing'",
    skip_claimed="UPDATE tournament_deals SET status = 'skipped' WHERE tournament_id = ? "
                 "AND number = ? AND status = 'dealing' AND claimed_at < ?",
    skip_missing="INSERT INTO tournament_deals (tournament_id, number, chat_id, status, "
                 "claimed_at) SELECT g.tournament_id, ?, g.chat_id, 'skipped', ? "
                 "FROM tournament_groups g WHERE g.tournament_id = ? AND g.playing = 1 "
                 "ON CONFLICT (tournament_id, number, chat_id) DO NOTHING",
    not_over=f"SELECT COUNT(*) {NOT_OVER}",
    seat="SELECT tournament_id, number, chat_id FROM tournament_deals WHERE round_id = ?",
    claim_board="UPDATE tournament_deals SET shown_at = ? WHERE tournament_id = ? "
                "AND number = ? AND chat_id = ? AND shown_at IS NULL",
    claim_follower="UPDATE tournament_followers SET shown = ? WHERE tournament_id = ? "
                   "AND chat_id = ? AND shown < ?",
    unclaim_board="UPDATE tournament_deals SET shown_at = NULL WHERE tournament_id = ? "
                  "AND number = ? AND chat_id = ?",
    unclaim_follower="UPDATE tournament_followers SET shown = ? WHERE tournament_id = ? "
                     "AND chat_id = ? AND shown = ?",
    drop_group="UPDATE tournament_groups SET playing = 0 WHERE tournament_id = ? AND chat_id = ? "
               "AND playing = 1",
    bind_player="INSERT INTO tournament_players (tournament_id, user_id, chat_id) "
                "VALUES (?, ?, ?) ON CONFLICT (tournament_id, user_id) DO NOTHING",
    bound_to="SELECT chat_id FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
    players=f"WITH wins AS ({WINS}) SELECT w.user_id, u.first_name, w.chat_id, w.points, "
            "w.wins, w.seconds FROM wins w JOIN shown_users u ON u.id = w.user_id "
            "ORDER BY w.points DESC, w.wins DESC, w.seconds, w.user_id LIMIT ?",
    group_players=f"WITH wins AS ({WINS}) SELECT w.user_id, u.first_name, w.chat_id, "
                  "w.points, w.wins, w.seconds FROM wins w JOIN shown_users u ON u.id = w.user_id "
                  "WHERE w.chat_id = ? "
                  "ORDER BY w.points DESC, w.wins DESC, w.seconds, w.user_id LIMIT ?",
    # a group's score: its best players' points (the first ? of them), their seconds the tie's
    # break; every group that joined, those without points too
    groups_board=f"WITH wins AS ({WINS}), best AS (SELECT chat_id, points, seconds, "
                 "ROW_NUMBER() OVER (PARTITION BY chat_id "
                 "ORDER BY points DESC, seconds, user_id) AS k FROM wins) "
                 "SELECT g.chat_id, (SELECT c.title FROM chats c WHERE c.id = g.chat_id), "
                 "COALESCE(SUM(b.points), 0), COALESCE(SUM(b.seconds), 0), COUNT(b.chat_id) "
                 "FROM tournament_groups g "
                 "LEFT JOIN best b ON b.chat_id = g.chat_id AND b.k <= ? "
                 "WHERE g.tournament_id = ? GROUP BY g.chat_id "
                 "ORDER BY 3 DESC, 4, 1",
    solves="SELECT d.number, r.winner_id, u.first_name, r.chat_id, "
           "COALESCE(r.win_seconds, 0) FROM tournament_deals d JOIN rounds r ON r.id = d.round_id "
           "JOIN shown_users u ON u.id = r.winner_id "
           "WHERE d.tournament_id = ? AND r.status = 'won' ORDER BY d.number, 5, r.winner_id",
    # the chats in a tournament not over (joined), for a process to know without a look-up
    on_in="SELECT chat_id FROM tournament_groups WHERE ongoing = 1",
)
NUMBERED = numbered_table(QMARK)
# Where many workers share the database, each takes the due schedules that no live worker owns
# (or that are its own): a tournament's schedule is one worker's while its lease runs, and a
# dead or frozen worker's is taken over once its lease ran out, as a partition is. Outside a
# worker (twentyfour.worker unset) the one process takes them all.
WORKER_DUE = """
    WITH me AS (SELECT NULLIF(current_setting('twentyfour.worker', true), '')::BIGINT AS epoch)
    UPDATE tournaments t SET owner = (SELECT epoch FROM me)
    WHERE t.status IN ('open', 'running') AND t.next_at <= $1
      AND (t.owner IS NULL OR t.owner = (SELECT epoch FROM me) OR (SELECT epoch FROM me) IS NULL
           OR t.owner NOT IN (SELECT epoch FROM worker_leases WHERE expires_at > now()))
    RETURNING t.id"""
# PostgreSQL's writers run side by side: a follow holds the chat's row (no key changes, so
# no insert naming the chat waits) until its transaction ends; SQLite has one writer.
HOLD_CHAT = "SELECT id FROM chats WHERE id = $1 FOR NO KEY UPDATE"
POSTGRES = dataclasses.replace(NUMBERED, due=WORKER_DUE, hold_chat=HOLD_CHAT)

# A group's move to its supergroup (bot.store.sql.people, in the last transaction of the move,
# both engines): every row that names the group follows it, merged with what the supergroup
# has. Each statement with its parameters' order (N: the supergroup, O: the group):
MOVING = (
    # the tournaments it made (its admins steer them from the supergroup)
    ("NO", "UPDATE tournaments SET chat_id = ? WHERE chat_id = ?"),
    # its places in tournaments, but where the supergroup has its own (in the same one, or in
    # another not over while this one is not either: one at a time)
    ("NON", "UPDATE tournament_groups SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM tournament_groups n WHERE n.chat_id = ? AND "
            "(n.tournament_id = tournament_groups.tournament_id "
            "OR (n.ongoing = 1 AND tournament_groups.ongoing = 1)))"),
    # left behind where the supergroup plays the same one: the group's place goes (its rounds
    # moved: they count for the supergroup); where it plays another, the group's stays and is
    # played no more (nobody writes in the old group)
    ("ON", "DELETE FROM tournament_groups WHERE chat_id = ? AND tournament_id IN "
           "(SELECT tournament_id FROM tournament_groups WHERE chat_id = ?)"),
    ("O", "UPDATE tournament_groups SET playing = 0 WHERE chat_id = ?"),
    # its deals of each round (each linked to its round, moved with the rounds), but a round
    # the supergroup was dealt itself
    ("NON", "UPDATE tournament_deals SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM tournament_deals n WHERE n.chat_id = ? "
            "AND n.tournament_id = tournament_deals.tournament_id "
            "AND n.number = tournament_deals.number)"),
    # the people who play for it
    ("NO", "UPDATE tournament_players SET chat_id = ? WHERE chat_id = ?"),
    # what it follows; a tournament the supergroup follows too is followed once
    ("NON", "UPDATE tournament_followers SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM tournament_followers n WHERE n.chat_id = ? "
            "AND n.tournament_id = tournament_followers.tournament_id)"),
    ("ON", "DELETE FROM tournament_followers WHERE chat_id = ? AND tournament_id IN "
           "(SELECT tournament_id FROM tournament_followers WHERE chat_id = ?)"),
)
CHAT_MOVE = tuple(sql for _, sql in MOVING)  # the statements, in a store's table of them
MOVE_ORDERS = tuple(order for order, _ in MOVING)


def chat_move(statements: tuple[str, ...], old_id: int, new_id: int) -> list[Step]:
    """CHAT_MOVE's statements (as the engine writes them) with their parameters."""
    return [(sql, tuple(new_id if which == "N" else old_id for which in order))
            for order, sql in zip(MOVE_ORDERS, statements, strict=True)]
