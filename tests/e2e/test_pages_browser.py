"""The player's page and the group's page in a real browser (issue 47, item 6): the bot (the real
Application) on the emulator, three weeks of rounds of 24 played in a group through it across
the season's start, then each page opened in headless chromium as Telegram opens it (the
player's from a private chat's web_app button, the group's from its Direct Link), in light and
dark themes and in Persian, right to left. Each page draws its sections (charts in SVG, its
own), asks nothing outside the bot's server (the Content-Security-Policy blocks nothing), and
takes the theme's colours. With SCREENSHOTS=docs/screenshots the pictures docs/pages.md shows
are taken again."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import pytest
from selenium.webdriver.common.by import By

from bot.runtime.pool import SolverPool
from bot.webapp.init_data import sign, user_fields
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Clock, Harness, make_config, running
from tests.bot.conftest import pool as pool
from tests.bot.webapp_support import ANN, BEN, EVE, GROUP, deal_known, hand_clock, page_server
from tests.e2e.webapp_browser import DARK, LIGHT, Browser

pytestmark = pytest.mark.slow

DAY = 86400.0
# hands of 24 with an answer each (the famous hard ones among them), dealt one a day or so
HANDS = [((8, 3, 8, 3), "8/(3-8/3)"), ((1, 2, 3, 4), "1*2*3*4"), ((1, 5, 5, 5), "5*(5-1/5)"),
         ((3, 3, 7, 7), "7*(3+3/7)"), ((6, 6, 6, 6), "6+6+6+6"), ((4, 4, 10, 10), "(10*10-4)/4"),
         ((2, 3, 4, 5), "2*(3+4+5)"), ((1, 1, 4, 6), "4*6*1*1"), ((2, 2, 2, 3), "2*2*2*3"),
         ((3, 8, 1, 1), "3*8*1*1")]
SARA = {**ANN, "first_name": "Sara", "language_code": "fa"}
SHOTS = "SCREENSHOTS"


@pytest.fixture
async def harness(telegram: BotApiEmulator, pool: SolverPool, tmp_path) -> AsyncIterator[Harness]:
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as h:
        yield h


def shots(tmp_path: Path) -> Path:
    return Path(os.environ.get(SHOTS) or tmp_path)


async def three_weeks(h: Harness) -> Clock:
    """Rounds of 24 in the group over 21 days up to the tests' START (a new season began on
    the 1st): Ann wins most, Ben some, Eve answers wrong first; the clock is the bot's and the
    pages'."""
    clock = hand_clock(h)
    end = clock.now
    clock.now = end - 21 * DAY
    h.services.pages.clock = clock
    players = [ANN, ANN, BEN, ANN, BEN, ANN]
    for number in range(28):
        hand, answer = HANDS[number % len(HANDS)]
        await deal_known(h, hand)
        clock.now += 3 + number % 5
        await h.send(GROUP, EVE, "/a 1+1+1+1")
        clock.now += 4 + (number * 7) % 19
        await h.send(GROUP, players[number % len(players)], f"/a {answer}")
        assert h.services.table.of(GROUP) is None
        clock.now += 0.75 * DAY
    clock.now = end
    await h.services.hand_themes.written()  # the hands' themes, which the player's page reads
    return clock


def address(base: str, init_data: str, page: str | None) -> str:
    """The page as Telegram opens it: a web_app button's URL names the page, a Direct Link's
    start parameter (inside initData) does."""
    asked = f"?page={page}" if page else ""
    return f"{base}{asked}#tgWebAppData={quote(init_data, safe='')}"


def opened(browser: Browser, where: str) -> dict:
    """Open the page; wait for its sections (or its refusal); what it shows."""
    browser.driver.get(where)
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#page section.card")
                 or d.find_elements(By.ID, "refused"))
    return dict(browser.driver.execute_script(
        "const page = document.getElementById('page');"
        "return {dir: document.documentElement.dir, lang: document.documentElement.lang,"
        " dark: document.documentElement.classList.contains('dark'),"
        " kinds: [...page.querySelectorAll('section.card')].map((s) => s.dataset.kind),"
        " lines: page.querySelectorAll('svg polyline').length,"
        " bars: page.querySelectorAll('svg rect').length,"
        " text: page.innerText, round: !document.getElementById('app').hidden,"
        " background: getComputedStyle(document.body).backgroundColor};"))


def shared_card(browser: Browser) -> int:
    """Tap the season's Share button of 24; the width of the card the page then shows."""
    browser.driver.find_element("css selector", '.share button[data-game="24"]').click()
    return int(browser.wait(lambda d: d.execute_script(
        "const i = document.querySelector('.share img'); return i && i.complete && "
        "i.naturalWidth")))


def card_drawn(browser: Browser) -> dict:
    """Wait for the share section's card to be drawn; its width, and the button that drew
    it."""
    return dict(browser.wait(lambda d: d.execute_script(
        "const i = document.querySelector('.share img');"
        "return i && i.complete && i.naturalWidth && {width: i.naturalWidth, alt: i.alt,"
        " buttons: [...document.querySelectorAll('.share button')].map((b) => b.textContent)};"
    )))


def share_in_view(browser: Browser, path: Path) -> None:
    """A screenshot of the phone's screen, the share section at its top."""
    browser.driver.execute_script(
        "document.querySelector('section.share').scrollIntoView({block: 'start'});")
    browser.screenshot(path)


def whole_page(browser: Browser, path: Path) -> None:
    """A screenshot of the whole page at the phone's width."""
    height = int(browser.driver.execute_script("return document.documentElement.scrollHeight"))
    width = int(browser.driver.execute_script("return window.innerWidth"))
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.screenshot(path)
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def signed(h: Harness, clock: Clock, user: dict, start_param: str | None = None) -> str:
    return sign(user_fields(user["id"], user["first_name"], int(clock()), user["language_code"],
                            start_param), h.telegram.token)


async def test_both_pages_in_light_and_dark(harness: Harness, browser: Browser, tmp_path: Path):
    clock = await three_weeks(harness)
    folder = shots(tmp_path)
    async with page_server(harness) as base:
        for theme, scheme, background in ((LIGHT, "light", "rgb(255, 255, 255)"),
                                          (DARK, "dark", "rgb(23, 33, 43)")):
            data = signed(harness, clock, ANN)
            await asyncio.to_thread(browser.telegram, data, theme, scheme, ANN)
            player = await asyncio.to_thread(opened, browser, address(
                base, data, f"u{ANN['id']}"))
            assert player["kinds"] == ["rating", "games", "levels", "themes", "calendar",
                                       "records", "share", "achievements"]
            assert not player["round"] and player["dark"] == (scheme == "dark")
            assert player["background"] == background
            assert player["lines"] >= 1 and player["bars"] > 300  # a year of days, the bars
            assert "Your games, Ann" in player["text"] and "Fastest win in 24" in player["text"]
            assert "New season" in player["text"]  # the season's start is marked
            assert await asyncio.to_thread(shared_card, browser) == 1200  # the PNG, drawn
            await asyncio.to_thread(whole_page, browser, folder / f"pages-player-{scheme}.png")

            data = signed(harness, clock, ANN, f"g{GROUP}")
            await asyncio.to_thread(browser.telegram, data, theme, scheme, ANN)
            group = await asyncio.to_thread(opened, browser, address(base, data, None))
            assert group["kinds"] == ["board", "records", "hands", "weeks", "achievements"]
            assert group["lines"] == 3  # each player's trend on the board
            assert all(name in group["text"] for name in ("Ann", "Ben", "Eve"))
            assert "Hardest hands solved here this season" in group["text"]
            await asyncio.to_thread(whole_page, browser, folder / f"pages-group-{scheme}.png")
            assert await asyncio.to_thread(browser.violations) == []


async def test_the_pages_in_persian_read_right_to_left(harness: Harness, browser: Browser,
                                                       tmp_path: Path):
    clock = await three_weeks(harness)
    folder = shots(tmp_path)
    async with page_server(harness) as base:
        data = signed(harness, clock, SARA)
        await asyncio.to_thread(browser.telegram, data, LIGHT, "light", SARA)
        player = await asyncio.to_thread(opened, browser, address(base, data, f"u{ANN['id']}"))
        assert (player["dir"], player["lang"]) == ("rtl", "fa")
        assert "بازی‌های شما، Sara" in player["text"] and "سریع‌ترین برد در ۲۴" in player["text"]
        assert not any(digit in player["text"] for digit in "0123456789")
        await asyncio.to_thread(whole_page, browser, folder / "pages-player-fa.png")
        data = signed(harness, clock, SARA, f"g{GROUP}")
        await asyncio.to_thread(browser.telegram, data, LIGHT, "light", SARA)
        group = await asyncio.to_thread(opened, browser, address(base, data, None))
        assert (group["dir"], group["kinds"][0]) == ("rtl", "board")
        await asyncio.to_thread(whole_page, browser, folder / "pages-group-fa.png")
        assert await asyncio.to_thread(browser.violations) == []


async def test_another_persons_page_shows_nothing(harness: Harness, browser: Browser):
    clock = await three_weeks(harness)
    async with page_server(harness) as base:
        data = signed(harness, clock, EVE)
        await asyncio.to_thread(browser.telegram, data, LIGHT, "light", EVE)
        shown = await asyncio.to_thread(opened, browser, address(base, data, f"u{ANN['id']}"))
    assert shown["kinds"] == [] and shown["lang"] == "ru"
    assert shown["text"] == "Это чужая страница: отправьте /stats, чтобы открыть свою."


async def test_the_daily_results_button_opens_the_page_on_its_card(
        harness: Harness, browser: Browser, tmp_path: Path):
    """The button under a right /daily opens the page with `card=daily`: the share section
    offers the day's result, and its card is drawn at once (tiles face down: the day is on)."""
    clock = hand_clock(harness)
    harness.services.pages.clock = clock
    daily = harness.services.community.daily
    daily.clock = clock
    daily.hands.clock = clock  # the live puzzles hold the same day back
    await harness.send(ANN["id"], ANN, f"/daily {solve(list(daily.hand_now()))[0]}",
                       kind="private")
    assert "✅" in (await harness.telegram.reply(ANN["id"])).text
    async with page_server(harness) as base:
        data = signed(harness, clock, ANN)
        await asyncio.to_thread(browser.telegram, data, LIGHT, "light", ANN)
        where = address(base, data, f"u{ANN['id']}&card=daily")
        shown = await asyncio.to_thread(opened, browser, where)
        assert "share" in shown["kinds"]
        card = await asyncio.to_thread(card_drawn, browser)
        assert card["width"] == 1200 and card["alt"].startswith("Daily puzzle #")
        assert card["buttons"][-1] == card["alt"]
        await asyncio.to_thread(share_in_view, browser, shots(tmp_path) / "pages-daily-card.png")
        assert await asyncio.to_thread(browser.violations) == []
