"""The message catalogs: one gettext .po per language, read with Babel, and what makes one complete.

bot/text/locales/<locale>/LC_MESSAGES/messages.po, the layout gettext, Babel's pybabel and the
translation platforms expect. A message's msgid is the key the code asks for ("deal_24"); its
comments say where it shows and what its {fields} hold, then "English:" and the English text, so
a translator's tool shows the source beside the key. A count's noun is a gettext plural: msgid
"points_one", msgid_plural "points_other", one msgstr per CLDR category of the language, in the
order of its Plural-Forms header. English is the source: its catalog holds every message.

`python -m bot.text.catalogs template | init TAG | update | check` is the translator's round trip
(docs/translating.md). This module reads and checks; it never words a message.

The bot reads every catalog at start-up (its command menus are set in each language), and Babel's
.po reader took a quarter of a second for the sixteen, a tenth of a bot's start. `load_catalog`
keeps what it read as JSON in a `__pycache__` beside the .po, as Python keeps compiled modules:
named by a hash of the .po, this module's source and Babel's version, so an edited catalog or a
changed reader is read afresh; where the folder cannot be written (a read-only image), or a kept
file does not read, the .po is read as before.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import string
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Literal

import babel
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.catalog import Message
from babel.messages.pofile import read_po, write_po

from bot.text.languages import (
    CATEGORY_ORDER,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    folder_of,
    gettext_plural_forms,
    locale_of,
    plural_categories,
)

PRIVATE = "_private"  # the suffix of a message's private-chat wording
ONE, OTHER = "_one", "_other"  # a plural message's msgid and msgid_plural end so
ENGLISH = "English:"  # the comment line after which a catalog quotes the English text
DOMAIN = "messages"
# format specs a message may give a field beside a plural noun's: a length of time in words
# (`duration`: seconds or whole minutes), or a number of seconds or minutes (CLDR's units)
UNIT_SPECS = frozenset({"duration", "seconds", "minutes"})
# a list of items joined as the language joins them (CLDR's list patterns): {games:and}, {games:or}
LIST_SPECS: dict[str, Literal["standard", "or"]] = {"and": "standard", "or": "or"}
TAG = re.compile(r"</?[a-zA-Z][^<>]*>")


@dataclass(frozen=True)
class Catalog:
    """One language's messages as its .po file has them."""

    language: str
    messages: dict[str, str]  # key -> message
    plurals: dict[str, tuple[str, ...]]  # noun -> a form per plural category, in gettext's order
    notes: dict[str, list[str]] = field(default_factory=dict)  # key or noun -> its comments
    untranslated: frozenset[str] = frozenset()  # fuzzy or empty: not used, English stands in
    plural_forms: str = ""  # the Plural-Forms header


def folder() -> Traversable:
    return resources.files("bot.text") / "locales"


def path_of(language: str) -> Traversable:
    return folder() / folder_of(language) / "LC_MESSAGES" / f"{DOMAIN}.po"


def forms(value: object) -> tuple[str, ...]:
    """A message's id or string as gettext's forms: one for a plain message, one per form for
    a plural."""
    if isinstance(value, tuple | list):
        return tuple(str(form) for form in value)
    return (str(value or ""),)


def noun_of(msgid: object) -> str | None:
    """A plural message's noun ("points" for points_one/points_other); None for another."""
    ids = forms(msgid)
    return ids[0].removesuffix(ONE) if len(ids) > 1 and ids[0].endswith(ONE) else None


def read_catalog(language: str, source: Traversable | Path | None = None) -> Catalog:
    """A language's catalog as written, without English for what it lacks."""
    with (source or path_of(language)).open("rb") as file:
        po = read_po(file, locale=str(locale_of(language)), domain=DOMAIN)
    return from_po(language, po)


# what a kept catalog was read with: a change to either reads every .po afresh
READER = Path(__file__).read_bytes() + babel.__version__.encode()
KEPT_IN = "__pycache__"


def load_catalog(language: str, source: Path | None = None) -> Catalog:
    """`read_catalog` without the translators' notes (what the bot speaks: half a catalog's
    bytes are notes), kept beside the .po once read (see the module's docstring)."""
    path = source or path_of(language)
    if not isinstance(path, Path):  # inside an archive: nowhere to keep it
        return replace(read_catalog(language, path), notes={})
    data = path.read_bytes()
    kept = path.parent / KEPT_IN / f"{DOMAIN}.{hashlib.sha256(data + READER).hexdigest()[:20]}.json"
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        return _from_kept(language, json.loads(kept.read_bytes()))
    po = read_po(io.BytesIO(data), locale=str(locale_of(language)), domain=DOMAIN)
    read = replace(from_po(language, po), notes={})
    with contextlib.suppress(OSError):
        _keep(kept, read)
    return read


def _keep(kept: Path, read: Catalog) -> None:
    keep_file(kept, json.dumps({"messages": read.messages, "plurals": read.plurals,
                                "untranslated": sorted(read.untranslated),
                                "plural_forms": read.plural_forms}, ensure_ascii=False),
              f"{DOMAIN}.*.json")


def keep_file(kept: Path, body: str, older: str) -> None:
    """Written whole then renamed (processes starting side by side), the older ones (the
    files of its folder that match `older`) removed."""
    kept.parent.mkdir(exist_ok=True)
    part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
    part.write_text(body, encoding="utf-8")
    os.replace(part, kept)
    for old in kept.parent.glob(older):
        if old != kept:
            with contextlib.suppress(OSError):
                old.unlink()


def _from_kept(language: str, kept: dict) -> Catalog:
    return Catalog(language, dict(kept["messages"]),
                   {noun: tuple(forms) for noun, forms in kept["plurals"].items()},
                   {}, frozenset(kept["untranslated"]),
                   str(kept["plural_forms"]))


def from_po(language: str, po: PoCatalog) -> Catalog:
    messages: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    notes: dict[str, list[str]] = {}
    untranslated: set[str] = set()
    for message in po:
        if not message.id:
            continue  # the header
        noun = noun_of(message.id)
        key = noun if noun is not None else forms(message.id)[0]
        notes[key] = list(message.auto_comments)
        written = forms(message.string)
        if message.fuzzy or not all(written):
            untranslated.add(key)
        elif noun is not None:
            plurals[noun] = written
        else:
            messages[key] = written[0]
    header = dict(po.mime_headers)
    return Catalog(language, messages, plurals, notes, frozenset(untranslated),
                   header.get("Plural-Forms", ""))


# --- what a complete catalog is ------------------------------------------------------------------

def fields(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def specs(message: str) -> set[str]:
    return {spec for _, name, spec, _ in string.Formatter().parse(message) if name and spec}


def tags(message: str) -> list[str]:
    """The markup tags, in order of name (a translation may move them, never drop one)."""
    return sorted(TAG.findall(message))


def _spaceless(header: str) -> str:
    return "".join(header.split()).rstrip(";")


def problems(catalog: Catalog, english: Catalog) -> list[str]:
    """What keeps a catalog from being complete: a message missing, untranslated or fuzzy, one
    English does not have, a {field} or markup tag not as in English, a format spec naming no
    plural noun, a plural with other forms than CLDR gives its language, a wrong header, a
    message named as a plural's form is (`times_two` beside the plural `times`: i18n.catalog
    names each form so, and one would hide the other)."""
    found: list[str] = []
    found += [f"{key}: named as a form of the plural {noun!r}" for noun in
              sorted(english.plurals.keys() | catalog.plurals.keys())
              for key in sorted(catalog.messages.keys() | english.messages.keys())
              if key.removeprefix(f"{noun}_") in CATEGORY_ORDER]
    wanted_forms = gettext_plural_forms(catalog.language)
    if _spaceless(catalog.plural_forms) != _spaceless(wanted_forms):
        found.append(f"Plural-Forms is {catalog.plural_forms!r}, CLDR says {wanted_forms!r}")
    found += [f"{key}: untranslated or fuzzy" for key in sorted(catalog.untranslated)]
    found += [f"{key}: missing" for key in
              sorted(set(english.messages) - set(catalog.messages) - catalog.untranslated)]
    found += [f"{noun}{ONE}: missing (a plural)" for noun in
              sorted(set(english.plurals) - set(catalog.plurals) - catalog.untranslated)]
    for key, message in catalog.messages.items():
        try:
            found += _message_problems(key, message, english)
        except ValueError:  # str.format's own complaint
            found.append(f"{key}: a brace without its pair")
    for noun, written in catalog.plurals.items():
        try:
            found += _plural_problems(catalog.language, noun, written, english)
        except ValueError:
            found.append(f"{noun}{ONE}: a brace without its pair")
    return found


def _message_problems(key: str, message: str, english: Catalog) -> list[str]:
    base = key if key in english.messages else key.removesuffix(PRIVATE)
    if base not in english.messages:
        return [f"{key}: not an English message (nor {PRIVATE} of one)"]
    source = english.messages[base]
    found = []
    if key == base and fields(message) != fields(source):
        found.append(f"{key}: fields {sorted(fields(message))}, English has "
                     f"{sorted(fields(source))}")
    if key != base and not fields(message) <= fields(source) | fields(
            english.messages.get(key, "")):
        found.append(f"{key}: fields beyond {base}'s")
    if tags(message) != tags(english.messages.get(key, source)):
        found.append(f"{key}: markup {tags(message)}, English has {tags(source)}")
    found += [f"{key}: {{…:{spec}}} names no plural noun"
              for spec in specs(message) - UNIT_SPECS - LIST_SPECS.keys() - set(english.plurals)]
    return found


def _plural_problems(language: str, noun: str, written: tuple[str, ...],
                     english: Catalog) -> list[str]:
    if noun not in english.plurals:
        return [f"{noun}{ONE}: not an English plural"]
    categories = plural_categories(language)
    found = []
    if len(written) != len(categories):
        found.append(f"{noun}{ONE}: {len(written)} forms, {language} needs "
                     f"{len(categories)} ({', '.join(categories)})")
    wanted = set().union(*map(fields, english.plurals[noun]))
    for category, form in zip(categories, written, strict=False):
        if fields(form) != wanted:
            found.append(f"{noun}{ONE} [{category}]: fields {sorted(fields(form))}")
    return found


# --- the translator's round trip -----------------------------------------------------------------

def english_lines(text: str) -> list[str]:
    return [ENGLISH, *text.split("\n")]


def description(notes: Iterable[str]) -> list[str]:
    """A message's own comments, without the English text a catalog quotes after them."""
    kept: list[str] = []
    for line in notes:
        if line.strip() == ENGLISH:
            break
        kept.append(line)
    return kept


def quoted_english(notes: Iterable[str]) -> str:
    """The English text a catalog quoted when it was last updated, its spacing aside (the .po
    writer wraps long comments)."""
    lines = list(notes)
    start = next((i for i, line in enumerate(lines) if line.strip() == ENGLISH), len(lines))
    return " ".join(" ".join(lines[start + 1:]).split())


def english_of(english: Catalog, key: str) -> str:
    if key in english.plurals:
        categories = plural_categories(DEFAULT_LANGUAGE)
        return "\n".join(f"[{category}] {form}"
                         for category, form in zip(categories, english.plurals[key], strict=True))
    return english.messages[key]


def new_po(language: str) -> PoCatalog:
    name = locale_of(language).english_name
    po = PoCatalog(locale=str(locale_of(language)), domain=DOMAIN, project="Twenty-Four",
                   version="1", msgid_bugs_address="the project's issue tracker",
                   last_translator="Twenty-Four translators", language_team=name, fuzzy=False,
                   header_comment=f"# {name} messages of the Twenty-Four bot "
                   "(docs/translating.md).\n#")
    po.revision_date = po.creation_date
    po.mime_headers = [*po.mime_headers, ("Plural-Forms", gettext_plural_forms(language))]
    return po


def template(english: Catalog) -> PoCatalog:
    """messages.pot: every English msgid, its description and the English text, no translation."""
    po = new_po(DEFAULT_LANGUAGE)
    for key in english.notes:
        notes = [*description(english.notes[key]), *english_lines(english_of(english, key))]
        msgid: str | tuple[str, str] = (key + ONE, key + OTHER) if key in english.plurals else key
        po.add(msgid, ("",) * 2 if isinstance(msgid, tuple) else "", auto_comments=notes)
    return po


def updated(language: str, old: PoCatalog | None, english: Catalog) -> PoCatalog:
    """A language's catalog brought to the English one: every English message (a new one
    empty), the translations kept, a translation whose English has changed since marked fuzzy,
    a private wording kept while its message lives, the comments and header refreshed."""
    po = new_po(language)
    if old is not None:  # as msgmerge does: an update is not a translator's revision
        po.creation_date, po.revision_date = old.creation_date, old.revision_date
    kept = {forms(message.id)[0]: message for message in old or () if message.id}
    width = len(plural_categories(language))
    for key in english.notes:
        plural = key in english.plurals
        msgid: str | tuple[str, str] = (key + ONE, key + OTHER) if plural else key
        source = english_of(english, key)
        before = kept.pop(key + ONE if plural else key, None)
        written = ("",) * (width if plural else 1)
        flags: set[str] = set()
        if before is not None and (noun_of(before.id) is not None) == plural:
            written = (*forms(before.string), *written)[:len(written)]
            changed = quoted_english(before.auto_comments) != " ".join(source.split())
            if before.fuzzy or (changed and any(written)):
                flags.add("fuzzy")
        po.add(msgid, written if plural else written[0], flags=flags,
               auto_comments=[*description(english.notes[key]), *english_lines(source)])
    for msgid, message in kept.items():  # private wordings of messages English still has
        if msgid.endswith(PRIVATE) and msgid.removesuffix(PRIVATE) in english.messages:
            po[msgid] = Message(msgid, message.string, flags=message.flags,
                                auto_comments=message.auto_comments)
    return po


def write(po: PoCatalog, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as file:
        write_po(file, po, width=100, no_location=True, omit_header=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.text.catalogs",
                                     description="The translator's round trip of the catalogs.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("template", help="write messages.pot from the English catalog")
    init = commands.add_parser("init", help="start a new language's catalog")
    init.add_argument("tag", help="a BCP 47 tag, e.g. de, fr-CA, zh-Hant")
    commands.add_parser("update", help="bring every catalog to the English one")
    commands.add_parser("check", help="what keeps each catalog from being complete")
    commands.add_parser("keep", help="read every catalog as the bot does and keep it (an "
                                     "image's build: its user cannot write there)")
    arguments = parser.parse_args(argv)
    if arguments.command == "keep":
        from bot.text.language_facts import facts_of, kept_path

        for language in LANGUAGES:
            load_catalog(language)
            facts_of(language)
        kept = sorted(Path(str(folder())).glob(f"*/LC_MESSAGES/{KEPT_IN}/{DOMAIN}.*.json"))
        facts = kept_path()
        print(f"kept {len(kept)} catalogs" + (" and the languages' CLDR facts"
                                              if facts and facts.exists() else ""))
        return 0 if len(kept) == len(LANGUAGES) and facts and facts.exists() else 1
    root = Path(str(folder()))
    english = read_catalog(DEFAULT_LANGUAGE)
    if arguments.command == "template":
        write(template(english), root / f"{DOMAIN}.pot")
        print(f"wrote {root / f'{DOMAIN}.pot'}")
    elif arguments.command == "init":
        target = root / folder_of(arguments.tag) / "LC_MESSAGES" / f"{DOMAIN}.po"
        if target.exists():
            print(f"{target} exists: use update")
            return 1
        write(updated(arguments.tag, None, english), target)
        print(f"wrote {target}; translate it (`check` says what is left): the bot speaks "
              "it from its next start")
    elif arguments.command == "update":
        for language in LANGUAGES:
            if language == DEFAULT_LANGUAGE:
                continue
            source = Path(str(path_of(language)))
            with source.open("rb") as file:
                old = read_po(file, locale=str(locale_of(language)), domain=DOMAIN)
            write(updated(language, old, english), source)
            print(f"updated {source}")
    else:
        return report(english, LANGUAGES)
    return 0


def report(english: Catalog, languages: Iterable[str]) -> int:
    """Prints each catalog's problems; 1 if there are any."""
    bad = 0
    for language in languages:
        found = problems(read_catalog(language), english)
        print(f"{language}: {len(found) or 'complete'}" + "".join(f"\n  {p}" for p in found))
        bad += bool(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
