"""Chats and users in PostgreSQL: the shared store (bot.store.sql.people) with the chats'
scoring locks taken when a group moves to a supergroup."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.store.postgres.connection import Database
from bot.store.sql.connection import Step
from bot.store.sql.people import NUMBERED, People

# Writers run side by side here: the move takes both chats' scoring locks (in order, after the
# rounds' rows, as a round's close takes them) so that the two never wait on each other.
SCORING_LOCKS = ("SELECT pg_advisory_xact_lock(chat) FROM unnest($1::bigint[]) AS chat "
                 "ORDER BY chat")
# The group's rounds still open once the rest moved (those the supergroup's own met), locked
# before the scoring locks: their end takes them after, and a timer's close of one at that
# moment (the row, then the lock) would otherwise wait on the move while the move waits on it.
# NO KEY: an answer's foreign key check (KEY SHARE) is not held up.
MET_ROUNDS = "SELECT id FROM rounds WHERE chat_id = $1 AND status = 'open' FOR NO KEY UPDATE"


class PostgresPeople(People):
    # a move's last transaction met a round or match the supergroup began while it ran
    collided: tuple[type[Exception], ...] = (asyncpg.UniqueViolationError,)

    def __init__(self, db: Database) -> None:
        super().__init__(db, NUMBERED)

    def scoring_locks(self, chats: Sequence[int]) -> list[Step]:
        return [(SCORING_LOCKS, (sorted(set(chats)),))]

    def met_locks(self, old_id: int) -> list[Step]:
        return [(MET_ROUNDS, (old_id,))]
