"""A command the bot does not have (issue 73: "/foo gets nothing"): sent to the bot — in a
private chat, or in a group with @ its name — it is answered with /help named; a bare /foo in
a group (perhaps another bot's) and /foo@another_bot are left alone, as is any command of
another bot that shares a name with one of ours."""

from __future__ import annotations

from tests.bot.conftest import Harness

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
    for text in ("/help", f"/help@{harness.telegram.username}", "/start"):
        before = len(sent_to(harness, ANN["id"]))
        await harness.send(ANN["id"], ANN, text, kind="private")
        assert not any("I don't know" in s for s in sent_to(harness, ANN["id"])[before:])
        assert len(sent_to(harness, ANN["id"])) == before + 1


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
