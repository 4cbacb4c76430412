"""Update claims, as both databases store them: the ids of the Telegram updates already handled
(a restarted bot, or a standby taking over, skips the ones handled before)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.sql.connection import Connection, numbered_table


@dataclass(frozen=True)
class UpdateStatements:
    claim_update: str
    claim_owed: str
    settle_update: str
    forget_updates: str


QMARK = UpdateStatements(
    claim_update="INSERT INTO handled_updates (update_id, at) VALUES (?, ?) "
                 "ON CONFLICT DO NOTHING",
    # new, or owed by another process (it died or let the update go before it answered): ours
    claim_owed="INSERT INTO handled_updates (update_id, at, owed_by) VALUES (?, ?, ?) "
               "ON CONFLICT (update_id) DO UPDATE SET owed_by = excluded.owed_by "
               "WHERE handled_updates.owed_by IS NOT NULL "
               "AND handled_updates.owed_by <> excluded.owed_by",
    settle_update="UPDATE handled_updates SET owed_by = NULL WHERE update_id = ? AND owed_by = ?",
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

    async def claim_owed(self, update_id: int, at: float, owner: int) -> bool:
        """As claim_update, for an update whose handling writes nothing but its reply: the claim
        names `owner` until `settle_update`, and an update still owed by another owner (who
        died or let it go before answering) is claimed again, so its reply is not lost."""
        return await self.db.run(self.sql.claim_owed, (update_id, at, owner)) == 1

    async def settle_update(self, update_id: int, owner: int) -> None:
        """The update's reply went (or its handling ended): nothing is owed for it any more."""
        await self.db.run(self.sql.settle_update, (update_id, owner))

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before` (Telegram redelivers for 24 hours at
        most, and picks new ids at random after a week without updates)."""
        return await self.db.run(self.sql.forget_updates, (before,))
