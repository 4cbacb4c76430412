"""A command the bot does not have (issue 73: "/foo gets nothing"): sent to the bot — in a
private chat, or in a group with @ its name — it is answered with /help named; a bare /foo in
a group (perhaps another bot's) and /foo@another_bot are left alone, as is any command of
another bot that shares a name with one of ours."""

from __future__ import annotations

from telegram import Update

from bot.runtime.doors import PERSON, Doors
from bot.telegram.fairness import FairUpdates
from tests.bot.conftest import Harness
from tests.waiting import until

ANN = {"id": 7301, "is_bot": False, "first_name": "Ann", "language_code": "en"}
GROUP = -7301


def sent_to(harness: Harness, chat: int) -> list[str]:
    return [s.text for s in harness.telegram.sent if s.chat_id == chat]


async def test_an_unknown_command_in_private_names_help(harness: Harness):
    await harness.send(ANN["id"], ANN, "/foo bar", kind="private")
    [said] = sent_to(harness, ANN["id"])
    assert said == "I don't know /foo. /help lists every command."


async def test_in_a_group_only_one_addressed_to_the_bot_is_answered(harness: Harness):
    me = harness.telegram.username
    for text in ("/foo", "/foo@another_bot", "/play@another_bot", "/help@another_bot"):
        await harness.send(GROUP, ANN, text)
    assert sent_to(harness, GROUP) == []
    await harness.send(GROUP, ANN, f"/foo@{me} 1 2")
    [said] = sent_to(harness, GROUP)
    assert said == f"I don't know /foo@{me}. /help lists every command."


async def test_a_known_command_is_not_also_called_unknown(harness: Harness):
    for text, messages in (("/help", 2), (f"/help@{harness.telegram.username}", 2),
                           ("/start", 1)):
        before = len(sent_to(harness, ANN["id"]))
        await harness.send(ANN["id"], ANN, text, kind="private")
        assert not any("I don't know" in s for s in sent_to(harness, ANN["id"])[before:])
        assert len(sent_to(harness, ANN["id"])) == before + messages


async def test_a_long_or_marked_up_command_is_quoted_clipped_and_escaped(harness: Harness):
    await harness.send(ANN["id"], ANN, "/" + "x" * 60, kind="private")
    [said] = sent_to(harness, ANN["id"])
    assert said.startswith("I don't know /" + "x" * 32 + "…")
    html = next(s.html for s in harness.telegram.sent if s.chat_id == ANN["id"])
    assert "<code>/" + "x" * 32 + "…</code>" in html


async def test_in_every_language(harness: Harness):
    ru = {**ANN, "id": 7302, "language_code": "ru"}
    await harness.send(ru["id"], ru, "/foo", kind="private")
    [said] = sent_to(harness, ru["id"])
    assert said == "Команды /foo я не знаю. /help покажет все команды."


async def test_the_bots_name_in_any_case_and_not_an_edit_or_a_channels_post(harness: Harness):
    """@ the bot's name is read as Telegram reads it, in any case; an edited /foo (already
    answered, or not, when it was sent) and a channel's post are never answered."""
    me = harness.telegram.username
    await harness.send(GROUP, ANN, f"/foo@{me.upper()}")
    assert len(sent_to(harness, GROUP)) == 1
    message = await harness.telegram.say(ANN["id"], ANN, "/bar", kind="private")
    harness.telegram.updates.clear()
    post = {**message, "chat": {"id": -7399, "type": "channel", "title": "c"}}
    post.pop("from")
    for update in ({"update_id": 90, "edited_message": {**message, "edit_date": 1}},
                   {"update_id": 91, "channel_post": post}):
        await harness.app.process_update(Update.de_json(update, harness.app.bot))
    assert sent_to(harness, ANN["id"]) == [] and sent_to(harness, -7399) == []


async def test_a_flood_of_unknown_commands_is_answered_within_the_budget(harness: Harness):
    """300 /foo at once from one person in private: a door like any other, so those past the
    person's budget are dropped unanswered, not each answered (the flood's echo)."""
    fair = harness.app.update_processor
    assert isinstance(fair, FairUpdates)
    fair.doors = Doors(clock=lambda: 0.0)  # time stands still: the bucket does not refill
    updates = []
    for n in range(300):
        message = await harness.telegram.say(ANN["id"], ANN, f"/foo{n}", kind="private")
        updates.append(Update.de_json({"update_id": 1000 + n, "message": message},
                                      harness.app.bot))
    harness.telegram.updates.clear()
    for update in updates:
        await harness.app.update_queue.put(update)
    await until(lambda: harness.app.update_queue.in_hand == 0, "every update handled")
    answered = sent_to(harness, ANN["id"])
    assert 1 <= len(answered) <= PERSON.burst
    assert fair.doors.refusals == 300 - len(answered)
