"""Places on a board, one rule for every board the bot shows (/top and its own-place line, /top
rating, /top daily, a match's scoreboard and podium, the group page's season board): players level
on what the board ranks by share a place, and the next place after them is skipped — "1. Ann,
1. Bob, 3. Eve" — so a tie is never shown as first and second. The stores order a board (ties by
id, for a stable order) and count a player's own place as 1 + those strictly ahead of them, the
same number."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def shared_places(keys: Sequence[Hashable]) -> list[int]:
    """Each row's place (from 1) on a board given best first, by what it ranks on (`keys`,
    one a row): equal keys share a place, the next is skipped."""
    places: list[int] = []
    for i, key in enumerate(keys):
        places.append(places[-1] if i and key == keys[i - 1] else i + 1)
    return places


assert shared_places([(30, 2), (30, 2), (10, 1)]) == [1, 1, 3]
assert shared_places([5, 4, 4, 4, 1]) == [1, 2, 2, 2, 5]
