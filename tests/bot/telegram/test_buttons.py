"""Buttons: CallbackQuery updates fed to the real Application. Hint and Reveal under a deal (the
starter's or an admin's; a hint is a notice and goes into the deal), Play again / Same level /
Show all solutions after a round (the solutions page in the result's own message), ◀ ▶ pages of
solutions, old keyboards taken off, and forged or garbled presses refused politely."""

from __future__ import annotations

import re

import pytest
from telegram import Update

from bot.play.rules import Deal
from bot.play.solving.paging import page_count
from bot.telegram import keyboards
from bot.text.html_text import visible_text
from bot.text.i18n import LANGUAGES, Texts, catalog
from demo.emulator import CallbackAnswer
from solver import solve
from tests.bot.conftest import Harness

GROUP = -3001
ALICE = {"id": 31, "is_bot": False, "first_name": "Alice"}
BOB = {"id": 32, "is_bot": False, "first_name": "Bob"}
CAROL = {"id": 33, "is_bot": False, "first_name": "Carol"}
EN = Texts("en")
OVER = visible_text(EN("round_over"))
UNKNOWN = visible_text(EN("button_unknown"))


async def process_press(h: Harness, query_id: str, change=None) -> CallbackAnswer:
    """Deliver the queued press (changed by `change` first, if given); what the bot answered."""
    [update] = [u for u in h.telegram.updates if "callback_query" in u]
    h.telegram.updates.clear()
    update = {k: v for k, v in update.items() if not k.startswith("_")}
    if change is not None:
        change(update["callback_query"])
    await h.app.process_update(Update.de_json(update, h.app.bot))
    answer = h.telegram.callback_answer(query_id)
    assert answer is not None, "every press is answered"
    return answer


async def press(h: Harness, message_id: int, user: dict, label: str,
                chat: int = GROUP) -> CallbackAnswer:
    """The user presses the button labelled `label` that the message shows."""
    return await process_press(h, await h.telegram.press_button(chat, message_id, user, label))


async def press_data(h: Harness, message_id: int, user: dict, data: str,
                     chat: int = GROUP) -> CallbackAnswer:
    """A client sends this data, whatever the message shows (a forged or stale press)."""
    return await process_press(h, await h.telegram.press(chat, message_id, user, data))


def labels(h: Harness, message_id: int, chat: int = GROUP) -> list[str]:
    return [label for label, _ in h.telegram.buttons(chat, message_id)]


def sent_count(h: Harness, chat: int = GROUP) -> int:
    return len([s for s in h.telegram.sent if s.chat_id == chat])


async def deal(h: Harness, command: str = "/play", user: dict = ALICE, chat: int = GROUP):
    await h.send(chat, user, command)
    sent = await h.telegram.reply(chat)
    current = h.services.rounds.open_round(chat)
    assert current is not None and current.message_id == sent.message_id
    return sent, current


async def test_a_deal_has_hint_and_reveal_and_the_result_the_next_steps(harness: Harness):
    sent, current = await deal(harness)
    assert labels(harness, sent.message_id) == ["Hint", "Reveal"]
    assert all(len(data.encode()) <= 64 for _, data in harness.telegram.buttons(
        GROUP, sent.message_id))
    await harness.send(GROUP, BOB, f"/a {solve(current.hand)[0]}")
    won = await harness.telegram.reply(GROUP)
    assert "Bob wins" in won.text
    more = [[{"text": "Show all solutions", "callback_data": f"s:{current.id}"}]] \
        if len(solve(current.hand)) > 1 else []  # never under the one solution there is
    assert won.reply_markup == {"inline_keyboard": [
        [{"text": "Play again", "callback_data": f"n:{current.id}"},
         {"text": "Same level", "callback_data": f"l:{current.id}"}], *more]}
    assert labels(harness, sent.message_id) == []  # the deal's buttons are gone


async def test_hint_button_is_the_starters_then_anyones(harness: Harness):
    sent, current = await deal(harness)
    before = sent_count(harness)
    refused = await press(harness, sent.message_id, BOB, "Hint")
    assert refused.text == visible_text(EN("hint_not_allowed", starter=EN("starter",
                                                                          name="Alice")))
    assert "Alice" in refused.text and "<" not in refused.text  # plain text, no tags
    assert sent_count(harness) == before and not harness.services.rounds.open_round(GROUP).hint_used

    taken = await press(harness, sent.message_id, ALICE, "Hint")
    assert taken.text.startswith("💡 Hint 1: ")  # the hint is the press's notice
    edit = harness.telegram.edits[-1]
    assert edit.message_id == sent.message_id and "💡 Hints: " in edit.text
    assert edit.text.startswith(sent.text)  # the deal as it was, the hint under it
    assert labels(harness, sent.message_id) == ["Hint", "Reveal"]  # its buttons stay
    assert harness.services.rounds.open_round(GROUP).points == (current.points + 1) // 2

    again = await press(harness, sent.message_id, BOB, "Hint")  # once given, anyone sees it
    assert again.text.startswith(("💡 Hint 2: ", "💡 No more hints"))
    assert sent_count(harness) == before  # not one message


async def test_an_admin_may_reveal_and_the_old_buttons_are_then_refused(harness: Harness):
    sent, current = await deal(harness)
    refused = await press(harness, sent.message_id, BOB, "Reveal")
    assert refused.text.startswith("Only Alice (who started it) or a chat admin can end this "
                                   "round early; it ends by itself in ")
    assert harness.services.rounds.open_round(GROUP) is not None

    harness.telegram.promote(GROUP, CAROL["id"])
    assert (await press(harness, sent.message_id, CAROL, "Reveal")).text is None
    result = await harness.telegram.reply(GROUP)
    found = len(solve(current.hand))
    assert "Ended early" in result.text and f"{found} distinct" in result.text
    assert labels(harness, result.message_id) == ["Play again", "Same level"] + \
        (["Show all solutions"] if found > 5 else [])  # only when not all are listed
    assert harness.services.rounds.open_round(GROUP) is None
    assert labels(harness, sent.message_id) == []

    # a client that still shows the old keyboard: refused politely, nothing sent
    before = sent_count(harness)
    assert (await press_data(harness, sent.message_id, ALICE, f"h:{current.id}")).text == OVER
    assert (await press_data(harness, sent.message_id, ALICE, f"r:{current.id}")).text == OVER
    assert sent_count(harness) == before


async def test_buttons_of_an_old_deal_do_not_touch_the_new_round(harness: Harness):
    old, first = await deal(harness)
    await harness.send(GROUP, ALICE, "/reveal")
    await harness.telegram.reply(GROUP)
    new, second = await deal(harness)
    assert (await press_data(harness, old.message_id, ALICE, f"r:{first.id}")).text == OVER
    assert harness.services.rounds.open_round(GROUP) == second
    # data of the old round forged onto the new deal: refused, and the new deal keeps its buttons
    assert (await press_data(harness, new.message_id, ALICE, f"h:{first.id}")).text == OVER
    assert labels(harness, new.message_id) == ["Hint", "Reveal"]
    assert not harness.services.rounds.open_round(GROUP).hint_used


async def test_play_again_and_same_level(harness: Harness):
    _, first = await deal(harness, "/play hard 5")
    await harness.send(GROUP, ALICE, "/reveal")
    result = await harness.telegram.reply(GROUP)

    assert (await press(harness, result.message_id, BOB, "Same level")).text is None
    dealt = await harness.telegram.reply(GROUP)
    second = harness.services.rounds.open_round(GROUP)
    assert second.id != first.id and second.message_id == dealt.message_id
    assert (second.level, len(second.hand), second.target) == ("hard", 5, 24)
    assert second.started_by == BOB["id"]  # Bob dealt it: his to steer
    assert labels(harness, dealt.message_id) == ["Hint", "Reveal"]
    assert "Play again" not in labels(harness, result.message_id)  # one deal per result

    await harness.send(GROUP, BOB, "/reveal")
    result = await harness.telegram.reply(GROUP)
    assert (await press(harness, result.message_id, ALICE, "Play again")).text is None
    await harness.telegram.reply(GROUP)
    third = harness.services.rounds.open_round(GROUP)
    assert third.id != second.id and (len(third.hand), third.target) == (5, 24)

    # Play again while a round is on: a notice says so, nothing is sent, the round goes on
    before = sent_count(harness)
    notice = await press_data(harness, result.message_id, ALICE, f"l:{second.id}")
    assert notice.text.startswith("A round of 24 is on")
    assert sent_count(harness) == before and harness.services.rounds.open_round(GROUP) == third


async def test_countdown_and_yahtzee_buttons(harness: Harness):
    sent, first = await deal(harness, "/countdown 3")
    assert labels(harness, sent.message_id) == ["Reveal"]  # no hints in Countdown
    assert (await press(harness, sent.message_id, ALICE, "Reveal")).text is None
    result = await harness.telegram.reply(GROUP)
    assert labels(harness, result.message_id) == ["Play again"]
    await press(harness, result.message_id, ALICE, "Play again")
    await harness.telegram.reply(GROUP)
    second = harness.services.rounds.open_round(GROUP)
    assert second.game == "countdown" and sum(n in (25, 50, 75, 100) for n in second.hand) == 3
    # a forged "Show all solutions" for a Countdown round
    assert (await press_data(harness, result.message_id, ALICE, f"s:{first.id}")).text == UNKNOWN

    await harness.send(GROUP, ALICE, "/reveal")
    await harness.telegram.reply(GROUP)
    sent, _ = await deal(harness, "/yahtzee")
    assert labels(harness, sent.message_id) == ["Pass", "Reveal"]  # sealed guesses: from the start


async def test_the_timer_ends_a_round_with_buttons(harness: Harness):
    sent, _ = await deal(harness)
    await harness.ring("round", GROUP)
    timeout = await harness.telegram.reply(GROUP)
    assert "Time is up" in timeout.text
    assert labels(harness, timeout.message_id)[:2] == ["Play again", "Same level"]
    assert labels(harness, sent.message_id) == []


def many_solutions(monkeypatch: pytest.MonkeyPatch, harness: Harness,
                   hand: tuple[int, ...]) -> None:
    """The next deals are this hand (a random one may have few solutions), as a stock without
    the hand's analysis would deal it."""
    async def dealt(rules, options, budget=1.0, who=None):
        return Deal("24", hand, 24, "easy", 10), 0.0

    monkeypatch.setattr(harness.services.rounds.dealer.stock, "take", dealt)


async def test_show_all_solutions_pages_them(harness: Harness, monkeypatch: pytest.MonkeyPatch):
    # where Telegram takes neither an ephemeral nor a rich message: the pages, as text, in the
    # result's own message (tests/bot/telegram/test_bot_api_10.py has them sent to the presser
    # alone)
    harness.telegram.refuse_ephemeral = harness.telegram.refuse_rich = True
    hand = (1, 2, 3, 4, 6)
    found = solve(hand)
    pages = page_count(len(found))
    assert pages >= 3
    many_solutions(monkeypatch, harness, hand)
    await deal(harness)
    await harness.send(GROUP, BOB, f"/a {found[0]}")
    won = await harness.telegram.reply(GROUP)

    before = sent_count(harness)
    assert (await press(harness, won.message_id, BOB, "Show all solutions")).text is None
    page = harness.telegram.edits[-1]  # in the result's own message, under who won
    assert page.message_id == won.message_id and page.text.startswith(won.text + "\n\n")
    assert f"{len(found)} distinct solutions, 10 shown" in page.text
    assert page.text.count("= 24") == 10 and f"…and {len(found) - 10} more" in page.text
    assert labels(harness, won.message_id) == ["▶", "Play again", "Same level"]

    seen = re.findall(r"^(.+) = 24$", page.text, re.MULTILINE)
    for number in range(2, pages + 1):
        await press(harness, page.message_id, ALICE, "▶")
        edit = harness.telegram.edits[-1]
        assert edit.message_id == won.message_id and edit.text.startswith(won.text)
        first = (number - 1) * 10 + 1
        last = min(number * 10, len(found))
        assert f"{len(found)} distinct solutions, {first}–{last} shown" in edit.text
        seen += re.findall(r"^(.+) = 24$", edit.text, re.MULTILINE)
        expected = ["◀", "▶"] if number < pages else ["◀"]
        assert labels(harness, won.message_id) == [*expected, "Play again", "Same level"]
    assert len(seen) == len(found) == len(set(seen))  # every solution once, in order
    await press(harness, won.message_id, ALICE, "◀")
    assert f"{(pages - 2) * 10 + 1}–{(pages - 1) * 10} shown" in harness.telegram.edits[-1].text
    assert sent_count(harness) == before  # paging sent nothing


async def test_solve_replies_are_paged(harness: Harness):
    chat = 3002
    await harness.send(chat, BOB, "/solve 1 2 3 4 5 = 15", kind="private")
    first = await harness.telegram.reply(chat)
    total = len(solve((1, 2, 3, 4, 5), 15))
    assert f"{total} distinct solutions, 10 shown" in first.text
    assert labels(harness, first.message_id, chat) == ["▶"]
    assert (await press(harness, first.message_id, BOB, "▶", chat)).text is None
    assert "11–20 shown" in harness.telegram.edits[-1].text
    await press(harness, first.message_id, BOB, "◀", chat)
    assert harness.telegram.edits[-1].html == first.html  # page 1 reads as /solve did
    # a page past the end shows the last one; pressing the page shown changes nothing
    await press_data(harness, first.message_id, BOB, "p:1,2,3,4,5:15:999", chat)
    last = harness.telegram.edits[-1]
    assert f"{(page_count(total) - 1) * 10 + 1}–{total} shown" in last.text
    edits = len(harness.telegram.edits)
    await press_data(harness, first.message_id, BOB, "p:1,2,3,4,5:15:999", chat)
    assert len(harness.telegram.edits) == edits
    # few solutions: no buttons
    await harness.send(chat, BOB, "/solve 3 8 3 8", kind="private")
    assert labels(harness, (await harness.telegram.reply(chat)).message_id, chat) == []


@pytest.mark.parametrize("data", [
    "", "x", "h", "h:", "h:abc", "h:0", "h:-5", "h:1:2", "z:12", "h:" + "9" * 19,
    "p:", "p:1,2:24", "p:1,2,3,4,5,6,7:24:0", "p:99999999:24:0", "p:1,2,3:24:-1",
    "p:1,,2:24:0", "p:1,2:24:0 ", "s:1;DROP TABLE rounds", "\x00", "é" * 40, "n:" + "1" * 62])
async def test_forged_or_garbled_presses_are_refused_politely(harness: Harness, data: str):
    sent, current = await deal(harness)
    before = sent_count(harness)
    if data:
        answer = await press_data(harness, sent.message_id, BOB, data)
    else:  # a press without data (a game button)
        query_id = await harness.telegram.press(GROUP, sent.message_id, BOB, "x")
        answer = await process_press(harness, query_id, lambda q: q.pop("data"))
    assert answer.text in (UNKNOWN, OVER)
    assert sent_count(harness) == before and harness.services.rounds.open_round(GROUP) == current


async def test_forged_presses_on_other_chats_and_open_rounds(harness: Harness):
    sent, current = await deal(harness)
    # "Show all solutions" of the round still on would give the answer away
    assert (await press_data(harness, sent.message_id, BOB, f"s:{current.id}")).text == UNKNOWN
    assert (await press_data(harness, sent.message_id, BOB, f"n:{current.id}")).text == UNKNOWN
    await harness.send(GROUP, ALICE, "/reveal")
    result = await harness.telegram.reply(GROUP)
    other = -3003
    _, elsewhere = await deal(harness, chat=other)
    before = sent_count(harness)
    assert (await press_data(harness, result.message_id, BOB, "s:999999")).text == UNKNOWN
    for action in "hrnls":  # another chat's round, from this chat
        answer = await press_data(harness, result.message_id, BOB, f"{action}:{elsewhere.id}")
        assert answer.text in (UNKNOWN, OVER)
    assert sent_count(harness) == before and harness.services.rounds.open_round(other) == elsewhere
    assert labels(harness, result.message_id)[:2] == ["Play again", "Same level"]


async def test_a_press_on_a_message_telegram_no_longer_shows(harness: Harness):
    sent, current = await deal(harness)
    query_id = await harness.telegram.press(GROUP, sent.message_id, ALICE, f"r:{current.id}")

    def inaccessible(query: dict) -> None:
        query["message"] = {"chat": query["message"]["chat"], "message_id": sent.message_id,
                            "date": 0}

    assert (await process_press(harness, query_id, inaccessible)).text == UNKNOWN
    assert harness.services.rounds.open_round(GROUP) == current


async def test_buttons_speak_the_chats_language(harness: Harness):
    harness.telegram.promote(GROUP, ALICE["id"])
    await harness.send(GROUP, ALICE, "/lang zh")
    await harness.telegram.reply(GROUP)
    sent, _ = await deal(harness)
    assert labels(harness, sent.message_id) == ["提示", "揭晓答案"]
    await harness.send(GROUP, ALICE, "/reveal")
    result = await harness.telegram.reply(GROUP)
    assert labels(harness, result.message_id)[:2] == ["再来一局", "同样难度"]


def test_every_label_is_in_both_catalogs_and_data_fits():
    for language in LANGUAGES:
        assert set(keyboards.LABELS.values()) <= set(catalog(language))
    assert keyboards.read_press(keyboards.round_data("h", 10**17)) == \
        keyboards.RoundPress("h", 10**17)
    longest = keyboards.page_data((1_000_000,) * 6, -10**9, 9)
    assert len(longest.encode()) <= 64
    assert keyboards.read_press(longest) is not None
    # a hand too long for a button's data gets no ◀ ▶ (its text still says how many more)
    assert keyboards.page_keyboard((1_000_000,) * 6, -10**9, 0, 12345) is None


async def test_a_keyboard_left_behind_goes_at_its_first_press(harness: Harness):
    sent, _ = await deal(harness)
    left_behind = harness.telegram.message(GROUP, sent.message_id)["reply_markup"]
    await harness.send(GROUP, ALICE, "/reveal")
    await harness.telegram.reply(GROUP)
    # as if taking the buttons off had failed (the network, a restart)
    harness.telegram.message(GROUP, sent.message_id)["reply_markup"] = left_behind
    assert (await press(harness, sent.message_id, BOB, "Hint")).text == OVER
    assert labels(harness, sent.message_id) == []


async def test_a_result_sent_after_a_restart_has_buttons_and_the_deal_loses_its(
        harness: Harness):
    sent, current = await deal(harness)
    await harness.stores.rounds.record_answer(  # the bot stopped before closing it
        current.id, ALICE["id"], solve(current.hand)[0], True, current.started_at + 2)
    await harness.services.recovery.resume()
    late = await harness.telegram.reply(GROUP)
    assert "Sent after a restart" in late.text
    assert labels(harness, late.message_id) == ["Play again", "Same level", "Show all solutions"]
    assert labels(harness, sent.message_id) == []
