"""Which page a link opens: its start parameter, as the Direct Link's `startapp` (Telegram signs
it) or a private chat's button's URL carries it — `u<user id>` for a player's page, `g<chat
id>` for a group's, `t<tournament id>` for a tournament's, `t<tournament id>_<its code>` for a
tournament's with its key: the links the bot shows carry it, and whoever holds one may open the
page (A-Z a-z 0-9 _ - only, as Telegram allows). A round's ticket
(`<chat>_<topic>_<round>`, bot.webapp.tickets) never reads as either."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.ports import PageLink

PARAM = re.compile(r"([ugt])(-?[1-9][0-9]{0,15})(?:_([0-9A-Z]{1,16}))?")
KINDS = {"u": "player", "g": "group", "t": "tournament"}


@dataclass(frozen=True)
class PageAsk:
    """A page: a player's (`kind` "player", `id` the user), a group's ("group", the chat) or a
    tournament's ("tournament", its id); `card`: a share card the page draws as it opens
    ("daily"; a private chat's button only: it is no part of the start parameter); `key`: a
    tournament's code, which the link carries (the page is its holder's)."""

    kind: str
    id: int
    card: str = ""
    key: str = ""

    @property
    def param(self) -> str:
        letter = next(letter for letter, kind in KINDS.items() if kind == self.kind)
        return f"{letter}{self.id}_{self.key}" if self.key else f"{letter}{self.id}"


def read_page(text: object) -> PageAsk | None:
    """The page a start parameter names, or None."""
    if not isinstance(text, str) or not (found := PARAM.fullmatch(text)):
        return None
    kind, number, key = KINDS[found.group(1)], int(found.group(2)), found.group(3) or ""
    if (kind != "group") != (number > 0):  # people's and tournaments' ids are positive, groups'
        return None                         # negative
    if key and kind != "tournament":  # only a tournament's page has a key
        return None
    return PageAsk(kind, number, key=key)


PageOpener = Callable[[PageAsk, int], PageLink | None]
"""The link that opens a page from a chat (its id: a private chat's is positive), if any: the
Mini App's face makes it (bot.webapp.tickets.page_opener); None without the Mini App."""


assert read_page("u42") == PageAsk("player", 42) and read_page("g-1001") == PageAsk("group", -1001)
assert read_page("u-42") is None and read_page("g42") is None and read_page("-1001_0_7") is None
assert read_page(PageAsk("group", -5).param) == PageAsk("group", -5)
assert read_page("t7") == PageAsk("tournament", 7) and read_page("t-7") is None
assert read_page("t7_ABC234") == PageAsk("tournament", 7, key="ABC234")
assert read_page(PageAsk("tournament", 7, key="ABC234").param) == PageAsk("tournament", 7,
                                                                          key="ABC234")
assert read_page("u7_ABC234") is None and read_page("t7_") is None and read_page("t7_ab") is None
