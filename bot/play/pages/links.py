"""Which page a link opens: its start parameter, as the Direct Link's `startapp` (Telegram signs
it) or a private chat's button's URL carries it — `u<user id>` for a player's page, `g<chat
id>` for a group's, `t<tournament id>` for a tournament's (A-Z a-z 0-9 _ - only, as Telegram
allows). A round's ticket
(`<chat>_<topic>_<round>`, bot.webapp.server) never reads as either."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.ports import PageLink

PARAM = re.compile(r"([ugt])(-?[1-9][0-9]{0,15})")
KINDS = {"u": "player", "g": "group", "t": "tournament"}


@dataclass(frozen=True)
class PageAsk:
    """A page: a player's (`kind` "player", `id` the user), a group's ("group", the chat) or a
    tournament's ("tournament", its id); `card`: a share card the page draws as it opens
    ("daily"; a private chat's button only: it is no part of the start parameter)."""

    kind: str
    id: int
    card: str = ""

    @property
    def param(self) -> str:
        return next(letter for letter, kind in KINDS.items() if kind == self.kind) + str(self.id)


def read_page(text: object) -> PageAsk | None:
    """The page a start parameter names, or None."""
    if not isinstance(text, str) or not (found := PARAM.fullmatch(text)):
        return None
    kind, number = KINDS[found.group(1)], int(found.group(2))
    if (kind != "group") != (number > 0):  # people's and tournaments' ids are positive, groups'
        return None                         # negative
    return PageAsk(kind, number)


PageOpener = Callable[[PageAsk, int], PageLink | None]
"""The link that opens a page from a chat (its id: a private chat's is positive), if any: the
Mini App's face makes it (bot.webapp.server.page_opener); None without the Mini App."""


assert read_page("u42") == PageAsk("player", 42) and read_page("g-1001") == PageAsk("group", -1001)
assert read_page("u-42") is None and read_page("g42") is None and read_page("-1001_0_7") is None
assert read_page(PageAsk("group", -5).param) == PageAsk("group", -5)
assert read_page("t7") == PageAsk("tournament", 7) and read_page("t-7") is None
