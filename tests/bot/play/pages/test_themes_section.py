"""A player's themes on their page (issue 74, item 2): from the rounds they answered in groups and
the themes written for each hand, their standing in each theme against what their rating
predicts, the weakest first, with the hand that showed it; the same rounds read for another
player say otherwise; none before a theme has a few rounds; gone with /forget. Both databases."""

from __future__ import annotations

import pytest

from bot.play.pages.themes import EVEN
from solver import first_solution
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness
from tests.bot.play.pages.test_pages import kinds, opened, section
from tests.bot.webapp_support import ANN, EVE, GROUP, deal_known, hand_clock, page_server, post

OTHER = -7703  # another group
PAST = [(1, 2, 3, 13), (1, 3, 12, 13), (1, 4, 5, 7)]  # each needs a step past 24, nothing else
PRODUCT = [(1, 1, 2, 6), (1, 1, 2, 10), (1, 1, 5, 7)]  # each needs a product last, nothing else


@pytest.fixture
def clock(harness: Harness) -> Clock:
    """The bot's game time and the pages' made the test's own."""
    clock = hand_clock(harness)
    harness.services.pages.clock = clock
    return clock


async def round_of(h: Harness, clock: Clock, hand: tuple, ann_solves: bool) -> None:
    """Ann answers first, right or wrong; if wrong, Eve wins it."""
    await deal_known(h, hand)
    clock.now += 4
    right = "/a " + (first_solution(list(hand)) or "")
    await h.send(GROUP, ANN, right if ann_solves else "/a " + "+".join(map(str, hand)))
    if not ann_solves:
        clock.now += 3
        await h.send(GROUP, EVE, right)
    assert h.services.table.of(GROUP) is None
    clock.now += 5


async def page_of(h: Harness, clock: Clock, user: dict) -> dict:
    async with page_server(h) as base:
        status, page = await post(base, "api/page", {
            "init_data": opened(user, clock, h=h), "page": f"u{user['id']}"})
    assert status == 200, page
    return page


@ON_BOTH_BACKENDS
async def test_a_player_who_misses_the_steps_past_24_reads_it_first(harness: Harness,
                                                                    clock: Clock):
    for past, product in zip(PAST, PRODUCT, strict=True):
        await round_of(harness, clock, past, ann_solves=False)
        await round_of(harness, clock, product, ann_solves=True)
    await harness.services.hand_themes.written()

    page = await page_of(harness, clock, ANN)
    assert kinds(page)[:5] == ["rating", "games", "levels", "themes", "calendar"]
    themed = section(page, "themes")
    assert themed["heads"] == ["Rounds", "Solved", "Expected", "Hand"]
    weakest, strongest = themed["rows"]
    assert weakest["name"] == "a step past 24" and weakest["rounds"] == 3
    assert weakest["share"] == 0 and weakest["kind"] == "weak"
    assert weakest["standing"] <= -EVEN
    assert weakest["hand"] == "1 4 5 7 → 24"  # the latest missed
    assert strongest["name"] == "a product last" and strongest["share"] == 100
    # solved as the ratings expected of easy hands, or better: a hand solved shows it
    assert strongest["kind"] != "weak" and strongest["standing"] > weakest["standing"]
    assert strongest["hand"] == "1 1 5 7 → 24"

    eve = section(await page_of(harness, clock, EVE), "themes")  # in Russian
    assert [row["name"] for row in eve["rows"]] == ["шаг больше 24"]  # 3 rounds; 0 of products
    assert eve["rows"][0]["kind"] != "weak" and eve["rows"][0]["share"] == 100


@ON_BOTH_BACKENDS
async def test_no_themes_before_a_theme_has_a_few_rounds(harness: Harness, clock: Clock):
    await round_of(harness, clock, PAST[0], ann_solves=False)
    await round_of(harness, clock, PRODUCT[0], ann_solves=True)
    await harness.services.hand_themes.written()
    assert "themes" not in kinds(await page_of(harness, clock, ANN))


@ON_BOTH_BACKENDS
async def test_a_hand_whose_themes_are_not_written_is_left_out(harness: Harness,
                                                              clock: Clock):
    for past in PAST:
        await round_of(harness, clock, past, ann_solves=False)
    await harness.services.hand_themes.written()
    assert "themes" in kinds(await page_of(harness, clock, ANN))
    db = harness.stores.ratings.db  # type: ignore[attr-defined]
    await db.run("DELETE FROM hand_themes WHERE hand = '1 4 5 7=24'")
    assert "themes" not in kinds(await page_of(harness, clock, ANN))  # two rounds left


@ON_BOTH_BACKENDS
async def test_forget_takes_the_themes_with_the_rounds(harness: Harness, clock: Clock):
    for past in PAST:
        await round_of(harness, clock, past, ann_solves=False)
    await harness.services.hand_themes.written()
    await harness.services.community.privacy.forget(ANN["id"])
    await harness.services.community.privacy.erased()
    rows = await harness.stores.pages.tried_hands(ANN["id"], 0.0, 100)
    assert rows == []
    assert len(await harness.stores.pages.tried_hands(EVE["id"], 0.0, 100)) == 3


@ON_BOTH_BACKENDS
async def test_a_round_dealt_and_given_up_is_a_miss_one_won_by_another_is_not(
        harness: Harness, clock: Clock):
    """Ann deals three hands that need a step past 24 and gives each up without answering;
    she deals three hands of a product last that Eve wins before Ann answers."""
    for past in PAST:
        await deal_known(harness, past)  # dealt by Ann
        clock.now += 30
        await harness.send(GROUP, ANN, "/reveal")
        assert harness.services.table.of(GROUP) is None
        clock.now += 5
    for product in PRODUCT:
        await deal_known(harness, product)
        clock.now += 4
        await harness.send(GROUP, EVE, "/a " + (first_solution(list(product)) or ""))
        clock.now += 5
    await harness.services.hand_themes.written()
    tried = await harness.stores.pages.tried_hands(ANN["id"], 0.0, 100)
    assert [(row.hand, row.solved) for row in tried] == [
        ("[1, 4, 5, 7]", False), ("[1, 3, 12, 13]", False), ("[1, 2, 3, 13]", False)]
    # of the latest five dealt, three were won by Eve: the two before them are left
    assert [row.hand for row in await harness.stores.pages.tried_hands(ANN["id"], 0.0, 5)] == [
        "[1, 4, 5, 7]", "[1, 3, 12, 13]"]
    [row] = section(await page_of(harness, clock, ANN), "themes")["rows"]
    assert (row["name"], row["rounds"], row["share"], row["kind"]) == (
        "a step past 24", 3, 0, "weak")


@ON_BOTH_BACKENDS
async def test_no_theme_is_paired_with_a_hand_live_now(harness: Harness, clock: Clock):
    """Ann's weakest row would show 1 4 5 7, now dealt in another group: beside its theme it is
    a hint there, so the row shows no hand until that round is over."""
    for past, product in zip(PAST, PRODUCT, strict=True):
        await round_of(harness, clock, past, ann_solves=False)
        await round_of(harness, clock, product, ann_solves=True)
    await harness.services.hand_themes.written()
    await deal_known(harness, (7, 5, 4, 1), chat=OTHER)  # in another order, elsewhere
    weakest, strongest = section(await page_of(harness, clock, ANN), "themes")["rows"]
    assert weakest["name"] == "a step past 24" and weakest["hand"] == ""
    assert strongest["hand"] == "1 1 5 7 → 24"  # not live: shown
    clock.now += 4
    await harness.send(OTHER, EVE, "/a " + (first_solution([1, 4, 5, 7]) or ""))
    assert harness.services.table.of(OTHER) is None
    weakest, _ = section(await page_of(harness, clock, ANN), "themes")["rows"]
    assert weakest["hand"] == "1 4 5 7 → 24"
