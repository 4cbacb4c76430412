"""Every update type Telegram can send (issue 35, item 4 and beyond), as Telegram's JSON through
Update.de_json into the real Application: no handler raises (no traceback in the log), every
press is answered, and nothing is sent that the update did not ask for — a channel's post, a
business account's chat, a guest's message or a poll is nobody's command or answer."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from telegram import Update

from demo.emulator.records import ADMIN_RIGHTS, BOT_ID
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness

GROUP, CHANNEL, SUPERGROUP = -2701, -1002702, -1002703
ANN = {"id": 271, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 272, "is_bot": False, "first_name": "Ben"}
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel"}
GROUP_ADMIN_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group",
                   "username": "GroupAnonymousBot"}
BOT = {"id": BOT_ID, "is_bot": True, "first_name": "Twenty-Four",
       "username": "twentyfour_test_bot"}


def chat(chat_id: int, kind: str) -> dict:
    if kind == "private":
        return {"id": chat_id, "type": "private", "first_name": "Ann"}
    return {"id": chat_id, "type": kind, "title": f"A {kind}"}


def message(chat_: dict, text: str, sender: dict | None = ANN, **more: Any) -> dict:
    """A text message as Telegram sends it (`sender` None: no `from`, as in a channel)."""
    found: dict[str, Any] = {"message_id": 50, "date": int(time.time()), "chat": chat_,
                             "text": text}
    if sender is not None:
        found["from"] = sender
    if text.startswith("/"):
        found["entities"] = [{"type": "bot_command", "offset": 0,
                              "length": len(text.split()[0])}]
    return {**found, **more}


def member(user: dict, status: str) -> dict:
    found = {"user": user, "status": status}
    if status == "administrator":
        found.update(dict.fromkeys(ADMIN_RIGHTS, False), can_manage_chat=True)
    return found


def membership(chat_: dict, old: str, new: str, who: dict = BOT) -> dict:
    return {"chat": chat_, "from": ANN, "date": int(time.time()),
            "old_chat_member": member(who, old), "new_chat_member": member(who, new)}


CHANNEL_CHAT, GROUP_CHAT = chat(CHANNEL, "channel"), chat(GROUP, "group")
PRIVATE = chat(ANN["id"], "private")
REACTION = [{"type": "emoji", "emoji": "👍"}]
BUSINESS = {"business_connection_id": "bc1"}

# (name, the update's fields, what the bot may call in answer: Bot API methods)
KINDS: list[tuple[str, dict, set[str]]] = [
    ("message in a group", {"message": message(GROUP_CHAT, "/top")}, {"sendMessage"}),
    ("message without a sender", {"message": message(GROUP_CHAT, "/play", None)}, set()),
    ("message without a chat", {"message": {
        k: v for k, v in message(GROUP_CHAT, "/help").items() if k != "chat"}}, set()),
    ("plain text without a sender", {"message": message(GROUP_CHAT, "1+2+3+4", None)}, set()),
    ("message on behalf of a channel", {"message": message(
        GROUP_CHAT, "/top", CHANNEL_BOT, sender_chat=CHANNEL_CHAT)}, {"sendMessage"}),
    ("message of an anonymous admin", {"message": message(
        GROUP_CHAT, "/top", GROUP_ADMIN_BOT, sender_chat=GROUP_CHAT)}, {"sendMessage"}),
    ("edited message", {"edited_message": message(
        GROUP_CHAT, "hello", edit_date=int(time.time()))}, set()),
    ("channel post", {"channel_post": message(CHANNEL_CHAT, "/play", None,
                                               sender_chat=CHANNEL_CHAT)}, set()),
    ("channel post of text", {"channel_post": message(CHANNEL_CHAT, "3*8", None,
                                                       sender_chat=CHANNEL_CHAT)}, set()),
    ("edited channel post", {"edited_channel_post": message(
        CHANNEL_CHAT, "/top", None, sender_chat=CHANNEL_CHAT, edit_date=1)}, set()),
    ("business connection", {"business_connection": {
        "id": "bc1", "user": ANN, "user_chat_id": ANN["id"], "date": int(time.time()),
        "is_enabled": True}}, set()),
    ("business message", {"business_message": message(PRIVATE, "/play", BEN, **BUSINESS)},
     set()),
    ("business message of text", {"business_message": message(PRIVATE, "1+2", BEN,
                                                               **BUSINESS)}, set()),
    ("edited business message", {"edited_business_message": message(
        PRIVATE, "/top", BEN, edit_date=1, **BUSINESS)}, set()),
    ("deleted business messages", {"deleted_business_messages": {
        "business_connection_id": "bc1", "chat": PRIVATE, "message_ids": [1, 2]}}, set()),
    ("guest message", {"guest_message": message(GROUP_CHAT, "/play", BEN)}, set()),
    ("message reaction", {"message_reaction": {
        "chat": GROUP_CHAT, "message_id": 5, "user": ANN, "date": int(time.time()),
        "old_reaction": [], "new_reaction": REACTION}}, set()),
    ("anonymous message reaction", {"message_reaction": {
        "chat": GROUP_CHAT, "message_id": 5, "actor_chat": GROUP_CHAT,
        "date": int(time.time()), "old_reaction": [], "new_reaction": REACTION}}, set()),
    ("message reaction count", {"message_reaction_count": {
        "chat": GROUP_CHAT, "message_id": 5, "date": int(time.time()),
        "reactions": [{"type": REACTION[0], "total_count": 3}]}}, set()),
    ("inline query", {"inline_query": {"id": "q1", "from": ANN, "query": "1 2 3 4",
                                       "offset": ""}}, {"answerInlineQuery"}),
    ("chosen inline result", {"chosen_inline_result": {"result_id": "r1", "from": ANN,
                                                       "query": "1 2 3 4"}}, set()),
    ("callback query on an inline message", {"callback_query": {
        "id": "c1", "from": ANN, "chat_instance": "1", "inline_message_id": "im1",
        "data": "h:1"}}, {"answerCallbackQuery"}),
    ("confirmation on an inline message", {"callback_query": {
        "id": "c2", "from": ANN, "chat_instance": "1", "inline_message_id": "im1",
        "data": "cf:y:00000000"}}, {"answerCallbackQuery"}),
    ("callback query on an inaccessible message", {"callback_query": {
        "id": "c3", "from": ANN, "chat_instance": "1",
        "message": {"chat": GROUP_CHAT, "message_id": 7, "date": 0}, "data": "r:1"}},
     {"answerCallbackQuery"}),
    ("game callback query", {"callback_query": {
        "id": "c4", "from": ANN, "chat_instance": "1", "game_short_name": "g",
        "message": message(GROUP_CHAT, "x", BOT)}}, {"answerCallbackQuery"}),
    ("callback query without data", {"callback_query": {
        "id": "c5", "from": ANN, "chat_instance": "1",
        "message": message(GROUP_CHAT, "x", BOT)}}, {"answerCallbackQuery"}),
    ("shipping query", {"shipping_query": {
        "id": "s1", "from": ANN, "invoice_payload": "p", "shipping_address": {
            "country_code": "DE", "state": "", "city": "B", "street_line1": "s",
            "street_line2": "", "post_code": "1"}}}, set()),
    ("pre-checkout query", {"pre_checkout_query": {
        "id": "p1", "from": ANN, "currency": "XTR", "total_amount": 1,
        "invoice_payload": "p"}}, set()),
    ("purchased paid media", {"purchased_paid_media": {"from": ANN,
                                                       "paid_media_payload": "p"}}, set()),
    ("poll", {"poll": {"id": "poll1", "question": "?", "options": [
        {"persistent_id": "o1", "text": "a", "voter_count": 1}], "total_voter_count": 1,
        "is_closed": False,
        "is_anonymous": True, "type": "regular", "allows_multiple_answers": False,
        "allows_revoting": False, "members_only": False}}, set()),
    ("poll answer", {"poll_answer": {"poll_id": "poll1", "option_ids": [0],
                                             "option_persistent_ids": ["o1"], "user": ANN}},
     set()),
    ("anonymous poll answer", {"poll_answer": {"poll_id": "poll1", "option_ids": [0],
                                               "option_persistent_ids": ["o1"],
                                               "voter_chat": GROUP_CHAT}}, set()),
    ("the bot made a channel's admin", {"my_chat_member": membership(
        CHANNEL_CHAT, "left", "administrator")}, set()),
    ("the bot removed from a channel", {"my_chat_member": membership(
        CHANNEL_CHAT, "administrator", "left")}, set()),
    ("chat member", {"chat_member": membership(GROUP_CHAT, "left", "member", BEN)}, set()),
    ("chat join request", {"chat_join_request": {
        "chat": GROUP_CHAT, "from": BEN, "user_chat_id": BEN["id"],
        "date": int(time.time())}}, set()),
    ("chat boost", {"chat_boost": {"chat": CHANNEL_CHAT, "boost": {
        "boost_id": "b1", "add_date": 1, "expiration_date": 2,
        "source": {"source": "premium", "user": ANN}}}}, set()),
    ("removed chat boost", {"removed_chat_boost": {
        "chat": CHANNEL_CHAT, "boost_id": "b1", "remove_date": 2,
        "source": {"source": "gift_code", "user": ANN}}}, set()),
    ("managed bot", {"managed_bot": {"user": ANN, "bot": BOT}}, set()),
    ("nothing at all", {}, set()),
]

# what the bot may always ask or answer, whatever the update (it asks who administers a chat)
QUIET = {"getChatMember", "getMe"}


@pytest.fixture
def tracebacks(caplog: pytest.LogCaptureFixture):
    """The log's records of errors (a handler's exception is logged with its traceback)."""
    caplog.set_level(logging.WARNING)

    def found() -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in caplog.records
                if r.exc_info or r.levelno >= logging.ERROR]

    return found


@ON_BOTH_BACKENDS
async def test_every_update_type_is_survived(harness: Harness, tracebacks):
    """One of each, in turn: no traceback, only the calls the update may cause, and every
    press answered."""
    for known, kind in ((GROUP, "group"), (CHANNEL, "channel"), (ANN["id"], "private"),
                        (BEN["id"], "private")):
        harness.telegram.chat(known, kind)
    problems = []
    for update_id, (name, fields, allowed) in enumerate(KINDS, 10_000):
        update = Update.de_json({"update_id": update_id, **fields}, harness.app.bot)
        before = len(harness.telegram.calls)
        await harness.app.process_update(update)
        called = {method for method, _, _ in harness.telegram.calls[before:]} - QUIET
        if not called <= allowed:
            problems.append(f"{name}: called {sorted(called - allowed)}")
        if "callback_query" in fields and "answerCallbackQuery" not in called:
            problems.append(f"{name}: the press was not answered")
        if found := tracebacks():
            problems.append(f"{name}: {found}")
            break
    assert problems == []


@ON_BOTH_BACKENDS
async def test_a_business_chat_a_guest_or_a_channel_is_nobody_s_answer(harness: Harness,
                                                                       tracebacks):
    """Ann's round in her private chat: a business account's message in a chat with the same
    id (Telegram names a business chat by the customer), a guest's message or a channel's
    post carrying the right answer wins nothing and says nothing."""
    await harness.send(ANN["id"], ANN, "/play", kind="private")
    await harness.telegram.reply(ANN["id"])
    current = harness.services.rounds.open_round(ANN["id"])
    assert current is not None
    right = solve(current.hand)[0]
    sent = len(harness.telegram.sent)
    for update_id, fields in enumerate((
            {"business_message": message(PRIVATE, right, BEN, **BUSINESS)},
            {"business_message": message(PRIVATE, f"/a {right}", ANN, **BUSINESS)},
            {"edited_business_message": message(PRIVATE, right, BEN, edit_date=1, **BUSINESS)},
            {"guest_message": message(PRIVATE, right, BEN)},
            {"channel_post": message(PRIVATE, right, None)}), 20_000):
        await harness.app.process_update(Update.de_json({"update_id": update_id, **fields},
                                                        harness.app.bot))
    assert len(harness.telegram.sent) == sent and tracebacks() == []
    assert harness.services.rounds.open_round(ANN["id"]) == current


async def press_update(h: Harness, chat_id: int, message_id: int, user: dict, data: str
                       ) -> tuple[str, Update]:
    """A press as the emulator queues it: its query id, and the Update."""
    query_id = await h.telegram.press(chat_id, message_id, user, data)
    [raw] = [u for u in h.telegram.updates if "callback_query" in u]
    h.telegram.updates.clear()
    return query_id, Update.de_json({k: v for k, v in raw.items() if not k.startswith("_")},
                                    h.app.bot)


async def test_a_press_delivered_again_or_failing_is_still_answered(
        harness: Harness, monkeypatch: pytest.MonkeyPatch, tracebacks):
    """A press whose update was claimed before (the bot stopped between claiming it and
    answering it, and Telegram delivers it again), and a press whose handling raises: each
    still gets its answer, so no client's spinner turns on."""
    harness.telegram.chat(GROUP)
    await harness.send(GROUP, ANN, "/play")
    deal = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None
    query_id, update = await press_update(harness, GROUP, deal.message_id, BEN,
                                          f"r:{current.id}")
    await harness.services.once.claim(update.update_id, time.time())  # handled "before"
    await harness.app.process_update(update)
    assert harness.telegram.callback_answer(query_id) is not None

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(harness.services.rounds, "reveal", broken)
    query_id, update = await press_update(harness, GROUP, deal.message_id, BEN,
                                          f"r:{current.id}")
    await harness.app.process_update(update)
    assert harness.telegram.callback_answer(query_id) is not None
    assert any("a bug" in line or "error while handling" in line for line in tracebacks())


UNREADABLE = [
    {"poll": {"id": "p", "question": "?", "options": [{"text": "a", "voter_count": 1}]}},
    {"callback_query": {"id": "q", "from": ANN}},  # no chat_instance
    {"message": "not an object"},
    {"edited_message": {"message_id": "x", "chat": 5, "date": "today"}},
]


async def test_an_unreadable_update_does_not_stop_the_polling(harness: Harness, tracebacks):
    """Updates PTB cannot read (a Bot API server of another version, or garbage), each ahead
    of a /help in the same batch: PTB alone would drop the batch unconfirmed and ask for it
    again for ever; the bot skips each unreadable one and answers the /help."""
    harness.telegram.chat(GROUP)
    updater = harness.app.updater
    assert updater is not None
    for fields in UNREADABLE:
        await harness.telegram._queue(dict(fields))
    await harness.telegram.say(GROUP, ANN, "/help")
    await updater.start_polling(poll_interval=0.0, timeout=1)
    try:
        reply = await harness.telegram.reply(GROUP, timeout=15)
    finally:
        await updater.stop()
    assert "/play" in reply.text
    assert tracebacks() == []
    assert not harness.telegram.updates  # every one of them confirmed


async def test_the_bot_reads_each_polled_update_on_its_own(harness: Harness):
    from bot.telegram.polling import PollingBot

    bot = harness.app.bot
    assert isinstance(bot, PollingBot)
    read = [bot._read({"update_id": 7 + i, **fields}) for i, fields in enumerate(UNREADABLE)]
    assert [u.update_id for u in read if u is not None] == [7, 8, 9, 10]
    assert all(u is not None and u.effective_user is None and u.effective_message is None
               for u in read)
    assert bot._read({"no": "id"}) is None and bot._read([1]) is None
    good = bot._read({"update_id": 3, "message": message(GROUP_CHAT, "/top")})
    assert good is not None and good.effective_user is not None


def test_every_type_telegram_sends_is_among_them():
    """A type PTB learns (a newer Bot API) must be added to KINDS above."""
    fed = {key for _, fields, _ in KINDS for key in fields}
    assert {str(kind) for kind in Update.ALL_TYPES} <= fed


async def read_with_turns(harness: Harness, monkeypatch, read: Callable | None = None
                          ) -> tuple[tuple, list[int]]:
    """Forty messages polled in one batch, each read through `read` (the bot's own by
    default); the updates, and the turn of the event loop each was read in (another task counts
    the turns)."""
    import asyncio

    from bot.telegram.polling import PollingBot

    bot = harness.app.bot
    assert isinstance(bot, PollingBot)
    harness.telegram.chat(GROUP)
    for n in range(40):
        await harness.telegram.say(GROUP, ANN, f"/a {n}")
    ticks, seen = [0], []

    async def ticker() -> None:
        while True:
            ticks[0] += 1
            await asyncio.sleep(0)

    reading = read or bot._read
    monkeypatch.setattr(bot, "_read", lambda data: (seen.append(ticks[0]), reading(data))[1])
    running = asyncio.create_task(ticker())
    try:
        updates = await bot.get_updates(timeout=0)
    finally:
        running.cancel()
        harness.telegram.updates.clear()
    return updates, seen


async def test_a_polled_batch_is_read_a_few_at_a_time_with_the_loop_let_run_between(
        harness: Harness, monkeypatch):
    """A batch of a hundred presses read in one step held every chat's replies 10 to 50 ms
    (issue 70's flood): the updates are read READ_AT_ONCE at a time, and whatever else waits
    on the event loop runs between; every update comes back, in order."""
    from bot.telegram.polling import READ_AT_ONCE

    updates, seen = await read_with_turns(harness, monkeypatch)
    assert [u.message.text for u in updates] == [f"/a {n}" for n in range(40)]
    assert len(set(seen)) == 40 // READ_AT_ONCE  # the ticker ran between each few, only then


async def test_a_batch_dropped_unread_is_got_through_in_one_step(harness: Harness, monkeypatch):
    """Updates dropped unread (a flooder's, past their budget: a look at the JSON each) do not
    count towards READ_AT_ONCE: a flood's batch of a hundred took twenty-five turns of the loop,
    and the updates behind it at Telegram waited for each of its batches in turn. Those read
    are still read a few at a time; every update comes back, in order."""
    from bot.telegram.polling import READ_AT_ONCE, PastBudget

    read = harness.app.bot._read  # type: ignore[attr-defined]

    def looked(data: dict) -> object:
        dropped = int(data["message"]["text"].split()[1]) < 32
        return PastBudget(data["update_id"]) if dropped else read(data)
    updates, seen = await read_with_turns(harness, monkeypatch, looked)
    assert [type(u) is PastBudget for u in updates] == [n < 32 for n in range(40)]
    assert [u.message.text for u in updates[32:]] == [f"/a {n}" for n in range(32, 40)]
    assert len(set(seen[:32 + READ_AT_ONCE])) == 1  # the dropped ones and the first few read
    assert len(set(seen)) == 8 // READ_AT_ONCE
