"""Deals by the learned difficulty: `/play adaptive` deals a hand the chat's players of late
solve with chance about 0.75; a group that played enough gets it by default; a hand's level is
the one play has learned; /settings offers it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from bot.play import ratings
from bot.play.chats.people import Chat, Player
from bot.play.dealing import adaptive as adaptive_module
from bot.play.dealing.adaptive import ADAPTIVE_AFTER, NEAREST, candidate_hands
from bot.play.games.twentyfour.asking import read_play
from bot.play.rules import Deal, PlayOptions
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.records import HandRow, RatingRow, RatingWrite, ScaleRow
from bot.store.stores import Stores
from solver import rating as rating_module
from tests.bot.conftest import Clock, new_services

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
SECONDS = 60.0  # the tests' round length (tests/bot/conftest.py SECONDS)


def test_play_adaptive_is_asked_in_words():
    assert read_play("adaptive").level == "adaptive"
    assert read_play("自适应").level == "adaptive"
    assert read_play("hard").level == "hard"


async def rate(stores: Stores, clock: Clock, skill: float, *players: Player) -> None:
    """The players rated at `skill` this season (a round closed with that rating)."""
    for player in players:
        await stores.people.remember_user(player.id, player.first_name)
    await stores.people.remember_chat(-7, "group", "elsewhere")
    made = await stores.rounds.open_round(-7, "24", (1, 1, 1, 1), 24, "easy", 10, "en",
                                          clock.now - 100, clock.now - 40)
    assert made is not None
    season = ratings.season_of(clock.now)
    write = RatingWrite(clock.now, tuple(
        (RatingRow(p.id, "24", season, skill, 0.3, 30, clock.now), 0.0) for p in players),
        None, 0, (ScaleRow("24", 1.0, 0.5, 1, clock.now), 0.0))
    assert await stores.rounds.close_round(made.id, "expired", clock.now - 40, rating=write)


async def adaptive_deal(services: Services, player: Player = ANN):
    dealt = (await services.rounds.play(GROUP, player, "24", PlayOptions(level="adaptive"))).round
    assert dealt is not None
    await services.rounds.reveal(GROUP, player)
    return dealt


def test_the_candidates_priors_are_read_from_the_rating_table(monkeypatch):
    """The four-card hands' priors are the rating table's: building them walks no model (0.4-0.7
    s of a thread holding the interpreter's lock, and some 40,000 tuples and Fractions left in
    the model's caches for the process's life, walked by every full garbage collection), and
    each is the model's own."""
    model = rating_module.modelled_difficulty
    walked: list[tuple] = []
    monkeypatch.setattr(rating_module, "modelled_difficulty",
                        lambda *hand: walked.append(hand))
    found = candidate_hands()
    assert walked == [] and len(found) == 1362  # the solvable hands of 1..13 to 24
    assert all(fixed == model(hand, 24) for hand, fixed in found[::37])
    rating_module.difficulty_of((1, 2, 3, 14), 24)  # a hand the table does not hold
    assert walked == [((1, 2, 3, 14), 24)]


def aimed(skill: float) -> list[str]:
    """The keys of the hands nearest the aim for one player of that skill."""
    index = ratings.HandIndex(
        (ratings.hand_key(hand, 24),
         ratings.new_hand("24", ratings.hand_key(hand, 24), 0.0, 4, 24, fixed).difficulty)
        for hand, fixed in candidate_hands())
    return ratings.adaptive_hands(index, [(skill, 0.3)], SECONDS,
                                  ratings.ScaleRating("24", 1.0, 0.5, 1, 0.0), NEAREST)


async def test_an_adaptive_deal_aims_at_three_in_four(services: Services, stores: Stores,
                                                      clock: Clock):
    await rate(stores, clock, 1.0, ANN)
    dealt = await adaptive_deal(services)
    assert len(dealt.hand) == 4 and dealt.target == 24
    assert ratings.hand_key(dealt.hand, 24) in aimed(1.0)
    scale = ratings.ScaleRating("24", 1.0, 0.5, 1, 0.0)
    difficulty = services.rounds.adaptive.hands[ratings.hand_key(dealt.hand, 24)][1]
    assert abs(ratings.group_chance([(1.0, 0.3)], difficulty, SECONDS, scale) - 0.75) < 0.05
    assert dealt.level == ratings.level_of(difficulty)


async def test_a_stronger_group_gets_harder_hands(services: Services, stores: Stores,
                                                  clock: Clock):
    await rate(stores, clock, -1.5, ANN)
    await rate(stores, clock, 2.5, BEN)
    weak = await adaptive_deal(services, ANN)
    strong = await adaptive_deal(services, BEN)  # Ann answered nothing: Ben deals alone
    hands = services.rounds.adaptive.hands
    assert hands[ratings.hand_key(strong.hand, 24)][1] > \
        hands[ratings.hand_key(weak.hand, 24)][1] + 1.0


async def test_a_chat_is_not_dealt_the_same_hand_again_soon(services: Services):
    seen = [ratings.hand_key((await adaptive_deal(services)).hand, 24) for _ in range(8)]
    assert len(set(seen)) == len(seen)


async def test_a_group_that_played_enough_gets_adaptive_deals_by_default(
        services: Services, clock: Clock):
    adaptive = services.rounds.adaptive
    for _ in range(ADAPTIVE_AFTER):
        await services.rounds.play(GROUP, ANN, "24")
        await services.rounds.reveal(GROUP, ANN)
    assert adaptive._recent.get(GROUP.id) is None  # each a level drawn, from the stock
    await services.rounds.play(GROUP, ANN, "24")
    await services.rounds.reveal(GROUP, ANN)
    assert len(adaptive._recent[GROUP.id]) == 1
    # a level the admins chose stays theirs

    async def admin() -> bool:
        return True

    await services.settings.change(GROUP, ANN, admin, GROUP.id, "level", "mix")
    await services.rounds.play(GROUP, ANN, "24")
    assert len(adaptive._recent[GROUP.id]) == 1


async def test_a_hands_level_is_the_learned_one(services: Services, stores: Stores,
                                                clock: Clock, pool: SolverPool):
    """A hand the model calls easy that players found hard is dealt as hard, worth its points."""
    adaptive = services.rounds.adaptive
    await adaptive.loaded()
    easy = next(hand for hand, _fixed in candidate_hands()
                if ratings.level_of(adaptive.hands[ratings.hand_key(hand, 24)][1]) == "easy")
    key = ratings.hand_key(easy, 24)
    await stores.people.remember_chat(-7, "group", "elsewhere")
    made = await stores.rounds.open_round(-7, "24", easy, 24, "easy", 10, "en", 900.0, 960.0)
    assert made is not None
    hard = ratings.prior.LEVEL_CUTS[1] + 1.0
    write = RatingWrite(960.0, (), (HandRow("24", key, 4, 24, hard, 0.3, 20, 960.0), 0.0), 20,
                        (ScaleRow("24", 1.0, 0.5, 1, 960.0), 0.0))
    assert await stores.rounds.close_round(made.id, "expired", 960.0, rating=write)
    services.rounds.table.rater.written(write)  # as the bot's own close tells the index
    dealt = Deal("24", easy, 24, "easy", 10)
    assert await adaptive.learned_level(dealt) == "hard"
    assert adaptive.relevelled(dealt, "hard").points == 30
    # and a fresh bot reads it from the store
    again = new_services(stores, pool, clock)[0].rounds.adaptive
    assert again is not None and await again.learned_level(dealt) == "hard"


def test_settings_offer_adaptive(services: Services):
    assert "adaptive" in services.settings.values("level")


async def test_deals_asking_at_once_build_the_hands_index_once(services: Services,
                                                                monkeypatch):
    """A burst of deals at start-up waits for one index (each built its own before)."""
    adaptive = services.rounds.adaptive
    assert adaptive is not None and adaptive.index is None
    built: list[int] = []
    real = adaptive_module.candidate_priors

    def counted() -> Mapping[str, tuple[tuple[int, ...], float, int]]:
        built.append(1)
        return real()

    monkeypatch.setattr(adaptive_module, "candidate_priors", counted)
    indexes = await asyncio.gather(*(adaptive.loaded() for _ in range(5)))
    assert built == [1] and all(index is indexes[0] for index in indexes)
    assert len(indexes[0]) == len(adaptive_module.candidate_hands())
