"""The hands' themes kept (bot.play.dealing.themes, schema step 35): written once a hand is rated,
off the round's path, once a hand; never for a game without themes or a hand of five; a failed
batch is tried again, and what a lane failing every try loses, the next rating of the hand
writes. Both databases."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.play.dealing.themes import TRIES, WAITING_MOST, HandThemes, hand_of, themes_bits
from bot.play.ratings.themes import bits_of
from bot.store.records import HandRow
from solver import first_solution
from solver.themes import themes
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.webapp_support import ANN, GROUP, deal_known, hand_clock

KEY = ("24", "1 2 7 7=24")


async def won(h: Harness, hand: tuple, game: str = "24", target: int = 24) -> None:
    """A round of the hand dealt in the group and won by Ann (rated at its close)."""
    clock = hand_clock(h)
    await deal_known(h, hand, game=game, target=target)
    clock.now += 3
    await h.send(GROUP, ANN, "/a " + (first_solution(list(hand), target) or ""))
    assert h.services.table.of(GROUP) is None


def counted(h: Harness) -> list[list]:
    """The store's put_themes calls, as they come."""
    calls: list[list] = []
    put = h.stores.ratings.put_themes

    async def watched(hands):
        calls.append(list(hands))
        await put(hands)
    h.stores.ratings.put_themes = watched  # type: ignore[method-assign]
    return calls


@ON_BOTH_BACKENDS
async def test_a_rated_hands_themes_are_written_once(harness: Harness):
    calls = counted(harness)
    await won(harness, (1, 2, 7, 7))
    await harness.services.hand_themes.written()
    facts = await harness.stores.pages.hand_facts([KEY, ("24", "3 3 8 8=24")])
    assert set(facts) == {KEY}  # the hand never played has nothing
    assert facts[KEY].themes == bits_of(("beyond", "division_last", "unique"))
    assert facts[KEY].difficulty is not None  # read with its learned difficulty
    assert calls == [[("24", "1 2 7 7=24", facts[KEY].themes)]]
    await won(harness, (7, 2, 1, 7))  # the same hand, dealt in another order
    await harness.services.hand_themes.written()
    assert len(calls) == 1


@ON_BOTH_BACKENDS
async def test_no_themes_for_a_game_without_them(harness: Harness):
    calls = counted(harness)
    await won(harness, (1, 2, 3, 4, 5, 6), game="countdown", target=120)
    await harness.services.hand_themes.written()
    assert calls == []


async def test_a_hand_of_five_a_bad_key_and_a_full_queue_wait_for_nothing(harness: Harness):
    keeper = harness.services.hand_themes
    keeper.noted(HandRow("24", "1 2 3 4 5=24", 5, 24, 0.0, 1.0, 1, 0.0))
    keeper.noted(HandRow("24", "one two=24", 2, 24, 0.0, 1.0, 1, 0.0))
    keeper.noted(HandRow("tetris", "1 2=3", 2, 3, 0.0, 1.0, 1, 0.0))
    assert keeper._task is None
    keeper._waiting.update({("24", f"{n}=24"): ((n,), 24) for n in range(WAITING_MOST)})
    keeper.noted(HandRow("24", "1 2 7 7=24", 4, 24, 0.0, 1.0, 1, 0.0))
    assert ("24", "1 2 7 7=24") not in keeper._waiting
    keeper._waiting.clear()


@ON_BOTH_BACKENDS
async def test_a_failure_is_written_at_the_hands_next_rating(
        harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture):
    pool = harness.services.hand_themes.pool
    run_heavy = pool.run_heavy

    tries = []

    async def shut(*args, **kwargs):
        tries.append(kwargs["timeout"])
        raise RuntimeError("the lane is shut")
    monkeypatch.setattr(pool, "run_heavy", shut)
    with caplog.at_level(logging.WARNING):
        await won(harness, (1, 2, 7, 7))
        await harness.services.hand_themes.written()
    assert "themes not written" in caplog.text
    assert len(tries) == TRIES and tries == sorted(tries) and tries[0] < tries[-1]
    assert not harness.services.hand_themes._failed  # given up: nothing kept for it
    assert await harness.stores.pages.hand_facts([KEY]) == {KEY: (
        (await harness.stores.pages.hand_facts([KEY]))[KEY].difficulty, None)}
    monkeypatch.setattr(pool, "run_heavy", run_heavy)
    await won(harness, (1, 2, 7, 7))
    await harness.services.hand_themes.written()
    assert (await harness.stores.pages.hand_facts([KEY]))[KEY].themes is not None


def test_the_pools_work_is_the_solvers_themes():
    assert themes_bits([((1, 2, 7, 7), 24), ((1, 1, 1, 1), 24), ((3, 3, 8, 8), 24)]) == [
        bits_of(themes((1, 2, 7, 7)).codes), None, bits_of(themes((3, 3, 8, 8)).codes)]
    assert hand_of("1 2 7 7=24") == ((1, 2, 7, 7), 24)
    assert hand_of("1 2=-3") == ((1, 2), -3)
    assert hand_of("[1, 2]") is None


@ON_BOTH_BACKENDS
async def test_a_new_process_writes_only_the_hands_new_to_the_database(harness: Harness):
    await won(harness, (1, 2, 7, 7))
    await harness.services.hand_themes.written()
    restarted = HandThemes(harness.stores.ratings, harness.services.hand_themes.pool, after=0)
    harness.services.table.rater.follow(restarted.noted)  # type: ignore[union-attr]
    calls = counted(harness)
    await won(harness, (1, 2, 7, 7))  # known to the database, not to the new process
    await won(harness, (3, 3, 8, 8))
    await restarted.written()
    await harness.services.hand_themes.written()
    mine = [hands for hands in calls if len(hands) == 1 and hands[0][1] == "3 3 8 8=24"]
    assert len(mine) == 2  # the new hand, by both processes; the known one by neither
    assert not any(hand == "1 2 7 7=24" for hands in calls for _, hand, _ in hands)


@ON_BOTH_BACKENDS
async def test_a_stop_writes_what_waits_at_once_and_notes_nothing_after(harness: Harness):
    """The application stopped, the pool still up: the hands waiting are written without the
    pause between batches (an hour here), and a hand rated after is not noted."""
    waiting = HandThemes(harness.stores.ratings, harness.services.hand_themes.pool, after=3600)
    harness.services.table.rater.follow(waiting.noted)  # type: ignore[union-attr]
    await won(harness, (1, 2, 7, 7))
    assert waiting._waiting
    await asyncio.wait_for(waiting.close(), 60)  # not the hour
    assert KEY in waiting._known and not waiting._waiting  # written (by it, or found written)
    facts = await harness.stores.pages.hand_facts([KEY])
    assert facts[KEY].themes == bits_of(("beyond", "division_last", "unique"))
    await won(harness, (3, 3, 8, 8))
    assert waiting._task is None and not waiting._waiting


@ON_BOTH_BACKENDS
async def test_a_batch_that_timed_out_is_tried_again_with_more_time(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    """A worker starting on a busy machine took longer than the batch's grace: the hand is
    written by the next try, without being rated again."""
    pool = harness.services.hand_themes.pool
    run_heavy = pool.run_heavy
    timeouts = []

    async def slow_first(*args, **kwargs):
        timeouts.append(kwargs["timeout"])
        if len(timeouts) == 1:
            raise TimeoutError("the worker was still starting")
        return await run_heavy(*args, **kwargs)
    monkeypatch.setattr(pool, "run_heavy", slow_first)
    await won(harness, (1, 2, 7, 7))
    await harness.services.hand_themes.written()
    assert len(timeouts) == 2 and timeouts[1] > timeouts[0]
    facts = await harness.stores.pages.hand_facts([KEY])
    assert facts[KEY].themes == bits_of(("beyond", "division_last", "unique"))
    assert not harness.services.hand_themes._failed
