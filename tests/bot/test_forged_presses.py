"""Forged page presses (issue 18): a press of ◀ ▶ or Show all solutions rewrites the pressed
message, so it is refused on a message that shows no such pages — a live deal keeps its text
and buttons — while a quick second press on a real page still reads."""

from __future__ import annotations

from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from tests.bot.conftest import Harness
from tests.bot.test_buttons import ALICE, BOB, GROUP, deal, labels, press, press_data

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
