"""An owed claim (bot.play.guards.once, docs/reliability.md "A reply owed"), on both databases:
the update is claimed once while its owner lives, taken over when another process is given it
while it is still owed (its owner died before its reply went), never once settled, and a
plain claim never takes an owed one (only the commands that write nothing but a reply, or that
deal, are claimed owed). A round dealt under an owed claim is stored only while its process
still holds the claim, and settles it in the same transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.play.games import PART_GAMES
from bot.play.guards.once import Claimed, Once, Seen
from bot.store.postgres.live_rounds import shared_rounds
from bot.store.records import ClaimGone, OwedClaim, Round, StarterFull
from bot.store.sql.connection import numbered
from bot.store.stores import Stores

# an opening of a round in chat `chat` by person 5, under the claim: the one process's
# (RoundStore.open_round) or a worker's (OpenRounds.open_round, with the bound `most`)
Opening = Callable[[int, OwedClaim | None], Awaitable[Round | ClaimGone | StarterFull | None]]


async def owed_by(stores: Stores, update_id: int) -> object:
    """Who owes the update's reply (None: nobody), read in the database itself."""
    db = stores.updates.db  # type: ignore[attr-defined]
    sql = "SELECT owed_by FROM handled_updates WHERE update_id = ?"
    rows = await db.fetch(sql if type(db).__module__.startswith("bot.store.sqlite")
                          else numbered(sql), (update_id,))
    return rows[0][0] if rows else "no row"


async def test_an_owed_claim_is_taken_over_only_from_another_owner_before_it_settles(
        stores: Stores):
    updates = stores.updates
    assert await updates.claim_owed(7, 1.0, owner=11)
    assert await owed_by(stores, 7) == 11
    assert not await updates.claim_owed(7, 2.0, owner=11)  # its own owner, given it again
    assert not await updates.claim_update(7, 2.0)  # a plain claim never takes it
    assert await updates.claim_owed(7, 3.0, owner=12)  # the owner died owing it: taken over
    assert await owed_by(stores, 7) == 12
    assert not await updates.claim_owed(7, 3.0, owner=12)
    await updates.settle_update(7, owner=11)  # the first owner, woken late: settles nothing
    assert await owed_by(stores, 7) == 12
    await updates.settle_update(7, owner=12)
    assert await owed_by(stores, 7) is None
    for owner in (11, 12, 13):  # answered: nobody answers it again
        assert not await updates.claim_owed(7, 4.0, owner=owner)


async def test_a_plain_claim_is_never_owed_and_an_owed_claim_never_takes_it(stores: Stores):
    updates = stores.updates
    assert await updates.claim_update(8, 1.0)
    assert await owed_by(stores, 8) is None
    assert not await updates.claim_owed(8, 2.0, owner=11)
    assert await updates.claim_owed(9, 1.0, owner=11)
    await updates.forget_updates(2.0)  # forgotten with the others once past redelivery
    assert await owed_by(stores, 9) == "no row"


async def test_once_claims_owed_as_its_own_process_and_a_restart_answers_what_it_owed(
        stores: Stores):
    before, after = Once(stores.updates), Once(stores.updates)
    assert before.owner != after.owner and before.owner > 0
    assert await before.claim(21, 1.0, owed=True) == Claimed()
    assert await before.claim(21, 1.0, owed=True) == Seen()
    assert await after.claim(21, 2.0, owed=True) == Claimed()  # the process before died owing
    await after.settle(21)
    assert await before.claim(21, 3.0, owed=True) == Seen()
    assert await after.claim(22, 1.0) == Claimed() and await before.claim(22, 1.0) == Seen()


def opening(stores: Stores, most: int | None = None) -> Opening:
    """The one process's opening, or with `most` a worker's (PostgreSQL's shared rounds)."""
    async def open_(chat: int, claim: OwedClaim | None
                    ) -> Round | ClaimGone | StarterFull | None:
        await stores.people.remember_chat(chat, "group", "G")
        await stores.people.remember_user(5, "P")
        args = (chat, "24", (1, 2, 3, 4), 24, "easy", 10, "en", 1.0, 121.0, 5)
        if most is None:
            return await stores.rounds.open_round(*args, claim=claim)
        return await shared_rounds(stores, PART_GAMES).open_round(most, *args, claim=claim)
    return open_


async def a_round_settles_its_claim_and_a_stalled_claimant_opens_nothing(
        stores: Stores, open_: Opening) -> None:
    """The rules of a round opened under an owed claim, whichever opening stores it."""
    updates = stores.updates
    assert await updates.claim_owed(31, 1.0, owner=11)
    opened = await open_(-31, OwedClaim(31, 11))
    assert isinstance(opened, Round) and opened == await stores.rounds.get_round(opened.id)
    assert await owed_by(stores, 31) is None  # settled with the round: handled
    for owner in (11, 12):  # given again, to it or to another process: skipped
        assert not await updates.claim_owed(31, 2.0, owner=owner)
    # stalled after its claim while the update went to another process, which took it over:
    # the first opens nothing, and the claim stays the other's, who deals
    assert await updates.claim_owed(32, 1.0, owner=11)
    assert await updates.claim_owed(32, 2.0, owner=12)
    assert await open_(-32, OwedClaim(32, 11)) == ClaimGone()
    assert await stores.rounds.open_round_of(-32) is None
    assert await owed_by(stores, 32) == 12
    assert isinstance(await open_(-32, OwedClaim(32, 12)), Round)
    assert await owed_by(stores, 32) is None
    # the topic has a round already: none opened, the claim still owed (its reply is)
    assert await updates.claim_owed(33, 1.0, owner=11)
    assert await open_(-31, OwedClaim(33, 11)) is None
    assert await owed_by(stores, 33) == 11
    # a plain claim (a process of the version before) or none at all: never this claim's
    assert await updates.claim_update(34, 1.0)
    assert await open_(-34, OwedClaim(34, 11)) == ClaimGone()
    assert await open_(-35, OwedClaim(35, 11)) == ClaimGone()
    assert await owed_by(stores, 35) == "no row"
    assert await stores.rounds.open_round_of(-34) is None
    assert await stores.rounds.open_round_of(-35) is None
    assert isinstance(await open_(-34, None), Round)  # a match's or a tournament's: no claim


async def test_a_round_opened_under_an_owed_claim_settles_it(stores: Stores):
    await a_round_settles_its_claim_and_a_stalled_claimant_opens_nothing(
        stores, opening(stores))
