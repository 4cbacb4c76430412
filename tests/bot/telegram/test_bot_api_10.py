"""Bot API 10.3 through the real Application and the emulator (issue 59): in groups, what one
person asks is answered to that person alone (ephemeral commands and messages), solutions come as
mathematics (rich messages), a group may have its /a answers seen by the bot alone; and a Telegram
that refuses every ephemeral and every rich message gets the replies the bot has always sent, with
no apology and no traceback, and is not asked again for a while."""

from __future__ import annotations

import itertools
import logging
import time

import pytest
from telegram import Update

from bot.play.words.latex import solution_latex
from bot.runtime import arrivals
from bot.telegram.bot_api_10 import EPHEMERAL, RICH, WHISPER_WITHIN, Refusals
from bot.text.html_text import visible_text
from bot.text.i18n import texts_for
from solver import solve
from tests.bot.conftest import Harness
from tests.bot.telegram.test_buttons import labels, many_solutions, press

GROUP = -5901
OTHER_GROUP = -5902
ANN = {"id": 591, "is_bot": False, "first_name": "Ann"}
BOB = {"id": 592, "is_bot": False, "first_name": "Bob"}
EN = texts_for("en")


UPDATE_IDS = itertools.count(10_000)


async def deliver(h: Harness, message: dict) -> None:
    """Hand the bot a message a user wrote (as `Harness.send` does, for one said already)."""
    h.telegram.updates.clear()
    await h.app.process_update(Update.de_json({"update_id": next(UPDATE_IDS),
                                               "message": message}, h.app.bot))


# in groups, the commands whose answer is the asker's alone (each declared so by its feature)
FOR_THE_ASKER = frozenset({"stats", "help", "privacy", "solve", "lang", "settings"})


def ephemeral_calls(h: Harness, method: str = "sendMessage") -> int:
    return sum(1 for name, params, _ in h.telegram.calls
               if name == method and params.get("ephemeral_message_parameters"))


async def test_the_groups_menus_declare_the_askers_commands_ephemeral(harness: Harness):
    menus = harness.telegram.scoped_menus
    groups = {c["command"]: c.get("is_ephemeral", False)
              for c in menus[(("all_group_chats",), "")]}
    admins = {c["command"]: c.get("is_ephemeral", False)
              for c in menus[(("all_chat_administrators",), "de")]}
    assert {name for name, ephemeral in groups.items() if ephemeral} == \
        FOR_THE_ASKER - {"settings"}  # a member's menu has no /settings
    assert {name for name, ephemeral in admins.items() if ephemeral} == FOR_THE_ASKER
    assert not groups["play"] and not groups["answer"] and not groups["top"]
    private = menus[(("all_private_chats",), "")]  # Telegram has them in groups only
    assert not any(c.get("is_ephemeral") for c in private)


async def test_what_one_asks_in_a_group_only_they_see(harness: Harness):
    telegram = harness.telegram
    for command, messages in (("/help", 2), ("/stats", 1), ("/privacy", 1), ("/lang", 1)):
        said = await telegram.say(GROUP, ANN, command)
        assert said.get("ephemeral_message_id") == said["message_id"]
        await deliver(harness, said)
        for answer in await telegram.replies(GROUP, messages):
            assert (answer.receiver, answer.reply_to_ephemeral) == (ANN["id"],
                                                                    said["message_id"])
            assert answer.reply_to is None  # nothing quotes a message the chat never had
    await harness.send(GROUP, ANN, "/solve 3 8 3 8")
    solved = await telegram.reply(GROUP)
    assert solved.receiver == ANN["id"] and solved.method == "sendRichMessage"
    assert solved.formulas == [solution_latex("8/(3-8/3)", 24)]
    assert telegram.seen_by(GROUP, BOB["id"]) == []  # Bob saw none of it
    assert len(telegram.seen_by(GROUP, ANN["id"])) == 6  # /help's two messages, then one each
    await harness.send(ANN["id"], ANN, "/help", kind="private")  # a private chat: as ever
    assert all(sent.receiver is None for sent in await telegram.replies(ANN["id"], 2))


async def test_a_round_stays_public(harness: Harness):
    """The deal and the result are the group's, whatever was asked alone before."""
    await harness.send(GROUP, ANN, "/help")
    await harness.telegram.replies(GROUP, 2)
    await harness.send(GROUP, ANN, "/play")
    dealt = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None and dealt.receiver is None
    await harness.send(GROUP, BOB, f"/a {solve(current.hand)[0]}")
    won = await harness.telegram.reply(GROUP)
    assert won.receiver is None and "Bob wins" in won.text


async def test_a_telegram_refusing_both_gets_todays_replies(harness: Harness,
                                                            caplog: pytest.LogCaptureFixture):
    """Every ephemeral send and every rich message refused: the asker gets today's public
    text, no apology, no traceback; and the chat is not asked again while remembered."""
    telegram = harness.telegram
    telegram.refuse_ephemeral = telegram.refuse_rich = True
    caplog.set_level(logging.INFO)
    await harness.send(GROUP, ANN, "/solve 3 8 3 8")
    solved = await telegram.reply(GROUP)
    assert (solved.receiver, solved.rich, solved.method) == (None, None, "sendMessage")
    assert "8÷(3−8÷3)" in solved.text and solved.reply_to is None
    for command, messages in (("/help", 2), ("/stats", 1)):
        await harness.send(GROUP, ANN, command)
        assert all(sent.receiver is None for sent in await telegram.replies(GROUP, messages))
    texts = [s.text for s in telegram.sent]
    assert not any(visible_text(EN("error")) in text for text in texts)  # no apology
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    tried_rich = sum(1 for name, _, _ in telegram.calls if name == "sendRichMessage")
    # /solve tried rich to Ann alone (refused: rich, remembered at once), text to Ann alone
    # (refused: ephemeral), then text; then the group is not asked again: /help and /stats
    # went straight to the chat
    assert (ephemeral_calls(harness), tried_rich) == (1, 1)
    refusals = harness.app.bot_data.refusals
    assert not refusals.allows(GROUP, EPHEMERAL) and not refusals.allows(GROUP, RICH)
    assert refusals.allows(OTHER_GROUP, EPHEMERAL)  # another chat is asked afresh


async def test_a_late_answer_is_refused_and_answered_as_today(harness: Harness):
    """Past the 15 seconds after the command (here: none), Telegram refuses an ephemeral
    message: the answer goes to the chat instead; the chat still takes ephemeral messages,
    so it is not marked, and the next command is answered to its asker alone."""
    harness.telegram.ephemeral_window = -1.0
    await harness.send(GROUP, ANN, "/stats")
    assert (await harness.telegram.reply(GROUP)).receiver is None
    assert harness.app.bot_data.refusals.allows(GROUP, EPHEMERAL)
    harness.telegram.ephemeral_window = 15.0
    await harness.send(GROUP, ANN, "/help")
    assert all(sent.receiver == ANN["id"] for sent in await harness.telegram.replies(GROUP, 2))


async def test_a_command_that_waited_past_the_window_goes_to_the_chat_unasked(
        harness: Harness):
    """An update that waited here past Telegram's 15 seconds (a backlog after a restart: the
    intake says when it arrived) is answered in the chat with no ephemeral send tried first (it
    would be refused), and the chat is not marked: its next command, taken at once, is
    answered to its asker alone."""
    with arrivals.arrived(time.monotonic() - WHISPER_WITHIN - 1.0):
        await harness.send(GROUP, ANN, "/stats")
    assert (await harness.telegram.reply(GROUP)).receiver is None
    assert ephemeral_calls(harness) == 0 and harness.app.bot_data.refusals.allows(GROUP, EPHEMERAL)
    with arrivals.arrived():
        await harness.send(GROUP, ANN, "/help")
    assert all(sent.receiver == ANN["id"] for sent in await harness.telegram.replies(GROUP, 2))
    assert ephemeral_calls(harness) >= 1


@pytest.mark.parametrize(("ago", "whispered"), [(WHISPER_WITHIN + 6.0, False), (0.0, True)])
async def test_a_command_that_waited_at_telegram_past_the_window_goes_to_the_chat_unasked(
        harness: Harness, ago: float, whispered: bool):
    """A message that waited at Telegram (the intake was full) came when Telegram dated it:
    taken in through the fair processor 20 s after that, it is answered in the chat with no
    ephemeral send tried first, and the chat is not marked; one dated now is whispered."""
    message = await harness.telegram.say(GROUP, ANN, "/stats")
    message["date"] = int(time.time() - ago)
    harness.telegram.updates.clear()
    await harness.app.update_queue.put(Update.de_json(
        {"update_id": next(UPDATE_IDS), "message": message}, harness.app.bot))
    sent = await harness.telegram.reply(GROUP)
    assert (sent.receiver == ANN["id"]) is whispered
    assert (ephemeral_calls(harness) > 0) is whispered
    assert harness.app.bot_data.refusals.allows(GROUP, EPHEMERAL)


async def test_only_ephemeral_refused_keeps_the_mathematics(harness: Harness):
    harness.telegram.refuse_ephemeral = True
    await harness.send(GROUP, ANN, "/solve 3 3 8 8")
    solved = await harness.telegram.reply(GROUP)
    assert solved.receiver is None and solved.formulas == [solution_latex("8/(3-8/3)", 24)]
    refusals = harness.app.bot_data.refusals
    assert not refusals.allows(GROUP, EPHEMERAL) and refusals.allows(GROUP, RICH)


async def test_the_live_puzzle_rule_holds_for_ephemeral_solve(harness: Harness,
                                                             monkeypatch: pytest.MonkeyPatch):
    """A /solve that reaches a live round is refused however it is asked: alone in the group
    of the round, alone in another group, in a private chat; nothing shows a solution."""
    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    assert harness.services.rounds.open_round(GROUP) is not None
    live = visible_text(EN("live_puzzle"))
    for chat, kind in ((GROUP, "group"), (OTHER_GROUP, "group"), (BOB["id"], "private")):
        await harness.send(chat, BOB, "/solve 8 8 3 3", kind=kind)
        refused = await harness.telegram.reply(chat)
        assert live in refused.text and not refused.formulas, chat
        assert refused.receiver == (BOB["id"] if kind == "group" else None)
    assert not any("8÷(3−8÷3)" in s.text or s.formulas for s in harness.telegram.sent)


async def test_the_settings_panel_and_its_steps_are_the_admins_alone(harness: Harness):
    telegram = harness.telegram
    telegram.promote(GROUP, ANN["id"])
    await harness.send(GROUP, ANN, "/settings")
    panel = await telegram.reply(GROUP)
    assert panel.receiver == ANN["id"] and "Answers with /a seen by the bot alone" in panel.text
    with pytest.raises(KeyError):  # Bob sees no panel to press
        await telegram.press_button(GROUP, panel.message_id, BOB, "Hints → off")
    await press(harness, panel.message_id, ANN, "Hints → off", GROUP)
    edit = telegram.edits[-1]
    assert (edit.message_id, edit.receiver) == (panel.message_id, ANN["id"])
    assert "Hints: off" in edit.text
    assert ephemeral_calls(harness, "editMessageText") == 0


async def test_a_group_may_have_its_answers_seen_by_the_bot_alone(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    """/a unseen: the group's own lists declare /a ephemeral; Bob's wrong /a is told to Bob
    alone and kept out of the deal; Ann's right one is the group's result, expression and
    all; plain typed answers stay public; turned off, the lists go."""
    telegram = harness.telegram
    telegram.promote(GROUP, ANN["id"])
    await harness.send(GROUP, ANN, "/settings")
    panel = await telegram.reply(GROUP)
    await press(harness, panel.message_id, ANN, "/a unseen → on", GROUP)
    own = {(scope, code): commands for (scope, code), commands in telegram.scoped_menus.items()
           if scope[1:] == (GROUP,)}
    assert {scope[0] for scope, _ in own} == {"chat", "chat_administrators"}
    for commands in own.values():
        declared = {c["command"] for c in commands if c.get("is_ephemeral")}
        assert {"a", "answer"} <= declared
    assert (await harness.services.settings.of(GROUP)).unseen

    many_solutions(monkeypatch, harness, (3, 3, 8, 8))
    await harness.send(GROUP, ANN, "/play")
    dealt = await telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None
    wrong = "+".join(map(str, current.hand))
    said = await telegram.say(GROUP, BOB, f"/a {wrong}")
    assert said.get("ephemeral_message_id")
    await deliver(harness, said)
    verdict = await telegram.reply(GROUP)
    assert verdict.receiver == BOB["id"] and verdict.reply_to_ephemeral == said["message_id"]
    assert verdict not in telegram.seen_by(GROUP, ANN["id"])
    shown_to_all = [e.text for e in telegram.edits if e.message_id == dealt.message_id]
    assert not any(visible_text(wrong) in text for text in shown_to_all)
    said = await telegram.say(GROUP, ANN, "/a 8/(3-8/3)")
    await deliver(harness, said)
    won = await telegram.reply(GROUP)
    assert won.receiver is None and "Ann wins" in won.text and "8÷(3−8÷3)" in won.text

    typed = await telegram.say(GROUP, BOB, "1+2+3+4")  # plain text: the chat's, as ever
    assert "ephemeral_message_id" not in typed

    panel_again = telegram.message(GROUP, panel.message_id)
    assert panel_again is not None
    await press(harness, panel.message_id, ANN, "/a unseen → off", GROUP)
    assert not [key for key in telegram.scoped_menus if key[0][1:] == (GROUP,)]
    said = await telegram.say(GROUP, BOB, "/a 1+1")
    assert "ephemeral_message_id" not in said


async def won_with_pages(harness: Harness, monkeypatch: pytest.MonkeyPatch):
    """Ann wins a round in the group whose hand has pages of solutions: its result and hand."""
    many_solutions(monkeypatch, harness, (1, 2, 3, 4, 6))
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None
    await harness.send(GROUP, ANN, f"/a {solve(current.hand)[0]}")
    return await harness.telegram.reply(GROUP), current.hand


async def test_show_all_solutions_goes_to_the_presser_alone(harness: Harness,
                                                            monkeypatch: pytest.MonkeyPatch):
    telegram = harness.telegram
    won, hand = await won_with_pages(harness, monkeypatch)
    edits = len(telegram.edits)
    assert (await press(harness, won.message_id, BOB, "Show all solutions", GROUP)).text is None
    pages = await telegram.reply(GROUP)
    assert pages.receiver == BOB["id"] and pages.method == "sendRichMessage"
    assert pages.formulas == [solution_latex(s, 24) for s in solve(hand)[:10]]
    assert len(telegram.edits) == edits  # the result stays as the chat saw it
    assert "Show all solutions" in labels(harness, won.message_id, GROUP)
    assert labels(harness, pages.message_id, GROUP) == ["▶"]
    await press(harness, pages.message_id, BOB, "▶", GROUP)
    turned = telegram.edits[-1]  # edited as an ephemeral message is: only Bob sees it
    assert (turned.message_id, turned.receiver) == (pages.message_id, BOB["id"])
    assert turned.rich is not None and "11–20 shown" in turned.text
    assert labels(harness, pages.message_id, GROUP) == ["◀", "▶"]
    with pytest.raises(KeyError):  # Ann does not see Bob's pages
        await telegram.press_button(GROUP, pages.message_id, ANN, "◀")


async def test_a_press_that_waited_past_the_window_turns_the_result_into_its_pages_unasked(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    """The same press handled 15 s after it reached the bot (a backlog): no ephemeral page is
    asked for (Telegram would refuse it), the result's own message shows the pages, and the
    chat is not marked: Ann's press, taken at once, goes to her alone."""
    telegram = harness.telegram
    won, _ = await won_with_pages(harness, monkeypatch)
    asked = ephemeral_calls(harness) + ephemeral_calls(harness, "sendRichMessage")
    with arrivals.arrived(time.monotonic() - WHISPER_WITHIN - 1.0):
        await press(harness, won.message_id, BOB, "Show all solutions", GROUP)
    assert ephemeral_calls(harness) + ephemeral_calls(harness, "sendRichMessage") == asked
    shown = telegram.edits[-1]
    assert shown.message_id == won.message_id and shown.receiver is None
    assert harness.app.bot_data.refusals.allows(GROUP, EPHEMERAL)


def test_refusals_are_remembered_a_while_and_bounded():
    now = [0.0]
    refusals = Refusals(seconds=60.0, kept=2, timer=lambda: now[0])
    refusals.refused(1, EPHEMERAL)
    assert not refusals.allows(1, EPHEMERAL) and refusals.allows(1, RICH)
    now[0] = 61.0
    assert refusals.allows(1, EPHEMERAL)  # tried again after a while
    for chat in range(10):
        refusals.refused(chat, RICH)
    assert len(refusals) == 2 and not refusals.allows(9, RICH) and refusals.allows(0, RICH)


async def test_what_a_press_is_told_in_words_goes_to_its_presser_alone(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    """A press answered by a message, not a notice (the solver busy for the presser): in a
    group, to the presser alone."""
    telegram = harness.telegram
    won, _ = await won_with_pages(harness, monkeypatch)
    busy = EN("busy", seconds=7)

    async def too_busy(*args, **kwargs):
        return busy

    monkeypatch.setattr(harness.services.solving, "solve_page", too_busy)
    await press(harness, won.message_id, BOB, "Show all solutions", GROUP)
    told = await telegram.reply(GROUP)
    assert told.receiver == BOB["id"] and told.text == visible_text(busy)
