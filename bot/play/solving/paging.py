"""Pages of a hand's distinct solutions, for /solve and a round's "Show all solutions".

A page is recomputed from the hand, the target and its number whenever it is shown (the solving
service caches a hand's solutions), so paging keeps no state. Page 0 reads exactly like /solve's
answer; later pages say which solutions they list. Pure: no Telegram, no solver calls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.play.words.exact import solutions_text
from bot.play.words.latex import solution_latex
from bot.text import markup
from bot.text.i18n import Texts

PAGE_SIZE = 10


@dataclass(frozen=True)
class Page:
    """One page of a hand's solutions: its text, and where it sits (`index` of `pages`); and
    the same as mathematics: the text's first line (`head`), each solution listed as LaTeX
    (`formulas`: "\\frac{8}{3 - \\frac{8}{3}} = 24"), and its last line, if it says how many
    more there are (`tail`)."""

    text: str
    numbers: tuple[int, ...]
    target: int
    index: int
    pages: int
    head: str = ""
    formulas: tuple[str, ...] = ()
    tail: str = ""


def page_count(solutions: int, size: int = PAGE_SIZE) -> int:
    """How many pages `solutions` fill (at least one)."""
    return max(1, -(-solutions // size))


def page_of(texts: Texts, numbers: tuple[int, ...], target: int, found: list[str],
            index: int, size: int = PAGE_SIZE, note: str = "") -> Page:
    """Page `index` (from 0; past the end, the last) of the solutions `found`; `note`, a line
    under them on every page (what every solution needs)."""
    page = _page_of(texts, numbers, target, found, index, size)
    if not note:
        return page
    return replace(page, text=markup.clip(f"{page.text}\n{note}"),
                   tail=f"{page.tail}\n{note}" if page.tail else note)


def _page_of(texts: Texts, numbers: tuple[int, ...], target: int, found: list[str],
             index: int, size: int) -> Page:
    pages = page_count(len(found), size)
    index = min(max(index, 0), pages - 1)
    first = index * size
    listed = found[first:first + size]
    after = len(found) - first - len(listed)
    formulas = tuple(solution_latex(s, target) for s in listed)
    tail = texts("solve_more", count=after) if after > 0 else ""
    if index == 0:
        text = solutions_text(texts, numbers, target, found, size)
        return Page(text, numbers, target, 0, pages, text.split("\n", 1)[0], formulas, tail)
    lines = [texts("solutions_head", numbers=markup.numbers(numbers), target=target,
                   count=texts("count_page", count=len(found), first=first + 1,
                               last=first + len(listed)))]
    lines += [texts.written(f"{markup.code(s)} = {target}") for s in listed]
    if tail:
        lines.append(tail)
    return Page(markup.clip("\n".join(lines)), numbers, target, index, pages, lines[0],
                formulas, tail)
