"""Share cards drawn once for what they show (bot.play.cards.drawn): the same figures are the
same picture, drawn once however many ask, at the same time or after; new figures are drawn
anew; a drawing that fails is not kept; one asker gone does not stop it for the others; what
is kept is bounded; and a person's go when they /forget, one being drawn too."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.play.cards import SeasonCard, season_card
from bot.play.cards.drawn import Drawn

ANN = SeasonCard(name="Ann", game="24", season="2026-11", rating=1510, change=10, rounds=4,
                 wins=2, best_streak=2, fastest=7.5)


class Painter:
    """A drawing that counts its calls and, when `held`, waits for the test to let it go."""

    def __init__(self, held: bool = False, fails: bool = False) -> None:
        self.calls = 0
        self.go = threading.Event()
        if not held:
            self.go.set()
        self.fails = fails

    def __call__(self, text: str = "png") -> bytes:
        self.calls += 1
        assert self.go.wait(10)
        if self.fails:
            raise OSError("no font")
        return f"{text}-{self.calls}".encode()


async def test_the_same_figures_are_drawn_once_and_new_figures_anew():
    drawn, painter = Drawn(), Painter()
    first = await drawn.png(1, ("season", ANN, "en"), painter)
    assert await drawn.png(1, ("season", ANN, "en"), painter) == first
    assert painter.calls == 1 == drawn.drawings
    won = SeasonCard(**{**ANN.__dict__, "wins": 3, "rounds": 5})
    assert await drawn.png(1, ("season", won, "en"), painter) != first
    assert await drawn.png(1, ("season", ANN, "fa"), painter) != first  # another language
    assert painter.calls == 3


async def test_asks_at_the_same_time_share_one_drawing():
    drawn, painter = Drawn(), Painter(held=True)
    asks = [asyncio.create_task(drawn.png(1, "k", painter)) for _ in range(20)]
    await asyncio.sleep(0.05)
    painter.go.set()
    assert len(set(await asyncio.gather(*asks))) == 1
    assert painter.calls == 1


async def test_a_drawing_that_fails_is_heard_by_each_asker_and_drawn_again_next_time():
    drawn, painter = Drawn(), Painter(held=True, fails=True)
    asks = [asyncio.create_task(drawn.png(1, "k", painter)) for _ in range(3)]
    await asyncio.sleep(0.05)
    painter.go.set()
    results = await asyncio.gather(*asks, return_exceptions=True)
    assert all(isinstance(result, OSError) for result in results)
    painter.fails = False
    assert await drawn.png(1, "k", painter) == b"png-2"
    assert painter.calls == 2


async def test_an_asker_gone_does_not_stop_the_drawing_for_the_others():
    drawn, painter = Drawn(), Painter(held=True)
    gone = asyncio.create_task(drawn.png(1, "k", painter))
    staying = asyncio.create_task(drawn.png(1, "k", painter))
    await asyncio.sleep(0.05)
    gone.cancel()
    painter.go.set()
    assert await staying == b"png-1"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert await drawn.png(1, "k", painter) == b"png-1" and painter.calls == 1


async def test_what_is_kept_is_bounded():
    drawn, painter = Drawn(kept=4), Painter()
    for key in range(10):
        await drawn.png(1, key, painter)
    assert await drawn.png(1, 9, painter) == b"png-10"  # the latest kept
    await drawn.png(1, 0, painter)  # the first long gone: drawn again
    assert painter.calls == 11


async def test_a_real_card_is_drawn_once():
    drawn = Drawn()
    png = await drawn.png(1, ("season", ANN, "en"), lambda: season_card(ANN, "en"))
    assert png.startswith(b"\x89PNG") and drawn.drawings == 1
    assert await drawn.png(1, ("season", ANN, "en"), lambda: b"never") == png


async def test_a_persons_pictures_go_when_they_forget_and_no_one_elses():
    drawn, painter = Drawn(), Painter()
    await drawn.png(1, "season", painter)
    await drawn.png(2, "season", painter)
    drawn.forget(1)
    assert await drawn.png(2, "season", painter) == b"png-2"  # kept
    assert await drawn.png(1, "season", painter) == b"png-3"  # drawn again
    assert painter.calls == 3


async def test_a_picture_being_drawn_as_its_person_forgets_is_not_kept():
    drawn, painter = Drawn(), Painter(held=True)
    asked = asyncio.create_task(drawn.png(1, "season", painter))
    await asyncio.sleep(0.05)
    drawn.forget(1)
    painter.go.set()
    assert await asked == b"png-1"  # the ask under way hears its answer
    assert await drawn.png(1, "season", painter) == b"png-2"  # nothing of it was kept
