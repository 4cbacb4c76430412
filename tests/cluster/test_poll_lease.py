"""The polling ingresses' lease on a fake clock against the real NATS server: one holds it; a
standby takes it over only after the entry's revision stood still for LEASE seconds of its own
clock, and then the old holder's renewal is refused; the holder stops counting itself the holder
HOLD seconds after its last confirmed write; a lease given up is taken at once; of two standbys
racing for a lease run out, one wins."""

from __future__ import annotations

import asyncio
import secrets

from nats.aio.client import Client

from bot.cluster.poll_lease import HOLD, LEASE, RENEW, PollLease, bucket


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def leases(client: Client, count: int) -> tuple[Clock, list[PollLease]]:
    """`count` ingresses' sides of one lease (a key of this test's own), on one fake clock."""
    kv = await bucket(client, 5.0)
    key, clock = f"T{secrets.token_hex(6)}", Clock()
    return clock, [PollLease(kv, key, f"ingress-{n}", clock) for n in range(count)]


async def test_a_standby_takes_over_only_once_the_revision_stood_still(client):
    clock, (first, second) = await leases(client, 2)
    assert await first.take() and first.held()
    assert not await second.take()  # its first look
    for _ in range(int(LEASE / RENEW) * 2):  # the holder renews every RENEW: never taken
        clock.now += RENEW
        assert await first.take()
        assert not await second.take()
    clock.now += LEASE - 0.1
    assert not await second.take() and not first.held()  # the holder stopped by then
    clock.now += 0.1
    assert await second.take() and second.held()
    assert not await first.take() and not first.held()  # its renewal refused


async def test_the_holder_stops_hold_seconds_after_its_last_write(client):
    clock, (first,) = await leases(client, 1)
    assert await first.take()
    clock.now += HOLD - 0.01
    assert first.held()
    clock.now += 0.01
    assert not first.held()
    assert await first.take() and first.held()  # no one else wrote: still its own


async def test_a_lease_given_up_is_taken_at_once(client):
    _, (first, second) = await leases(client, 2)
    assert await first.take()
    assert not await second.take()
    await first.release()
    assert await second.take()


async def test_of_two_standbys_racing_one_wins(client):
    clock, (first, second, third) = await leases(client, 3)
    assert await first.take()
    assert not await second.take() and not await third.take()
    clock.now += LEASE
    assert sorted(await asyncio.gather(second.take(), third.take())) == [False, True]


async def test_a_renewal_given_up_but_written_keeps_the_lease(client):
    """The holder's write reached the broker but its answer did not (given up after RENEW):
    its next renewal, on the revision it knew, is refused, yet the entry names it and no one
    else wrote: it renews on the entry's revision and keeps the lease; a standby's write is
    never mistaken for its own."""
    clock, (first, second) = await leases(client, 2)
    assert await first.take()
    known = first.revision
    assert known is not None
    await first.kv.update(first.key, b'{"holder": "ingress-0"}', last=known)  # the lost answer
    clock.now += RENEW
    assert await first.take() and first.held()
    assert not await second.take()
    await second.kv.update(first.key, b'{"holder": "ingress-1"}', last=first.revision)
    clock.now += RENEW
    assert not await first.take() and not first.held()
