"""A player's page and a group's page (issue 47): the one request each page makes
(`POST /webapp/api/page`) answered from rounds played through the bot, on both backends; who may
see which page (the player alone; a group's current members), each refusal short and in the
asker's language; the rating's day-by-day history the pages draw, written with each rating and
gone with the person's /forget."""

from __future__ import annotations

import base64

import pytest

from bot.play.pages.days import day_of
from bot.webapp.init_data import sign, user_fields
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness
from tests.bot.webapp_support import ANN, EVE, GROUP, deal_known, hand_clock, page_server, post

OTHER_GROUP = -7702
RIGHT = "/a 8/(3-8/3)"


@pytest.fixture
def clock(harness: Harness) -> Clock:
    """The bot's game time and the pages' made the test's own."""
    clock = hand_clock(harness)
    harness.services.pages.clock = clock
    return clock


def opened(user: dict, clock: Clock, start_param: str | None = None,
           age: float = 0.0, token: str | None = None, h: Harness | None = None) -> str:
    """initData for the user, signed `age` seconds ago, from a Direct Link naming
    `start_param` (None: a private chat's web_app button)."""
    assert token is not None or h is not None
    return sign(user_fields(user["id"], user["first_name"], int(clock() - age),
                            user["language_code"], start_param), token or h.telegram.token)


async def played(h: Harness, clock: Clock) -> None:
    """A round of 24 in the group: Eve answers wrong, Ann right after 7 seconds; rated."""
    await deal_known(h, (8, 3, 8, 3))
    clock.now += 5
    await h.send(GROUP, EVE, "/a 8+3+8+3")
    clock.now += 2
    await h.send(GROUP, ANN, RIGHT)
    assert h.services.table.of(GROUP) is None, "Ann's answer won the round"


def kinds(page: dict) -> list[str]:
    return [section["kind"] for section in page["sections"]]


def section(page: dict, kind: str) -> dict:
    [found] = [s for s in page["sections"] if s["kind"] == kind]
    return found


@ON_BOTH_BACKENDS
async def test_a_players_page_shows_their_year(harness: Harness, clock: Clock):
    await played(harness, clock)
    async with page_server(harness) as base:
        status, page = await post(base, "api/page", {
            "init_data": opened(ANN, clock, h=harness), "page": f"u{ANN['id']}"})
    assert status == 200, page
    assert page["title"] == "Your games, Ann" and page["direction"] == "ltr"
    assert kinds(page) == ["rating", "games", "levels", "calendar", "records", "share",
                           "achievements"]
    [line] = section(page, "rating")["lines"]
    assert line["name"] == "24" and [day for day, _ in line["points"]] == [day_of(clock())]
    assert section(page, "rating")["today"] == day_of(clock())  # the axis ends today
    assert section(page, "games")["games"] == [{"name": "24", "rounds": 1, "wins": 1}]
    [level] = section(page, "levels")["rows"]
    assert level == {"name": "24 · easy", "rounds": 1, "share": 100, "share_text": "100%",
                     "median": "7.0 s"}
    calendar = section(page, "calendar")
    assert calendar["days"] == [[day_of(clock()), 1]] and calendar["to"] == day_of(clock())
    assert calendar["streaks"] == ["Days in a row now: 1", "Most days in a row: 1"]
    records = {item["label"]: item["value"] for item in section(page, "records")["items"]}
    assert records["Fastest win in 24"] == "7.0 s"
    assert records["Hardest hand solved"] == "8 3 8 3 → 24"  # as dealt
    badges = section(page, "achievements")
    assert [(b["code"], b["earned"], b["when"]) for b in badges["items"] if b["earned"]] == \
        [("first_win", True, day_of(clock()))]  # Eve answered too: the round counts
    assert len(badges["items"]) >= 12 and badges["items"][0]["name"] == "First win"
    assert badges["items"][1]["rule"] and not badges["items"][1]["earned"]
    assert "two people" in badges["note"]


@ON_BOTH_BACKENDS
async def test_a_groups_page_shows_its_season(harness: Harness, clock: Clock):
    await played(harness, clock)
    async with page_server(harness) as base:
        status, page = await post(base, "api/page", {
            "init_data": opened(ANN, clock, f"g{GROUP}", h=harness), "page": f"g{GROUP}"})
    assert status == 200, page
    assert kinds(page) == ["board", "records", "hands", "weeks", "achievements"]
    [badge] = section(page, "achievements")["items"]
    assert (badge["name"], badge["who"], badge["when"]) == ("First win", "Ann", day_of(clock()))
    board = section(page, "board")  # one round each: provisional, shown without a rank
    assert [(row["rank"], row["name"]) for row in board["rows"]] == \
        [(None, "Ann (provisional)"), (None, "Eve (provisional)")]
    assert all(len(row["trend"]) == 1 for row in board["rows"])
    assert board["rows"][0]["rating"] > board["rows"][1]["rating"]
    records = {item["label"]: (item["value"], item["detail"])
               for item in section(page, "records")["items"]}
    assert records["Fastest win in 24"] == ("7.0 s", "Ann")
    assert records["Most wins in 24"] == ("1", "Ann")
    [hand] = section(page, "hands")["items"]
    assert hand == {"label": "8 3 8 3 → 24", "hand": "label", "value": "7.0 s",
                    "detail": "24 · easy · Ann"}
    assert sum(section(page, "weeks")["weeks"]) == 1


async def test_pages_speak_persian_right_to_left(harness: Harness, clock: Clock):
    await played(harness, clock)
    reza = {**ANN, "language_code": "fa"}
    async with page_server(harness) as base:
        status, page = await post(base, "api/page", {
            "init_data": opened(reza, clock, h=harness), "page": f"u{ANN['id']}"})
    assert status == 200
    assert page["direction"] == "rtl" and page["digits"] == "۰۱۲۳۴۵۶۷۸۹"
    assert page["title"] == "بازی‌های شما، Ann"
    records = {item["label"]: item["value"] for item in section(page, "records")["items"]}
    assert "۷" in records["سریع‌ترین برد در ۲۴"]


@ON_BOTH_BACKENDS
async def test_who_may_see_which_page(harness: Harness, clock: Clock):
    """Forged data, another person's page, another group's page from a group's link, a member
    who left, data signed more than a day ago: each refused, nothing of the page shown, the
    refusal in the asker's words; a member and the player themself see theirs."""
    await played(harness, clock)
    await harness.stores.people.remember_chat(OTHER_GROUP, "group", "Other")
    ann = f"u{ANN['id']}"
    asked = [
        ("forged", {"init_data": opened(ANN, clock, token="1:another-bot"), "page": ann},
         403, "This link does not open this page."),
        ("another's page", {"init_data": opened(EVE, clock, h=harness), "page": ann},
         403, "Это чужая страница: отправьте /stats, чтобы открыть свою."),
        ("another group", {"init_data": opened(ANN, clock, f"g{GROUP}", h=harness),
                           "page": f"g{OTHER_GROUP}"}, 403, "This link does not open this page."),
        ("expired", {"init_data": opened(ANN, clock, age=2 * 86400, h=harness), "page": ann},
         403, "This page was opened too long ago: open it again from the chat."),
        ("no page", {"init_data": opened(ANN, clock, h=harness), "page": "u0"}, 400, None),
    ]
    async with page_server(harness) as base:
        for why, body, status, said in asked:
            got, answer = await post(base, "api/page", body)
            assert got == status and "sections" not in answer, why
            assert answer.get("said") == said or said is None, (why, answer)
        harness.telegram.leave(GROUP, EVE["id"])
        got, answer = await post(base, "api/page", {
            "init_data": opened(EVE, clock, f"g{GROUP}", h=harness), "page": f"g{GROUP}"})
        assert got == 403 and "sections" not in answer
        assert answer["said"] == "Видеть и решать раунды группы могут только её участники."
        got, answer = await post(base, "api/page", {
            "init_data": opened(ANN, clock, f"g{GROUP}", h=harness), "page": f"g{GROUP}"})
        assert got == 200 and answer["kind"] == "group"


@ON_BOTH_BACKENDS
async def test_the_rating_history_goes_with_the_person(harness: Harness, clock: Clock):
    """Each rated round writes the day's rating of each player, once a day (the day's last);
    /forget's erasure deletes the person's history and nobody else's."""
    await played(harness, clock)
    pages = harness.stores.pages
    [first] = await pages.rating_days(ANN["id"], "1970-01-01", ("24", "countdown"))
    await played(harness, clock)
    [again] = await pages.rating_days(ANN["id"], "1970-01-01", ("24", "countdown"))
    assert again.day == first.day and again.rating > first.rating
    assert (await harness.stores.ratings.player_ratings(ANN["id"], "24"))[0].rating == \
        pytest.approx(again.rating)
    await harness.stores.forgetting.forget_user(ANN["id"])
    assert await pages.rating_days(ANN["id"], "1970-01-01", ("24", "countdown")) == []
    assert len(await pages.rating_days(EVE["id"], "1970-01-01", ("24", "countdown"))) == 1


@ON_BOTH_BACKENDS
async def test_a_player_shares_their_season_as_a_card(harness: Harness, clock: Clock):
    """The page offers a card of each game rated this season; the card is a PNG of the
    player's own season, refused for another person's page, an unknown game, and a game not
    rated yet."""
    await played(harness, clock)
    mine = {"init_data": opened(ANN, clock, h=harness), "page": f"u{ANN['id']}"}
    async with page_server(harness) as base:
        _, page = await post(base, "api/page", mine)
        status, card = await post(base, "api/card", {**mine, "game": "24"})
        other = await post(base, "api/card", {"init_data": opened(EVE, clock, h=harness),
                                              "page": f"u{ANN['id']}", "game": "24"})
        unknown = await post(base, "api/card", {**mine, "game": "chess"})
        unrated = await post(base, "api/card", {**mine, "game": "yahtzee"})
    assert section(page, "share")["games"] == [{"game": "24", "name": "24"}]
    assert status == 200
    png = base64.b64decode(card["png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert other[0] == 403 and "png" not in other[1]
    assert unknown[0] == 400 and unrated[0] == 404


async def test_a_card_asked_again_is_not_drawn_again_until_its_figures_change(
        harness: Harness, clock: Clock):
    """Asked again and again with the same figures the card is one drawing (a flood of card
    requests within a person's budget costs a store read each, not a picture each); a round
    more changes its figures, and the next ask draws the new ones; /forget lets them go."""
    await played(harness, clock)
    mine = {"init_data": opened(ANN, clock, h=harness), "page": f"u{ANN['id']}", "game": "24"}
    drawn = harness.services.pages.drawn
    async with page_server(harness) as base:
        first = [await post(base, "api/card", mine) for _ in range(3)]
        assert drawn.drawings == 1
        await played(harness, clock)
        later = await post(base, "api/card", mine)
        again = await post(base, "api/card", mine)
    assert [status for status, _ in first] == [200] * 3
    assert len({answer["png"] for _, answer in first}) == 1
    assert later[0] == 200 and later[1]["png"] != first[0][1]["png"]
    assert again[1]["png"] == later[1]["png"] and drawn.drawings == 2
    assert drawn.holds(ANN["id"])
    await harness.services.community.privacy.forget(ANN["id"])
    assert not drawn.holds(ANN["id"])  # with the name, the pictures that show it


def test_a_percentage_is_written_as_the_language_writes_numbers():
    """The levels' share: Babel's format_percent writes the Latin "%" in every numbering
    system; Persian's is CLDR's arabext sign ٪, with Persian digits, as the page's other
    numbers (issue 55)."""
    from babel.numbers import format_percent

    from bot.text.i18n import texts_for
    persian = texts_for("fa")
    assert format_percent(0.5, locale=persian.locale, numbering_system="default") == "50%"
    assert persian.percent(0.5) == "۵۰٪" and persian.percent(1) == "۱۰۰٪"
    assert persian.locale.number_symbols["arabext"]["percentSign"] == "٪"
    assert texts_for("en").percent(0.07) == "7%" and texts_for("tr").percent(0.5) == "%50"
    assert texts_for("fr").percent(0.5) == "50\u00a0%"


def test_a_round_won_closest_is_not_read_as_solved():
    """Where the closest answer wins (Countdown, Yahtzee) a round won need not be solved: the
    levels' share says "exact", so "1 win in 1 round" beside it no longer reads as "0 %
    solved"; where only a right answer wins (24), the share is the bare percentage."""
    from bot.play.games import GAMES
    from bot.play.pages.player import levels_section
    from bot.store.sql.pages import LevelYear
    from bot.text.i18n import texts_for

    closest = sorted(name for name, game in GAMES.items() if game.rules.closest_wins)
    assert "yahtzee" in closest and "countdown" in closest
    rows = levels_section(texts_for("en"), [LevelYear(name, "", 1, 0, None) for name in closest]
                          + [LevelYear("24", "easy", 2, 1, 7.0)])["rows"]
    shown = {row["name"]: row["share_text"] for row in rows}
    assert shown.pop("24 · easy") == "50%"
    assert sorted(shown.values()) == ["0% exact"] * len(closest)
    persian = levels_section(texts_for("fa"), [LevelYear("yahtzee", "", 4, 1, None)])["rows"]
    assert persian[0]["share_text"].startswith("۲۵")  # the language's digits, then its word


async def test_pages_and_cards_are_read_with_the_bot_s_spare_time(harness: Harness, clock: Clock,
                                                                  monkeypatch):
    """A player's page, a group's and a card are each read in the asker's lane of pages (the
    bot's slack: bot.telegram.fairness), not in a chat's turn and not outside the turns."""
    await played(harness, clock)
    face, lanes = harness.bot.face, []
    submit = face.submit

    async def recording(user_id, chat_id, work, page=False):
        lanes.append((user_id, page))
        await submit(user_id, chat_id, work, page=page)

    monkeypatch.setattr(face, "submit", recording)
    mine = {"init_data": opened(ANN, clock, h=harness), "page": f"u{ANN['id']}"}
    group = {"init_data": opened(ANN, clock, f"g{GROUP}", h=harness), "page": f"g{GROUP}"}
    async with page_server(harness) as base:
        answers = [await post(base, "api/page", mine), await post(base, "api/page", group),
                   await post(base, "api/card", {**mine, "game": "24"})]
    assert [status for status, _ in answers] == [200] * 3
    assert lanes == [(ANN["id"], True)] * 3
