"""Tournaments, as both databases store them (schema steps 23 and 27): a tournament's row and
its schedule's state, the groups that joined (each in one tournament not over at a time: the
database's index holds it) and the chats that follow (bounded both ways), each round's hand,
each group's deal of it (claimed once: the group's round is an ordinary round of that group),
the group each person plays for, and the standings, read from the groups' rounds in SQL:
nothing is scored twice, and a worker that takes a schedule over reads what the last one left.
A group's move to its supergroup takes every row that names it along (`CHAT_MOVE`, run by
bot.store.sql.people in the move's last transaction)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from bot.store.sql.connection import Connection, Refused, Step, numbered_table
from bot.store.sql.rows import hand_of
from bot.store.tournament_records import (
    Deal,
    Entrant,
    Followed,
    GroupStanding,
    Joined,
    PlayerStanding,
    Seat,
    Solve,
    Tournament,
    TournamentRound,
)

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


def tournament_of(row: tuple) -> Tournament:
    return Tournament(*row)


def round_of(row: tuple) -> TournamentRound:
    return TournamentRound(row[0], row[1], row[2], hand_of(row[3]), *row[4:])


class Tournaments:
    def __init__(self, db: Connection, sql: TournamentStatements) -> None:
        self.db = db
        self.sql = sql

    # --- the tournament ----------------------------------------------------------------------

    async def create(self, code: str, name: str, game: str, level: str, rounds: int,
                     seconds: float, starts_at: float, chat_id: int, created_by: int | None,
                     lang: str, at: float) -> Tournament | None:
        """A new tournament, its schedule due at its start; None if the code is taken."""
        try:
            tournament_id = await self.db.insert(self.sql.create, (
                code, name, game, level, rounds, seconds, starts_at, chat_id, created_by, lang,
                at, starts_at))
        except Refused:
            return None
        return Tournament(tournament_id, code, name, game, level, rounds, seconds, starts_at,
                          chat_id, created_by, lang, at, "open", None, starts_at)

    async def by_code(self, code: str) -> Tournament | None:
        rows = await self.db.fetch(self.sql.by_code, (code,))
        return tournament_of(rows[0]) if rows else None

    async def get(self, tournament_id: int) -> Tournament | None:
        rows = await self.db.fetch(self.sql.by_id, (tournament_id,))
        return tournament_of(rows[0]) if rows else None

    async def of_chat(self, chat_id: int) -> Tournament | None:
        """The tournament not over that the chat is in (made or joined), if any."""
        rows = await self.db.fetch(self.sql.of_chat, (chat_id,))
        return tournament_of(rows[0]) if rows else None

    async def on_in(self) -> set[int]:
        """Every chat in a tournament not over."""
        return {row[0] for row in await self.db.fetch(self.sql.on_in)}

    # --- who is in it ------------------------------------------------------------------------

    async def join(self, tournament_id: int, chat_id: int, topic: int, joined_by: int | None,
                   lang: str, at: float, most: int) -> Joined:
        """The group joins: "joined", "already" (it had), "full" (`most` joined before it: of
        groups joining at once, the first `most` by time stay), or "elsewhere" (it is in
        another tournament not over: of joins at once, the database lets one in)."""
        added = await self.db.run(self.sql.join, (tournament_id, chat_id, topic, joined_by,
                                                  at, lang))
        if not added:
            rows = await self.db.fetch(self.sql.ongoing_of, (chat_id,))
            return "already" if rows and rows[0][0] == tournament_id else "elsewhere"
        rows = await self.db.fetch(self.sql.joined_before, (tournament_id, chat_id))
        if int(rows[0][0]) >= most:
            await self.db.run(self.sql.unjoin, (tournament_id, chat_id))
            return "full"
        return "joined"

    async def leave(self, tournament_id: int, chat_id: int) -> bool:
        return await self.db.run(self.sql.unjoin, (tournament_id, chat_id)) == 1

    async def discard(self, tournament_id: int) -> bool:
        """A tournament just made that no group is in (its group joined another meanwhile)
        goes, as if never made."""
        return await self.db.run(self.sql.discard, (tournament_id, tournament_id)) == 1

    async def follow(self, tournament_id: int, chat_id: int, lang: str, most: int,
                     most_followed: int) -> Followed:
        """The chat follows the tournament (its boards, its podium): "followed", "already",
        "full" (it has `most` followers), "too_many" (the chat follows `most_followed` not
        over) or "over". The bounds hold for follows at once: each holds the tournament's
        row, then the chat's, while it counts and writes."""
        if await self.follows(tournament_id, chat_id):
            return "already"
        held = await self.db.run_guarded((self.sql.hold_tournament, (tournament_id,)), [
            (self.sql.hold_chat, (chat_id,)),
            (self.sql.follow, (tournament_id, chat_id, lang, tournament_id, most, chat_id,
                               most_followed))])
        if not held:
            return "over"
        if await self.follows(tournament_id, chat_id):
            return "followed"
        rows = await self.db.fetch(self.sql.followers_count, (tournament_id,))
        return "full" if int(rows[0][0]) >= most else "too_many"

    async def follows(self, tournament_id: int, chat_id: int) -> bool:
        """Whether the chat follows the tournament."""
        return bool(await self.db.fetch(self.sql.follows, (tournament_id, chat_id)))

    async def followed(self, chat_id: int) -> list[Tournament]:
        """The tournaments not over that the chat follows, the oldest first."""
        return [tournament_of(row) for row in await self.db.fetch(self.sql.followed,
                                                                  (chat_id,))]

    async def unfollow(self, tournament_id: int, chat_id: int) -> bool:
        """The chat follows the tournament no more; False if it did not."""
        return await self.db.run(self.sql.unfollow, (tournament_id, chat_id)) == 1

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The groups that joined, in the order they did."""
        return [Entrant(row[0], row[1], row[2], row[3], row[4], bool(row[5]))
                for row in await self.db.fetch(self.sql.entrants, (tournament_id,))]

    async def followers(self, tournament_id: int) -> list[tuple[int, str]]:
        return [(row[0], row[1])
                for row in await self.db.fetch(self.sql.followers, (tournament_id,))]

    async def drop_group(self, tournament_id: int, chat_id: int) -> bool:
        """The group is skipped from now on (the bot may not write there)."""
        return await self.db.run(self.sql.drop_group, (tournament_id, chat_id)) == 1

    # --- the schedule ------------------------------------------------------------------------

    async def due(self, now: float) -> list[int]:
        """The tournaments whose schedule is due and this process runs."""
        return [row[0] for row in await self.db.fetch(self.sql.due, (now,))]

    async def set_next(self, tournament_id: int, at: float) -> None:
        await self.db.run(self.sql.set_next, (at, tournament_id))

    async def start(self, tournament_id: int, at: float) -> bool:
        """It starts (one caller wins)."""
        return await self.db.run(self.sql.start, (at, tournament_id)) == 1

    async def reschedule(self, tournament_id: int, starts_at: float) -> bool:
        """It starts at `starts_at` instead (while it has not started)."""
        return await self.db.run(self.sql.reschedule, (starts_at, starts_at,
                                                       tournament_id)) == 1

    async def finish(self, tournament_id: int, status: str, at: float) -> bool:
        """It ends, "done" or "cancelled" (one caller wins), and its groups are free to join
        another, in the same transaction."""
        return await self.db.run_guarded((self.sql.finish, (status, at, tournament_id)),
                                          [(self.sql.release, (tournament_id,))])

    async def open_round(self, tournament_id: int, number: int, game: str, hand: tuple,
                         target: int, level: str, points: int, at: float) -> TournamentRound:
        """The round with this hand, live from now; or the round as stored, if it was drawn
        before (a schedule taken over)."""
        await self.db.run(self.sql.open_round, (tournament_id, number, game, json.dumps(hand),
                                                target, level, points, at))
        return next(r for r in await self.rounds(tournament_id) if r.number == number)

    async def rounds(self, tournament_id: int) -> list[TournamentRound]:
        return [round_of(row) for row in await self.db.fetch(self.sql.rounds, (tournament_id,))]

    async def live_rounds(self) -> list[TournamentRound]:
        """Every tournament round live now, in every tournament."""
        return [round_of(row) for row in await self.db.fetch(self.sql.live_rounds)]

    async def close_round(self, tournament_id: int, number: int, at: float) -> bool:
        """The round closed in every group (one caller wins)."""
        return await self.db.run(self.sql.close_round, (at, tournament_id, number)) == 1

    async def not_over(self, tournament_id: int, number: int) -> int:
        """How many groups' rounds of this tournament round are not over."""
        rows = await self.db.fetch(self.sql.not_over, (number, tournament_id))
        return int(rows[0][0])

    async def skip_late(self, tournament_id: int, number: int, claimed_before: float,
                        at: float) -> None:
        """Deals that never came: those claimed before `claimed_before` and not dealt, and the
        playing groups with none, are skipped."""
        await self.db.run(self.sql.skip_claimed, (tournament_id, number, claimed_before))
        await self.db.run(self.sql.skip_missing, (number, at, tournament_id))

    # --- a group's deal ----------------------------------------------------------------------

    async def claim_deal(self, tournament_id: int, number: int, chat_id: int, at: float) -> Deal:
        """The group's deal of the round: claimed now, or as it stands."""
        await self.db.run(self.sql.claim_deal, (tournament_id, number, chat_id, at))
        found = await self.deal(tournament_id, number, chat_id)
        assert found is not None, "claimed just now"
        return found

    async def deal(self, tournament_id: int, number: int, chat_id: int) -> Deal | None:
        rows = await self.db.fetch(self.sql.deal, (tournament_id, number, chat_id))
        return Deal(*rows[0]) if rows else None

    async def deals(self, tournament_id: int, number: int) -> list[Deal]:
        """Every group's deal of the round (claimed, dealt or skipped)."""
        return [Deal(*row) for row in await self.db.fetch(self.sql.deals, (tournament_id,
                                                                             number))]

    async def dealt(self, tournament_id: int, number: int, chat_id: int, round_id: int,
                    at: float) -> bool:
        return await self.db.run(self.sql.dealt, (round_id, at, tournament_id, number,
                                                  chat_id)) == 1

    async def skip_deal(self, tournament_id: int, number: int, chat_id: int) -> None:
        await self.db.run(self.sql.skip_deal, (tournament_id, number, chat_id))

    async def seat(self, round_id: int) -> Seat | None:
        """The tournament round a group's round is, if it is one."""
        rows = await self.db.fetch(self.sql.seat, (round_id,))
        return Seat(*rows[0]) if rows else None

    async def claim_board(self, tournament_id: int, number: int, chat_id: int,
                          at: float) -> bool:
        """The group's board after the round is this caller's to send (once)."""
        return await self.db.run(self.sql.claim_board, (at, tournament_id, number,
                                                        chat_id)) == 1

    async def claim_follower(self, tournament_id: int, chat_id: int, number: int) -> bool:
        """A follower's board after the round is this caller's to send (once)."""
        return await self.db.run(self.sql.claim_follower, (number, tournament_id, chat_id,
                                                           number)) == 1

    async def unclaim_board(self, tournament_id: int, number: int, chat_id: int,
                            played: bool) -> None:
        """The board was not shown after all: it is to be sent again."""
        if played:
            await self.db.run(self.sql.unclaim_board, (tournament_id, number, chat_id))
        else:
            await self.db.run(self.sql.unclaim_follower, (number - 1, tournament_id, chat_id,
                                                          number))

    async def bind_player(self, tournament_id: int, user_id: int, chat_id: int) -> int:
        """The group the person plays for: this one, if they play for none yet."""
        await self.db.run(self.sql.bind_player, (tournament_id, user_id, chat_id))
        rows = await self.db.fetch(self.sql.bound_to, (tournament_id, user_id))
        return int(rows[0][0])

    # --- the standings -----------------------------------------------------------------------

    async def players(self, tournament_id: int, most: int) -> list[PlayerStanding]:
        """The best players across every group: points, then wins, then fewer seconds."""
        return [PlayerStanding(*row) for row in
                await self.db.fetch(self.sql.players, (tournament_id, most))]

    async def group_players(self, tournament_id: int, chat_id: int,
                            most: int) -> list[PlayerStanding]:
        return [PlayerStanding(*row) for row in
                await self.db.fetch(self.sql.group_players, (tournament_id, chat_id, most))]

    async def groups_board(self, tournament_id: int, best: int) -> list[GroupStanding]:
        """Every group ranked by the points of its `best` best players."""
        return [GroupStanding(row[0], row[1], int(row[2]), float(row[3]), int(row[4])) for row
                in await self.db.fetch(self.sql.groups_board, (tournament_id, best,
                                                               tournament_id))]

    async def solves(self, tournament_id: int) -> list[Solve]:
        """Every round won in every group, by round, the fastest first."""
        return [Solve(row[0], row[1], row[2], row[3], float(row[4])) for row in
                await self.db.fetch(self.sql.solves, (tournament_id,))]

    async def plays_for(self, tournament_id: int, user_id: int) -> int | None:
        """The group the person plays for, if they answered in one (nothing written)."""
        rows = await self.db.fetch(self.sql.bound_to, (tournament_id, user_id))
        return int(rows[0][0]) if rows else None
