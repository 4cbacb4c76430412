"""The page in a real browser (issue 27; issue 34, item 6): the bot (the real Application) on the
emulator, a round of a known puzzle of each game, the page opened in headless chromium with
initData the test signs. 24: a solution tapped wins the round, and the win appears in the group
through the emulator, as a typed one would; a wrong one tapped is told why on the page, and the
round goes on. Countdown: a step that is not whole is refused on the page, the tile it would
submit is shown with its distance, the target reached wins. Yahtzee: the 13 rolls, a guess
noted as the chat notes it, the best total wins. The words are the user's language's, the page's
lang says which. Never skipped: `make test` installs chromium first (`make browser`)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.play.round.open_round import OpenRound
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.webapp.init_data import sign, user_fields
from bot.webapp.tickets import ticket_of
from demo.emulator import BotApiEmulator
from tests.bot.conftest import Harness, make_config, running
from tests.bot.conftest import pool as pool
from tests.bot.webapp_support import (
    ANN,
    BEN,
    BEST,
    EVE,
    EXACT,
    GROUP,
    NEAR,
    SOLUTION,
    WRONG,
    deal_game,
    deal_known,
    page_server,
    signed_for,
    steps_to,
)
from tests.e2e.webapp_browser import LIGHT, Browser, page_address

pytestmark = pytest.mark.slow


@pytest.fixture
async def harness(telegram: BotApiEmulator, pool: SolverPool, tmp_path) -> AsyncIterator[Harness]:
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as h:
        yield h


async def win_message(h: Harness, since: int, seconds: float = 20.0) -> tuple[str, float]:
    """The first message sent to the group after `since` messages, and when it came."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        new = [s for s in h.telegram.sent if s.chat_id == GROUP][since:]
        if new:
            return new[0].text, time.perf_counter()
        await asyncio.sleep(0.005)
    raise AssertionError("no message in the group")


async def test_a_tapped_solution_wins_in_the_group(harness: Harness, browser: Browser):
    current = await deal_known(harness, (8, 3, 8, 3))
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        assert await asyncio.to_thread(browser.tiles) == ["8", "3", "8", "3"]
        assert "Make 24" in await asyncio.to_thread(browser.text, "goal")
        assert "left" in await asyncio.to_thread(browser.text, "timer")
        assert await asyncio.to_thread(browser.language) == "en"
        await asyncio.to_thread(browser.tap, SOLUTION[:1])
        assert await asyncio.to_thread(browser.tiles) == ["8", "3", "8/3"]  # exact, a fraction
        await asyncio.to_thread(browser.tap, SOLUTION[1:])
        assert await asyncio.to_thread(browser.tiles) == ["24"]
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        tapped = time.perf_counter()
        await asyncio.to_thread(browser.submit)
        said, at = await win_message(harness, before)
        print(f"\ntap on Submit to the win message on the emulator: {(at - tapped) * 1000:.0f} ms")
        shown = await asyncio.to_thread(browser.verdict)
        blocked = await asyncio.to_thread(browser.violations)
    assert said.startswith("✅ Ann") and "8÷(3−8÷3)" in said
    assert "Ann" in shown
    assert harness.services.table.of(GROUP) is None
    assert await harness.stores.rounds.race(current.id) is not None
    assert blocked == []  # the page keeps to its own Content-Security-Policy


async def test_a_wrong_one_is_told_why_and_the_round_goes_on(harness: Harness, browser: Browser):
    current = await deal_known(harness, (8, 3, 8, 3))
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        await asyncio.to_thread(browser.tap, WRONG)
        await asyncio.to_thread(browser.submit)
        shown = await asyncio.to_thread(browser.verdict)
    assert shown == "❌ 8+3+8+3 makes 22, not 24."
    assert harness.services.table.of(GROUP) is not None  # still on


async def test_in_telegram_the_theme_and_the_language_are_the_users(harness: Harness,
                                                                  browser: Browser):
    """With Telegram's WebApp object (a stand-in here): Chinese for a zh user, the theme's
    colours; undo and reset bring the tiles back."""
    current = await deal_known(harness, (8, 3, 8, 3))
    data = signed_for(BEN, current, harness.telegram.token)
    await asyncio.to_thread(browser.telegram, data, {**LIGHT, "bg_color": "#fafafa"}, "light",
                            BEN)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, f"{base}?round={ticket_of(current).text}")
        assert "凑出 24" in await asyncio.to_thread(browser.text, "goal")
        assert await asyncio.to_thread(browser.language) == "zh"
        assert await asyncio.to_thread(browser.text, "submit") == "提交"
        background = await asyncio.to_thread(browser.driver.execute_script,
                                             "return getComputedStyle(document.body)"
                                             ".backgroundColor")
        assert background == "rgb(250, 250, 250)"
        await asyncio.to_thread(browser.tap, SOLUTION[:2])
        await asyncio.to_thread(lambda: browser.driver.find_element("id", "undo").click())
        assert await asyncio.to_thread(browser.tiles) == ["8", "3", "8/3"]
        await asyncio.to_thread(lambda: browser.driver.find_element("id", "reset").click())
        assert await asyncio.to_thread(browser.tiles) == ["8", "3", "8", "3"]


async def test_countdown_is_played_on_the_page(harness: Harness, browser: Browser):
    """Six tiles for 952: 3÷6 is refused (a step must be whole), the closest tile so far is
    the one shown with its distance, and the target reached and submitted wins in the group."""
    current = await deal_game(harness, "countdown")
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        assert await asyncio.to_thread(browser.tiles) == ["100", "25", "75", "50", "6", "3"]
        assert await asyncio.to_thread(browser.text, "goal") == "Get as close to 952 as you can"
        assert await asyncio.to_thread(browser.text, "answer") == "Your answer: 100, 852 away"
        await asyncio.to_thread(browser.try_step, 5, "/", 4)
        assert await asyncio.to_thread(browser.verdict) == \
            "Each step must make a whole number above zero."
        assert len(await asyncio.to_thread(browser.tiles)) == 6  # nothing combined
        await asyncio.to_thread(browser.tap, NEAR)
        assert await asyncio.to_thread(browser.tiles) == ["25", "75", "50", "318"]
        assert await asyncio.to_thread(browser.text, "answer") == "Your answer: 318, 634 away"
        await asyncio.to_thread(browser.tap, EXACT[len(NEAR):])
        assert await asyncio.to_thread(browser.text, "answer") == \
            "Your answer: 952, right on target"
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        await asyncio.to_thread(browser.submit)
        said, _ = await win_message(harness, before)
        shown = await asyncio.to_thread(browser.verdict)
    assert said.startswith("✅ Ann wins with ((100+6)×3×75−50)÷25")
    assert "Ann" in shown
    assert harness.services.table.of(GROUP) is None


async def test_yahtzee_is_played_on_the_page(harness: Harness, browser: Browser):
    """The 13 rolls' table and a number field: a guess is noted as the chat notes one (not how
    close it is), and the best total wins in the group."""
    current = await deal_game(harness, "yahtzee")
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        rows = await asyncio.to_thread(browser.rolls)
        assert len(rows) == 13 and rows[3][:2] == ["4", "44444"] and rows[3][5] == "50"
        assert await asyncio.to_thread(browser.text, "goal") == "What is the best total?"
        await asyncio.to_thread(browser.guess, str(BEST - 1))
        noted = await asyncio.to_thread(browser.verdict)
        assert noted.startswith(f"✍ Guess noted ({BEST - 1}); 2 left")
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        await asyncio.to_thread(browser.guess, str(BEST))
        said, _ = await win_message(harness, before)
        shown = await asyncio.to_thread(browser.verdict, 20.0, noted)
    assert said.startswith("✅ Ann") and str(BEST) in said
    assert "Ann" in shown
    assert harness.services.table.of(GROUP) is None


async def test_a_refusal_is_shown_in_the_users_words(harness: Harness, browser: Browser):
    """One who left the group opens its round's link: the page shows no tile, only why, in
    her language (Russian), and says so in its lang."""
    current = await deal_known(harness, (8, 3, 8, 3))
    harness.telegram.leave(GROUP, EVE["id"])
    data = signed_for(EVE, current, harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        shown = await asyncio.to_thread(browser.verdict)
        assert await asyncio.to_thread(browser.tiles) == []
        assert await asyncio.to_thread(browser.language) == "ru"
    assert shown == "Видеть и решать раунды группы могут только её участники."


# --- Persian: right to left, Persian digits (issue 46) --------------------------------------------

SARA = {"id": 781, "is_bot": False, "first_name": "Sara", "language_code": "fa-IR"}
PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
# SCREENSHOTS=docs/screenshots keeps the pictures docs/ shows (docs/translating.md); else a
# test's own folder
SHOTS = "SCREENSHOTS"


def shots(tmp_path: Path) -> Path:
    return Path(os.environ.get(SHOTS) or tmp_path)


async def persian_page(harness: Harness, browser: Browser, game: str) -> tuple[Round, str]:
    current = await deal_game(harness, game)
    return current, signed_for(SARA, current, harness.telegram.token)


def page_direction(browser: Browser) -> tuple[str, str]:
    """The page's dir, and where its header's goal sits (right of the timer in rtl)."""
    found = browser.driver.execute_script(
        "const g = document.getElementById('goal').getBoundingClientRect();"
        "const t = document.getElementById('timer').getBoundingClientRect();"
        "return [document.documentElement.dir, g.left > t.left ? 'right' : 'left'];")
    return str(found[0]), str(found[1])


async def test_a_round_of_24_in_persian_reads_right_to_left(harness: Harness, browser: Browser,
                                                          tmp_path: Path):
    current, data = await persian_page(harness, browser, "24")
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        assert await asyncio.to_thread(browser.language) == "fa"
        assert await asyncio.to_thread(page_direction, browser) == ("rtl", "right")
        assert await asyncio.to_thread(browser.shown_tiles) == ["۸", "۳", "۸", "۳"]
        assert "۲۴" in await asyncio.to_thread(browser.text, "goal")
        await asyncio.to_thread(browser.tap, SOLUTION[:1])
        assert await asyncio.to_thread(browser.shown_tiles) == ["۸", "۳", "۸۳"]  # 8 over 3
        await asyncio.to_thread(browser.screenshot, shots(tmp_path) / "webapp-fa-24.png")
        await asyncio.to_thread(browser.tap, SOLUTION[1:])
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        await asyncio.to_thread(browser.submit)
        said, _ = await win_message(harness, before)
    # a group that chose no language speaks its speaker's: Persian, the expression isolated
    assert said.startswith("✅ Sara") and "\u2066۸÷(۳−۸÷۳)\u2069" in said
    assert harness.services.table.of(GROUP) is None


async def test_countdown_in_persian(harness: Harness, browser: Browser, tmp_path: Path):
    current, data = await persian_page(harness, browser, "countdown")
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        assert await asyncio.to_thread(browser.shown_tiles) == \
            [str(n).translate(PERSIAN) for n in (100, 25, 75, 50, 6, 3)]
        assert "۹۵۲" in await asyncio.to_thread(browser.text, "goal")
        await asyncio.to_thread(browser.tap, NEAR)
        answer = await asyncio.to_thread(browser.text, "answer")
        assert "۳۱۸" in answer and "۶۳۴" in answer and "\u2066۳۱۸\u2069" in \
            await asyncio.to_thread(browser.driver.execute_script,
                                    "return document.getElementById('answer').textContent")
        await asyncio.to_thread(browser.screenshot, shots(tmp_path) / "webapp-fa-countdown.png")
        await asyncio.to_thread(browser.tap, EXACT[len(NEAR):])
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        await asyncio.to_thread(browser.submit)
        said, _ = await win_message(harness, before)
    assert said.startswith("✅ Sara") and "\u2066((۱۰۰+۶)×۳×۷۵−۵۰)÷۲۵\u2069" in said


async def test_yahtzee_in_persian_takes_a_guess_in_persian_digits(harness: Harness,
                                                                 browser: Browser,
                                                                 tmp_path: Path):
    current, data = await persian_page(harness, browser, "yahtzee")
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text, data))
        rows = await asyncio.to_thread(browser.rolls)
        assert rows[3][:2] == ["۴", "۴۴۴۴۴"] and rows[3][5] == "۵۰"
        await asyncio.to_thread(browser.screenshot, shots(tmp_path) / "webapp-fa-yahtzee.png")
        before = len([s for s in harness.telegram.sent if s.chat_id == GROUP])
        await asyncio.to_thread(browser.guess, str(BEST).translate(PERSIAN))
        said, _ = await win_message(harness, before)
    assert said.startswith("✅ Sara") and str(BEST).translate(PERSIAN) in said


async def privately(harness: Harness, command: str) -> OpenRound:
    """`command` sent in Ann's private chat: the hand it dealt there."""
    harness.telegram.chat(ANN["id"], "private", None)
    await harness.send(ANN["id"], ANN, command, kind="private")
    first = harness.services.table.of(ANN["id"])
    assert first is not None
    return first


async def open_own_page(harness: Harness, browser: Browser, base: str, opened: OpenRound) -> None:
    """The page of a hand in Ann's private chat, as its own button opens it (signed with no
    start parameter)."""
    data = signed_for(ANN, opened.record, harness.telegram.token, start_param=None)
    await asyncio.to_thread(browser.open, page_address(base, ticket_of(opened.record).text, data))


async def tap_wrong(browser: Browser) -> None:
    """Every tile added, and sent: a miss for a hand whose sum is not 24."""
    await asyncio.to_thread(browser.tap, [[0, "+", 1]] * 3)
    await asyncio.to_thread(browser.submit)


async def test_a_private_pages_streak_goes_on_hand_after_hand(harness: Harness,
                                                                browser: Browser):
    """Issue 74: a streak in the Mini App. The page opened from the first hand's button in the
    private chat is tapped right, then shows the next hand by itself (no new page), which is
    tapped right too: the streak counts two. A storm's hand tapped wrong says so as a miss (not
    as a right answer, though it ended the hand), and the next hand follows."""
    chat, first = ANN["id"], await privately(harness, "/streak")
    async with page_server(harness) as base:
        await open_own_page(harness, browser, base, first)
        hand = [str(n) for n in first.record.hand]
        assert await asyncio.to_thread(browser.tiles) == hand
        await asyncio.to_thread(browser.tap, steps_to(first.record.hand))
        await asyncio.to_thread(browser.submit)
        assert "Ann wins" in await asyncio.to_thread(browser.verdict)
        assert await asyncio.to_thread(browser.verdict_kind) == "right"
        await asyncio.to_thread(browser.wait, lambda d: browser.tiles() != ["24"], 30.0)
        second = harness.services.table.of(chat)
        assert second is not None and second.id != first.id
        assert await asyncio.to_thread(browser.tiles) == [str(n) for n in second.record.hand]
        await asyncio.to_thread(browser.tap, steps_to(second.record.hand))
        await asyncio.to_thread(browser.submit)
        assert "Ann wins" in await asyncio.to_thread(browser.verdict)
        blocked = await asyncio.to_thread(browser.violations)
    streak = await harness.stores.streaks.streak_on(chat)
    assert streak is not None and streak.solved == 2
    assert blocked == []


async def test_a_storms_hand_tapped_wrong_is_a_miss_and_the_next_follows(harness: Harness,
                                                                        browser: Browser):
    chat, first = ANN["id"], await privately(harness, "/storm")
    assert sum(first.record.hand) != 24
    async with page_server(harness) as base:
        await open_own_page(harness, browser, base, first)
        await tap_wrong(browser)
        said = await asyncio.to_thread(browser.verdict)
        assert said.startswith("❌") and "−10 seconds" in said, said
        assert await asyncio.to_thread(browser.verdict_kind) == "wrong"
        await asyncio.to_thread(browser.wait, lambda d: len(browser.tiles()) == 4, 30.0)
        second = harness.services.table.of(chat)
        assert second is not None and second.id != first.id
        assert await asyncio.to_thread(browser.tiles) == [str(n) for n in second.record.hand]


async def test_a_storm_is_started_from_the_page_once_nothing_follows(harness: Harness,
                                                                    browser: Browser):
    """A streak's hand tapped wrong ends the streak: nothing follows, and the page offers the
    solo modes; ⛈ /storm tapped deals a storm's hand in the chat, which the page then shows."""
    chat, first = ANN["id"], await privately(harness, "/streak")
    assert sum(first.record.hand) != 24
    async with page_server(harness) as base:
        await open_own_page(harness, browser, base, first)
        assert not await asyncio.to_thread(browser.shown, "modes")
        await tap_wrong(browser)
        assert "Streak over" in await asyncio.to_thread(browser.verdict)
        await asyncio.to_thread(browser.wait, lambda d: browser.shown("modes"), 30.0)
        await asyncio.to_thread(browser.start_mode, "storm")
        await asyncio.to_thread(browser.wait, lambda d: len(browser.tiles()) == 4, 30.0)
        storm = await harness.stores.storms.storm_on(chat)
        current = harness.services.table.of(chat)
        assert storm is not None and current is not None and storm.round_id == current.id
        assert await asyncio.to_thread(browser.tiles) == [str(n) for n in current.record.hand]
        assert not await asyncio.to_thread(browser.shown, "modes")
        blocked = await asyncio.to_thread(browser.violations)
    assert blocked == []


async def test_the_page_from_the_menu_offers_the_modes_and_plays_one(harness: Harness,
                                                                    browser: Browser):
    """Opened from the bot's menu button (no round named) with nothing on in the chat: the
    page offers the modes; 🎯 /practice tapped deals a practice hand, which the page shows."""
    chat = ANN["id"]
    harness.telegram.chat(chat, "private", None)
    await harness.send(chat, ANN, "/start", kind="private")
    assert harness.services.table.of(chat) is None
    data = sign(user_fields(ANN["id"], ANN["first_name"], int(harness.services.rounds.clock()),
                            "en", None), harness.telegram.token)
    async with page_server(harness) as base:
        await asyncio.to_thread(browser.driver.get, f"{base}#tgWebAppData={quote(data, safe='')}")
        await asyncio.to_thread(browser.wait, lambda d: browser.shown("modes"), 30.0)
        await asyncio.to_thread(browser.start_mode, "practice")
        await asyncio.to_thread(browser.wait, lambda d: len(browser.tiles()) == 4, 30.0)
        current = harness.services.table.of(chat)
        assert current is not None
        assert await asyncio.to_thread(browser.tiles) == [str(n) for n in current.record.hand]
        assert "🎯" in [s for s in harness.telegram.sent if s.chat_id == chat][-1].text
        blocked = await asyncio.to_thread(browser.violations)
    assert blocked == []
