"""The coach's line after a miss (bot.play.coaching), through the real Application: the button
under a result where someone missed, the line to the one who missed alone (the press's own
alert), and every way around it refused — the winner, someone who never answered, another chat's
round, a round still on, a game with no themes, a hand live elsewhere, a group that switched the
coach off, a forged press."""

from __future__ import annotations

import pytest

from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.telegram.test_buttons import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    UNKNOWN,
    deal,
    labels,
    many_solutions,
    press,
    press_data,
)

EN = Texts("en")
BUTTON = "💡 What did I miss?"
NOT_TRIED = visible_text(EN("coach_not_tried"))
WON = visible_text(EN("coach_won"))
OFF = visible_text(EN("coach_off"))
HELD = visible_text(EN("answers_held_back"))
YES = "✅ Yes, delete"
OTHER_GROUP = -3002
PRIVATE = 31  # Alice's own chat


async def missed_then_won(harness: Harness, monkeypatch: pytest.MonkeyPatch,
                          hand: tuple[int, ...], chat: int = GROUP):
    """Bob misses, Alice wins: the deal's round and the result."""
    many_solutions(monkeypatch, harness, hand)
    _, current = await deal(harness, chat=chat)
    await harness.send(chat, BOB, f"/a {'+'.join(map(str, hand))}")  # a sum: never 24 here
    await harness.send(chat, ALICE, f"/a {solve(hand)[0]}")
    result = await harness.telegram.reply(chat)
    assert "Alice" in result.text
    return current, result


@ON_BOTH_BACKENDS
async def test_the_one_who_missed_hears_the_theme_and_its_first_step(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    _, result = await missed_then_won(harness, monkeypatch, (3, 3, 8, 8))
    assert BUTTON in labels(harness, result.message_id)
    sent_before = len(harness.telegram.sent)
    answer = await press(harness, result.message_id, BOB, BUTTON)
    assert answer.show_alert and answer.text == "💡 a fraction on the way: 8÷3 first"
    assert len(harness.telegram.sent) == sent_before  # the press's own answer: no message

    winner = await press(harness, result.message_id, ALICE, BUTTON)
    assert winner.text == WON and not winner.show_alert
    stranger = await press(harness, result.message_id, CAROL, BUTTON)
    assert stranger.text == NOT_TRIED and not stranger.show_alert


async def test_a_hand_that_needs_nothing_gives_the_simplest_solutions_first_step(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    hand = (1, 2, 3, 4)  # needs no theme (docs/themes.md)
    _, result = await missed_then_won(harness, monkeypatch, hand)
    answer = await press(harness, result.message_id, BOB, BUTTON)
    first = solve(hand)[0]
    assert answer.show_alert and answer.text.startswith("💡 One way starts with ")
    step = answer.text.removeprefix("💡 One way starts with ")
    assert step.replace("×", "*").replace("÷", "/").replace("−", "-") in first


@ON_BOTH_BACKENDS
async def test_no_one_missed_no_button(harness: Harness, monkeypatch: pytest.MonkeyPatch):
    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    _, current = await deal(harness)
    await harness.send(GROUP, ALICE, "/a 8/(3-8/3)")
    won = await harness.telegram.reply(GROUP)
    assert "Alice wins" in won.text and BUTTON not in labels(harness, won.message_id)
    # a client that sends the button's data anyway is answered as the winner or a stranger
    assert (await press_data(harness, won.message_id, ALICE, f"c:{current.id}")).text == WON
    assert (await press_data(harness, won.message_id, BOB, f"c:{current.id}")).text == NOT_TRIED


async def test_a_round_revealed_after_a_miss_coaches_too(harness: Harness,
                                                         monkeypatch: pytest.MonkeyPatch):
    many_solutions(monkeypatch, harness, (1, 2, 7, 7))
    _, current = await deal(harness)
    for player in (BOB, CAROL):
        await harness.send(GROUP, player, "/a 7+7+2+1")
    for player in (BOB, CAROL):
        await harness.send(GROUP, player, "/pass")  # all who answered passed: the round ends
    result = await harness.telegram.reply(GROUP)
    assert f"c:{current.id}" in [data for _, data in harness.telegram.buttons(
        GROUP, result.message_id)]
    assert BUTTON in labels(harness, result.message_id)
    answer = await press(harness, result.message_id, BOB, BUTTON)
    assert answer.show_alert and answer.text == "💡 a step past 24: 7×7 first"


@ON_BOTH_BACKENDS
async def test_never_while_the_round_is_on_nor_for_another_chats_round(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    sent, current = await deal(harness)
    await harness.send(GROUP, BOB, "/a 3+3+8+8")
    live = await press_data(harness, sent.message_id, BOB, f"c:{current.id}")
    assert live.text == UNKNOWN and not live.show_alert  # the round is on: nothing of its hand
    await harness.send(GROUP, ALICE, "/a 8/(3-8/3)")
    # the same round's press, sent from another group's message
    await harness.send(OTHER_GROUP, BOB, "/stats")
    other = await harness.telegram.reply(OTHER_GROUP)
    elsewhere = await press_data(harness, other.message_id, BOB, f"c:{current.id}",
                                 chat=OTHER_GROUP)
    assert elsewhere.text == UNKNOWN
    for data in (f"c:{current.id + 1000}", "c:0", f"c:{current.id}:2", "c:x"):
        assert (await press_data(harness, sent.message_id, BOB, data)).text == UNKNOWN


@ON_BOTH_BACKENDS
async def test_a_hand_live_elsewhere_is_not_coached(harness: Harness,
                                                    monkeypatch: pytest.MonkeyPatch):
    """The line is a step of a solution: while the same hand is on in another chat, no one is
    told it (as the result held its solutions back)."""
    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    await deal(harness, chat=OTHER_GROUP, user=CAROL)  # the same hand, on over there
    current, result = await missed_then_won(harness, monkeypatch, (3, 3, 8, 8))
    answer = await press_data(harness, result.message_id, BOB, f"c:{current.id}")
    assert answer.text == HELD and not answer.show_alert


async def test_a_group_that_switched_the_coach_off(harness: Harness,
                                                   monkeypatch: pytest.MonkeyPatch):
    _, result = await missed_then_won(harness, monkeypatch, (3, 3, 8, 8))
    settings = harness.services.settings
    await settings.store.set_chat_settings(GROUP, {"coach": False}, 0.0)
    await settings.load()
    off = await press(harness, result.message_id, BOB, BUTTON)  # a result shown before
    assert off.text == OFF and not off.show_alert
    _, later = await missed_then_won(harness, monkeypatch, (1, 2, 7, 7))
    assert BUTTON not in labels(harness, later.message_id)


async def test_in_a_private_chat_the_player_alone(harness: Harness,
                                                  monkeypatch: pytest.MonkeyPatch):
    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    await harness.send(PRIVATE, ALICE, "/play", kind="private")
    await harness.telegram.reply(PRIVATE)
    await harness.send(PRIVATE, ALICE, "/a 3+3+8+8", kind="private")  # marked: no reply
    await harness.send(PRIVATE, ALICE, "/reveal", kind="private")
    result = await harness.telegram.reply(PRIVATE)
    assert BUTTON in labels(harness, result.message_id, chat=PRIVATE)
    answer = await press(harness, result.message_id, ALICE, BUTTON, chat=PRIVATE)
    assert answer.show_alert and answer.text == "💡 a fraction on the way: 8÷3 first"


async def test_a_game_without_themes_has_no_coach(harness: Harness):
    _, current = await deal(harness, "/countdown")
    await harness.send(GROUP, BOB, "/a 1")
    await harness.send(GROUP, ALICE, "/reveal")
    result = next(s for s in reversed(harness.telegram.sent) if s.chat_id == GROUP)
    assert BUTTON not in labels(harness, result.message_id)
    answer = await press_data(harness, result.message_id, BOB, f"c:{current.id}")
    assert answer.text == UNKNOWN


async def test_the_line_speaks_the_chats_language(harness: Harness,
                                                 monkeypatch: pytest.MonkeyPatch):
    harness.telegram.promote(GROUP, ALICE["id"])
    await harness.send(GROUP, ALICE, "/lang de")
    await harness.telegram.reply(GROUP)
    _, result = await missed_then_won(harness, monkeypatch, (3, 3, 8, 8))
    german = Texts("de")
    assert german("button_coach") in labels(harness, result.message_id)
    answer = await press(harness, result.message_id, BOB, german("button_coach"))
    assert answer.show_alert and answer.text == visible_text(german(
        "coach_theme", theme=german("theme_fraction"), step="<code>8÷3</code>"))


@ON_BOTH_BACKENDS
async def test_after_forget_the_person_answered_nothing(harness: Harness,
                                                        monkeypatch: pytest.MonkeyPatch):
    """/forget deletes a person's answers: the coach then knows of no answer of theirs."""
    _, result = await missed_then_won(harness, monkeypatch, (3, 3, 8, 8))
    assert (await press(harness, result.message_id, BOB, BUTTON)).show_alert
    await harness.send(BOB["id"], BOB, "/forget", kind="private")
    asked = await harness.telegram.reply(BOB["id"])
    assert (await harness.press(BOB["id"], asked.message_id, BOB, YES)).text == "Deleted."
    await harness.services.community.privacy.erased()
    gone = await press(harness, result.message_id, BOB, BUTTON)
    assert gone.text == NOT_TRIED and not gone.show_alert
