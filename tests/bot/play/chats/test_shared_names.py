"""Names where several processes write them (a cluster's workers, bot/play/chats/people.py): a
name changed on one worker and changed back on another is stored again by the person's next
message once SHARED_NAMES_SECONDS have passed, where one process alone trusts what it stored
for as long as it remembers it (its only writer)."""

from __future__ import annotations

from bot.play.chats.people import SHARED_NAMES_SECONDS, Chat, People, Player
from bot.store.stores import Stores
from tests.bot.conftest import Clock

GROUP, OTHER = Chat(-51, "group", "G"), Chat(-52, "group", "H")


async def renamed_and_back(stores: Stores, shared: bool, clock: Clock) -> str | None:
    """Ann speaks as "Ann" on the first worker, as "Annie" on the second, then as "Ann" on the
    first again a second later, and once more past SHARED_NAMES_SECONDS: her stored name."""
    first = People(stores.people, shared=shared, clock=clock)
    second = People(stores.people, shared=shared, clock=clock)
    await first.remember(GROUP, Player(7, "Ann"))
    await second.remember(OTHER, Player(7, "Annie"))
    clock.now += 1
    await first.remember(GROUP, Player(7, "Ann"))  # it stored "Ann" itself a second ago
    assert await stores.people.user_name(7) == "Annie"  # the staleness the bound allows
    clock.now += SHARED_NAMES_SECONDS
    await first.remember(GROUP, Player(7, "Ann"))
    return await stores.people.user_name(7)


async def test_a_name_changed_back_on_another_worker_is_stored_again(stores: Stores):
    assert await renamed_and_back(stores, True, Clock(0.0)) == "Ann"


async def test_one_process_trusts_what_it_stored(stores: Stores):
    """The one process is the only writer: what it remembers is what is stored (here two
    People over one database play two processes, which the one process never has)."""
    assert await renamed_and_back(stores, False, Clock(0.0)) == "Annie"
