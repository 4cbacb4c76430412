"""Update claims in PostgreSQL: the ids of the Telegram updates already handled. A standby that
takes over skips the updates its leader handled, as a restarted bot does."""

from __future__ import annotations

from bot.store.postgres.connection import Database


class PostgresUpdates:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time an update is seen (Telegram sends it again when the bot that
        took it stopped before confirming it)."""
        return await self.db.run("INSERT INTO handled_updates (update_id, at) VALUES ($1, $2) "
                                 "ON CONFLICT DO NOTHING", (update_id, at)) == 1

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before`."""
        return await self.db.run("DELETE FROM handled_updates WHERE at < $1", (before,))
