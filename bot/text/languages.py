"""The languages the bot speaks, and what CLDR (through Babel) knows of each: the nearest one to a
Telegram language code, the names a /lang argument may use, each one's own name and plural forms.

A language is a catalog folder (bot/text/locales/<locale>/LC_MESSAGES/messages.po): the bot speaks
every language that has one, so adding a language is adding its folder (docs/translating.md).
Everything else about it comes from Babel's locale data: no plural rule, name or matching table is
written by hand.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from functools import cache, lru_cache
from importlib import resources
from importlib.abc import Traversable

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.plural import to_gettext

DEFAULT_LANGUAGE = "en"
# the categories CLDR may name, in the order gettext numbers a message's plural forms
CATEGORY_ORDER = ("zero", "one", "two", "few", "many", "other")
SUBTAG = re.compile(r"[A-Za-z0-9]{1,8}")
# Telegram language codes whose language is remembered: every update asks for its sender's, and
# reading a tag with Babel (Locale.parse, normalize_locale over every locale's name) costs more
# CPU than the rest of the update. Telegram's clients send a few dozen codes; a forged one only
# takes a place in the bound.
CODES_KEPT = 1024


def spoken(root: Traversable | None = None) -> tuple[str, ...]:
    """The tags of the languages that have a catalog folder ("zh_Hant" is zh-Hant, "pt_BR"
    pt-BR), English first, then by tag: "zh" (Simplified Chinese, what chats chose before
    Traditional came) before "zh-Hant", so plain "中文" and the zh menu stay Simplified."""
    root = root or resources.files("bot.text") / "locales"
    tags = {entry.name.replace("_", "-") for entry in root.iterdir()
            if (entry / "LC_MESSAGES" / "messages.po").is_file()}
    return (DEFAULT_LANGUAGE, *sorted(tags - {DEFAULT_LANGUAGE}))


# The tags the bot stores and /lang names; "pt-BR" is Brazil's Portuguese, which European
# Portuguese speakers get too.
LANGUAGES = spoken()


@cache
def locale_of(language: str) -> Locale:
    """Babel's locale for one of the bot's tags: "zh-Hant" is zh_Hant."""
    return Locale.parse(language, sep="-")


def folder_of(language: str) -> str:
    """The catalog's folder name, as gettext and Babel's tools spell a locale: zh_Hant, pt_BR."""
    return str(locale_of(language))


def _script(locale: Locale) -> str | None:
    """A locale's script, written or likely (CLDR's likely subtags: zh is Hans, zh-TW Hant)."""
    return locale.script or _likely_script(locale.language)


@lru_cache(maxsize=CODES_KEPT)
def _likely_script(language: str) -> str | None:
    """The script CLDR's likely subtags give a language ("zh": Hans); read once per language."""
    likely = get_global("likely_subtags").get(language)
    return Locale.parse(likely).script if likely else None


def read_tag(code: str | None) -> Locale | None:
    """A BCP 47 tag (or a POSIX-style one, zh_CN) as Babel reads it, in any case; subtags Babel
    does not know are dropped from the end ("zh-hans-raw" is zh_Hans). None if it names no
    language at all."""
    parts = (code or "").strip().replace("_", "-").split("-")
    if not all(SUBTAG.fullmatch(part) for part in parts):
        return None
    while parts:
        try:
            return Locale.parse("-".join(parts), sep="-")
        except (ValueError, UnknownLocaleError):
            parts.pop()
    return None


def nearest(wanted: Locale) -> str | None:
    """The bot's language nearest a locale: the same language, in the same script where two of
    them differ by script (zh-TW and zh-HK are Traditional, zh-SG Simplified); None if the bot
    does not speak that language."""
    same = [tag for tag in LANGUAGES if locale_of(tag).language == wanted.language]
    script = _script(wanted)
    return next((tag for tag in same if _script(locale_of(tag)) == script),
                same[0] if same else None)


@lru_cache(maxsize=CODES_KEPT)
def language_of(code: str | None) -> str:
    """The bot's language for a Telegram language code (an IETF tag: "pt-br", "zh-hant"):
    the nearest of LANGUAGES, English for anything else. Remembered per code (CODES_KEPT):
    it is asked for every update, and the answer of a code never changes."""
    wanted = read_tag(code)
    return (nearest(wanted) if wanted else None) or DEFAULT_LANGUAGE


def _folded(text: str) -> str:
    """A name as /lang compares it: case and accents aside ("Español" is "espanol")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


@cache
def names() -> dict[str, str]:
    """Every name of each language in each language the bot speaks ("русский", "Russian",
    "繁體中文", "chinese (traditional)"), folded, to its tag; the first tag keeps a name two
    share (plain "中文" and "Chinese" are Simplified)."""
    found: dict[str, str] = {}
    for tag in LANGUAGES:
        locale = locale_of(tag)
        variety = f"{locale.language}_{_script(locale)}"  # zh_Hans: "Simplified Chinese"
        for shown_in in map(locale_of, LANGUAGES):
            candidates = (shown_in.languages.get(variety), shown_in.languages.get(str(locale)),
                          locale.get_display_name(shown_in), locale.get_language_name(shown_in))
            for name in candidates:
                if name:
                    found.setdefault(_folded(name), tag)
        found.setdefault(_folded(own_name(tag)), tag)
    return found


def parse_language(text: str) -> str | None:
    """The language a /lang argument names: a tag in any case (zh-TW, zh_Hans, pt-PT, es-MX,
    EN-us) as its nearest language, or a language's name in one of the bot's languages; None
    for a language the bot does not speak, or anything else."""
    word = text.strip()
    if not word:
        return None
    by_name = names().get(_folded(word))
    if by_name:
        return by_name
    parts = word.replace("_", "-").split("-")
    if not all(SUBTAG.fullmatch(part) for part in parts):
        return None
    try:
        wanted = Locale.parse("-".join(parts), sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    return nearest(wanted)


@cache
def own_name(language: str) -> str:
    """A language's name in itself, as a menu or a button shows it: the language's plain name
    ("Русский", "Português"), or, where another of the bot's languages shares its language
    code, CLDR's name for the exact variety ("简体中文" beside "繁體中文"); the first letter
    capitalised, as a list of languages has it."""
    locale = locale_of(language)
    if sum(locale_of(tag).language == locale.language for tag in LANGUAGES) > 1:
        exact = (f"{locale.language}_{_script(locale)}", str(locale))
        name = next(filter(None, map(locale.languages.get, exact)), None) or \
            locale.get_display_name() or language
    else:
        name = locale.languages.get(locale.language) or locale.get_language_name() or language
    return name[:1].upper() + name[1:]


def plural_categories(language: str) -> tuple[str, ...]:
    """The plural categories CLDR gives the language, in gettext's order: ("one", "few", "many",
    "other") for Russian, ("other",) for Chinese. A plural message has one form for each."""
    tags = locale_of(language).plural_form.tags | {"other"}
    return tuple(category for category in CATEGORY_ORDER if category in tags)


def plural_category(language: str, count: float | Decimal) -> str:
    """CLDR's category of a count in the language: Russian 1 one, 2 few, 5 many, 21 one."""
    return str(locale_of(language).plural_form(count))


def gettext_plural_forms(language: str) -> str:
    """The catalog's Plural-Forms header, from CLDR's rule (Babel's to_gettext), numbering the
    forms as `plural_categories` does. CLDR's `e` operand is the exponent of a number written
    in compact form ("1,2 mil"); the bot never writes one, so it is 0 here, which leaves an
    expression of n alone that gettext's tools evaluate."""
    return re.sub(r"\be\b", "0", to_gettext(locale_of(language).plural_form))


def telegram_code(language: str) -> str:
    """The two-letter code Telegram's setMyCommands and setMyDescription take."""
    return locale_of(language).language
