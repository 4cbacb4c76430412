"""What a feature of the chat face declares, in one place of its own (bot.telegram.features): its
commands — each with its handler, whether its reply is owed, whether its answer is the asker's
alone, where its menu line is offered —, its presses (by the start of their data), its deep links
(a /start payload), its inline queries and the other updates it takes (text, a chat's news).

The root (bot.telegram.app) joins the features once into a `Table`: the handlers in PTB's order,
and what the menus, the update-once gate and the docs read of the commands. A new command is one
line of its feature; nothing else lists it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    InlineQueryHandler,
    filters,
)

from bot.telegram.context import Context
from bot.telegram.menus import ADMINS, EVERYWHERE, GROUPS, PRIVATE

__all__ = ["ADMINS", "EVERYWHERE", "GROUPS", "PRIVATE", "Command", "Feature", "Inline", "Link",
           "Press", "Table", "joined", "the_word"]
Callback = Callable[[Update, Context], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Command:
    """A command: its names (the first is its menu line's, `cmd_<name>` in the catalogs), its
    handler; `owed`: its claim is owed until its reply went (it writes nothing but its reply,
    or deals, and the round's insert settles it: docs/reliability.md, "A reply owed");
    `alone`: in groups, its answer is the asker's alone (the menus declare it ephemeral);
    `offered`: the menus' scopes that list it."""

    names: tuple[str, ...]
    callback: Callback
    owed: bool = False
    alone: bool = False
    offered: frozenset[str] = EVERYWHERE


@dataclass(frozen=True)
class Press:
    """A press of the feature's buttons: `prefix` starts the data they carry
    (bot.telegram.keyboards), unique among the features."""

    prefix: str
    callback: Callback


@dataclass(frozen=True)
class Link:
    """A deep link (t.me/<bot>?start=<payload>, or ?startgroup=): the /start whose payload
    matches `payload` (a regular expression of its start), taken ahead of /start itself."""

    payload: str
    callback: Callback


@dataclass(frozen=True)
class Inline:
    """Inline queries (@bot ... in any chat): those whose text `query` matches whole (a regular
    expression), or, with None, every one no other feature takes."""

    callback: Callback
    query: str | None = None


@dataclass(frozen=True)
class Feature:
    """One feature of the chat face: what it takes, declared where its handlers are."""

    name: str
    commands: tuple[Command, ...] = ()
    presses: tuple[Press, ...] = ()
    links: tuple[Link, ...] = ()
    inline: tuple[Inline, ...] = ()
    updates: tuple[BaseHandler[Any, Any, Any], ...] = ()  # text, a chat's news: disjoint


def the_word(word: str) -> str:
    """An inline query that is `word` alone, in any case of its letters, spaces around it."""
    return r"\s*" + "".join(f"[{letter.upper()}{letter}]" for letter in word) + r"\s*\Z"


def link_filter(payload: str) -> filters.MessageFilter:
    """A /start (to this bot or any, `/start@bot`) whose payload starts as `payload` says."""
    return filters.Regex(rf"^/start(@\w+)?\s+{payload}")


def press_pattern(prefix: str) -> str:
    """The callback data a press of `prefix` carries: it starts with it."""
    return "^" + re.escape(prefix)


@dataclass(frozen=True)
class Table:
    """The features joined, in the order the root lists them."""

    features: tuple[Feature, ...]

    @property
    def commands(self) -> list[Command]:
        """Every command, in the features' order (the menus list them so)."""
        return [command for feature in self.features for command in feature.commands]

    @property
    def owed(self) -> frozenset[str]:
        """Every name of a command whose reply is owed."""
        return frozenset(name for command in self.commands if command.owed
                         for name in command.names)

    def handlers(self, rest: Callback) -> Iterator[BaseHandler[Any, Any, Any]]:
        """PTB's handlers in the order they are matched: the deep links ahead of /start, the
        commands, the other updates, the inline queries a feature names ahead of the one that
        takes the rest, the presses by their data, and `rest` for a press whose data is no
        feature's."""
        for feature in self.features:
            for link in feature.links:
                yield CommandHandler("start", link.callback, filters=link_filter(link.payload))
        for command in self.commands:
            yield CommandHandler(list(command.names), command.callback)
        for feature in self.features:
            yield from feature.updates
        inline = [query for feature in self.features for query in feature.inline]
        for query in sorted(inline, key=lambda query: query.query is None):
            yield InlineQueryHandler(query.callback, pattern=query.query)
        for feature in self.features:
            for press in feature.presses:
                yield CallbackQueryHandler(press.callback, pattern=press_pattern(press.prefix))
        yield CallbackQueryHandler(rest)


def joined(*features: Feature) -> Table:
    """The features as one table; a name, a press's prefix or a link's payload declared twice
    is refused here, at import, not found by a user."""
    table = Table(features)
    for kind, keys in (("command", [n for c in table.commands for n in c.names]),
                       ("press", [p.prefix for f in features for p in f.presses]),
                       ("link", [k.payload for f in features for k in f.links])):
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise ValueError(f"a {kind} declared twice: {', '.join(twice)}")
    if sum(query.query is None for f in features for query in f.inline) > 1:
        raise ValueError("two features take every inline query")
    prefixes = [p.prefix for f in features for p in f.presses]
    overlapping = [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]
    if overlapping:
        raise ValueError(f"a press's prefix starts another's: {overlapping}")
    return table
