"""A daily puzzle result as a share card (issue 47), on both backends through the real
Application: the player's page offers their latest daily result beside the seasons' cards;
`POST /webapp/api/card` with `card: "daily"` draws only the asker's own result of a day they
have one of (their latest unless a day is named), its tiles face down while the day is live and
the numbers from its midnight (UTC) on; forged, foreign and expired init data, a day without a
result and a day that is no date are refused; and the daily result's message in a private chat
offers a button that opens the page on that card."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from bot.play.cards import DailyCard, daily_card
from bot.play.daily.daily import daily_number
from bot.play.daily.puzzle import DAY as DAY_SECONDS
from bot.play.daily.puzzle import day_start
from bot.play.pages.days import day_of
from bot.runtime.doors import Doors, Limits
from bot.runtime.pool import SolverPool
from bot.webapp.server import CSP
from bot.webapp.settings import WebappSettings
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness, make_config, running
from tests.bot.play.pages.test_pages import opened
from tests.bot.webapp_support import ANN, EVE, page_server, post

DAY = "2030-03-01"
NEXT = "2030-03-02"
SOLVED_AT = 3600 + 42  # seconds into the day Ann's right answer arrives
FAKE = (1, 1, 1, 1)  # a hand of as many tiles that was never dealt


@pytest.fixture
def clock(harness: Harness) -> Clock:
    """The daily puzzle's time, the pages' and the Mini App's made the test's: an hour into
    DAY."""
    clock = Clock(day_start(DAY) + 3600)
    harness.services.table.clock = clock
    harness.services.community.daily.clock = clock
    harness.services.community.daily.hands.clock = clock
    harness.services.pages.clock = clock
    # these tests ask for a card after a card, far faster than a person taps: a budget that
    # never refuses them (the budget itself is tests/bot/webapp/test_door.py's)
    harness.bot.face.doors = Doors(person=Limits(rate=1000.0, burst=1000.0, at_once=100))
    return clock


async def solve_daily(h: Harness, user: dict, clock: Clock, seconds: float) -> tuple[int, ...]:
    """The user solves today's daily puzzle in their private chat, `seconds` into the day:
    its hand."""
    daily = h.services.community.daily
    hand = daily.hand_now()
    clock.now = day_start(day_of(clock())) + seconds
    await h.send(user["id"], user, f"/daily {solve(list(hand))[0]}", kind="private")
    assert "✅" in (await h.telegram.reply(user["id"])).text
    return hand


def mine(h: Harness, clock: Clock, user: dict = ANN, **asked: object) -> dict:
    return {"init_data": opened(user, clock, h=h), "page": f"u{user['id']}", **asked}


def drawn(answer: dict) -> bytes:
    return base64.b64decode(answer["png"])


def share_of(page: dict) -> dict:
    [found] = [s for s in page["sections"] if s["kind"] == "share"]
    return found


@ON_BOTH_BACKENDS
async def test_the_latest_daily_result_as_a_card(harness: Harness, clock: Clock):
    """Offered on the page; while its day lasts the card is the same picture whatever the hand
    (tiles face down); from midnight the day's numbers; a later day's result is then the
    latest, and the first day is still asked by name, its streak as it stood."""
    hand = await solve_daily(harness, ANN, clock, SOLVED_AT)
    card = DailyCard("Ann", DAY, SOLVED_AT, 1, hand, 24, "24")
    async with page_server(harness) as base:
        status, page = await post(base, "api/page", mine(harness, clock))
        assert status == 200
        assert share_of(page)["daily"] == {
            "day": DAY, "game": "24", "name": f"Daily puzzle #{daily_number(DAY)} · 24 · {DAY}"}
        status, live = await post(base, "api/card", mine(harness, clock, card="daily"))
        assert status == 200, live
        assert drawn(live) == daily_card(card, "en", clock())
        assert drawn(live) == daily_card(DailyCard("Ann", DAY, SOLVED_AT, 1, FAKE, 24, "24"), "en",
                                         clock())  # nothing of the hand on it

        clock.now = day_start(DAY) + DAY_SECONDS + 60  # midnight passed: the day is over
        _, after = await post(base, "api/card", mine(harness, clock, card="daily", day=DAY))
        assert drawn(after) == daily_card(card, "en", clock())
        assert drawn(after) != daily_card(DailyCard("Ann", DAY, SOLVED_AT, 1, FAKE, 24, "24"), "en",
                                          clock())

        following = await solve_daily(harness, ANN, clock, 7200)
        _, page = await post(base, "api/page", mine(harness, clock))
        assert share_of(page)["daily"]["day"] == NEXT
        _, latest = await post(base, "api/card", mine(harness, clock, card="daily"))
        assert drawn(latest) == daily_card(
            DailyCard("Ann", NEXT, 7200, 2, following, 24, "24"), "en", clock())
        _, first = await post(base, "api/card", mine(harness, clock, card="daily", day=DAY))
        assert drawn(first) == drawn(after)  # its streak as it stood that day: 1


@ON_BOTH_BACKENDS
async def test_only_ones_own_daily_result_is_drawn(harness: Harness, clock: Clock):
    """Forged, another person's, expired: refused as a page is. A day without a result of the
    asker's (though someone else solved it), or a player with none at all: 404 in their words.
    A day that is no date: 400. Whatever else the request names, the card is the asker's."""
    await solve_daily(harness, ANN, clock, SOLVED_AT)
    eve_hand = await solve_daily(harness, EVE, clock, SOLVED_AT + 600)
    ann = f"u{ANN['id']}"
    daily = {"card": "daily", "day": DAY}
    asked = [
        ("forged", {"init_data": opened(ANN, clock, token="1:another-bot"), "page": ann,
                    **daily}, 403, "This link does not open this page."),
        ("another's card", {"init_data": opened(EVE, clock, h=harness), "page": ann, **daily},
         403, "Это чужая страница: отправьте /stats, чтобы открыть свою."),
        ("expired", {"init_data": opened(ANN, clock, age=2 * 86400, h=harness), "page": ann,
                     **daily}, 403, "This page was opened too long ago: open it again from "
                                    "the chat."),
        ("a day without a result", mine(harness, clock, card="daily", day="2030-02-28"), 404,
         "You have no daily puzzle result for that day."),
        ("no date", mine(harness, clock, card="daily", day="2030-02-30"), 400, None),
        ("no day", mine(harness, clock, card="daily", day=["2030-03-01"]), 400, None),
        ("no such card", mine(harness, clock, card="week"), 400, None),
    ]
    async with page_server(harness) as base:
        for why, body, status, said in asked:
            got, answer = await post(base, "api/card", body)
            assert got == status and "png" not in answer, (why, got, answer)
            assert said is None or answer.get("said") == said, (why, answer)
        await harness.stores.forgetting.forget_user(EVE["id"])
        got, answer = await post(base, "api/card", mine(harness, clock, EVE, card="daily"))
        assert got == 404 and answer["said"] == "У вас нет результата в задаче дня за этот день."
        got, answer = await post(base, "api/card", {**mine(harness, clock, card="daily"),
                                                     "user": EVE, "user_id": EVE["id"]})
        assert got == 200
        assert drawn(answer) == daily_card(
            DailyCard("Ann", DAY, SOLVED_AT, 1, eve_hand, 24, "24"), "en", clock())
        async with httpx.AsyncClient(timeout=30) as client:  # the page's policy, kept
            response = await client.post(base + "api/card", content=json.dumps(
                mine(harness, clock, card="daily")))
        assert response.headers["Content-Security-Policy"] == CSP


SETTINGS = WebappSettings(url="https://bot.example.org/webapp/", short_name="tap24", port=0)


async def test_the_daily_result_offers_its_card(telegram: BotApiEmulator, pool: SolverPool,
                                               tmp_path):
    """Under a right /daily in a private chat: Share, and the result as a picture (the page
    opened on the daily card); in a group, where the result is said without the answer, not."""
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config, webapp=SETTINGS) as h:
        hand = h.services.community.daily.hand_now()
        await h.send(ANN["id"], ANN, f"/daily {solve(list(hand))[0]}", kind="private")
        reply = await h.telegram.reply(ANN["id"])
        rows = reply.reply_markup["inline_keyboard"]
        assert [button["text"] for row in rows for button in row] == [
            "📤 Share", "🖼 Result as a picture"]
        assert rows[1][0]["web_app"] == {"url": f"{SETTINGS.url}?page=u{ANN['id']}&card=daily"}
        await h.send(-7701, ANN, "/daily")
        said = await h.telegram.reply(-7701)
        assert "Result as a picture" not in json.dumps(said.reply_markup or {})


@ON_BOTH_BACKENDS
async def test_a_game_s_daily_result_as_a_card_with_its_own_target(harness: Harness,
                                                                    clock: Clock):
    """Krypto's daily solved after 24's: the page offers the one solved last (its game named),
    its card draws the day's own target card, and a day or game of no result, or a game without
    a daily, is refused."""
    daily = harness.services.community.daily
    solve_daily_hand = await solve_daily(harness, ANN, clock, SOLVED_AT)
    hand, target = daily.hands.puzzle(DAY, "krypto")
    clock.now = day_start(DAY) + SOLVED_AT + 60
    await harness.send(ANN["id"], ANN, f"/daily krypto {solve(list(hand), target)[0]}",
                       kind="private")
    assert "✅" in (await harness.telegram.reply(ANN["id"])).text
    async with page_server(harness) as base:
        _, page = await post(base, "api/page", mine(harness, clock))
        assert share_of(page)["daily"] == {"day": DAY, "game": "krypto", "name": (
            f"Daily puzzle #{daily_number(DAY)} · Krypto · {DAY}")}
        clock.now = day_start(NEXT) + 10  # the day over: the numbers and the target shown
        status, krypto = await post(base, "api/card", mine(harness, clock, card="daily",
                                                            day=DAY, game="krypto"))
        assert status == 200
        assert drawn(krypto) == daily_card(DailyCard("Ann", DAY, SOLVED_AT + 60, 1, hand,
                                                     target, "krypto"), "en", clock())
        _, first = await post(base, "api/card", mine(harness, clock, card="daily", day=DAY))
        assert drawn(first) == daily_card(DailyCard("Ann", DAY, SOLVED_AT, 1, solve_daily_hand,
                                                    24, "24"), "en", clock())
        assert drawn(first) != drawn(krypto)
        for game, said in (("make10", 404), ("countdown", 400), ("nothing", 400), (7, 400)):
            status, _ = await post(base, "api/card", mine(harness, clock, card="daily",
                                                          day=DAY, game=game))
            assert status == said, game
