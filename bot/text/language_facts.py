"""What the bot's start reads of CLDR for each of its languages (its own name, its plural
categories, its digits and direction), kept once read, as the catalogs are (bot.text.catalogs).

Babel reads any of them from the locale's whole CLDR data, loaded and merged with its parents:
the start sets the command menus in every language, and that took 0.18 s of CPU for the sixteen,
where a language's data is otherwise loaded when it is first spoken. They are kept as JSON in
the locales' `__pycache__`, named by a hash of Babel's version, the languages and the modules
that derive them, so a new Babel, another language or a changed rule reads them afresh; where
the folder cannot be written, or the kept file does not read, they are read from Babel.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import babel

from bot.text import languages, scripts
from bot.text.catalogs import KEPT_IN, keep_file
from bot.text.languages import LANGUAGES, locale_of, own_name, plural_categories
from bot.text.scripts import Script, script_of


@dataclass(frozen=True)
class Facts:
    """One language's: its name in itself, its plural categories in gettext's order, and how it
    writes numbers."""

    own_name: str
    categories: tuple[str, ...]
    script: Script


def read_facts(language: str) -> Facts:
    """A language's facts as Babel gives them (its CLDR data loaded on the way)."""
    return Facts(own_name(language), plural_categories(language), script_of(locale_of(language)))


@cache
def facts_of(language: str) -> Facts:
    """A language's facts: kept, or read from Babel."""
    kept = _kept()
    return kept[language] if language in kept else read_facts(language)


def kept_path() -> Path | None:
    """Where the facts of this Babel, these languages and these rules are kept (None inside an
    archive, where nothing can be)."""
    folder = resources.files("bot.text") / "locales"
    if not isinstance(folder, Path):
        return None
    key = hashlib.sha256(b"\0".join([
        babel.__version__.encode(), ",".join(LANGUAGES).encode(),
        *(Path(module.__file__ or "").read_bytes() for module in (languages, scripts)),
        Path(__file__).read_bytes()])).hexdigest()[:20]
    return folder / KEPT_IN / f"cldr.{key}.json"


@cache
def _kept() -> dict[str, Facts]:
    path = kept_path()
    if path is None:
        return {}
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        return {language: Facts(row["own_name"], tuple(row["categories"]),
                                Script(row["digits"], bool(row["right_to_left"])))
                for language, row in json.loads(path.read_bytes()).items()}
    read = {language: read_facts(language) for language in LANGUAGES}
    with contextlib.suppress(OSError):
        keep_file(path, json.dumps({
            language: {"own_name": facts.own_name, "categories": facts.categories,
                       "digits": facts.script.digits,
                       "right_to_left": facts.script.right_to_left}
            for language, facts in read.items()}, ensure_ascii=False), "cldr.*.json")
    return read
