"""Every open round as the shared database holds it, for workers that each keep only their own
chats' rounds in memory: which open rounds a request may reach (the fairness rule of
bot.play.guards.live), and a round opened only while its starter has fewer than the bound open.

The reach is looked up by keys (migration 34's `live_keys`, indexed over the open rounds): the
keys a request holds here match those a round it may reach holds there (a hand's parts asked
only of the games whose answers may use part of a hand, which the registry names: `part_games`),
so one search of the index finds every such round, and a few more that the caller's exact rule
then sets aside. A round committed by any worker before the search is found by it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import combinations

import asyncpg

from bot.store.postgres.connection import Database
from bot.store.postgres.rounds import PostgresRounds
from bot.store.records import ClaimGone, OwedClaim, Round, StarterFull
from bot.store.sql.rows import ROUND_COLUMNS, hand_of, round_of
from bot.store.stores import Stores

REACHING = f"SELECT {ROUND_COLUMNS} FROM rounds WHERE status = 'open' " \
           "AND live_keys(game, hand) && $1::text[]"
# Each tournament round live now (from its first deal until it closed in every group: live for
# everyone, wherever its schedule runs), as a round of chat 0 — the live rule's "everyone" —
# whose id is its key's negative (bot.play.guards.live.tournament_key): few at any moment.
TOURNAMENT_ROUNDS = 100
LIVE_TOURNAMENTS = ("SELECT tournament_id, number, game, hand, target, level, points, "
                    "opened_at FROM tournament_rounds WHERE status = 'live'")
# A person's openings take the one-bigint advisory lock of their id moved past every chat's id
# (2**62 + the id; Telegram's ids stay under 2**53), apart from the chats' scoring locks, which
# take the id; the lock, the count of their open rounds, the owed claim's settle and the insert
# are schema step 26's (step 25's, with the claim)
OPEN_WITHIN = "SELECT round_id, started FROM open_round_within(" + \
    ", ".join(f"${n}" for n in range(1, 17)) + ")"
CLAIM_GONE = -1  # what `started` says when the claim is another worker's now


def key(numbers: Iterable[int]) -> str:
    """A multiset of numbers as `live_keys` writes it: sorted, comma-separated."""
    return ",".join(map(str, sorted(numbers)))


def number_keys(numbers: Sequence[int], part_games: Iterable[str] = ()) -> list[str]:
    """The keys of a request for these numbers: each part of it that a live hand may be, the
    request as a hand less one number, and as a part of a hand of each of `part_games` (whose
    answers may use part of a hand)."""
    parts = {key(part) for size in range(1, len(numbers) + 1)
             for part in combinations(numbers, size)}
    return sorted({"w" + part for part in parts} | {"l" + key(numbers)}
                  | {f"p{game}:{key(numbers)}" for game in part_games})


def roll_keys(rolls: Sequence[Sequence[int]]) -> list[str]:
    """The keys of 13 rolls asked: each pair of them, sorted as `live_keys` sorts them."""
    texts = sorted(key(roll) for roll in rolls)
    return sorted({f"y{a}/{b}" for a, b in combinations(texts, 2)})


class SharedRounds:
    """The open rounds of every worker on one PostgreSQL database; `part_games`, the games
    whose answers may use part of a hand (the registry's `Game.part_answers`)."""

    def __init__(self, db: Database, part_games: Iterable[str]) -> None:
        self.db = db
        self.part_games = tuple(part_games)

    async def reaching(self, numbers: Sequence[int]) -> list[Round]:
        """At least every open round that a request for these numbers reaches, for any
        target, and every tournament round live now (for everyone: chat 0)."""
        found = [round_of(row) for row in await self.db.fetch(
            REACHING, (number_keys(numbers, self.part_games),))]
        for row in await self.db.fetch(LIVE_TOURNAMENTS):
            key = row[0] * TOURNAMENT_ROUNDS + row[1]
            found.append(Round(-key, 0, row[2], hand_of(row[3]), row[4], row[5], row[6], "en",
                               None, row[7], row[7], "open", False))
        return found

    async def reaching_rolls(self, rolls: Sequence[Sequence[int]]) -> list[Round]:
        """At least every open round of rolls these rolls reach (they share two rolls with it)."""
        return [round_of(row) for row in await self.db.fetch(REACHING, (roll_keys(rolls),))]

    async def open_round(self, most: int, chat_id: int, game: str, hand: tuple, target: int,
                         level: str, points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None, topic: int = 0, hints_on: bool | None = None,
                         typing_on: bool | None = None, claim: OwedClaim | None = None
                         ) -> Round | StarterFull | ClaimGone | None:
        """A new open round, unless its starter has `most` open (StarterFull), the chat's
        topic has one (None) or the update's claim is another worker's now (ClaimGone). The
        count, the claim's settle and the insert are one transaction under the starter's
        lock, in one round trip (step 26's `open_round_within`): of two workers opening for
        one person at once, the second counts after the first committed."""
        params = (chat_id, game, json.dumps(hand), target, level, points, lang, started_at,
                  deadline, started_by, topic, _flag(hints_on), _flag(typing_on))
        claimed = (claim.update_id, claim.owner) if claim is not None else (None, None)
        try:
            [(round_id, started)] = await self.db.fetch(OPEN_WITHIN, (most, *params, *claimed))
        except asyncpg.UniqueViolationError:
            return None
        if round_id is None:
            return ClaimGone() if started == CLAIM_GONE else StarterFull(int(started))
        # the row as inserted, not read back
        return round_of((round_id, chat_id, game, params[2], target, level, points, lang, None,
                         started_at, deadline, "open", 0, started_by, topic, params[11],
                         params[12]))


def shared_rounds(stores: Stores, part_games: Iterable[str]) -> SharedRounds:
    """The open rounds of every worker on the stores' database (a worker runs on PostgreSQL
    alone: bot.runtime.config.check_role)."""
    if not isinstance(stores.rounds, PostgresRounds):
        raise ValueError("workers share their open rounds through PostgreSQL only")
    return SharedRounds(stores.rounds.database, part_games)


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)
