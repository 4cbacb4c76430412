"""Chats and users in PostgreSQL: the shared store (bot.store.sql.people) with the chats'
scoring locks taken when a group moves to a supergroup."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.postgres.connection import Database
from bot.store.sql.connection import Step
from bot.store.sql.people import NUMBERED, People

# Writers run side by side here: the move takes both chats' scoring locks (in order, after the
# rounds' rows, as a round's close takes them) so that the two never wait on each other.
SCORING_LOCKS = ("SELECT pg_advisory_xact_lock(chat) FROM unnest($1::bigint[]) AS chat "
                 "ORDER BY chat")


class PostgresPeople(People):
    def __init__(self, db: Database) -> None:
        super().__init__(db, NUMBERED)

    def scoring_locks(self, chats: Sequence[int]) -> list[Step]:
        return [(SCORING_LOCKS, (sorted(set(chats)),))]
