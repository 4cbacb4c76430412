"""Update claims, as both databases store them: the ids of the Telegram updates already handled
(a restarted bot, or a standby taking over, skips the ones handled before)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.sql.connection import Connection, numbered_table


@dataclass(frozen=True)
class UpdateStatements:
    claim_update: str
    forget_updates: str


QMARK = UpdateStatements(
    claim_update="INSERT INTO handled_updates (update_id, at) VALUES (?, ?) "
                 "ON CONFLICT DO NOTHING",
    forget_updates="DELETE FROM handled_updates WHERE at < ?",
)
NUMBERED = numbered_table(QMARK)


class Updates:
    def __init__(self, db: Connection, sql: UpdateStatements) -> None:
        self.db = db
        self.sql = sql

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time an update is seen: Telegram sends an update again when the bot
        stopped before confirming it, and it must not act or reply twice."""
        return await self.db.run(self.sql.claim_update, (update_id, at)) == 1

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before` (Telegram redelivers for 24 hours at
        most, and picks new ids at random after a week without updates)."""
        return await self.db.run(self.sql.forget_updates, (before,))
