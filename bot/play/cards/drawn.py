"""Share cards drawn once for what they show (issue 70: a card was drawn with Pillow on every
request, about 20 ms of CPU each, so a person asking again and again, or fifty members of a
group each within their budget, made the bot draw the same picture hundreds of times).

A card is a pure function of its figures (a frozen `SeasonCard` or `DailyCard`: the name, the
numbers), its language and, for a daily, whether its day is still live. The figures are read
from the store at every request, as before; only the drawing of figures already drawn is
skipped. So a card is never stale: new figures are a new key, drawn anew. Asks for a card that
is being drawn wait for that drawing rather than start their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from functools import partial

from bot.runtime.lru import LRU

KEPT = 32  # pictures kept (about 40 KB each: a couple of MB at most)


class Drawn:
    """The latest pictures drawn, by what they show; each drawn off the event loop."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept: LRU[Hashable, bytes] = LRU(kept)
        self._drawing: dict[Hashable, asyncio.Task[bytes]] = {}
        self.drawings = 0  # how many were drawn: what the cache saved is the asks beyond it

    async def png(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The picture `draw` makes for `key`: kept, being drawn, or drawn now in a thread.
        A drawing that fails is not kept: each of its askers hears the error, and the next ask
        draws again."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        drawing = self._drawing.get(key)
        if drawing is None:
            self.drawings += 1
            drawing = asyncio.ensure_future(asyncio.to_thread(draw))
            self._drawing[key] = drawing
            drawing.add_done_callback(partial(self._drawn, key))
        return await asyncio.shield(drawing)  # one asker gone does not stop it for the rest

    def _drawn(self, key: Hashable, drawing: asyncio.Task[bytes]) -> None:
        self._drawing.pop(key, None)
        if not drawing.cancelled() and drawing.exception() is None:
            self._kept[key] = drawing.result()
