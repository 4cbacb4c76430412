"""Share cards drawn once for what they show (bot.play.cards.drawn): the same figures are the
same picture, drawn once however many ask, at the same time or after; new figures are drawn
anew; a drawing that fails is not kept; one asker gone does not stop it for the others; and
what is kept is bounded."""

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
    first = await drawn.png(("season", ANN, "en"), painter)
    assert await drawn.png(("season", ANN, "en"), painter) == first
    assert painter.calls == 1 == drawn.drawings
    won = SeasonCard(**{**ANN.__dict__, "wins": 3, "rounds": 5})
    assert await drawn.png(("season", won, "en"), painter) != first
    assert await drawn.png(("season", ANN, "fa"), painter) != first  # another language
    assert painter.calls == 3


async def test_asks_at_the_same_time_share_one_drawing():
    drawn, painter = Drawn(), Painter(held=True)
    asks = [asyncio.create_task(drawn.png("k", painter)) for _ in range(20)]
    await asyncio.sleep(0.05)
    painter.go.set()
    assert len(set(await asyncio.gather(*asks))) == 1
    assert painter.calls == 1


async def test_a_drawing_that_fails_is_heard_by_each_asker_and_drawn_again_next_time():
    drawn, painter = Drawn(), Painter(held=True, fails=True)
    asks = [asyncio.create_task(drawn.png("k", painter)) for _ in range(3)]
    await asyncio.sleep(0.05)
    painter.go.set()
    results = await asyncio.gather(*asks, return_exceptions=True)
    assert all(isinstance(result, OSError) for result in results)
    painter.fails = False
    assert await drawn.png("k", painter) == b"png-2"
    assert painter.calls == 2


async def test_an_asker_gone_does_not_stop_the_drawing_for_the_others():
    drawn, painter = Drawn(), Painter(held=True)
    gone = asyncio.create_task(drawn.png("k", painter))
    staying = asyncio.create_task(drawn.png("k", painter))
    await asyncio.sleep(0.05)
    gone.cancel()
    painter.go.set()
    assert await staying == b"png-1"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert await drawn.png("k", painter) == b"png-1" and painter.calls == 1


async def test_what_is_kept_is_bounded():
    drawn, painter = Drawn(kept=4), Painter()
    for key in range(10):
        await drawn.png(key, painter)
    assert await drawn.png(9, painter) == b"png-10"  # the latest kept
    await drawn.png(0, painter)  # the first long gone: drawn again
    assert painter.calls == 11


async def test_a_real_card_is_drawn_once():
    drawn = Drawn()
    png = await drawn.png(("season", ANN, "en"), lambda: season_card(ANN, "en"))
    assert png.startswith(b"\x89PNG") and drawn.drawings == 1
    assert await drawn.png(("season", ANN, "en"), lambda: b"never") == png
