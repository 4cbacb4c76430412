"""Rounds and answers, as both databases store them.

Closing a round is one conditional UPDATE whose row count says who closed it (of two closes at
once, one changes the row, the other finds it closed), and the trigger `round_closed` scores the
round in that same statement. Limited guesses differ by backend (bot.store.sqlite.rounds,
bot.store.postgres.rounds), and so does the list parameter of `set_announced`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store.records import (
    BestAnswer,
    ClaimGone,
    OwedClaim,
    RaceWinner,
    RatingWrite,
    Result,
    RightAnswer,
    Round,
)
from bot.store.retention import EXPIRE_ANSWERS, EXPIRE_BATCHES, WEEK_PART, WEEK_PARTS
from bot.store.sql import ratings, updates
from bot.store.sql.connection import Connection, Refused, Step, numbered_table
from bot.store.sql.rows import ROUND_COLUMNS, hand_of, round_of

RESULT_COLUMNS = ", ".join("r." + column for column in ROUND_COLUMNS.split(", "))


# The rows of the rounds with ids from, to (twice) that closed before a moment: the range is
# said twice so that each planner reads the table by it, whatever its statistics.
EXPIRED_ROUNDS = ("round_id BETWEEN ? AND ? AND round_id IN (SELECT id FROM rounds WHERE "
                  "id BETWEEN ? AND ? AND status <> 'open' AND ended_at < ?)")


# The end of a part of the week's housekeeping (WEEK_PART, until): an hour past its start, or
# where the week now starts, the nearer; the rounds won in the part, each counted twice (over
# all games, '', and its own), as the totals count them (schema step 31: not a winner's whose
# /forget is under way).
PART_END = "CASE WHEN since + ? < ? THEN since + ? ELSE ? END"
WEEK_GONE = ("SELECT CASE WHEN k.every = 1 THEN '' ELSE r.game END AS kind, r.winner_id, "
             "r.awarded FROM rounds r JOIN (SELECT 1 AS every UNION ALL SELECT 0) AS k ON true "
             "WHERE r.status = 'won' AND r.ended_at >= (SELECT since FROM week_start) "
             f"AND r.ended_at < (SELECT {PART_END} FROM week_start) "
             "AND r.winner_id IS NOT NULL "
             "AND NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = r.winner_id)")


@dataclass(frozen=True)
class RoundStatements:
    open_round: str
    settle_claim: str  # the guard of a round opened by an owed update (its claim settled)
    set_message: str
    restart_clock: str
    open_round_of: str
    get_round: str
    open_rounds: str
    record_answer: str
    guesses_made: str
    give_hint: str
    hints_given: str
    close_round: str
    best_answer: str
    answerers: str
    first_right_answer: str
    unannounced: str
    race: str
    winner_name: str
    record_pass: str
    passers: str
    expiring: str
    expired: str
    expire: tuple[str, str, str]  # as `expired`: rounds' ids (from, to) twice, ended before
    week_due: str  # (until,): the guard of a part of the week's housekeeping, if one is due
    week_out: tuple[str, str]  # (WEEK_PART, until) twice each: the part, done


QMARK = RoundStatements(
    open_round="INSERT INTO rounds (chat_id, game, hand, target, level, points, lang, "
               "started_at, deadline, started_by, topic, hints_on, typing_on) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    settle_claim=updates.QMARK.settle_update,
    set_message="UPDATE rounds SET message_id = ? WHERE id = ?",
    # a deal never shown (no message): its clock starts again
    restart_clock="UPDATE rounds SET started_at = ?, deadline = ? WHERE id = ? "
                  "AND status = 'open' AND message_id IS NULL",
    open_round_of=f"SELECT {ROUND_COLUMNS} FROM rounds WHERE chat_id = ? AND topic = ? "
                  "AND status = 'open'",
    get_round=f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?",
    # ORDER BY +id: sorted after, so that SQLite reads the open rounds by their partial index,
    # not every round in the order of ids (both run at start-up)
    open_rounds=f"SELECT {ROUND_COLUMNS} FROM rounds WHERE status = 'open' ORDER BY +id",
    record_answer="INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
                  "VALUES (?, ?, ?, ?, ?, ?)",
    guesses_made="SELECT COUNT(*) FROM answers WHERE round_id = ? AND user_id = ? "
                 "AND distance IS NOT NULL",
    give_hint="UPDATE rounds SET hint_used = ?, points = ? "
              "WHERE id = ? AND status = 'open' AND hint_used = ?",
    hints_given="SELECT hint_used FROM rounds WHERE id = ?",
    close_round="UPDATE rounds SET status = ?, ended_at = ?, winner_id = ?, winning_answer = ?, "
                "awarded = ?, win_seconds = ? WHERE id = ? AND status = 'open'",
    # "user_id IS DISTINCT FROM ?" would need SQLite 3.39; with a NULL `excluding`, the
    # COALESCE below leaves out nobody, as that would.
    best_answer="SELECT a.user_id, u.first_name, a.text, a.distance, a.at FROM answers a "
                "JOIN shown_users u ON u.id = a.user_id WHERE a.round_id = ? "
                "AND a.distance IS NOT NULL AND COALESCE(a.user_id <> ?, TRUE) "
                "ORDER BY a.distance, a.at, a.id LIMIT 1",
    answerers="SELECT user_id FROM answers WHERE round_id = ? "
              "GROUP BY user_id ORDER BY MIN(id)",
    first_right_answer="SELECT user_id, text, at FROM answers WHERE round_id = ? "
                       "AND correct = 1 ORDER BY at, id LIMIT 1",
    unannounced=f"SELECT {RESULT_COLUMNS}, r.ended_at, u.first_name, r.winning_answer, "
                "r.awarded, r.win_seconds, "
                "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id "
                "        AND a.user_id = r.winner_id AND a.correct = 1), "
                "(SELECT MIN(a.distance) FROM answers a WHERE a.round_id = r.id "
                "        AND a.user_id = r.winner_id AND a.text = r.winning_answer) "
                "FROM rounds r LEFT JOIN shown_users u ON u.id = r.winner_id "
                "WHERE r.announced = 0 AND r.status <> 'open' ORDER BY r.ended_at, r.id",
    # the winner's first right answer in a subquery (NULL: none), so that no planner reaches
    # the round through its winner (every round they ever won) rather than by its id
    race="SELECT r.winner_id, u.first_name, (SELECT MIN(a.at) FROM answers a "
         "WHERE a.round_id = r.id AND a.user_id = r.winner_id AND a.correct = 1) "
         "FROM rounds r JOIN shown_users u ON u.id = r.winner_id WHERE r.id = ?",
    winner_name="SELECT u.first_name FROM rounds r JOIN shown_users u "
                "ON u.id = r.winner_id WHERE r.id = ?",
    record_pass="INSERT INTO round_passes (round_id, user_id, at) VALUES (?, ?, ?) "
                "ON CONFLICT (round_id, user_id) DO NOTHING",
    passers="SELECT p.user_id, u.first_name FROM round_passes p JOIN shown_users u "
            "ON u.id = p.user_id WHERE p.round_id = ? ORDER BY p.at, p.user_id",
    # the retention (bot/store/retention.py): the rounds of the oldest answers that still have
    # their text (the index answers_unexpired holds only those), and of them the ones closed
    # long enough ago; each player's first answer of such a round stays, without its text
    expiring="SELECT MIN(round_id), MAX(round_id) FROM (SELECT round_id FROM answers "
             "WHERE text <> '' ORDER BY round_id LIMIT ?) AS oldest",
    expired="SELECT COUNT(DISTINCT a.round_id) FROM answers a JOIN rounds r "
            "ON r.id = a.round_id WHERE a.round_id BETWEEN ? AND ? AND a.text <> '' "
            "AND r.id BETWEEN ? AND ? AND r.status <> 'open' AND r.ended_at < ?",
    expire=("DELETE FROM answers WHERE " + EXPIRED_ROUNDS + " AND EXISTS "
            "(SELECT 1 FROM answers b WHERE b.round_id = answers.round_id "
            "AND b.user_id = answers.user_id AND b.id < answers.id)",
            "UPDATE answers SET text = '' WHERE " + EXPIRED_ROUNDS + " AND text <> ''",
            "DELETE FROM round_passes WHERE " + EXPIRED_ROUNDS),
    # The week's totals (schema step 31) lose the rounds that left the week: those won from
    # its start to an hour later at most (WEEK_PART, the part's end), then it starts there
    # (a row left at nothing goes: the schema's trigger deletes it).
    week_due="UPDATE week_start SET since = since WHERE since < ?",
    week_out=(f"INSERT INTO week_totals (game, user_id, points, wins) SELECT kind, winner_id, "
              f"-SUM(awarded), -COUNT(*) FROM ({WEEK_GONE}) AS gone WHERE true "
              "GROUP BY kind, winner_id ON CONFLICT (user_id, game) DO UPDATE SET "
              "points = week_totals.points + excluded.points, "
              "wins = week_totals.wins + excluded.wins",
              f"UPDATE week_start SET since = {PART_END}"),
)
NUMBERED = numbered_table(QMARK)


class Rounds:
    """The rounds store but for what each backend does its own way (`record_guess`,
    `set_announced`)."""

    def __init__(self, db: Connection, sql: RoundStatements,
                 rated: ratings.RatingStatements = ratings.QMARK, week_lock: str = "") -> None:
        self.db = db
        self.sql = sql
        self.rated = rated  # the statements of a close's rating (bot.store.sql.ratings)
        # what takes the lock every writer of the week's totals holds (PostgreSQL's concurrent
        # writers only), before the housekeeping reads the rounds that left the week
        self.week_lock = week_lock

    async def open_round(self, chat_id: int, game: str, hand: tuple, target: int, level: str,
                         points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None = None, topic: int = 0,
                         hints_on: bool | None = None, typing_on: bool | None = None,
                         claim: OwedClaim | None = None) -> Round | ClaimGone | None:
        """A new open round, or None when the chat's topic already has one; `hints_on` and
        `typing_on`, the terms it is dealt with (kept across a restart). With the claim of the
        update that asks for it: stored only while that claim is still its owner's, and the
        claim settled in the same transaction (ClaimGone, nothing written, if another process
        took it over): a redelivery then finds the update handled and the deal in the store."""
        stored = json.dumps(hand)
        row = (chat_id, game, stored, target, level, points, lang, started_at, deadline,
               started_by, topic, _stored(hints_on), _stored(typing_on))
        try:
            if claim is None:
                round_id = await self.db.insert(self.sql.open_round, row)
            else:
                guard = (self.sql.settle_claim, (claim.update_id, claim.owner))
                opened = await self.db.insert_guarded(guard, self.sql.open_round, row)
                if opened is None:
                    return ClaimGone()
                round_id = opened
        except Refused:
            return None
        return Round(round_id, chat_id, game, hand_of(stored), target, level, points, lang, None,
                     started_at, deadline, "open", False, started_by, topic, hints_on, typing_on)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self.db.run(self.sql.set_message, (message_id, round_id))

    async def set_shown(self, round_id: int, message_id: int, started_at: float,
                        deadline: float) -> None:
        """A deal that went later than it was dealt (a send limit held it): its clock starts
        again, then its message is set — one transaction, one trip."""
        await self.db.run_all([(self.sql.restart_clock, (started_at, deadline, round_id)),
                               (self.sql.set_message, (message_id, round_id))])

    async def restart_clock(self, round_id: int, started_at: float, deadline: float) -> bool:
        """The open round's clock starts again (its deal was never shown); False if it was
        shown or closed meanwhile."""
        return await self.db.run(self.sql.restart_clock, (started_at, deadline, round_id)) == 1

    async def open_round_of(self, chat_id: int, topic: int = 0) -> Round | None:
        rows = await self.db.fetch(self.sql.open_round_of, (chat_id, topic))
        return round_of(rows[0]) if rows else None

    async def get_round(self, round_id: int) -> Round | None:
        rows = await self.db.fetch(self.sql.get_round, (round_id,))
        return round_of(rows[0]) if rows else None

    async def open_rounds(self) -> list[Round]:
        return [round_of(row) for row in await self.db.fetch(self.sql.open_rounds)]

    async def record_answer(self, round_id: int, user_id: int, text: str, correct: bool,
                            at: float, distance: int | None = None) -> None:
        await self.db.run(self.sql.record_answer,
                          (round_id, user_id, text, int(correct), at, distance))

    async def guesses_made(self, round_id: int, user_id: int) -> int:
        """How many guesses (answers with a distance) the player made in the round."""
        rows = await self.db.fetch(self.sql.guesses_made, (round_id, user_id))
        return int(rows[0][0])

    async def give_hint(self, round_id: int, number: int, points: int) -> bool:
        """Count the round's `number`th hint given (the column `hint_used` holds how many) and
        set its points; False if the round is closed or that hint was counted already."""
        return await self.db.run(self.sql.give_hint,
                                 (number, points, round_id, number - 1)) == 1

    async def hints_given(self, round_id: int) -> int:
        rows = await self.db.fetch(self.sql.hints_given, (round_id,))
        return int(rows[0][0]) if rows else 0

    async def close_round(self, round_id: int, status: str, ended_at: float,
                          winner: int | None = None, answer: str | None = None,
                          awarded: int = 0, win_seconds: float | None = None,
                          rating: RatingWrite | None = None) -> bool:
        """Close an open round ('won', 'revealed' or 'expired'); False if it was closed already.

        The trigger `round_closed` (migration 4) scores it in the same statement; answers that
        land after this are counted by the trigger `answer_after_close`. With a `rating`, the
        close and the rating are one transaction, the rating written only if this closed it.
        """
        close = (self.sql.close_round, (status, ended_at, winner, answer,
                                        awarded if winner is not None else 0, win_seconds,
                                        round_id))
        if rating is not None:
            return await self.rated_close(close, ratings.rating_steps(self.rated, rating,
                                                                      round_id))
        return await self.db.run(*close) == 1

    async def rated_close(self, close: Step, steps: list[Step]) -> bool:
        """The close, then its rating's steps (the first, the round's key), one transaction:
        SQLite has one writer, so the order costs no other writer anything."""
        return await self.db.run_guarded(close, steps)

    async def best_answer(self, round_id: int, excluding: int | None = None
                          ) -> BestAnswer | None:
        """The closest valid answer of a round (ties: the earliest), leaving out the answers
        of the player `excluding` (who ended the round early, and so cannot win it)."""
        rows = await self.db.fetch(self.sql.best_answer, (round_id, excluding))
        return BestAnswer(*rows[0]) if rows else None

    async def answerers(self, round_id: int) -> list[int]:
        """The players who answered in the round, in the order of their first answer."""
        return [row[0] for row in await self.db.fetch(self.sql.answerers, (round_id,))]

    async def first_right_answer(self, round_id: int) -> RightAnswer | None:
        """The earliest right answer of a round: its winner, had the round been closed then."""
        rows = await self.db.fetch(self.sql.first_right_answer, (round_id,))
        return RightAnswer(*rows[0]) if rows else None

    async def unannounced(self) -> list[Result]:
        """Closed rounds whose result message was never sent (the bot, or the leader, stopped
        in between), oldest first."""
        rows = await self.db.fetch(self.sql.unannounced)
        return [Result(round_of(row[:-7]), row[-7], row[-6], row[-5], row[-4], row[-3],
                       bool(row[-2]), row[-1]) for row in rows]

    async def race(self, round_id: int) -> RaceWinner | None:
        """The winner of a round won by a right answer, with that answer's stored time (None
        for a round nobody won, or won by the closest answer at the end)."""
        rows = await self.db.fetch(self.sql.race, (round_id,))
        return RaceWinner(*rows[0]) if rows and rows[0][2] is not None else None

    async def winner_name(self, round_id: int) -> str | None:
        rows = await self.db.fetch(self.sql.winner_name, (round_id,))
        return rows[0][0] if rows else None

    async def record_pass(self, round_id: int, user_id: int, at: float) -> bool:
        """The player passed in the round (/pass); False if they had passed already."""
        return await self.db.run(self.sql.record_pass, (round_id, user_id, at)) == 1

    async def passers(self, round_id: int) -> list[tuple[int, str]]:
        """Who passed in the round, (id, first name), in the order they passed."""
        return [(row[0], row[1]) for row in await self.db.fetch(self.sql.passers, (round_id,))]

    async def expire_answers(self, before: float, batches: int = EXPIRE_BATCHES) -> int:
        """The retention of answers (bot/store/retention.py) for rounds closed before `before`,
        oldest first, `batches` short transactions at most (a year's backlog after an upgrade
        goes a little each time); how many rounds it reached."""
        reached = 0
        for _ in range(batches):
            rows = await self.db.fetch(self.sql.expiring, (EXPIRE_ANSWERS,))
            first, last = rows[0] if rows else (None, None)
            if first is None:
                break
            window = (first, last, first, last, before)
            [(count,)] = await self.db.fetch(self.sql.expired, window)
            if not count:
                break
            await self.db.run_all([(sql, window) for sql in self.sql.expire])
            reached += int(count)
        return reached

    async def expire_week(self, until: float, parts: int = WEEK_PARTS) -> int:
        """The week's totals (schema step 31) brought to start at `until` (the week's start
        now), an hour of rounds a transaction, `parts` at most (a day's backlog after a stop
        goes in 24); how many it took."""
        part = (WEEK_PART, until, WEEK_PART, until)
        steps: list[Step] = [(self.week_lock, ())] if self.week_lock else []
        steps += [(sql, part) for sql in self.sql.week_out]
        for done in range(parts):
            if not await self.db.run_guarded((self.sql.week_due, (until,)), steps):
                return done
        return parts


def _stored(value: bool | None) -> int | None:
    return None if value is None else int(value)
