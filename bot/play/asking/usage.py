"""A command's arguments refused: what is wrong (`UsageError`, raised by a reader), and what the
command takes (`Usage`: its usage line's catalog key and figures, and examples that work, which
the face words in the shape of every refusal: bot.telegram.refusals)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from bot.text import markup
from bot.text.i18n import Texts

SHOWN_WORD = 20  # characters of a word a usage answer quotes
T = TypeVar("T")


class UsageError(ValueError):
    """What is wrong with a command's arguments: `code` names the catalog's `usage_<code>` and
    `params` fill it (a number as a number, written as the language writes numbers; what was
    typed as text, quoted as typed); `rules`: the usage line that says what is allowed, when it
    is not the command's own (/solve --closest has the closest value's limits)."""

    def __init__(self, code: str, rules: str = "", **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.rules = rules
        self.params = params


@dataclass(frozen=True)
class Usage:
    """What a command takes: its usage line (`key` in the catalogs, its figures from the
    reader's own limits, so a line never says one range while the reader checks another), the
    example under it, one for a refusal of a particular `code`, and one for arguments of more
    than one word (where a command takes a puzzle to solve beside its options); `choices`: the
    words a field offers, shown as `a|b|c` (the games a command reads, from the registry), or
    the one word it names (the command a line shared by every command that takes nothing is
    about: `name` tells them apart)."""

    key: str
    limits: Mapping[str, int] = field(default_factory=dict)
    example: str = ""
    examples_for: Mapping[str, str] = field(default_factory=dict)
    several_words: str | None = None
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    name: str = ""  # what it is looked up by where one line serves several commands (its key)

    @property
    def known_as(self) -> str:
        return self.name or self.key

    def fields(self) -> dict[str, int | str]:
        """What fills its usage line: the limits, and each field's choices joined by `|`."""
        return {**self.limits, **{name: markup.escape("|".join(words))
                                  for name, words in self.choices.items()}}

    def example_for(self, error: UsageError, arguments: str) -> str:
        """A command that works, close to what the refusal names."""
        if error.code in self.examples_for:
            return self.examples_for[error.code]
        if self.several_words is not None and len(arguments.split()) > 1:
            return self.several_words
        return self.example


def usage_problem(texts: Texts, error: UsageError) -> str:
    """What is wrong, in one sentence (HTML)."""
    params = {k: v if isinstance(v, int) else markup.escape(str(v))
              for k, v in error.params.items()}
    return texts(f"usage_{error.code}", **params)


def problem(read: Callable[[str], object], arguments: str) -> UsageError | None:
    """Why `read` refuses the arguments (None when it takes them)."""
    try:
        read(arguments)
    except UsageError as error:
        return error
    return None


def read_arguments(read: Callable[[str], T], arguments: str) -> T | UsageError:
    """What `read` makes of a command's arguments, or why it refuses them: read once."""
    try:
        return read(arguments)
    except UsageError as error:
        return error


def or_none(read: Callable[[str], T], arguments: str) -> T | None:
    try:
        return read(arguments)
    except UsageError:
        return None


def read_nothing(arguments: str) -> None:
    """A command that takes nothing after it (/stats, /privacy, /hint...): anything there is
    refused as /top refuses a word it does not know, rather than ignored (`/stats all` would
    otherwise show this chat's alone and say nothing of the word)."""
    words = arguments.split()
    if words:
        raise UsageError("unknown_word", word=shown(words[0]))


def shown(word: str) -> str:
    """A typed word as a refusal quotes it: cut after SHOWN_WORD characters."""
    return word if len(word) <= SHOWN_WORD else word[:SHOWN_WORD] + "…"
