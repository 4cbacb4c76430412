"""What the Mini App trusts (issue 35, item 6), attacked from another account, another chat, a
forged start parameter and a stale round: a private round's page opens for that chat's own person
alone, whatever the start parameter says and whatever a membership check would answer; a group's
live hand is shown to its members only (checked before showing, as before answering); every
response carries a Content-Security-Policy that lets only Telegram's web clients frame the page,
and a charset."""

from __future__ import annotations

import httpx
import pytest

from bot.webapp.server import CSP
from tests.bot.conftest import Clock, Harness
from tests.bot.webapp_support import (
    ANN,
    EVE,
    GROUP,
    SOLUTION,
    deal_known,
    hand_clock,
    page_server,
    post,
    sent_to,
    signed_for,
)

OTHER_GROUP = -7702


@pytest.fixture
def clock(harness: Harness) -> Clock:
    return hand_clock(harness)


def asked_about(h: Harness, chat: int) -> list[dict]:
    """The getChatMember calls the bot made about the chat."""
    return [params for method, params, _ in h.telegram.calls
            if method == "getChatMember" and int(params.get("chat_id", 0)) == chat]


async def always_in(chat_id: int, user_id: int) -> bool:
    return True  # a membership source that grants everyone: the page must not rest on it


@pytest.mark.parametrize("how", ["forged start parameter", "no start parameter"])
async def test_a_private_round_opens_only_for_its_own_person(harness: Harness, clock: Clock,
                                                            how: str):
    """Eve crafts Ann's private round's start parameter (`<Ann's id>_0_<round>`: Telegram signs
    whatever the link said), or opens the page with Ann's round in its URL: both endpoints
    refuse her, nothing of the hand is shown, nothing is judged — even were every membership
    check to say yes — and Telegram is never asked about a private chat. Ann herself opens it."""
    private = ANN["id"]
    current = await deal_known(harness, (8, 3, 8, 3), chat=private)
    ticket = f"{private}_0_{current.id}"
    token = harness.telegram.token
    eves = signed_for(EVE, current, token, start_param=ticket if how.startswith("forged")
                      else None)
    harness.bot.face.belongs = always_in
    sent_before = sent_to(harness, private)
    async with page_server(harness) as base:
        for path in ("api/round", "api/answer"):
            status, said = await post(base, path, {"init_data": eves, "round": ticket,
                                                   "steps": SOLUTION})
            assert status == 403 and "puzzle" not in said, (path, said)
            assert said["said"] == "Эта страница не может открыть этот раунд."  # Eve's Russian
        assert await harness.stores.rounds.answerers(current.id) == []
        assert sent_to(harness, private) == sent_before
        assert asked_about(harness, private) == []
        anns = signed_for(ANN, current, token, start_param=None)  # her web_app button
        status, shown = await post(base, "api/round", {"init_data": anns, "round": ticket})
        assert status == 200 and shown["puzzle"]["tiles"] == [8, 3, 8, 3]
        status, judged = await post(base, "api/answer", {"init_data": anns, "round": ticket,
                                                         "steps": SOLUTION})
        assert status == 200 and judged["right"]
    assert asked_about(harness, private) == []


async def test_a_groups_hand_is_shown_to_its_members_only(harness: Harness, clock: Clock):
    """The round endpoint checks membership before it shows a hand: one who left the group
    sees nothing (in her own words why), one Telegram can't place is told to try again, a
    member sees the round."""
    current = await deal_known(harness, (8, 3, 8, 3))
    ticket = f"{GROUP}_0_{current.id}"
    token = harness.telegram.token
    harness.telegram.leave(GROUP, EVE["id"])
    async with page_server(harness) as base:
        status, said = await post(base, "api/round", {
            "init_data": signed_for(EVE, current, token), "round": ticket})
        assert status == 403 and "puzzle" not in said
        assert said["said"] == "Видеть и решать раунды группы могут только её участники."
        assert said["language"] == "ru"

        async def unknown(chat_id: int, user_id: int) -> None:
            return None  # Telegram can't tell now

        asks_telegram = harness.bot.face.belongs
        harness.bot.face.belongs = unknown
        status, said = await post(base, "api/round", {
            "init_data": signed_for(ANN, current, token), "round": ticket})
        assert status == 503 and "puzzle" not in said
        harness.bot.face.belongs = asks_telegram
        status, shown = await post(base, "api/round", {
            "init_data": signed_for(ANN, current, token), "round": ticket})
        assert status == 200 and shown["puzzle"]["tiles"] == [8, 3, 8, 3]


async def test_a_link_to_one_group_opens_no_other(harness: Harness, clock: Clock):
    """Another chat: Ann's Direct Link to her group's round, posted with the round of another
    group she is also in, is refused on both endpoints and shows nothing of its hand."""
    mine = await deal_known(harness, (8, 3, 8, 3))
    theirs = await deal_known(harness, (1, 2, 3, 4), chat=OTHER_GROUP)
    data = signed_for(ANN, mine, harness.telegram.token)
    sent_before = sent_to(harness, OTHER_GROUP)
    async with page_server(harness) as base:
        for path in ("api/round", "api/answer"):
            status, said = await post(base, path, {
                "init_data": data, "round": f"{OTHER_GROUP}_0_{theirs.id}",
                "steps": [[0, "*", 1], [0, "*", 1], [0, "*", 1]]})
            assert status == 403 and "puzzle" not in said, path
    assert await harness.stores.rounds.answerers(theirs.id) == []
    assert sent_to(harness, OTHER_GROUP) == sent_before


def policy(header: str) -> dict[str, list[str]]:
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {words[0]: words[1:] for words in directives}


async def test_every_response_has_its_policy_and_charset(harness: Harness, clock: Clock):
    """The page, its script and style, the API's answers and its refusals: each with a
    Content-Security-Policy whose frame-ancestors are Telegram's web clients alone (no other
    site may frame the page to click through it), scripts from the page and Telegram only, no
    inline script; and a charset in each Content-Type."""
    current = await deal_known(harness, (8, 3, 8, 3))
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        responses = [await client.get(base + path) for path in ("", "app.js", "app.css")]
        responses += [await client.post(base + "api/round", json={
            "init_data": data, "round": f"{GROUP}_0_{current.id}"})]
        responses += [await client.post(base + "api/round", json={"init_data": "forged"})]
        responses += [await client.get(base + "api/round")]  # not a POST: 405
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 403, 405]
    for response in responses:
        assert response.headers["Content-Security-Policy"] == CSP, response.url
        assert "charset=utf-8" in response.headers["Content-Type"].lower().replace(" ", "")
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    rules = policy(CSP)
    assert rules["frame-ancestors"] == ["https://web.telegram.org", "https://*.web.telegram.org"]
    assert rules["default-src"] == ["'none'"]
    assert rules["script-src"] == ["'self'", "https://telegram.org"]
    assert rules["connect-src"] == ["'self'"]
    assert [r.headers["Content-Type"].split(";")[0] for r in responses[:3]] == \
        ["text/html", "text/javascript", "text/css"]
