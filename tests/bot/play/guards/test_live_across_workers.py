"""The fairness rules across workers (issue 45): two bots on one PostgreSQL database, each
holding in memory only the rounds it dealt, as workers that own different chats do. A round
dealt by the first is refused by the second to the members of its chat, however reached
(bot.play.guards.live), and one person's rounds are bounded across both
(bot.play.round.dealing). The keys by which the database finds the reached rounds
(bot/store/postgres/live_rounds.py, migrations 21 and 34) find what the rule in memory finds,
for every game, with no list of games in the database."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from itertools import count

import asyncpg
import pytest

from bot.play.asking.requests import DiceRequest, SolveRequest
from bot.play.chats.people import Chat, Player
from bot.play.games import GAMES, PART_GAMES
from bot.play.guards.live import LivePuzzles, reached_among, rolls_reached_among
from bot.play.outcomes import Closed, Dealt, Said
from bot.play.round.dealing import ROUNDS_PER_PLAYER
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.postgres import open_postgres
from bot.store.postgres.live_rounds import REACHING, shared_rounds
from bot.store.records import OwedClaim, Round, StarterFull
from bot.store.stores import Stores
from bot.text.i18n import Texts
from tests.bot.conftest import Clock, new_services, opened_outside
from tests.bot.store.test_owed_claims import (
    a_round_settles_its_claim_and_a_stalled_claimant_opens_nothing,
    opening,
    owed_by,
)
from tests.postgres import emptied

EN = Texts("en")
LIVE = EN("live_puzzle")
GROUP, OTHER = -4501, -4502
ANN = Player(45, "Ann")  # a member of GROUP, where the round is dealt
BEN = Player(46, "Ben")  # in no chat with a round


@pytest.fixture
async def workers(postgres_url: str, pool: SolverPool
                  ) -> AsyncIterator[tuple[Services, Services]]:
    """Two bots on one emptied database, each with its own stores, table and memory, and the
    database's open rounds as what lies beyond its table."""
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    clock = Clock()
    built = [new_services(stores, pool, clock, seed=seed,
                          open_rounds=shared_rounds(stores, PART_GAMES))[0]
             for seed, stores in enumerate(opened)]
    try:
        yield built[0], built[1]
    finally:
        for stores in opened:
            await stores.close()


def member_of(*chats: int):
    async def member(chat_id: int) -> bool:
        return chat_id in chats
    return member


async def solved(services: Services, numbers: tuple[int, ...], *chats: int,
                 target: int = 24) -> str:
    return await services.solving.solve(SolveRequest(numbers, target), EN,
                                        member=member_of(*chats))


async def test_a_hand_dealt_on_one_worker_is_refused_by_another_to_its_members(workers):
    first, second = workers
    dealt = await first.rounds.play(Chat(GROUP, "group", "G"), ANN, "24")
    assert isinstance(dealt, Dealt)
    hand = dealt.round.hand
    assert second.table.rounds() == [] and not second.table.live.reaching(hand, 24)
    extra = (*hand, 13)
    less_one = hand[1:]
    for numbers in (hand, tuple(reversed(hand)), extra, less_one):
        assert await solved(second, numbers, GROUP) == LIVE, numbers
        assert await solved(second, numbers, GROUP, target=10) == LIVE, numbers
        assert await solved(second, numbers, OTHER) != LIVE, numbers  # not a member
    await first.rounds.reveal(Chat(GROUP, "group", "G"), ANN)
    for numbers in (hand, extra, less_one):
        assert await solved(second, numbers, GROUP) != LIVE, numbers


async def test_a_result_keeps_its_answers_back_while_its_hand_is_live_on_another_worker(
        workers):
    """The same hand open in a chat of each worker: the result of the one ending first shows
    none of its solutions; once both ended, a result shows them."""
    first, second = workers
    dealt = await first.rounds.play(Chat(GROUP, "group", "G"), ANN, "24")
    assert isinstance(dealt, Dealt)
    await second.people.remember(Chat(OTHER, "group", "G"), ANN)
    now = second.rounds.clock()
    same = await second.table.store.open_round(OTHER, "24", dealt.round.hand, 24, "easy", 10,
                                               "en", now, now + 60, ANN.id)
    assert same is not None
    await opened_outside(second, same)
    ended = await second.rounds.reveal(Chat(OTHER, "group", "G"), ANN)
    assert isinstance(ended, Closed) and EN("answers_held_back") in ended.text
    again = await first.rounds.reveal(Chat(GROUP, "group", "G"), ANN)
    assert isinstance(again, Closed) and EN("answers_held_back") not in again.text


async def test_yahtzee_rolls_dealt_on_one_worker_are_refused_by_another(workers):
    first, second = workers
    dealt = await first.rounds.play(Chat(GROUP, "group", "G"), ANN, "yahtzee")
    assert isinstance(dealt, Dealt)
    rolls = list(dealt.round.hand)
    changed = DiceRequest(((6, 6, 6, 6, 6), *rolls[1:]))
    dice = GAMES["yahtzee"]
    assert await second.solving.given(dice, changed, EN, member=member_of(GROUP)) == LIVE
    assert await second.solving.given(dice, changed, EN, member=member_of(OTHER)) != LIVE


async def test_the_bound_on_ones_rounds_counts_every_worker(workers):
    first, second = workers
    chats = (Chat(-4600 - n, "group", "G") for n in count())
    for _ in range(ROUNDS_PER_PLAYER):
        assert isinstance(await first.rounds.play(next(chats), ANN, "24"), Dealt)
    assert second.table.started_by(ANN.id) == 0
    refused = await second.rounds.play(next(chats), ANN, "24")
    assert refused == Said(EN("play_too_many_rounds", most=ROUNDS_PER_PLAYER))
    assert isinstance(await second.rounds.play(next(chats), BEN, "24"), Dealt)


async def test_two_workers_opening_for_one_person_at_once_open_one(postgres_url: str):
    """The count and the insert of each opening are one transaction under the person's lock:
    of two at once for a person with one round left, one opens and one is refused (ten
    persons, so that two openings unlocked would meet at least once)."""
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    try:
        first, second = (shared_rounds(stores, PART_GAMES) for stores in opened)
        persons = range(100, 110)
        for chat_id in range(-4700 - len(persons) * (ROUNDS_PER_PLAYER + 1), -4700):
            await opened[0].people.remember_chat(chat_id, "group", "G")
        chats = count(-4701, -1)
        for person in persons:
            await opened[0].people.remember_user(person, "P")
            for _ in range(ROUNDS_PER_PLAYER - 1):
                assert isinstance(await first.open_round(
                    ROUNDS_PER_PLAYER, next(chats), "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                    1.0, 100.0, person), Round)
            both = await asyncio.gather(*(shared.open_round(
                ROUNDS_PER_PLAYER, next(chats), "24", (1, 2, 3, 4), 24, "easy", 10, "en", 1.0,
                100.0, person) for shared in (first, second)))
            assert sorted(type(outcome).__name__ for outcome in both) == \
                ["Round", "StarterFull"], person
    finally:
        for stores in opened:
            await stores.close()


async def test_a_round_opened_is_the_round_stored(postgres_url: str):
    """The round an opening returns is built from what it inserted, not read back: it is what
    the database holds, whatever the game's hand and the terms it was dealt with."""
    await emptied(postgres_url)
    stores = await open_postgres(postgres_url)
    try:
        shared = shared_rounds(stores, PART_GAMES)
        await stores.people.remember_user(77, "P")
        cases = [("24", (1, 2, 3, 4), 24, None, None), ("countdown", (25, 3, 7, 1, 2, 9), 512,
                 True, False), ("yahtzee", ((1, 2, 3, 4, 5),) * 13, 0, False, True)]
        for number, (game, hand, target, hints_on, typing_on) in enumerate(cases):
            chat = -4900 - number
            await stores.people.remember_chat(chat, "group", "G")
            opened = await shared.open_round(ROUNDS_PER_PLAYER, chat, game, hand, target, "easy",
                                             10, "en", 1.5, 100.5, 77, topic=number,
                                             hints_on=hints_on, typing_on=typing_on)
            assert isinstance(opened, Round)
            assert opened == await stores.rounds.get_round(opened.id)
    finally:
        await stores.close()


async def test_a_workers_round_under_an_owed_claim_settles_it(postgres_url: str):
    """A worker's opening (schema step 26) keeps the rules of the one process's: the round
    settles the claim it is dealt under, a claim another worker took over opens nothing; and
    a starter at the bound keeps the claim owed (the refusal is the reply owed)."""
    await emptied(postgres_url)
    stores = await open_postgres(postgres_url)
    try:
        await a_round_settles_its_claim_and_a_stalled_claimant_opens_nothing(
            stores, opening(stores, ROUNDS_PER_PLAYER))
        full = opening(stores, 1)  # person 5 has rounds open: at the bound of one
        assert await stores.updates.claim_owed(41, 1.0, owner=11)
        assert isinstance(await full(-41, OwedClaim(41, 11)), StarterFull)
        assert await owed_by(stores, 41) == 11
    finally:
        await stores.close()


TILES = (*range(1, 11), *range(1, 11), 25, 50, 75, 100)  # Countdown's: two of each small one


def hands(rng: random.Random) -> list[tuple[str, tuple, int]]:
    """Rounds of each game: 24's of 4 to 6 cards, Countdown's draws, Krypto's five cards and
    target, Make 10's digits (a zero too), Yahtzee's rolls."""
    found: list[tuple[str, tuple, int]] = []
    for _ in range(25):
        found.append(("24", tuple(rng.randint(1, 13) for _ in range(rng.choice((4, 5, 6)))),
                      24))
        found.append(("countdown", tuple(rng.sample(TILES, 6)), rng.randint(101, 999)))
    for _ in range(10):
        found.append(("krypto", tuple(rng.randint(1, 25) for _ in range(5)),
                      rng.randint(1, 25)))
        found.append(("make10", tuple(rng.randint(0, 9) for _ in range(4)), 10))
    for _ in range(10):
        found.append(("yahtzee", tuple(tuple(sorted(rng.randint(1, 6) for _ in range(5)))
                                       for _ in range(13)), 0))
    return found


def requests(rng: random.Random, rounds: list[Round]) -> list[tuple[tuple, int]]:
    """Requests near the rounds (all of a hand, with an extra, less one, a part, shuffled,
    for its target or another) and some at random."""
    asked: list[tuple[tuple, int]] = []
    for round_ in rounds:
        if round_.game == "yahtzee":
            continue
        hand = list(round_.hand)
        rng.shuffle(hand)
        size = rng.randint(1, len(hand))
        for numbers in (hand, [*hand, rng.randint(1, 13)], hand[1:], hand[:size]):
            for target in (round_.target, round_.target - hand[-1], rng.randint(1, 100)):
                asked.append((tuple(numbers), target))
    asked += [(tuple(rng.randint(1, 13) for _ in range(rng.randint(1, 6))), 24)
              for _ in range(120)]
    return asked


async def opened_many(stores: Stores, rng: random.Random) -> list[Round]:
    """Rounds of every game open in many chats (`hands`)."""
    await stores.people.remember_user(ANN.id, ANN.first_name)
    rounds = []
    for n, (game, hand, target) in enumerate(hands(rng)):
        await stores.people.remember_chat(-5000 - n, "group", "G")
        opened = await stores.rounds.open_round(-5000 - n, game, hand, target, "easy", 10,
                                                "en", 1.0, 100.0, ANN.id)
        assert opened is not None
        rounds.append(opened)
    return rounds


async def test_the_keys_find_what_the_rule_in_memory_finds(postgres_url: str):
    """Every round the rule reaches, for requests near many rounds: the database's candidates
    filtered by the rule are what memory holding every round finds."""
    await emptied(postgres_url)
    stores = await open_postgres(postgres_url)
    try:
        rng = random.Random(45)
        rounds = await opened_many(stores, rng)
        memory = LivePuzzles()
        for round_ in rounds:
            memory.add(round_)
        shared = shared_rounds(stores, PART_GAMES)
        reached_somewhere = 0
        for numbers, target in requests(rng, rounds):
            expected = {live.round_id for live in memory.reaching(numbers, target)}
            found = {live.round_id for live in
                     reached_among(await shared.reaching(numbers), numbers, target)}
            assert found == expected, (numbers, target)
            reached_somewhere += bool(expected)
        assert reached_somewhere > 60
        for round_ in rounds:
            if round_.game == "yahtzee":
                changed = [(1, 1, 1, 1, 1), (2, 2, 2, 2, 2), *round_.hand[2:]]
                rng.shuffle(changed)
                found_chats = rolls_reached_among(await shared.reaching_rolls(changed), changed)
                assert found_chats == memory.reaching_rolls(changed)
                assert round_.chat_id in found_chats
    finally:
        await stores.close()


async def test_the_database_keeps_no_list_of_games(postgres_url: str):
    """Whether a request for part of a hand reaches a round is the registry's word on its
    game (`Game.part_answers`), not the schema's (step 34): the same open round of a game
    whose answers use the whole hand is reached by a part of it only where the workers are
    told that game's answers may use a part, as a game added later would be, with no step of
    its own."""
    await emptied(postgres_url)
    stores = await open_postgres(postgres_url)
    try:
        whole = next(game for game in GAMES.values() if not game.part_answers).name
        await stores.people.remember_user(ANN.id, ANN.first_name)
        await stores.people.remember_chat(GROUP, "group", "G")
        opened = await stores.rounds.open_round(GROUP, whole, (3, 5, 7, 11, 13), 31, "easy", 10,
                                                "en", 1.0, 100.0, ANN.id)
        assert isinstance(opened, Round)
        registry = shared_rounds(stores, PART_GAMES)
        told = shared_rounds(stores, (*PART_GAMES, whole))
        for part in ((5, 13), (11,), (3, 7, 13)):  # less than the hand less one number
            assert opened.id not in {r.id for r in await registry.reaching(part)}, part
            assert opened.id in {r.id for r in await told.reaching(part)}, part
        for whole_or_less_one in ((3, 5, 7, 11, 13), (3, 5, 7, 11), (2, 3, 5, 7, 11, 13)):
            assert opened.id in {r.id for r in await registry.reaching(whole_or_less_one)}
    finally:
        await stores.close()


async def test_a_request_searches_the_keys_not_every_open_round(postgres_url: str):
    """With rounds open, the plan a prepared look-up keeps (the generic one) reads the keys'
    index, not each open round's keys worked out again."""
    await emptied(postgres_url)
    stores = await open_postgres(postgres_url)
    try:
        await opened_many(stores, random.Random(46))
    finally:
        await stores.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("ANALYZE rounds")
        await connection.execute("SET plan_cache_mode = force_generic_plan")
        await connection.execute(f"PREPARE reaching AS {REACHING}")
        plan = "\n".join(row[0] for row in await connection.fetch(
            "EXPLAIN EXECUTE reaching(NULL)"))
    finally:
        await connection.close()
    assert "Bitmap Index Scan on open_rounds_by_keys" in plan, plan


async def test_only_postgresql_shares_its_open_rounds(tmp_path):
    from bot.store.sqlite import open_sqlite

    stores = await open_sqlite(tmp_path / "one.sqlite3")
    try:
        with pytest.raises(ValueError):
            shared_rounds(stores, PART_GAMES)
    finally:
        await stores.close()
