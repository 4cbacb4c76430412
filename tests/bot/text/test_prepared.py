"""A started bot has read every language's CLDR data (bot.wiring.speaking): the first reply in
a language after a restart reads no locale file (Babel reads one at a locale's first number,
10 ms each), and what was read is among what start-up froze."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import babel.localedata
import pytest

from bot.runtime.pool import SolverPool
from bot.text import i18n
from bot.text.languages import LANGUAGES, locale_of
from demo.emulator import BotApiEmulator
from tests.bot.conftest import make_config, running


@pytest.fixture
def unread() -> Iterator[None]:
    """This process as if no language had been spoken in it yet: Babel's data, the locales and
    the texts made again when next asked for (an earlier test's are gone)."""
    def forget() -> None:
        babel.localedata._cache.clear()
        locale_of.cache_clear()
        i18n._texts.cache_clear()
    forget()
    yield
    forget()


def spoken_everywhere() -> None:
    """A reply's formatting in every language, group and private: numbers, shares, seconds,
    a list, a duration, plural nouns."""
    for language in LANGUAGES:
        for private in (False, True):
            texts = i18n.texts_for(language, private)
            texts.number(1234567)
            texts.percent(0.25)
            texts.seconds(12.3)
            texts.listing(["a", "b", "c"])
            texts.duration(3700.0)
            texts.count(3)
            texts.count(21, 5)


def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each locale Babel reads from its files from now on."""
    read: list[str] = []
    load = babel.localedata.load

    def counted(name: str, merge_inherited: bool = True) -> dict:
        read.append(name)
        return load(name, merge_inherited)
    monkeypatch.setattr(babel.localedata, "load", counted)
    return read


async def test_a_started_bot_reads_no_language_in_a_reply(
        unread: None, telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")):
        read = reads(monkeypatch)
        spoken_everywhere()
        assert read == []


def test_without_it_the_first_reply_in_each_language_reads_its_data(
        unread: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the test above would see if start-up prepared nothing: every language read."""
    read = reads(monkeypatch)
    spoken_everywhere()
    assert {str(locale_of(language)) for language in LANGUAGES} <= set(read)
