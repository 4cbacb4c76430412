"""A worker's share of the partitions (bot/cluster/ownership.py) against a table of owners in
memory: it takes free partitions up to ⌈P/n⌉, never a live worker's; it gives up what is over
its share when workers join, no longer acting on a partition before its chats are let go and
marking it free only after; a give-up the database refused is tried again; the next look comes
just after another worker's lease would end."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cluster.ownership import PAST_END, Ownership, share, spans


@dataclass(frozen=True)
class Seen:
    workers: int
    free: int
    next_end: float | None = None


class Table:
    """The owners' table: partition -> worker name, and the workers alive."""

    def __init__(self, partitions: int) -> None:
        self.owner: dict[int, str | None] = dict.fromkeys(range(partitions))
        self.alive: set[str] = set()
        self.refuse = 0  # give-ups still to refuse (the database away)

    def of(self, name: str) -> Owners:
        self.alive.add(name)
        return Owners(self, name)

    def free(self) -> list[int]:
        return [p for p, who in self.owner.items() if who is None or who not in self.alive]


class Owners:
    def __init__(self, table: Table, name: str) -> None:
        self.table = table
        self.name = name

    async def survey(self) -> Seen:
        return Seen(len(self.table.alive), len(self.table.free()))

    async def take(self, most: int) -> list[int]:
        taken = self.table.free()[:most]
        for partition in taken:
            self.table.owner[partition] = self.name
        return taken

    async def give_up(self, partitions: list[int]) -> None:
        if self.table.refuse:
            self.table.refuse -= 1
            raise ConnectionError("the database is away")
        for partition in partitions:
            assert self.table.owner[partition] == self.name
            self.table.owner[partition] = None


class Worker:
    def __init__(self, table: Table, name: str, partitions: int) -> None:
        self.events: list[tuple[str, list[int]]] = []
        self.ownership = Ownership(table.of(name), partitions)

    async def step(self) -> None:
        await self.ownership.step(self.gained, self.shed)

    async def gained(self, partitions: list[int]) -> None:
        assert all(self.ownership.owns(p) for p in partitions)  # acted on from now
        self.events.append(("gained", partitions))

    async def shed(self, partitions: list[int]) -> None:
        assert not any(self.ownership.owns(p) for p in partitions)  # acted on no more
        self.events.append(("shed", partitions))


def test_the_share_is_the_partitions_over_the_workers_rounded_up():
    assert [share(64, n) for n in (1, 2, 3, 4, 64, 100)] == [64, 32, 22, 16, 1, 1]
    assert share(64, 0) == 64  # its own lease not seen yet: all
    assert spans([0, 1, 2, 3, 7, 9, 10]) == "0-3, 7, 9-10"


async def test_workers_joining_and_dying_share_the_partitions():
    table = Table(16)
    a = Worker(table, "a", 16)
    await a.step()
    assert a.ownership.owned == set(range(16)) and a.events == [("gained", list(range(16)))]
    b = Worker(table, "b", 16)
    await b.step()
    assert b.ownership.owned == set()  # nothing free: a lives
    await a.step()  # over its share of 8 now
    assert a.ownership.owned == set(range(8)) and a.events[-1] == ("shed", list(range(8, 16)))
    assert all(table.owner[p] is None for p in range(8, 16))  # marked free after the shed
    await b.step()
    assert b.ownership.owned == set(range(8, 16))
    c = Worker(table, "c", 16)
    for worker in (a, b, c, c):
        await worker.step()
    assert sorted(len(w.ownership.owned) for w in (a, b, c)) == [4, 6, 6]
    table.alive.discard("b")  # b dies: its lease ran out
    for worker in (a, c):
        await worker.step()
    assert sorted(a.ownership.owned | c.ownership.owned) == list(range(16))
    assert not a.ownership.owned & c.ownership.owned


async def test_a_refused_give_up_is_tried_again_and_never_acted_on_meanwhile():
    table = Table(8)
    a = Worker(table, "a", 8)
    await a.step()
    Worker(table, "b", 8)
    table.refuse = 1
    with pytest.raises(ConnectionError):
        await a.step()
    assert a.ownership.owned == set(range(4))  # 4..7 let go, though still a's in the table
    assert table.owner[7] == "a"
    await a.step()
    assert table.owner[7] is None and a.ownership.giving == []


@given(st.lists(st.sampled_from(["join", "die", "step"]), max_size=40),
       st.integers(min_value=1, max_value=20))
async def test_no_partition_is_ever_acted_on_by_two_live_workers(moves, partitions):
    table = Table(partitions)
    workers: list[tuple[str, Worker]] = []
    for n, move in enumerate(moves):
        if move == "join" or not workers:
            name = f"w{n}"
            workers.append((name, Worker(table, name, partitions)))
        elif move == "die":
            name, _ = workers.pop(0)
            table.alive.discard(name)
        for _name, worker in workers:
            await worker.step()
        owned = [p for _name, worker in workers for p in worker.ownership.owned]
        assert len(owned) == len(set(owned))  # one owner at most
    if not workers:
        return
    for _ in range(3):
        for _name, worker in workers:
            await worker.step()
    owned = sorted(p for _name, worker in workers for p in worker.ownership.owned)
    assert owned == list(range(partitions))  # and in the end every partition has one
    most = share(partitions, len(workers))
    assert all(len(worker.ownership.owned) <= most for _name, worker in workers)


class Ending(Owners):
    """Owners whose survey says another worker's lease ends in `next_end` seconds."""

    def __init__(self, table: Table, name: str, next_end: float | None) -> None:
        super().__init__(table, name)
        self.next_end = next_end

    async def survey(self) -> Seen:
        return Seen(len(self.table.alive), len(self.table.free()), self.next_end)


@pytest.mark.parametrize(("next_end", "look"), [(None, 1.0), (0.3, 0.3 + PAST_END),
                                               (2.0, 1.0), (0.0, PAST_END)])
async def test_the_next_look_comes_just_after_another_workers_lease_would_end(next_end, look):
    """Not up to a look's interval later: a dead worker's partitions are taken the moment its
    lease runs out; a live one's renewal long before keeps the looks a second apart."""
    table = Table(4)
    table.alive.add("a")
    ownership = Ownership(Ending(table, "a", next_end), 4, every=1.0)
    stop = asyncio.Event()
    running = asyncio.create_task(ownership.run(stop, lambda _p: asyncio.sleep(0),
                                                lambda _p: asyncio.sleep(0)))
    while not ownership.owned:
        await asyncio.sleep(0.01)
    assert ownership.next_look == pytest.approx(look)
    stop.set()
    await running
