"""The languages' CLDR facts kept once read (bot.text.language_facts): the same as Babel gives,
read back without loading any locale's data, and read from Babel again where the kept file is
garbled or cannot be written."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.text import language_facts
from bot.text.language_facts import facts_of, read_facts
from bot.text.languages import LANGUAGES


@pytest.fixture
def kept_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The kept file in a folder of the test's own, read afresh."""
    path = tmp_path / "__pycache__" / "cldr.test.json"
    monkeypatch.setattr(language_facts, "kept_path", lambda: path)
    language_facts._kept.cache_clear()
    yield path
    language_facts._kept.cache_clear()


def test_the_facts_are_babel_s_for_every_language():
    for language in LANGUAGES:
        assert facts_of(language) == read_facts(language), language
    assert facts_of("fa").script.digits == "۰۱۲۳۴۵۶۷۸۹" and facts_of("fa").script.right_to_left
    assert facts_of("ru").categories == ("one", "few", "many", "other")
    assert facts_of("zh-Hant").own_name == "繁體中文"


def test_a_start_with_the_facts_kept_loads_no_locale_s_data():
    probe = ("import babel.localedata as data\n"
             "from bot.text.i18n import texts_for\n"
             "from bot.text.languages import LANGUAGES\n"
             "for language in LANGUAGES:\n"
             "    texts_for(language)('cmd_play')\n"
             "print(sorted(data._cache))")
    for _ in range(2):  # the first keeps them if no test process has yet
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              timeout=60, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_garbled_kept_file_is_read_from_babel_and_kept_again(kept_at: Path):
    kept_at.parent.mkdir()
    kept_at.write_text('{"en": {"own_name": "English"}}')  # a row without its fields
    assert language_facts._kept() == {language: read_facts(language) for language in LANGUAGES}
    assert set(json.loads(kept_at.read_text())) == set(LANGUAGES)


def test_a_folder_that_cannot_be_written_reads_from_babel(kept_at: Path):
    kept_at.parent.write_text("a file where the folder would be")
    assert language_facts._kept()["uk"] == read_facts("uk")
    assert not kept_at.exists()


def test_another_set_of_languages_keeps_its_facts_apart(monkeypatch: pytest.MonkeyPatch):
    """A language added (or another Babel, or a changed rule) names another file: the facts
    kept for the old set are never read for the new one."""
    kept = language_facts.kept_path()
    monkeypatch.setattr(language_facts, "LANGUAGES", (*LANGUAGES, "nl"))
    assert language_facts.kept_path() not in (kept, None)
