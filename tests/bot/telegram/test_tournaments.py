"""/tournament through the real Application, on each backend: made in one group, joined from
another by its link's /start, followed from a private chat, started; the same hand dealt to both
by the housekeeping's look; then the live-hand rule for everyone — /solve, a disguised ask (the
numbers in another order, with a number more, less one with another target), inline, a button's
page of solutions, the Mini App — and a person in two groups, until the round closed in every
group; then the board in each group and in the follower's chat."""

from __future__ import annotations

import re

import pytest
from telegram import Update

from bot.play.rules import Deal
from bot.play.tournaments.schedule import Schedule
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.webapp_support import SOLUTION, page_server, post, signed_for

RED, BLUE = -8101, -8102
ANN = {"id": 811, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 812, "is_bot": False, "first_name": "Ben", "language_code": "en"}
CY = {"id": 813, "is_bot": False, "first_name": "Cy", "language_code": "en"}
EVE = {"id": 819, "is_bot": False, "first_name": "Eve", "language_code": "en"}  # in no group
# every group's anonymous admins, as Telegram sends them (the group itself the sender_chat)
GROUP_ADMIN = {"id": 1087968824, "is_bot": True, "first_name": "Group",
               "username": "GroupAnonymousBot"}
HAND = (8, 3, 8, 3)


@pytest.fixture(autouse=True)
def known_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament deals 3 8 3 8 (the Mini App's steps below solve it)."""
    async def draw(self: Schedule, tournament: object, level: str, used: set) -> Deal:
        return Deal("24", HAND, 24, "medium", 20)
    monkeypatch.setattr(Schedule, "_draw", draw)


async def made_and_joined(h: Harness) -> str:
    """A tournament made in Red by its creator, joined from Blue through the join link (the
    /start Telegram sends the group), followed in Eve's private chat; its code."""
    h.telegram.chat(RED, "supergroup", "Red")
    h.telegram.chat(BLUE, "supergroup", "Blue")
    h.telegram.promote(RED, ANN["id"], "creator")
    h.telegram.promote(BLUE, BEN["id"], "creator")
    await h.send(RED, ANN, "/tournament new Friday Cup rounds=2 seconds=60 in 30")
    made = await h.telegram.reply(RED)
    assert "Friday Cup" in made.text and "2 rounds of 24" in made.text
    code = re.search(r"Code: ([A-Z0-9]{6})", made.text)
    assert code is not None, made.text
    join = made.reply_markup["inline_keyboard"][0][0]["url"]
    assert join.endswith(f"?startgroup=t_{code.group(1)}")
    await h.send(BLUE, BEN, f"/start t_{code.group(1)}")
    assert "This group joined <b>Friday Cup</b> (2 groups so far)" in \
        (await h.telegram.reply(BLUE)).html
    await h.send(EVE["id"], EVE, f"/start f_{code.group(1)}", kind="private")
    assert "follows" in (await h.telegram.reply(EVE["id"])).text
    return code.group(1)


async def started(h: Harness) -> None:
    await h.send(BLUE, BEN, "/tournament start")
    assert "Only the group that made" in (await h.telegram.reply(BLUE)).text
    await h.send(RED, ANN, "/tournament start")
    assert "starts now, with 2 groups" in (await h.telegram.reply(RED)).text
    red = await h.telegram.reply(RED, timeout=20)  # the housekeeping's next look deals
    blue = await h.telegram.reply(BLUE, timeout=20)
    for deal in (red, blue):
        assert "Friday Cup: round 1 of 2" in deal.text and "<code>8</code>" in deal.html


async def refused(h: Harness, chat: int, user: dict, text: str, kind: str = "group") -> str:
    await h.send(chat, user, text, kind=kind)
    return (await h.telegram.reply(chat)).text


@ON_BOTH_BACKENDS
async def test_a_live_tournament_hand_is_refused_to_everyone_until_every_group_closed(
        harness: Harness):
    h = harness
    await made_and_joined(h)
    await started(h)
    for chat in (RED, BLUE):
        h.telegram.leave(chat, EVE["id"])  # Eve is in no group: refused all the same
    eve = EVE["id"]
    for ask in ("/solve 8 3 8 3", "/solve 3 3 8 8", "/solve 8 3 8 3 1", "/solve 8 3 8 = 16",
                "/solve 3 8 3 8 = 24"):
        assert "being played in a tournament" in await refused(h, eve, EVE, ask, "private"), ask
    assert "solution" in await refused(h, eve, EVE, "/solve 4 6 1 1", "private")  # another hand
    answered = await h.inline(EVE, "3 8 8 3")
    assert [r["id"] for r in answered.results] == ["live"]
    assert int(answered.params["cache_time"]) == 0
    # a person in both groups plays for the first they answer in
    await h.send(BLUE, CY, "/a 8+8+3+3")  # a wrong answer: into the deal's status
    assert "you play this tournament for Blue" in await refused(
        h, RED, CY, f"/a {solve(HAND)[0]}")
    # Red wins: its result shows no answer, no Show all solutions, and the hand stays live
    await h.send(RED, ANN, f"/a {solve(HAND)[0]}")
    won = await h.telegram.reply(RED)
    assert "Ann" in won.text and solve(HAND)[0] not in won.text
    assert "every group has played it" in won.text
    labels = [b["text"] for row in (won.reply_markup or {}).get("inline_keyboard", [])
              for b in row]
    assert not labels, labels
    assert "being played in a tournament" in await refused(h, RED, ANN, "/solve 8 3 8 3")
    # the Mini App: Ann, who plays for Red, answers Blue's round on its page: refused there
    current = h.services.rounds.open_round(BLUE)
    assert current is not None
    async with page_server(h) as base:
        ticket = f"{BLUE}_0_{current.id}"
        status, judged = await post(base, "api/answer", {
            "init_data": signed_for(ANN, current, h.telegram.token), "round": ticket,
            "steps": SOLUTION})
    assert status == 200 and not judged["right"] and "for Red" in judged["text"], judged
    # Blue closes (Cy wins it): the board in both groups and the follower's chat, the answers
    await h.send(BLUE, CY, f"/a {solve(HAND)[0]}")
    assert "Cy" in (await h.telegram.reply(BLUE)).text
    red_board = await h.telegram.reply(RED, timeout=20)
    blue_board = await h.telegram.reply(BLUE, timeout=20)
    eve_board = await h.telegram.reply(eve, timeout=20)
    for board in (red_board, blue_board, eve_board):
        assert "round 1 of 2 is over in every group" in board.text
        assert "8/(3-8/3)" in board.text.replace(" ", "") or "8÷(3−8÷3)" in board.text
    assert "Here: Ann solved it" in red_board.text and "Here: Cy solved it" in blue_board.text
    assert "Here:" not in eve_board.text
    assert "solution" in await refused(h, eve, EVE, "/solve 8 3 8 3", "private")


async def test_only_a_groups_admin_makes_or_joins_and_usage(harness: Harness):
    h = harness
    h.telegram.chat(RED, "supergroup", "Red")
    await h.send(RED, ANN, "/tournament new")
    assert "Only an admin" in (await h.telegram.reply(RED)).text
    await h.send(RED, ANN, "/tournament new rounds=99")
    assert "out of range" in (await h.telegram.reply(RED)).text
    await h.send(RED, ANN, "/tournament dance")
    assert "Usage: /tournament new" in (await h.telegram.reply(RED)).text
    for word in ("join", "follow", "JOIN"):  # the code forgotten: said so, not "don't know"
        await h.send(RED, ANN, f"/tournament {word}")
        said = (await h.telegram.reply(RED)).text
        assert f"{word.lower()} needs the tournament's code after it" in said, said
        assert "Usage: /tournament new" in said and "understand" not in said
    await h.send(ANN["id"], ANN, "/tournament new", kind="private")
    assert "between groups" in (await h.telegram.reply(ANN["id"])).text
    await h.send(RED, ANN, "/tournament")
    assert "No tournament here" in (await h.telegram.reply(RED)).text


async def test_paid_broadcasts_carry_the_deals_where_the_operator_allows_them(
        telegram, pool, tmp_path):
    """PAID_BROADCAST on: a tournament's deals go with allow_paid_broadcast; the rest do not
    (they are not a broadcast), nor does anything with it off."""
    import dataclasses

    from tests.bot.conftest import make_config, running
    config = dataclasses.replace(make_config(telegram, tmp_path / "b.sqlite3"),
                                 paid_broadcast=True)
    async with running(telegram, pool, config) as h:
        await made_and_joined(h)
        await started(h)
    sent = [params for method, params, _ in telegram.calls if method == "sendMessage"]
    deals = [p for p in sent if "round 1 of 2, the same hand" in str(p.get("text"))]
    assert len(deals) == 2 and all(str(p.get("allow_paid_broadcast")).lower() == "true"
                                   for p in deals)
    others = [p for p in sent if p not in deals]
    assert others and not any(p.get("allow_paid_broadcast") for p in others)


@ON_BOTH_BACKENDS
async def test_a_tournaments_page_is_for_those_it_concerns(harness: Harness):
    """The page (api/page) names its tournament by its id, and ids are sequential: `t<id>` alone
    opens it to a member of one of its groups or of a chat that follows it (Telegram asked),
    and to nobody else, refused in their words; `t<id>_<its code>`, the key the bot's own links
    carry, opens it to whoever holds it, a Direct Link's too. An unknown tournament is said to
    be nothing; an unsigned request is refused."""
    import time

    from bot.webapp.init_data import sign, user_fields
    h = harness
    code = await made_and_joined(h)
    green = -8103
    h.telegram.chat(green, "supergroup", "Green")
    h.telegram.promote(green, CY["id"])
    await h.send(green, CY, f"/start f_{code}")  # Green follows it (its admin chose to)
    assert "follows" in (await h.telegram.reply(green)).text
    stranger = {"id": 817, "is_bot": False, "first_name": "Sasha", "language_code": "ru"}
    greta = {"id": 818, "is_bot": False, "first_name": "Greta", "language_code": "en"}
    for user in (stranger, greta, EVE):
        for chat in (RED, BLUE):
            h.telegram.leave(chat, user["id"])
    h.telegram.leave(green, stranger["id"])

    def signed(user: dict, start_param: str | None = None) -> str:
        return sign(user_fields(user["id"], user["first_name"], int(time.time()),
                                user["language_code"], start_param), h.telegram.token)

    async with page_server(h) as base:
        status, refused = await post(base, "api/page", {"init_data": signed(stranger),
                                                        "page": "t1"})
        assert status == 403 and "sections" not in refused, refused
        assert refused["said"] == ("Страницу турнира видят только его группы и чаты, которые за "
                                   "ним следят: откройте её из сообщения турнира в своём чате.")
        for who, asked, start in ((BEN, "t1", None),  # in Blue
                                  (greta, "t1", None),  # in Green, which follows it
                                  (EVE, "t1", None),  # her private chat follows it
                                  (stranger, f"t1_{code}", None),  # the key
                                  (stranger, f"t1_{code}", f"t1_{code}")):  # a Direct Link's
            status, page = await post(base, "api/page", {"init_data": signed(who, start),
                                                         "page": asked})
            assert status == 200 and page["title"] == "Friday Cup", (who, asked, page)
            assert page["sections"][0]["kind"] == "about"
        for asked, start in (("t1_ZZZZZZ", None), (f"t1_{code}", "t1")):  # a wrong key; a link
            status, refused = await post(base, "api/page", {  # for another page
                "init_data": signed(stranger, start), "page": asked})
            assert status == 403 and "sections" not in refused, (asked, refused)
        status, refused = await post(base, "api/page", {"init_data": signed(EVE), "page": "t9"})
        assert status == 404 and refused["said"] == "Nothing here yet: play a round first."
        status, _ = await post(base, "api/page", {"init_data": "forged", "page": "t1"})
        assert status == 403


async def as_the_group(h: Harness, chat: int, text: str, update_id: int) -> None:
    """An anonymous admin of the group writes: Telegram sends GroupAnonymousBot, with the group
    as the message's sender_chat."""
    message = await h.telegram.say(chat, GROUP_ADMIN, text)
    message["sender_chat"] = message["chat"]
    h.telegram.updates.clear()
    await h.app.process_update(Update.de_json({"update_id": update_id, "message": message},
                                              h.app.bot))


@ON_BOTH_BACKENDS
async def test_each_groups_anonymous_admins_play_for_their_own_group(harness: Harness):
    """Blue's anonymous admin answers first; Red's then wins Red's round (not refused as one
    who plays for Blue: the id is every group's), and Blue's still plays Blue's."""
    h = harness
    await made_and_joined(h)
    await started(h)
    await as_the_group(h, BLUE, "/a 8+8+3+3", 90_001)  # wrong: into Blue's deal's status
    await as_the_group(h, RED, f"/a {solve(HAND)[0]}", 90_002)
    won = await h.telegram.reply(RED)
    assert "Group" in won.text and "solves it" in won.text, won.text
    assert "you play this tournament" not in won.text
    await as_the_group(h, BLUE, f"/a {solve(HAND)[0]}", 90_003)
    won = await h.telegram.reply(BLUE)
    assert "Group" in won.text and "solves it" in won.text, won.text


@ON_BOTH_BACKENDS
async def test_a_group_follows_as_its_admin_asks_and_unfollows(harness: Harness):
    """/tournament follow in a group is its admins' (a member is told where to follow it
    alone), so is the follow link's /start typed there; /tournament unfollow with no code
    unfollows every one the chat follows, naming them; /help says so."""
    h = harness
    code = await made_and_joined(h)
    chess = -8103
    h.telegram.chat(chess, "supergroup", "Chess")
    for asked in (f"/tournament follow {code}", f"/start f_{code}", "/tournament unfollow"):
        said = await refused(h, chess, CY, asked)
        assert "Only an admin of this group" in said and "private chat" in said, asked
    h.telegram.promote(chess, CY["id"])
    assert "follows" in await refused(h, chess, CY, f"/tournament follow {code.lower()}")
    assert await refused(h, chess, CY, "/tournament unfollow") == \
        "🔕 This chat no longer follows Friday Cup."
    assert await refused(h, chess, CY, f"/tournament unfollow {code}") == \
        "This chat does not follow Friday Cup."
    eve = EVE["id"]
    assert "no longer follows Friday Cup" in await refused(h, eve, EVE, "/tournament unfollow",
                                                           "private")
    help_text = await refused(h, eve, EVE, "/help", "private")
    assert "/tournament unfollow" in help_text
    await h.send(RED, ANN, "/tournament dance")
    assert "/tournament unfollow [CODE]" in (await h.telegram.reply(RED)).text
