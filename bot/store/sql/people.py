"""Chats and users, as both databases store them: names, chosen languages, a group's own
settings (/settings, a JSON object per chat), and a group's move to a supergroup."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.sql.connection import Connection, Step, numbered_table
from bot.store.sql.tournament_statements import CHAT_MOVE, chat_move

# One chat's scores as the view scores_from_rounds defines them (migration 5), read from that
# chat's rounds and answers only (CHAT_SCORES; params: the chat, twice). The view itself,
# filtered by chat, aggregates every chat's history first: the planners do not push the filter
# through its window functions. tests/bot/store/test_recount.py holds the two equal.
CHAT_RUNS = (
    "WITH played AS ("
    "SELECT DISTINCT r.chat_id, r.game, a.user_id, r.id AS round_id, 0 AS won, r.awarded, "
    "r.win_seconds FROM rounds r JOIN answers a ON a.round_id = r.id "
    "WHERE r.chat_id = ? AND r.status <> 'open' AND COALESCE(a.user_id <> r.winner_id, TRUE)"
    "{unless} UNION ALL SELECT chat_id, game, winner_id, id, 1, awarded, win_seconds "
    "FROM rounds WHERE chat_id = ? AND status <> 'open' AND winner_id IS NOT NULL{unless}), "
    "history AS (SELECT chat_id, user_id, game, won, awarded, win_seconds, "
    "SUM(1 - won) OVER (PARTITION BY game, user_id ORDER BY round_id) AS losses, "
    "SUM(1 - won) OVER (PARTITION BY game, user_id) AS all_losses FROM played), "
    "runs AS (SELECT chat_id, user_id, game, losses, all_losses, SUM(won) AS wins, "
    "COUNT(*) AS played, SUM(CASE WHEN won = 1 THEN awarded ELSE 0 END) AS points, "
    "MIN(CASE WHEN won = 1 THEN win_seconds END) AS fastest FROM history "
    "GROUP BY chat_id, user_id, game, losses, all_losses) "
    "SELECT chat_id, user_id, game, SUM(points), SUM(wins), SUM(played), MIN(fastest), "
    "SUM(CASE WHEN losses = all_losses THEN wins ELSE 0 END), MAX(wins) FROM runs "
    "GROUP BY chat_id, user_id, game")
CHAT_SCORES = CHAT_RUNS.format(unless="")
# ... counted only where the chat has no scores: the condition stands where the rounds are read,
# so that nothing is read when it fails (params: the chat and the chat again, twice)
CHAT_SCORES_IF_NONE = CHAT_RUNS.format(
    unless=" AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.chat_id = ?)")

# Closed rounds a move's transaction takes (a busy group has thousands): each part a few ms on
# a year (bench/bench_year.py), as FORGET_PART.
MOVE_PART = 100
# Times a move's last transaction is tried when the supergroup's own round or match began while
# it ran (PostgreSQL, side by side: the one-per-topic index refuses it; SQLite has one writer).
MOVE_TRIES = 3


@dataclass(frozen=True)
class PeopleStatements:
    remember_chat: str
    remember_user: str
    user_name: str
    chat_and_user: str
    chat: str
    language: str
    set_language: str
    chat_settings: str
    set_chat_settings: str
    move_begun: tuple[str, str]  # the new chat's row (new, old); the move noted (old, new, at)
    move_part: str  # (new, old, MOVE_PART): closed rounds, a part at a time
    move_daily: str  # (new, old): the daily results solved in the group
    move_achievements: str  # (new, old): the achievements earned in the group
    move_chat: tuple[str, str]  # (new, old) each: the chat's row, its settings
    supergroup_row: str  # (new,): the chat's row where the group's was not there to copy
    move_language: str  # (old, new)
    move_tournaments: tuple[str, ...]  # their parameters in MOVE_ORDERS' order (tournaments)
    move_played: tuple[str, str]  # (new, old, new) each: rounds, matches, but the ones met
    end_met: tuple[str, str]  # (at, new, old) each: the open round, the match on, met
    move_done: str  # (old,)
    unfinished_moves: str
    recount: tuple[str, str, str]  # (new, old, new), (old, new, old), (new,) * 4


QMARK = PeopleStatements(
    remember_chat="INSERT INTO chats (id, type, title) VALUES (?, ?, ?) ON CONFLICT (id) "
                  "DO UPDATE SET type = excluded.type, title = excluded.title",
    remember_user="INSERT INTO users (id, first_name, username) VALUES (?, ?, ?) "
                  "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name, "
                  "username = excluded.username",
    user_name="SELECT first_name FROM shown_users WHERE id = ?",
    chat_and_user="SELECT c.type, c.title, u.first_name, u.username FROM "
                  "chats c, shown_users u WHERE c.id = ? AND u.id = ?",
    chat="SELECT type, title FROM chats WHERE id = ?",
    language="SELECT lang FROM chats WHERE id = ?",
    set_language="UPDATE chats SET lang = ? WHERE id = ?",
    chat_settings="SELECT body FROM chat_settings WHERE chat_id = ?",
    set_chat_settings="INSERT INTO chat_settings (chat_id, body, updated_at) VALUES (?, ?, ?) "
                      "ON CONFLICT (chat_id) DO UPDATE SET body = excluded.body, "
                      "updated_at = excluded.updated_at",
    move_begun=("INSERT INTO chats (id, type, title, lang) SELECT ?, 'supergroup', title, lang "
                "FROM chats WHERE id = ? ON CONFLICT (id) DO NOTHING",
                "INSERT INTO chat_moves (old_id, new_id, at) VALUES (?, ?, ?) "
                "ON CONFLICT (old_id) DO NOTHING"),
    move_part="UPDATE rounds SET chat_id = ? WHERE id IN (SELECT id FROM rounds "
              "WHERE chat_id = ? AND status <> 'open' LIMIT ?)",
    move_daily="UPDATE daily_results SET chat_id = ? WHERE chat_id = ?",
    move_achievements="UPDATE achievements SET chat_id = ? WHERE chat_id = ?",
    # Where the supergroup has a chosen language, or settings, of its own, they stand (its
    # admins chose them after the move); else the group's follow.
    move_chat=("INSERT INTO chats (id, type, title, lang) SELECT ?, 'supergroup', title, lang "
               "FROM chats WHERE id = ? ON CONFLICT (id) DO NOTHING",
               "INSERT INTO chat_settings (chat_id, body, updated_at) SELECT ?, body, updated_at "
               "FROM chat_settings WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING"),
    supergroup_row="INSERT INTO chats (id, type) VALUES (?, 'supergroup') "
                   "ON CONFLICT (id) DO NOTHING",
    move_language="UPDATE chats SET lang = (SELECT o.lang FROM chats o WHERE o.id = ?) "
                  "WHERE id = ? AND lang IS NULL",
    # every tournament row naming the group (bot.store.sql.tournament_statements: how they merge)
    move_tournaments=CHAT_MOVE,
    # Every round and match moves but an open round, or a match on, in a topic where the
    # supergroup has its own (a topic holds one of each): those are met, and stay behind
    # until `end_met` ends them quietly and moves them too.
    move_played=("UPDATE rounds SET chat_id = ? WHERE chat_id = ? AND NOT (status = 'open' AND "
                 "topic IN (SELECT n.topic FROM rounds n WHERE n.chat_id = ? "
                 "AND n.status = 'open'))",
                 "UPDATE matches SET chat_id = ? WHERE chat_id = ? AND NOT (status = 'on' AND "
                 "topic IN (SELECT n.topic FROM matches n WHERE n.chat_id = ? "
                 "AND n.status = 'on'))"),
    # No winner, no points, no result owed (its deal is in a chat nobody writes to): the
    # trigger counts it as played by those who answered, in the supergroup's scores.
    end_met=("UPDATE rounds SET status = 'revealed', ended_at = ?, announced = 1, chat_id = ? "
             "WHERE chat_id = ? AND status = 'open'",
             "UPDATE matches SET status = 'stopped', ended_at = ?, chat_id = ? "
             "WHERE chat_id = ? AND status = 'on'"),
    # A supergroup with no scores yet (the move comes before its first round): the old chat's
    # scores are its own as they are, and move. Else both chats' are deleted and the new one's
    # counted again from all its rounds, which now include the old chat's.
    recount=("UPDATE scores SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
             "(SELECT 1 FROM scores n WHERE n.chat_id = ?)",
             "DELETE FROM scores WHERE chat_id IN (?, ?) AND EXISTS "
             "(SELECT 1 FROM scores o WHERE o.chat_id = ?)",
             "INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, "
             "fastest_win, current_streak, best_streak) " + CHAT_SCORES_IF_NONE),
    move_done="DELETE FROM chat_moves WHERE old_id = ?",
    unfinished_moves="SELECT old_id, new_id FROM chat_moves ORDER BY at",
)
NUMBERED = numbered_table(QMARK)


class People:
    collided: tuple[type[Exception], ...] = ()  # a move's last transaction met a new round

    def __init__(self, db: Connection, sql: PeopleStatements, far: Connection | None = None
                 ) -> None:
        self.db = db
        self.far = far or db  # a move's parts: SQLite's off the event loop (its `Database.far`)
        self.sql = sql

    async def remember_chat(self, chat_id: int, chat_type: str, title: str | None) -> None:
        await self.db.run(self.sql.remember_chat, (chat_id, chat_type, title))

    async def remember_user(self, user_id: int, first_name: str,
                            username: str | None = None) -> None:
        await self.db.run(self.sql.remember_user, (user_id, first_name, username))

    async def user_name(self, user_id: int) -> str | None:
        rows = await self.db.fetch(self.sql.user_name, (user_id,))
        return rows[0][0] if rows else None

    async def chat_and_user(self, chat_id: int, user_id: int
                            ) -> tuple[tuple[str, str | None], tuple[str, str | None]] | None:
        """A known chat's (type, title) and a known user's (first name, username)."""
        rows = await self.db.fetch(self.sql.chat_and_user, (chat_id, user_id))
        return ((rows[0][0], rows[0][1]), (rows[0][2], rows[0][3])) if rows else None

    async def chat(self, chat_id: int) -> tuple[str, str | None] | None:
        """A known chat's (type, title)."""
        rows = await self.db.fetch(self.sql.chat, (chat_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def language(self, chat_id: int) -> str | None:
        """The language the chat chose with /lang (None: none, or a chat never stored)."""
        rows = await self.db.fetch(self.sql.language, (chat_id,))
        return rows[0][0] if rows else None

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self.db.run(self.sql.set_language, (lang, chat_id))

    async def chat_settings(self, chat_id: int) -> dict[str, object]:
        """What the chat set with /settings (only what it changed from the defaults)."""
        rows = await self.db.fetch(self.sql.chat_settings, (chat_id,))
        if not rows:
            return {}
        try:
            read = json.loads(rows[0][0])
        except ValueError:  # written by nothing but this store: never, but never fatal
            return {}
        return read if isinstance(read, dict) else {}

    async def set_chat_settings(self, chat_id: int, body: dict[str, object], at: float) -> None:
        """A chat's settings from now on (the chat is stored already)."""
        await self.db.run(self.sql.set_chat_settings,
                          (chat_id, json.dumps(body, sort_keys=True), at))

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rounds, matches, settings, daily results, scores
        and tournaments (the ones it made, its places, deals and players in them, what it
        follows) follow the new chat id; where the supergroup had scores of its own, its scores are
        counted again from its rounds (streaks cannot simply be added), which costs what that
        chat played, not what every chat did.

        The supergroup may be in play already (a /play there before the bot heard of the
        move): the two chats merge. Where both have an open round in a topic, the
        supergroup's goes on and the group's ends quietly in the same transaction (likewise
        a match on), so the move never meets the "one per topic" indexes, whatever came
        first; a repeated move finds nothing left and changes nothing.

        A year of a busy group's closed rounds move MOVE_PART at a time first, each part its
        own short transaction (no other chat's write waits behind the whole history; no score
        changes: the scores move last), the move noted first so that a start after a kill
        finishes it (`finish_moves`); the rest, the scores included, in one transaction."""
        if old_id == new_id:  # nothing to move, and every open round would meet itself
            return
        chat_row, noted = self.sql.move_begun
        await self.far.run_all([(chat_row, (new_id, old_id)),
                                (noted, (old_id, new_id, time.time()))])
        while await self.far.run(self.sql.move_part, (new_id, old_id, MOVE_PART)) >= MOVE_PART:
            pass
        await self.far.run(self.sql.move_daily, (new_id, old_id))
        await self.far.run(self.sql.move_achievements, (new_id, old_id))
        for tried in range(1, MOVE_TRIES + 1):
            try:
                await self.far.run_all(self._merged(old_id, new_id, time.time()))
                return
            except self.collided:  # the supergroup's round began meanwhile: met this time
                if tried == MOVE_TRIES:
                    raise

    def _merged(self, old_id: int, new_id: int, at: float) -> list[Step]:
        """The move's last transaction: what is not met moves, then the chats' scoring locks
        (after the rows, as a round's close takes them), then what is met ends and moves,
        then the scores. The supergroup's row is made even where the group's was not found to
        copy: on PostgreSQL each statement sees what was committed before it began, so a
        group's first /play committed between the copy and the rounds' move brings a round
        whose new chat would otherwise have no row. The tournaments' rows move after it (they
        name the chat's row) and before the chats' rows are written: a tournament's row, then
        a chat's, is the order a follow holds them in (bot.store.sql.tournaments)."""
        move, delete, insert = self.sql.recount
        return [*((sql, (new_id, old_id)) for sql in self.sql.move_chat),
                (self.sql.supergroup_row, (new_id,)),
                *chat_move(self.sql.move_tournaments, old_id, new_id),
                (self.sql.move_language, (old_id, new_id)),
                *((sql, (new_id, old_id, new_id)) for sql in self.sql.move_played),
                *self.met_locks(old_id),
                *self.scoring_locks((old_id, new_id)),
                *((sql, (at, new_id, old_id)) for sql in self.sql.end_met),
                (move, (new_id, old_id, new_id)), (delete, (old_id, new_id, old_id)),
                (insert, (new_id,) * 4),
                (self.sql.move_done, (old_id,))]

    async def unfinished_moves(self) -> list[tuple[int, int]]:
        """(old, new) of each move a kill interrupted, oldest first."""
        return [(old, new) for old, new in await self.db.fetch(self.sql.unfinished_moves)]

    def scoring_locks(self, chats: Sequence[int]) -> list[Step]:
        """What takes the chats' scoring locks before their scores are counted again: nothing
        here (one SQLite writer at a time); PostgreSQL's own (bot.store.postgres.people)."""
        return []

    def met_locks(self, old_id: int) -> list[Step]:
        """What locks the group's open rounds a move ends (met by the supergroup's) before the
        scoring locks: nothing here; PostgreSQL's own."""
        return []
