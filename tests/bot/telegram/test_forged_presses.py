"""Forged presses. Pages (issue 18): a press of ◀ ▶ or Show all solutions rewrites the pressed
message, so it is refused on a message that shows no such pages — a live deal keeps its text
and buttons — while a quick second press on a real page still reads. Confirmations (issue 35,
item 1): a `cf:y|n:<token>` press changes only the question that carries that very button."""

from __future__ import annotations

from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.telegram.test_buttons import ALICE, BOB, GROUP, deal, labels, press, press_data

UNKNOWN = visible_text(Texts("en")("button_unknown"))


def other_hand(hand: tuple[int, ...]) -> tuple[int, ...]:
    """A hand of 24 that is not the one dealt (a live hand is refused for other reasons)."""
    return (1, 2, 3, 4) if sorted(hand) != [1, 2, 3, 4] else (3, 3, 8, 8)


async def test_a_forged_page_press_leaves_a_live_deal_alone(harness: Harness):
    sent, current = await deal(harness)
    before = labels(harness, sent.message_id)
    edits, markups = len(harness.telegram.edits), len(harness.telegram.markup_edits)
    numbers = ",".join(map(str, other_hand(current.hand)))
    answer = await press_data(harness, sent.message_id, BOB, f"p:{numbers}:24:0")
    assert answer.text == UNKNOWN
    assert len(harness.telegram.edits) == edits and len(harness.telegram.markup_edits) == markups
    assert labels(harness, sent.message_id) == before == ["Hint", "Reveal"]
    assert harness.telegram.message(GROUP, sent.message_id)["text"] == sent.text
    assert harness.services.rounds.open_round(GROUP) == current


async def test_a_forged_solutions_press_leaves_a_live_deal_alone(harness: Harness):
    _, first = await deal(harness)
    await harness.send(GROUP, ALICE, "/reveal")
    await harness.telegram.reply(GROUP)
    sent, current = await deal(harness)  # a new round: the old one's solutions are no secret
    edits = len(harness.telegram.edits)
    for data in (f"s:{first.id}", f"s:{first.id}:1"):
        assert (await press_data(harness, sent.message_id, BOB, data)).text == UNKNOWN
    assert len(harness.telegram.edits) == edits
    assert labels(harness, sent.message_id) == ["Hint", "Reveal"]
    assert harness.services.rounds.open_round(GROUP) == current


async def test_a_second_quick_press_on_a_page_still_reads(harness: Harness):
    chat = 3102
    await harness.send(chat, BOB, "/solve 1 2 3 4 5 = 15", kind="private")
    first = await harness.telegram.reply(chat)
    [(_, forward)] = harness.telegram.buttons(chat, first.message_id)
    assert (await press(harness, first.message_id, BOB, "▶", chat)).text is None
    assert "11–20 shown" in harness.telegram.edits[-1].text
    # the client still showed page 1 and sent its ▶ again: the same pages, so it reads
    assert (await press_data(harness, first.message_id, BOB, forward, chat)).text is None


# --- issue 35, item 1: a forged confirmation press edits nothing ---------------------------------

FORGED_CONFIRMATIONS = ("cf:n:00000000", "cf:y:00000000", "cf:y:deadbeef")


async def forged_confirmations_change_nothing(h: Harness, chat: int, message_id: int,
                                              user: dict) -> None:
    """Each forged confirmation pressed on the message: answered with a notice, and the
    message's text and buttons as they were (no edit of any kind)."""
    shown = h.telegram.message(chat, message_id)
    assert shown is not None
    text, markup = shown["text"], shown.get("reply_markup")
    edits, markups = len(h.telegram.edits), len(h.telegram.markup_edits)
    for data in FORGED_CONFIRMATIONS:
        answer = await press_data(h, message_id, user, data, chat)
        assert answer.text == UNKNOWN, (data, answer.text)
    assert (len(h.telegram.edits), len(h.telegram.markup_edits)) == (edits, markups)
    after = h.telegram.message(chat, message_id)
    assert after is not None and after["text"] == text and after.get("reply_markup") == markup


@ON_BOTH_BACKENDS
async def test_a_forged_confirmation_leaves_a_live_deal_and_its_round_alone(harness: Harness):
    sent, current = await deal(harness)
    await forged_confirmations_change_nothing(harness, GROUP, sent.message_id, BOB)
    assert labels(harness, sent.message_id) == ["Hint", "Reveal"]
    assert harness.services.rounds.open_round(GROUP) == current
    hinted = await press(harness, sent.message_id, ALICE, "Hint")  # the deal still plays
    assert hinted.text is not None and hinted.text != UNKNOWN


@ON_BOTH_BACKENDS
async def test_a_forged_confirmation_leaves_a_result_a_board_and_a_panel_alone(
        harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, f"/a {solve(current.hand)[0]}")
    result = await harness.telegram.reply(GROUP)
    await forged_confirmations_change_nothing(harness, GROUP, result.message_id, ALICE)

    await harness.send(GROUP, ALICE, "/top")
    board = await harness.telegram.reply(GROUP)
    await forged_confirmations_change_nothing(harness, GROUP, board.message_id, ALICE)

    harness.telegram.promote(GROUP, ALICE["id"])
    await harness.send(GROUP, ALICE, "/settings")
    panel = await harness.telegram.reply(GROUP)
    assert panel.reply_markup is not None
    await forged_confirmations_change_nothing(harness, GROUP, panel.message_id, ALICE)


@ON_BOTH_BACKENDS
async def test_a_real_token_pressed_on_another_message_changes_neither(harness: Harness):
    """The token of a real question, sent on another message (here the deal): the deal stays
    and so does the question, which its asker still confirms."""
    harness.telegram.promote(GROUP, ALICE["id"])
    await harness.send(GROUP, ALICE, "/resetscores")
    asked = await harness.telegram.reply(GROUP)
    [(_, yes), (_, no)] = harness.telegram.buttons(GROUP, asked.message_id)
    sent, _ = await deal(harness, user=BOB)
    edits = len(harness.telegram.edits)
    for data in (no, yes):
        assert (await press_data(harness, sent.message_id, ALICE, data)).text == UNKNOWN
    assert len(harness.telegram.edits) == edits
    assert labels(harness, sent.message_id) == ["Hint", "Reveal"]
    done = await press_data(harness, asked.message_id, ALICE, yes)
    assert done.text == "The leaderboard is reset."
