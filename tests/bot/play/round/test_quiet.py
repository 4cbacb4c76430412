"""Quiet and consistent (issue 17, item 5; issue 26, item 3): a reply to the deal that is not an
attempt gets nothing; a wrong answer goes into the deal's status, with why, however it was given
(typed, a reply to the deal, /a); and 24 and Countdown treat the same mistake the same way."""

from __future__ import annotations

import dataclasses

import pytest

from tests.bot.conftest import Harness, closed_outside, opened_outside

GROUP = -7501
ANN = {"id": 751, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 752, "is_bot": False, "first_name": "Ben"}
GAMES = {"24": ((2, 7, 11, 13), 24), "countdown": ((1, 3, 7, 10, 25, 50), 831)}
# each mistake, as typed in each game: chatter, another hand's sum, a number used too often,
# a wrong (or, in Countdown, scoreless) value, a step that breaks no rule but is unreadable
MISTAKES = {
    "talk": {"24": "haha this one is tough", "countdown": "haha this one is tough"},
    "other numbers": {"24": "2+7+11+14", "countdown": "25*3*4"},
    "number twice": {"24": "2*2*7*11*13", "countdown": "50+50"},
    "wrong value": {"24": "2+7+11+13", "countdown": "25*3"},
    "unreadable": {"24": "2(7+11)", "countdown": "3(7+10)"},
}
# what the chat sees: nothing, the deal's status rewritten, or words
EXPECTED = {
    ("talk", "typed"): "nothing", ("talk", "reply"): "nothing", ("talk", "/a"): "words",
    ("other numbers", "typed"): "nothing", ("other numbers", "reply"): "status",
    ("other numbers", "/a"): "status",
    ("number twice", "typed"): "status", ("number twice", "reply"): "status",
    ("number twice", "/a"): "status",
    ("wrong value", "typed"): "status", ("wrong value", "reply"): "status",
    ("wrong value", "/a"): "status",
    ("unreadable", "typed"): "nothing", ("unreadable", "reply"): "words",
    ("unreadable", "/a"): "words",
}


async def answer(h: Harness, game: str, mode: str, text: str) -> str:
    """Deal the game's known hand, give the answer this way: what the chat saw."""
    hand, target = GAMES[game]
    await h.send(GROUP, ANN, "/countdown" if game == "countdown" else "/play")
    deal = await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    await h.stores.rounds.close_round(current.id, "revealed", h.services.rounds.clock())
    closed_outside(h.services, current)
    made = await h.stores.rounds.open_round(GROUP, game, hand, target, current.level, 10, "en",
                                            current.started_at, current.deadline, ANN["id"])
    await h.stores.rounds.set_message(made.id, deal.message_id)
    await opened_outside(h.services, dataclasses.replace(made, message_id=deal.message_id),
                         deal.text)
    sent, edits = len(h.telegram.sent), len(h.telegram.edits)
    await h.send(GROUP, BEN, f"/a {text}" if mode == "/a" else text,
                 reply_to=deal.message_id if mode == "reply" else None)
    assert h.telegram.reactions == []
    if len(h.telegram.sent) > sent:
        return "words"
    return "status" if len(h.telegram.edits) > edits else "nothing"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("mistake", "mode"), sorted(EXPECTED))
async def test_the_same_mistake_gets_the_same_answer_in_both_games(
        harness: Harness, game: str, mistake: str, mode: str):
    said = await answer(harness, game, mode, MISTAKES[mistake][game])
    assert said == EXPECTED[mistake, mode], (game, mistake, mode)
    if said == "status":
        status = harness.telegram.edits[-1]
        assert status.message_id == harness.services.rounds.open_round(GROUP).message_id
        assert status.text.splitlines()[-1].startswith(("👎 Ben: ", "📝 Ben: "))
