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

KEPT = 32  # pictures kept (18 to 25 KB each: under a MB in all)


class Drawn:
    """The latest pictures drawn, by whose they are and what they show; each drawn off the
    event loop. A person's go when they /forget (`forget`), as their name goes from memory."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept: LRU[tuple[int, Hashable], bytes] = LRU(kept)
        self._drawing: dict[tuple[int, Hashable], asyncio.Task[bytes]] = {}
        self.drawings = 0  # how many were drawn: what the cache saved is the asks beyond it

    async def png(self, owner: int, what: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The picture `draw` makes of `what` (everything the picture shows) for `owner`: kept,
        being drawn, or drawn now in a thread. A drawing that fails is not kept: each of its
        askers hears the error, and the next ask draws again."""
        key = (owner, what)
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

    def forget(self, owner: int) -> None:
        """The owner's pictures go, and one being drawn is not kept once done."""
        for key in [key for key in self._kept if key[0] == owner]:
            del self._kept[key]
        for key in [key for key in self._drawing if key[0] == owner]:
            del self._drawing[key]

    def holds(self, owner: int) -> bool:
        """Whether anything of the owner's is kept or being drawn."""
        return any(key[0] == owner for key in [*self._kept, *self._drawing])

    def _drawn(self, key: tuple[int, Hashable], drawing: asyncio.Task[bytes]) -> None:
        if self._drawing.get(key) is not drawing:  # forgotten meanwhile
            return
        del self._drawing[key]
        if not drawing.cancelled() and drawing.exception() is None:
            self._kept[key] = drawing.result()
