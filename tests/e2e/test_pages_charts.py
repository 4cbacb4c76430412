"""The pages' charts read right with one day of data and with a year (issue 55, item 5), in
Debian's chromium, in English and in Persian: a single day rated is a point with its value, the
time axes end today, the 52 weeks are labelled by month with the year where it changes, a
legend keeps a game's name apart from its rating, and a percentage is written as the page's
other numbers (Persian digits, CLDR's ٪). The year is bench/year_data.py's, shrunk. With
SCREENSHOTS=docs/screenshots the pictures docs/pages.md shows are taken again."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.year_data import Scale, generate, load_sqlite
from bot.runtime.pool import SolverPool
from bot.store.sqlite import open_sqlite
from bot.text.i18n import texts_for
from demo.emulator import BotApiEmulator
from tests.bot.conftest import Clock, Harness, make_config, running
from tests.bot.conftest import pool as pool
from tests.bot.webapp_support import ANN, GROUP, START, deal_known, hand_clock, page_server
from tests.e2e.test_pages_browser import address, opened, shots, signed, whole_page
from tests.e2e.webapp_browser import LIGHT, Browser

pytestmark = pytest.mark.slow
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"
ANSWERED_ROUNDS = 19  # the migration that keeps the rounds each player answered
CHARTS = """
const texts = (kind, selector) => [...document.querySelectorAll(
  `section[data-kind=${kind}] ${selector}`)].map((t) => t.textContent);
const rating = document.querySelector('section[data-kind=rating] svg');
const width = rating ? rating.viewBox.baseVal.width : 0;
return {
  points: rating ? rating.querySelectorAll('circle.point').length : 0,
  lines: rating ? rating.querySelectorAll('polyline').length : 0,
  values: texts('rating', 'svg text.value'),
  axis: texts('rating', 'svg text.axis:not(.year)').filter((t) => !/^[0-9۰-۹]+$/.test(t)),
  ends: rating ? [...rating.querySelectorAll('text.axis')].map((t) => +t.getAttribute('x'))
    .reduce((a, b) => Math.max(a, b), 0) : 0,
  width,
  legend: [...document.querySelectorAll('section[data-kind=rating] .legend .entry')]
    .map((e) => [e.querySelector('.name').textContent, e.querySelector('.value').textContent]),
  years: texts('rating', 'svg text.year'),
  weeks: texts('weeks', 'svg text.axis:not(.year)'),
  weekYears: texts('weeks', 'svg text.year'),
  shares: texts('levels', 'td.num > span:last-child'),
  trends: document.querySelectorAll('section[data-kind=board] svg circle.point').length,
};"""


@pytest.fixture
async def harness(telegram: BotApiEmulator, pool: SolverPool, tmp_path) -> AsyncIterator[Harness]:
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as h:
        yield h


def charts(browser: Browser) -> dict:
    return dict(browser.driver.execute_script(CHARTS))


async def both_pages(h: Harness, browser: Browser, clock: Clock, user: dict, group: int,
                     folder: Path, name: str) -> list[tuple[str, str, dict, dict]]:
    """The player's page and the group's, in English and in Persian; each one's charts (and a
    screenshot of each, pages-<page>-<name>[-fa].png)."""
    found = []
    async with page_server(h) as base:
        for language in ("en", "fa"):
            asker = {**user, "language_code": language}
            suffix = "" if language == "en" else "-fa"
            for page, param in (("player", f"u{user['id']}"), ("group", f"g{group}")):
                data = signed(h, clock, asker, param if page == "group" else None)
                await asyncio.to_thread(browser.telegram, data, LIGHT, "light", asker)
                shown = await asyncio.to_thread(opened, browser, address(
                    base, data, param if page == "player" else None))
                assert shown["kinds"], shown
                drawn = await asyncio.to_thread(charts, browser)
                await asyncio.to_thread(whole_page, browser,
                                        folder / f"pages-{page}-{name}{suffix}.png")
                found.append((language, page, shown, drawn))
        assert await asyncio.to_thread(browser.violations) == []
    return found


async def test_one_day_of_data(harness: Harness, browser: Browser, tmp_path: Path):
    """One round won today: the rating is a point with its value at the axis's right end,
    which is today; the legend says the game, then the rating; the board's trend is a dot."""
    clock = hand_clock(harness)
    harness.services.pages.clock = clock
    await deal_known(harness, (8, 3, 8, 3))
    clock.now += 9
    await harness.send(GROUP, ANN, "/a 8/(3-8/3)")
    assert harness.services.table.of(GROUP) is None
    pages = await both_pages(harness, browser, clock, ANN, GROUP, shots(tmp_path), "day")
    for language, page, shown, drawn in pages:
        if page == "player":
            assert drawn["points"] == 1 and drawn["lines"] == 0, drawn  # a point, no dashes
            [value] = drawn["values"]
            [(game, rating)] = drawn["legend"]
            assert value == rating and game != rating  # apart, the value by the point too
            today = "Jan 15" if language == "en" else "۱۵ ژانویه"
            assert drawn["axis"][-1] == today, drawn["axis"]  # the axis ends today
            assert drawn["shares"] == (["100%"] if language == "en" else ["۱۰۰٪"])
        else:
            assert drawn["trends"] == 1  # Ann's trend on the board: one day, one dot
            assert drawn["weekYears"] == (["2026", "2027"] if language == "en"
                                          else ["۲۰۲۶", "۲۰۲۷"]), drawn
        if language == "fa":
            assert not any(d in shown["text"] for d in "0123456789%"), shown["text"]


@pytest.fixture
async def year(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path
               ) -> AsyncIterator[tuple[Harness, dict, int]]:
    """A year of play up to the tests' START (bench/year_data.py, a thousandth of the bench's
    size, its heavy players whole), loaded as bench/bench_year.py loads it: into a database at
    migration 18, so that the bot's start migrates it (19 sums the rounds each player answered
    from the answers); the bot on it. The first heavy player and the busiest group."""
    path = tmp_path / "year.sqlite3"
    await (await open_sqlite(path, migrate_to=ANSWERED_ROUNDS - 1)).close()
    played = generate(Scale().shrunk(0.001), now=START)
    load_sqlite(path, played)
    user_id = int(played.heavy_ids[0])
    name = next(n for uid, n, _ in played.users if uid == user_id)
    telegram.chat(int(played.group_ids[0]), "supergroup", "Group 0")  # Telegram knows it
    async with running(telegram, pool, make_config(telegram, path)) as h:
        yield h, {"id": user_id, "is_bot": False, "first_name": name}, int(played.group_ids[0])


async def test_a_year_of_data(year: tuple[Harness, dict, int], browser: Browser,
                              tmp_path: Path):
    """A year: the rating's axis and the 52 weeks are labelled by month, each year written
    under the month where it begins (and under the first), the last label no further right
    than the chart; percentages as the language writes them."""
    harness, player, group = year
    clock = Clock(START)
    harness.services.table.clock = clock
    harness.services.pages.clock = clock
    pages = await both_pages(harness, browser, clock, player, group, shots(tmp_path), "year")
    for language, page, shown, drawn in pages:
        years = ["2026", "2027"] if language == "en" else ["۲۰۲۶", "۲۰۲۷"]
        if page == "player":
            assert drawn["lines"] >= 1 and len(drawn["axis"]) >= 8, drawn  # months
            assert drawn["years"] == years, drawn
            assert drawn["ends"] <= drawn["width"]
            # a percentage as the language writes it; "exact" after it where the closest
            # answer wins a round (Countdown, Yahtzee: the share is of exact answers)
            exact = texts_for(language)("webapp_share_exact", share="")
            assert drawn["shares"] and all(
                s.removesuffix(exact.strip()).strip().endswith("%" if language == "en" else "٪")
                or s.startswith("%") for s in drawn["shares"]), drawn["shares"]
        else:
            assert len(drawn["weeks"]) >= 10 and drawn["weekYears"] == years, drawn
            jan = "Jan" if language == "en" else "ژانویه"
            assert jan in drawn["weeks"]
        if language == "fa":  # the year's players are named Player0, Player1...
            text = re.sub(r"Player\d+", "", shown["text"])
            assert not any(d in text for d in "0123456789%"), text
            assert any(d in text for d in PERSIAN_DIGITS)
