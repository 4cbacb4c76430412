"""The emulator's reactions and privacy mode, over HTTP as the bot meets them."""

from __future__ import annotations

from demo.emulator import BotApiEmulator
from tests.e2e.test_fake_server import call

GROUP = -2201
ANN = {"id": 61, "is_bot": False, "first_name": "Ann"}


async def test_set_message_reaction_checks_what_telegram_checks(telegram: BotApiEmulator):
    said = await telegram.say(GROUP, ANN, "1+2+3+4")
    thumbs = [{"type": "emoji", "emoji": "👎"}]
    status, body = await call(telegram, "setMessageReaction", chat_id=GROUP,
                              message_id=said["message_id"], reaction=thumbs)
    assert (status, body["result"]) == (200, True)
    assert [(r.message_id, r.emoji) for r in telegram.reactions] == [(said["message_id"], "👎")]
    for reaction, message_id in (([{"type": "emoji", "emoji": "❌"}], said["message_id"]),
                                 (thumbs * 2, said["message_id"]), (thumbs, 999_999)):
        status, body = await call(telegram, "setMessageReaction", chat_id=GROUP,
                                  message_id=message_id, reaction=reaction)
        assert status == 400 and body["ok"] is False, body
    telegram.no_reactions.add(GROUP)  # the chat turned reactions off
    status, body = await call(telegram, "setMessageReaction", chat_id=GROUP,
                              message_id=said["message_id"], reaction=thumbs)
    assert (status, body["description"]) == (400, "Bad Request: REACTION_INVALID")
    assert len(telegram.reactions) == 1


async def test_privacy_mode_in_getme_and_in_what_is_delivered(telegram: BotApiEmulator):
    _, body = await call(telegram, "getMe")
    assert body["result"]["can_read_all_group_messages"] is True
    telegram.privacy_mode = True
    _, body = await call(telegram, "getMe")
    assert body["result"]["can_read_all_group_messages"] is False
    telegram.chat(GROUP)
    _, sent = await call(telegram, "sendMessage", chat_id=GROUP, text="deal")
    seen = [await telegram.say(GROUP, ANN, text, reply_to=reply_to) for text, reply_to in (
        ("/play", None), ("/play@other_bot", None), (f"/a@{telegram.username} 1", None),
        ("hello", None), (f"hi @{telegram.username}", None),
        ("8/(3-8/3)", sent["result"]["message_id"]))]
    delivered = {u["message"]["message_id"] for u in telegram.updates_log if "message" in u}
    assert [s["message_id"] in delivered for s in seen] == [True, False, True, False, True, True]
    await telegram.say(7, ANN, "hello", kind="private")  # a private chat: everything
    assert telegram.updates_log[-1]["message"]["text"] == "hello"
