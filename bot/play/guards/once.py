"""An update acts once: its id is claimed in the database before any handler sees it (Telegram
sends an update again when the bot stopped before confirming it, and a /play, an answer or a
/hint must not act twice), and forgotten a while after Telegram would stop sending it. What a
claim's failure means is said as a typed answer, so a face never handles a store's errors.

A claim made before its handler runs would lose the reply of a process that died between the
two; for an update whose handling writes nothing but its reply (`owed=True`: /solve, /help,
/stats, ...) the claim names this process until `settle` says the reply went, and a process
given the update again while another still owes it answers it (docs/reliability.md, "A reply
owed"). Acting twice costs such an update only a reply twice, in the window the rounds' outbox
already has (a process stopped between Telegram taking its reply and its settle)."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from bot.store.outage import Outage, out_of_reach
from bot.store.protocols import StoreBusy, UpdateStore

__all__ = ["Claim", "Claimed", "Once", "Outage", "Seen", "Unclaimed", "is_outage"]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Claimed:
    """The first time: handle it."""


@dataclass(frozen=True)
class Seen:
    """Handled before: skip it."""


@dataclass(frozen=True)
class Unclaimed:
    """The database could not say (locked through every retry, or out of reach): the update
    is not handled, or a redelivery could act on it twice; its sender is told to try again."""

    why: str


Claim = Claimed | Seen | Unclaimed


class Once:
    def __init__(self, store: UpdateStore, owner: int | None = None) -> None:
        self.store = store
        # this process, as its owed claims name it: new at every start, so a restarted bot
        # answers what it owed before it stopped
        self.owner = owner if owner is not None else secrets.randbits(62) + 1

    async def claim(self, update_id: int, at: float, owed: bool = False) -> Claim:
        try:
            if owed:
                taken = await self.store.claim_owed(update_id, at, self.owner)
            else:
                taken = await self.store.claim_update(update_id, at)
            return Claimed() if taken else Seen()
        except StoreBusy:
            return Unclaimed("busy")
        except Exception as error:  # whatever the backend raised, the update is not claimed
            log.warning("could not claim update %d: %s: %s", update_id, type(error).__name__,
                        error)
            return Unclaimed("out of reach")

    async def settle(self, update_id: int) -> None:
        """An owed claim's reply went: no other process answers it again. A failure only
        leaves it owed (a redelivery would answer it twice), so it is logged, not raised."""
        try:
            await self.store.settle_update(update_id, self.owner)
        except Exception as error:  # whatever the backend raised
            log.warning("could not settle update %d: %s: %s", update_id,
                        type(error).__name__, error)

    async def forget_before(self, at: float) -> None:
        """Forget the ids claimed before `at` (Telegram redelivers for a day at most)."""
        await self.store.forget_updates(at)


def is_outage(error: BaseException, outage: Outage) -> bool:
    """Whether an error only says the database is out of reach: if so it is counted (one line
    a minute, no traceback) and True."""
    if out_of_reach(error):
        outage.failed(error)
        return True
    return False
