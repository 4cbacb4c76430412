"""/privacy and /forget through the real handlers: what is kept, said in a few lines; a person's
erasure asked in private only, confirmed by their own press in time, deleting their name,
scores, answers and daily results, with the boards recomputed and the rounds they won kept
without their name; and they may come back as new."""

from __future__ import annotations

import time

from bot.play.daily_puzzle import day_of
from bot.store.retention import ANSWER_TEXTS_KEPT
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.test_buttons import press_data

GROUP = -2603
ANN = {"id": 281, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 282, "is_bot": False, "first_name": "Ben"}
YES = "✅ Yes, delete"


async def said(h: Harness, user: dict, text: str, chat: int = GROUP):
    await h.send(chat, user, text, kind="group" if chat < 0 else "private")
    return await h.telegram.reply(chat)


async def play_and_win(h: Harness, winner: dict, loser: dict) -> int:
    await h.send(GROUP, winner, "/play")
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    await h.send(GROUP, loser, "/a 1+1")
    await h.send(GROUP, winner, f"/a {solve(current.hand)[0]}")
    await h.telegram.reply(GROUP)
    return current.id


@ON_BOTH_BACKENDS
async def test_privacy_says_what_is_kept_in_a_few_lines(harness: Harness):
    kept = f"{ANSWER_TEXTS_KEPT / 86400:.0f}"  # the retention's days (bot/store/retention.py)
    for chat in (GROUP, ANN["id"]):
        text = (await said(harness, ANN, "/privacy", chat)).text
        assert len(text.splitlines()) <= 8
        for word in ("first name", "answers", "scores", "daily", "/forget", "/resetscores",
                     f"after {kept} days", "backup", "Telegram itself keeps"):
            assert word in text
    zh = await said(harness, {**ANN, "language_code": "zh"}, "/privacy", ANN["id"])
    assert "我保存了什么" in zh.text and f"{kept} 天后" in zh.text and "备份" in zh.text


@ON_BOTH_BACKENDS
async def test_forget_is_asked_in_private_and_deletes_you_everywhere(harness: Harness):
    won = await play_and_win(harness, ANN, BEN)
    lost = await play_and_win(harness, BEN, ANN)
    hand = harness.services.community.daily.hand_now()
    await said(harness, ANN, "/daily", ANN["id"])
    await said(harness, ANN, f"/daily {solve(list(hand))[0]}", ANN["id"])
    assert "Ann" in (await said(harness, BEN, "/top")).text

    in_group = await said(harness, ANN, "/forget")
    assert "private chat" in in_group.text and in_group.reply_markup is None
    asked = await said(harness, ANN, "/forget", ANN["id"])
    assert "cannot be undone" in asked.text
    done = await harness.press(ANN["id"], asked.message_id, ANN, YES)
    assert done.text == "Deleted."
    assert "no longer keep" in harness.telegram.message(ANN["id"], asked.message_id)["text"]

    stores = harness.stores
    assert await stores.people.user_name(ANN["id"]) is None
    assert await stores.daily.daily_result(day_of(time.time()), ANN["id"]) is None
    top = (await said(harness, BEN, "/top")).text
    assert "Ann" not in top and "1. Ben" in top
    assert "Ann" not in (await said(harness, BEN, "/top week")).text
    assert "Nobody has solved" in (await said(harness, BEN, "/top daily")).text
    kept = await stores.rounds.get_round(won)
    assert kept is not None and kept.status == "won"  # the round stays, naming nobody
    assert await stores.rounds.winner_name(won) is None
    assert await stores.rounds.answerers(lost) == [BEN["id"]]  # Ann's answers are gone
    ben = (await said(harness, BEN, "/stats")).text
    assert "1 win in 2 rounds" in ben  # Ben's record is what it was
    assert "no rounds played here yet" in (await said(harness, ANN, "/stats")).text

    await play_and_win(harness, ANN, BEN)  # Ann comes back: she starts from zero
    assert await stores.people.user_name(ANN["id"]) == "Ann"
    assert "1 win in 1 round" in (await said(harness, ANN, "/stats")).text


@ON_BOTH_BACKENDS
async def test_forget_waits_for_your_own_press_in_time(harness: Harness):
    await play_and_win(harness, ANN, BEN)
    asked = await said(harness, ANN, "/forget", ANN["id"])
    cancelled = await harness.press(ANN["id"], asked.message_id, ANN, "✖️ Cancel")
    assert cancelled.text == "Cancelled: nothing was deleted."
    assert await harness.stores.people.user_name(ANN["id"]) == "Ann"

    asked = await said(harness, ANN, "/forget", ANN["id"])
    token = harness.telegram.buttons(ANN["id"], asked.message_id)[0][1]
    stranger = await press_data(harness, asked.message_id, BEN, token, ANN["id"])
    assert stranger.text == "Only Ann can answer this."  # a forged press of another account
    privacy = harness.services.community.privacy
    later = time.time() + 61
    privacy.clock = lambda: later
    lapsed = await harness.press(ANN["id"], asked.message_id, ANN, YES)
    assert lapsed.text == "This question has expired."
    assert await harness.stores.people.user_name(ANN["id"]) == "Ann"
    assert "Ann" in (await said(harness, BEN, "/top")).text
