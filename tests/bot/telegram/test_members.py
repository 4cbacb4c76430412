"""Who is in a group (bot.telegram.members, issue 70): an answer is remembered a minute, and
replaced at once when Telegram says the person's status changed (a chat_member update, sent to
an admin bot) — one who left is refused the next time, without a look-up and without waiting the
minute; such an update is neither claimed nor answered. A look-up begun before the update does
not bring the old answer back. Where the bot is not (removed, or Telegram says so), nobody is
asked about and nobody vouched for, while a live puzzle there is still withheld. A restricted
user who left the group is out, however Telegram keeps their restrictions."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

from telegram import ChatMember, Update
from telegram.error import BadRequest, Forbidden, TimedOut

from bot.play.guards.once import Claimed
from bot.telegram.members import ChatMembers
from tests.bot.conftest import Clock, Harness

GROUP = -1007001
ADMIN = {"id": 7000, "is_bot": False, "first_name": "Ada"}
ANN = {"id": 7001, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 7002, "is_bot": False, "first_name": "Ben"}
UPDATE_IDS = itertools.count(70_000)
RESTRICTED_RIGHTS = ("can_change_info", "can_invite_users", "can_pin_messages",
                     "can_send_messages", "can_send_polls", "can_send_other_messages",
                     "can_add_web_page_previews", "can_manage_topics", "can_send_audios",
                     "can_send_documents", "can_send_photos", "can_send_videos",
                     "can_send_video_notes", "can_send_voice_notes", "can_edit_tag",
                     "can_react_to_messages")


def member(user: dict, status: str, **more: Any) -> ChatMember:
    found: dict[str, Any] = {"status": status, "user": user, **more}
    if status == "kicked":
        found["until_date"] = 0
    if status == "restricted":
        found.update(dict.fromkeys(RESTRICTED_RIGHTS, True), until_date=0)
    return ChatMember.de_json(found, None)


class Telegram:
    """getChatMember, answering what the test sets (a status, or an error to raise); a call
    may be held until the test lets it answer."""

    def __init__(self) -> None:
        self.answers: dict[tuple[int, int], ChatMember | Exception] = {}
        self.asked = 0
        self.held: asyncio.Event | None = None

    async def get_chat_member(self, chat_id: int, user_id: int) -> ChatMember:
        self.asked += 1
        answer = self.answers.get((chat_id, user_id)) or member(
            {"id": user_id, "is_bot": False, "first_name": "U"}, "member")
        if self.held is not None:
            await self.held.wait()
        if isinstance(answer, Exception):
            raise answer
        return answer


async def handle_queued(h: Harness) -> list[int]:
    """Hand the bot what the emulator queued (as getUpdates would); the update ids."""
    queued = [u for u in h.telegram.updates]
    h.telegram.updates.clear()
    handled = []
    for update in queued:
        update_id = next(UPDATE_IDS)
        fields = {k: v for k, v in update.items() if not k.startswith("_") and k != "update_id"}
        await h.app.process_update(Update.de_json({"update_id": update_id, **fields},
                                                  h.app.bot))
        handled.append(update_id)
    return handled


def lookups(h: Harness) -> int:
    return sum(1 for method, _, _ in h.telegram.calls if method == "getChatMember")


async def test_a_member_who_leaves_is_refused_at_once(harness: Harness):
    """Ann was asked about (a member, remembered for a minute); she leaves, and Telegram tells
    the admin bot: she is refused from the next request on, nobody asks Telegram, and the
    update is neither answered nor claimed. Back in the group, she is in again at once."""
    telegram, members, bot = harness.telegram, harness.app.bot_data.members, harness.app.bot
    telegram.chat(GROUP, "supergroup")
    await telegram.add_bot(GROUP, ADMIN, status="administrator")
    await handle_queued(harness)
    assert await members.belongs(bot, GROUP, ANN["id"]) is True
    assert await members.belongs(bot, GROUP, BEN["id"]) is True
    asked, sent = lookups(harness), len(telegram.sent)
    await telegram.member_changes(GROUP, ANN, "left")
    [update_id] = await handle_queued(harness)
    assert await members.belongs(bot, GROUP, ANN["id"]) is False
    assert not await members.is_member(bot, GROUP, ANN["id"])
    assert await members.belongs(bot, GROUP, BEN["id"]) is True  # Ben's answer stands
    assert lookups(harness) == asked  # Telegram said so: nobody asked
    assert len(telegram.sent) == sent  # nothing answered
    assert isinstance(await harness.services.once.claim(update_id, time.time()), Claimed)
    await telegram.member_changes(GROUP, ANN, "member")
    await handle_queued(harness)
    assert await members.belongs(bot, GROUP, ANN["id"]) is True
    await telegram.member_changes(GROUP, BEN, "kicked", by=ADMIN)
    await handle_queued(harness)
    assert await members.belongs(bot, GROUP, BEN["id"]) is False
    assert lookups(harness) == asked


async def test_joins_and_leaves_of_people_never_asked_about_keep_nothing():
    """A big group's joins and leaves must not push out the answers in use: only someone
    remembered (or being asked about) is changed."""
    members = ChatMembers(clock=Clock())
    for user in range(100):
        members.changed(GROUP, member({"id": user, "is_bot": False, "first_name": "U"}, "left"))
    assert len(members._known) == 0


async def test_a_lookup_begun_before_the_news_does_not_bring_the_old_answer_back():
    """Telegram answered "member" for a look-up begun before Ann left; the chat_member update
    came while it was on its way: the update is what counts."""
    members, telegram = ChatMembers(clock=Clock()), Telegram()
    telegram.held = asyncio.Event()
    asking = asyncio.ensure_future(members.belongs(telegram, GROUP, ANN["id"]))  # type: ignore[arg-type]
    while not telegram.asked:
        await asyncio.sleep(0)
    members.changed(GROUP, member(ANN, "left"))
    telegram.held.set()
    assert await asking is False
    assert await members.belongs(telegram, GROUP, ANN["id"]) is False  # type: ignore[arg-type]
    assert telegram.asked == 1


async def test_a_restricted_user_who_left_is_not_a_member():
    """Telegram keeps the restrictions of someone who left a supergroup: their status stays
    "restricted" with is_member False. Out, for every question; one still in is in."""
    members, telegram = ChatMembers(clock=Clock()), Telegram()
    telegram.answers[(GROUP, ANN["id"])] = member(ANN, "restricted", is_member=False)
    telegram.answers[(GROUP, BEN["id"])] = member(BEN, "restricted", is_member=True)
    assert await members.belongs(telegram, GROUP, ANN["id"]) is False  # type: ignore[arg-type]
    assert not await members.is_member(telegram, GROUP, ANN["id"])  # type: ignore[arg-type]
    assert await members.belongs(telegram, GROUP, BEN["id"]) is True  # type: ignore[arg-type]
    members.changed(GROUP, member(BEN, "restricted", is_member=False))  # and then he left
    assert await members.belongs(telegram, GROUP, BEN["id"]) is False  # type: ignore[arg-type]


async def test_where_the_bot_is_not_nobody_is_vouched_for_and_nobody_asked():
    """The bot removed from a group (my_chat_member): what it knew of the group goes, and
    everyone there is out without a look-up; added again, people are asked again."""
    members, telegram, bot_user = ChatMembers(clock=Clock()), Telegram(), {
        "id": 1, "is_bot": True, "first_name": "Bot"}
    assert await members.belongs(telegram, GROUP, ANN["id"]) is True  # type: ignore[arg-type]
    members.bot_changed(GROUP, member(bot_user, "kicked"))
    assert await members.belongs(telegram, GROUP, ANN["id"]) is False  # type: ignore[arg-type]
    assert await members.belongs(telegram, GROUP, BEN["id"]) is False  # type: ignore[arg-type]
    assert await members.is_member(telegram, GROUP, BEN["id"])  # a live puzzle: withheld
    assert telegram.asked == 1
    members.bot_changed(GROUP, member(bot_user, "member"))
    assert len(members._absent) == 0  # kept only while the bot is out
    assert await members.belongs(telegram, GROUP, ANN["id"]) is True  # type: ignore[arg-type]
    assert telegram.asked == 2


async def test_where_telegram_says_the_bot_is_not_nobody_is_asked_about_again():
    """The bot not in the group (403), or a chat Telegram does not know to it: nobody there is
    vouched for (a page refuses), nobody there is asked about again for a while, and a live
    puzzle there is still withheld (can't tell: counted as a member); a timeout is only
    "can't tell", and asked again."""
    clock, telegram = Clock(), Telegram()
    members = ChatMembers(clock=clock)
    telegram.answers[(GROUP, ANN["id"])] = Forbidden("bot was kicked from the supergroup chat")
    assert await members.belongs(telegram, GROUP, ANN["id"]) is False  # type: ignore[arg-type]
    assert await members.belongs(telegram, GROUP, BEN["id"]) is False  # type: ignore[arg-type]
    assert await members.is_member(telegram, GROUP, BEN["id"])  # type: ignore[arg-type]
    assert not await members.is_admin(telegram, GROUP, BEN["id"])  # type: ignore[arg-type]
    assert telegram.asked == 1
    telegram.answers[(-5, ANN["id"])] = BadRequest("Chat not found")
    assert await members.belongs(telegram, -5, ANN["id"]) is False  # type: ignore[arg-type]
    telegram.answers[(-6, ANN["id"])] = TimedOut()
    assert await members.belongs(telegram, -6, ANN["id"]) is None  # type: ignore[arg-type]
    assert await members.is_member(telegram, -6, ANN["id"])  # type: ignore[arg-type]
    assert telegram.asked == 4  # the timeout was not remembered
    clock.now += 61
    del telegram.answers[(GROUP, ANN["id"])]
    assert await members.belongs(telegram, GROUP, ANN["id"]) is True  # type: ignore[arg-type]


async def test_the_bot_knows_when_it_is_removed(harness: Harness):
    """Through the application: the bot removed from a group, its people are out at once."""
    telegram, members, bot = harness.telegram, harness.app.bot_data.members, harness.app.bot
    telegram.chat(GROUP, "supergroup")
    assert await members.belongs(bot, GROUP, ANN["id"]) is True
    asked = lookups(harness)
    await telegram.remove_bot(GROUP, ADMIN)
    await handle_queued(harness)
    assert members.away(GROUP)
    assert await members.belongs(bot, GROUP, ANN["id"]) is False
    assert lookups(harness) == asked


async def test_what_is_being_asked_is_kept_only_while_it_is_asked():
    """The look-ups in flight are kept by (chat, person) for the race above, and only while
    they are on their way: answered, failed or cancelled, nothing stays."""
    members, telegram = ChatMembers(clock=Clock()), Telegram()
    telegram.answers[(-6, ANN["id"])] = TimedOut()
    telegram.held = asyncio.Event()
    asking = [asyncio.ensure_future(members.belongs(telegram, chat, ANN["id"]))  # type: ignore[arg-type]
              for chat in (GROUP, GROUP, -6, -7)]
    while telegram.asked < 4:
        await asyncio.sleep(0)
    assert members._asking == {(GROUP, ANN["id"]): 2, (-6, ANN["id"]): 1, (-7, ANN["id"]): 1}
    asking[3].cancel()
    telegram.held.set()
    assert await asyncio.gather(*asking[:3]) == [True, True, None]
    assert members._asking == {}
