"""Every group's anonymous admins come as one account (GroupAnonymousBot, 1087968824), the group
itself the message's sender_chat: through the real Application, on each backend, their /play
counts against their own group alone (bot/play/guards/stand_ins.py). Three rounds open in one
forum's topics keep a fourth from its anonymous admins there, and not another group's."""

from __future__ import annotations

from telegram import Update

from tests.bot.conftest import ON_BOTH_BACKENDS, Harness

FORUM, OTHER = -8201, -8202
GROUP_ADMIN = {"id": 1087968824, "is_bot": True, "first_name": "Group",
               "username": "GroupAnonymousBot"}
TOO_MANY = "You have 3 rounds on already"


async def as_the_group(h: Harness, chat: int, text: str, topic: int | None = None) -> None:
    """An anonymous admin of the group writes: Telegram sends GroupAnonymousBot, with the group
    as the message's sender_chat."""
    message = await h.telegram.say(chat, GROUP_ADMIN, text, topic=topic)
    message["sender_chat"] = message["chat"]
    h.telegram.updates.clear()
    await h.app.process_update(Update.de_json({"update_id": next(h.ids), "message": message},
                                              h.app.bot))


@ON_BOTH_BACKENDS
async def test_each_groups_anonymous_admins_play_within_their_own_groups_bound(
        harness: Harness):
    h = harness
    h.telegram.chat(FORUM, "supergroup", "Forum", forum=True)
    h.telegram.chat(OTHER, "supergroup", "Other")
    topics = [h.telegram.topic(FORUM, f"Table {n}") for n in range(4)]
    for topic in topics[:3]:
        await as_the_group(h, FORUM, "/play", topic)
        await h.telegram.reply(FORUM, topic=topic)
        assert h.services.rounds.open_round(FORUM, topic) is not None, topic
    await as_the_group(h, FORUM, "/play", topics[3])
    assert TOO_MANY in (await h.telegram.reply(FORUM, topic=topics[3])).text
    assert h.services.rounds.open_round(FORUM, topics[3]) is None
    await as_the_group(h, OTHER, "/play")
    dealt = await h.telegram.reply(OTHER)
    assert TOO_MANY not in dealt.text, dealt.text
    assert h.services.rounds.open_round(OTHER) is not None
