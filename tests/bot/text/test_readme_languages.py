"""The README says which languages the bot speaks (issue 55, item 7): its opening paragraph names
them, with their count in words, and the `/lang` row of its table of commands lists their tags.
Both must be the catalogs' languages, no more and no fewer; a language added or dropped without
the README fails here."""

from __future__ import annotations

import re

from bot.text.languages import LANGUAGES, locale_of
from tests.conftest import ROOT

COUNTS = {12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
          17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty"}
README = (ROOT / "README.md").read_text(encoding="utf-8")


def opening() -> str:
    """The README's first paragraph under its title, on one line."""
    body = README.split("\n# ", 1)[-1].split("\n", 1)[1].strip()
    return " ".join(body.split("\n\n", 1)[0].split())


def english_name(tag: str) -> str:
    """CLDR's English name of a language the bot speaks: "German", "Portuguese (Brazil)",
    "Chinese (Traditional)"."""
    return locale_of(tag).get_display_name("en")


def named(text: str) -> list[str]:
    """The items of the opening's sentence "In <count> languages: A, B, ... and Z."."""
    found = re.search(r"In (\w+) languages: ([^.]+)\.", text)
    assert found is not None, "the opening names no languages: " + text
    items = re.split(r", | and ", found.group(2))
    return [found.group(1), *items]


def differences(items: list[str]) -> tuple[list[str], list[str]]:
    """The catalogs' languages the items leave out, and the items that are none of them."""
    left = {english_name(tag): tag for tag in LANGUAGES}
    unknown = []
    for item in sorted(items, key=lambda i: i not in left):  # exact names first
        # a name CLDR leaves bare ("Chinese") may say which of its kind ("Chinese (Simplified)")
        name = item if item in left else next(
            (name for name in left if "(" not in name and item.startswith(name + " (")), None)
        if name is None:
            unknown.append(item)
        else:
            del left[name]
    return sorted(left), unknown


def test_the_opening_names_every_language_of_the_catalogs():
    count, *items = named(opening())
    assert count == COUNTS[len(LANGUAGES)]
    assert differences(items) == ([], [])


def test_the_lang_row_lists_every_tag():
    row = next(line for line in README.splitlines() if line.startswith("| `/lang "))
    tags = re.search(r"`/lang ([^`]+)`", row)
    assert tags is not None
    assert tags.group(1).split("\\|") == list(LANGUAGES)


def test_the_check_catches_a_missing_or_an_extra_language():
    """The same reading, on an opening with languages missing and one the bot does not speak."""
    count, *items = named("In sixteen languages: English, Latin, Chinese (Simplified) and "
                          "Chinese (Traditional).")
    assert count == "sixteen"
    left, unknown = differences(items)
    assert unknown == ["Latin"] and "German" in left and len(left) == len(LANGUAGES) - 3
    assert differences(["Chinese (Traditional)", "Chinese"])[1] == []
