"""Sharing the daily puzzle: after a right /daily, a Share button opens the chat picker with the
bot's inline query; the bot answers it with one line (the day's number, when it was solved, the
streak) that holds no expression, no hand, nothing a reader could solve it from."""

from __future__ import annotations

import re

import pytest

from bot.play.daily.daily import daily_number
from bot.play.daily.puzzle import day_start
from bot.telegram.features.community import SHARE_QUERY
from solver import solve
from tests.bot.conftest import Clock, Harness

ANN = {"id": 361, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 362, "is_bot": False, "first_name": "Ben"}
DAY = "2030-03-01"


@pytest.fixture
def today(harness: Harness) -> Clock:
    clock = Clock(day_start(DAY) + 3600)
    harness.services.community.daily.clock = clock
    harness.services.community.daily.hands.clock = clock
    return clock


async def said(h: Harness, user: dict, text: str):
    await h.send(user["id"], user, text, kind="private")
    return await h.telegram.reply(user["id"])


def share_buttons(reply) -> list[dict]:
    rows = (reply.reply_markup or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row if "switch_inline_query_chosen_chat" in b]


def holds_an_expression(text: str, hand: tuple[int, ...], answer: str) -> bool:
    """Whether a reader could learn the answer or the hand from the text: the answer, any
    arithmetic between numbers, or every number of the hand."""
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    return (answer in text or re.search(r"\d\s*[-+*/×÷]\s*\(?\s*\d", text) is not None
            or all(numbers.count(n) >= list(hand).count(n) for n in set(hand)))


async def test_a_right_daily_answer_is_shared_without_a_spoiler(harness: Harness,
                                                                today: Clock):
    daily = harness.services.community.daily
    hand = daily.hand_now()
    shown = await said(harness, ANN, "/daily")
    assert share_buttons(shown) == []  # nothing to share yet
    assert (await harness.inline(ANN, SHARE_QUERY)).results == []
    today.now += 42
    answer = solve(list(hand))[0]
    right = await said(harness, ANN, f"/daily {answer}")
    [button] = share_buttons(right)
    chosen = button["switch_inline_query_chosen_chat"]
    assert chosen["query"] == SHARE_QUERY and chosen.get("allow_group_chats")
    answered = await harness.inline(ANN, chosen["query"])
    [result] = answered.results
    line = result["input_message_content"]["message_text"]
    assert line == f"Twenty-Four daily #{daily_number(DAY)} · 24 ✅ 01:00:42 · 🔥 1"
    assert not holds_an_expression(line, hand, answer)
    assert answered.params.get("is_personal") in (True, "true", "True")
    assert int(answered.params["cache_time"]) == 0
    # /daily again offers it again; someone who has not solved it has nothing to share
    assert share_buttons(await said(harness, ANN, "/daily")) != []
    assert (await harness.inline(BEN, SHARE_QUERY)).results == []


def test_the_spoiler_check_sees_a_spoiler():
    hand = (1, 2, 3, 4)
    assert holds_an_expression("daily #3 ✅ 1*2*3*4", hand, "1*2*3*4")
    assert holds_an_expression("daily #3 ✅ (1+2+3)*4", hand, "x")
    assert holds_an_expression("numbers 1 2 3 4", hand, "x")
    assert not holds_an_expression("Twenty-Four daily #1551 ✅ 01:00:42 · 🔥 1", hand, "x")


def test_the_days_are_numbered_from_the_first():
    assert daily_number("2026-01-01") == 1 and daily_number("2026-02-01") == 32
