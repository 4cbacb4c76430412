"""The emulator speaks Bot API 10.3, over HTTP as the bot meets it: commands declared ephemeral per
scope make a user's command seen by the bot alone; an ephemeral message goes to its receiver alone,
answers a press or an ephemeral message of the last 15 seconds (or comes from an admin bot), is
edited and deleted only with its own methods and pressed only by its receiver; rich messages carry
paragraphs and mathematical blocks; and it refuses what Telegram refuses."""

from __future__ import annotations

from demo.emulator import BotApiEmulator
from tests.e2e.test_fake_server import call

GROUP = -5911
ANN = {"id": 5911, "is_bot": False, "first_name": "Ann", "language_code": "de"}
BOB = {"id": 5912, "is_bot": False, "first_name": "Bob"}
MATH = {"blocks": [{"type": "paragraph", "text": "3 8 3 8 → 24"},
                   {"type": "mathematical_expression",
                    "expression": r"\frac{8}{3 - \frac{8}{3}} = 24"}]}


async def declare(telegram: BotApiEmulator) -> None:
    """/help ephemeral in every group; /play not; Ann's German list in this group says /play is."""
    for scope, code, play in (({"type": "all_group_chats"}, None, False),
                              ({"type": "chat", "chat_id": GROUP}, "de", True)):
        status, _ = await call(telegram, "setMyCommands", scope=scope, **(
            {"language_code": code} if code else {}), commands=[
            {"command": "help", "description": "help", "is_ephemeral": True},
            {"command": "play", "description": "play", "is_ephemeral": play}])
        assert status == 200


async def test_a_command_is_ephemeral_where_the_users_list_says_so(telegram: BotApiEmulator):
    telegram.chat(GROUP)
    await declare(telegram)
    helped = await telegram.say(GROUP, BOB, "/help")
    assert helped["ephemeral_message_id"] == helped["message_id"]
    assert helped["receiver_user"]["id"] == telegram.bot_user["id"]
    assert telegram.message(GROUP, helped["message_id"]) is helped
    assert "ephemeral_message_id" not in await telegram.say(GROUP, BOB, "/play")
    assert "ephemeral_message_id" in await telegram.say(GROUP, ANN, "/play")  # her chat's list
    assert "ephemeral_message_id" not in await telegram.say(7, ANN, "/help", kind="private")
    status, _ = await call(telegram, "deleteMyCommands", scope={"type": "chat",
                                                                "chat_id": GROUP},
                           language_code="de")
    assert status == 200
    assert "ephemeral_message_id" not in await telegram.say(GROUP, ANN, "/play")
    status, body = await call(telegram, "setMyCommands", commands=[
        {"command": "x", "description": "x", "is_ephemeral": "yes"}])
    assert status == 400, body


async def test_an_ephemeral_message_goes_to_its_receiver_alone(telegram: BotApiEmulator):
    telegram.chat(GROUP)
    await declare(telegram)
    helped = await telegram.say(GROUP, ANN, "/help")
    status, body = await call(telegram, "sendMessage", chat_id=GROUP, text="only you",
                              ephemeral_message_parameters={"receiver_user_id": ANN["id"]},
                              reply_parameters={"ephemeral_message_id": helped["message_id"]},
                              reply_markup={"inline_keyboard": [[{"text": "▶",
                                                                  "callback_data": "p"}]]})
    assert status == 200, body
    sent = body["result"]
    number = sent["ephemeral_message_id"]
    assert sent["receiver_user"]["id"] == ANN["id"]
    assert [s.text for s in telegram.seen_by(GROUP, ANN["id"])] == ["only you"]
    assert telegram.seen_by(GROUP, BOB["id"]) == []
    assert telegram.sent[-1].reply_to_ephemeral == helped["message_id"]

    status, body = await call(telegram, "editMessageText", chat_id=GROUP, message_id=number,
                              text="edited")  # an ephemeral message is not the chat's
    assert status == 400, body
    query = await telegram.press(GROUP, number, ANN, "p")  # Ann sees it, and presses it
    status, body = await call(telegram, "editEphemeralMessageText", chat_id=GROUP,
                              receiver_user_id=ANN["id"], ephemeral_message_id=number,
                              text="edited")
    assert (status, body["result"]) == (200, True)
    assert (telegram.edits[-1].receiver, telegram.edits[-1].text) == (ANN["id"], "edited")
    status, body = await call(telegram, "editEphemeralMessageText", chat_id=GROUP,
                              receiver_user_id=BOB["id"], ephemeral_message_id=number, text="x")
    assert status == 400, body  # not Bob's
    try:
        await telegram.press(GROUP, number, BOB, "p")
        raise AssertionError("Bob pressed a message he does not see")
    except KeyError:
        pass
    status, body = await call(telegram, "sendMessage", chat_id=GROUP, text="in place",
                              ephemeral_message_parameters={
                                  "receiver_user_id": ANN["id"], "callback_query_id": query,
                                  "replace_callback_query_message": True})
    assert status == 400, body  # a press on an ephemeral message is answered by editing it
    status, body = await call(telegram, "deleteEphemeralMessage", chat_id=GROUP,
                              receiver_user_id=ANN["id"], ephemeral_message_id=number)
    assert (status, body["result"]) == (200, True)
    assert telegram.message(GROUP, number) is None and telegram.deletions[-1].receiver == ANN["id"]


async def test_what_telegram_refuses_of_ephemeral_messages(telegram: BotApiEmulator):
    telegram.chat(GROUP)
    telegram.chat(7, "private")
    await declare(telegram)
    helped = await telegram.say(GROUP, ANN, "/help")
    to_ann = {"receiver_user_id": ANN["id"]}
    replying = {"ephemeral_message_id": helped["message_id"]}
    cases = [
        dict(chat_id=7, ephemeral_message_parameters=to_ann),  # a private chat
        dict(chat_id=GROUP, ephemeral_message_parameters=to_ann),  # nothing it answers
        dict(chat_id=GROUP, ephemeral_message_parameters={"receiver_user_id": BOB["id"]},
             reply_parameters=replying),  # Ann's command, not Bob's
        dict(chat_id=GROUP, ephemeral_message_parameters={
            "receiver_user_id": telegram.bot_user["id"]}, reply_parameters=replying)]
    for params in cases:
        status, body = await call(telegram, "sendMessage", text="x", **params)
        assert status == 400 and body["ok"] is False, params
    telegram.ephemeral_window = -1.0  # the 15 seconds have passed
    status, _ = await call(telegram, "sendMessage", chat_id=GROUP, text="x",
                           ephemeral_message_parameters=to_ann, reply_parameters=replying)
    assert status == 400
    await telegram.add_bot(GROUP, ANN, status="administrator")  # an admin bot: at any time
    status, _ = await call(telegram, "sendMessage", chat_id=GROUP, text="x",
                           ephemeral_message_parameters=to_ann)
    assert status == 200
    telegram.refuse_ephemeral = True
    status, _ = await call(telegram, "sendMessage", chat_id=GROUP, text="x",
                           ephemeral_message_parameters=to_ann)
    assert status == 400
    assert len(telegram.sent) == 1


async def test_rich_messages_with_mathematical_blocks(telegram: BotApiEmulator):
    telegram.chat(GROUP)
    status, body = await call(telegram, "sendRichMessage", chat_id=GROUP, rich_message=MATH)
    assert status == 200, body
    sent = telegram.sent[-1]
    assert sent.formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"] and sent.receiver is None
    assert body["result"]["rich_message"] == MATH
    status, body = await call(telegram, "editMessageText", chat_id=GROUP,
                              message_id=sent.message_id, rich_message={"blocks": [
                                  {"type": "mathematical_expression", "expression": "24 = 24"}]})
    assert status == 200, body
    assert telegram.edits[-1].rich is not None
    for bad in ({"html": "<p>x</p>", "blocks": MATH["blocks"]},  # two at once
                {"blocks": [{"type": "mathematical_expression", "expression": ""}]}, {}):
        status, body = await call(telegram, "sendRichMessage", chat_id=GROUP, rich_message=bad)
        assert status == 400, bad
    telegram.refuse_rich = True
    status, _ = await call(telegram, "sendRichMessage", chat_id=GROUP, rich_message=MATH)
    assert status == 400 and len(telegram.sent) == 1
