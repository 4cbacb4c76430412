"""Updates past their sender's budget dropped before they are read (issue 70, item 1): a
flood's messages, presses and inline queries cost a look at their JSON, never PTB's objects nor
a place in the intake; a press still hears its one notice; the poll confirms what it dropped;
the webhook answers Telegram and takes nothing; another sender is read as ever."""

from __future__ import annotations

import asyncio

from bot.runtime.doors import INLINE_DOOR, Doors, Limits, person_key
from bot.telegram.app import ALLOWED_UPDATES
from bot.telegram.intake import Intake
from bot.telegram.over_budget import unread
from bot.telegram.polling import Poller, PollingBot
from demo.emulator import BotApiEmulator
from tests.waiting import until

FLOODER = {"id": 66, "is_bot": False, "first_name": "Flo"}
OTHER = {"id": 67, "is_bot": False, "first_name": "Oli"}
TIGHT = Limits(rate=1.0, burst=3.0, at_once=3)


def spent(doors: Doors, user_id: int, sender_chat: int | None = None) -> None:
    """The person's bucket emptied (their first refusal said, as a press's notice is)."""
    person = person_key(user_id, sender_chat)
    while not doors.unread(person, told=False):
        admitted = doors.enter("update", person)
        if hasattr(admitted, "keys"):
            doors.leave(admitted)
    doors.enter("update", person)  # refused: said once


def message(user: dict, text: str = "x", sender_chat: dict | None = None) -> dict:
    item = {"message_id": 1, "date": 0, "text": text, "from": user,
            "chat": {"id": -5, "type": "group", "title": "G"}}
    if sender_chat is not None:
        item["sender_chat"] = sender_chat
    return {"update_id": 1, "message": item}


def test_a_flooders_update_is_dropped_unread_and_another_s_is_not():
    doors = Doors(person=TIGHT, clock=lambda: 0.0)
    spent(doors, FLOODER["id"])
    refusals = doors.refusals
    assert unread(doors, message(FLOODER))
    assert unread(doors, {"update_id": 2, "inline_query": {"id": "1", "from": FLOODER,
                                                            "query": "1 2 3 4", "offset": ""}})
    assert not unread(doors, message(OTHER))
    assert not unread(doors, {"update_id": 3, "channel_post": {"message_id": 1}})
    assert not unread(None, message(FLOODER))
    assert doors.refusals == refusals + 2


def test_a_press_hears_its_notice_before_presses_go_unread():
    """A press past the budget goes the read path until its notice was said; after, unread."""
    doors = Doors(person=TIGHT, clock=lambda: 0.0)
    person = person_key(FLOODER["id"])
    for _ in range(3):
        admitted = doors.enter("update", person)
        doors.leave(admitted)  # type: ignore[arg-type]
    press = {"update_id": 4, "callback_query": {"id": "9", "from": FLOODER,
                                                "chat_instance": "1", "data": "h:1"}}
    assert not unread(doors, press)  # not told yet: read, refused, noticed
    assert doors.enter("update", person).first  # type: ignore[union-attr]
    assert unread(doors, press)


def test_a_crowd_past_its_group_s_budget_is_dropped_unread():
    """Fifty members each within their own budget but past the group's: a member's message,
    and a press once its notice was said, go unread there; the same member is read in another
    group and in private; an inline query goes unread once the inline door is past its budget,
    while the asker's messages are still read."""
    doors = Doors(person=TIGHT, chat=TIGHT, inline=TIGHT, clock=lambda: 0.0)
    group = ("chat", -5)
    while not doors.unread(person_key(99), group, told=False):
        admitted = doors.enter("update", person_key(99), group)
        if hasattr(admitted, "keys"):
            doors.leave(admitted)
    assert doors.waiting(person_key(FLOODER["id"])) is None  # the member's own bucket is full
    assert unread(doors, message(FLOODER))
    assert not unread(doors, press_in(-5))  # presses draw on the group's presses, still full
    elsewhere = message(FLOODER)
    elsewhere["message"]["chat"] = {"id": -6, "type": "group", "title": "H"}
    assert not unread(doors, elsewhere)
    private = message(FLOODER)
    private["message"]["chat"] = {"id": FLOODER["id"], "type": "private"}
    assert not unread(doors, private)
    inline = {"update_id": 2, "inline_query": {"id": "1", "from": OTHER, "query": "1 2 3 4",
                                               "offset": ""}}
    for n in range(3):
        assert not unread(doors, inline)
        doors.enter("update", person_key(100 + n), INLINE_DOOR)  # three others' queries, held
    assert unread(doors, inline)
    asked_there = message(OTHER)
    asked_there["message"]["chat"] = {"id": -6, "type": "group", "title": "H"}
    assert not unread(doors, asked_there)


def press_in(chat_id: int, user: dict = FLOODER) -> dict:
    return {"update_id": 4, "callback_query": {
        "id": "9", "from": user, "chat_instance": "1", "data": "h:1",
        "message": {"message_id": 1, "date": 0, "chat": {"id": chat_id, "type": "group"}}}}


def test_a_crowds_presses_past_its_group_s_presses_are_dropped_unread():
    """Fifty members pressing together, each within their own budget: past the group's
    presses (doors.PRESSES) a press is read until its notice was said, then dropped unread;
    what the members type still draws on the group's own budget, untouched, and the same
    members press in another group."""
    doors = Doors(person=TIGHT, presses=TIGHT, clock=lambda: 0.0)
    presses = ("presses", -5)
    while not doors.unread(person_key(99), presses, told=False):
        admitted = doors.enter("update", person_key(99), presses)
        if hasattr(admitted, "keys"):
            doors.leave(admitted)
    assert not unread(doors, press_in(-5))  # not told yet: read, refused, noticed
    assert doors.enter("update", person_key(FLOODER["id"]), presses).first  # type: ignore
    assert unread(doors, press_in(-5))
    assert not unread(doors, message(FLOODER))  # their answers: the group's budget is whole
    assert doors.waiting(("chat", -5)) is None
    assert not unread(doors, press_in(-6))


def test_what_an_unread_update_would_draw_on_is_what_its_read_update_draws_on():
    """The JSON's look names the same budgets as `keys_of` names of the update read."""
    from telegram import Update

    from bot.telegram.over_budget import _drawn_beside, keys_of

    chats = ({"id": -5, "type": "group", "title": "G"}, {"id": FLOODER["id"], "type": "private"},
             {"id": -1001, "type": "supergroup", "title": "S"})
    samples = [message(FLOODER), {"update_id": 2, "inline_query": {
        "id": "1", "from": FLOODER, "query": "1", "offset": ""}}]
    for chat in chats:
        typed = message(FLOODER)
        typed["message"]["chat"] = chat
        samples.append(typed)
        samples.append({"update_id": 3, "edited_message": {**typed["message"], "edit_date": 1}})
        samples.append({"update_id": 4, "callback_query": {
            "id": "9", "from": FLOODER, "chat_instance": "1", "data": "x",
            "message": {"message_id": 1, "date": 0, "chat": chat}}})
    samples.append({"update_id": 5, "callback_query": {  # under an inline message: no chat
        "id": "9", "from": FLOODER, "chat_instance": "1", "data": "x", "inline_message_id": "i"}})
    for data in samples:
        kind = next(name for name in ("message", "edited_message", "callback_query",
                                      "inline_query") if name in data)
        read = keys_of(Update.de_json(data, None))
        assert read is not None
        assert _drawn_beside(kind, data[kind], FLOODER["id"]) == read[1], data


def test_anonymous_admins_of_another_group_are_not_the_flooders():
    anonymous = {"id": 1087968824, "is_bot": True, "first_name": "Group"}
    doors = Doors(person=TIGHT, clock=lambda: 0.0)
    spent(doors, anonymous["id"], -1)
    red = {"id": -1, "type": "supergroup", "title": "Red"}
    blue = {"id": -2, "type": "supergroup", "title": "Blue"}
    assert unread(doors, message(anonymous, sender_chat=red))
    assert not unread(doors, message(anonymous, sender_chat=blue))


async def test_the_poll_confirms_what_it_dropped_and_holds_none_of_it(telegram: BotApiEmulator,
                                                                      monkeypatch):
    """Two hundred of one person's messages and one of another's: the flooder's past the
    budget are never in hand, never even made into PTB's Updates (one cost 28 µs, three times
    the look that dropped it), every update is confirmed, the other's is handled."""
    from telegram import Update

    made: list[int] = []
    making = Update.__init__

    def counted(self: Update, update_id: int, *args: object, **kwargs: object) -> None:
        made.append(update_id)
        making(self, update_id, *args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(Update, "__init__", counted)
    telegram.chat(-1)
    for n in range(200):
        await telegram.say(-1, FLOODER, f"spam {n}")
    await telegram.say(-1, OTHER, "hello")
    doors = Doors(person=TIGHT, clock=lambda: 0.0)
    spent(doors, FLOODER["id"])  # the flood began before: its first refusal said
    refusals = doors.refusals
    bot = PollingBot(telegram.token, base_url=telegram.base_url, doors=doors)
    await bot.initialize()
    intake = Intake(256)
    taken: list[int] = []

    async def consume() -> None:
        """As the fair processor does: each update drawn on its sender's budget."""
        while True:
            update = await intake.get()
            user = update.effective_user.id if update.effective_user else 0
            taken.append(user)
            admitted = doors.enter("update", person_key(user))
            if hasattr(admitted, "keys"):
                doors.leave(admitted)  # type: ignore[arg-type]
            intake.task_done()

    consumer = asyncio.create_task(consume())
    stop = asyncio.Event()
    poller = Poller(bot, intake, ALLOWED_UPDATES, timeout=1)
    polling = asyncio.create_task(poller.run(stop))
    try:
        await until(lambda: OTHER["id"] in taken, "the other's message in hand")
        await until(lambda: not telegram.updates, "every update confirmed")
    finally:
        stop.set()
        await polling
        consumer.cancel()
        await poller.confirm()
        await bot.shutdown()
    assert taken == [OTHER["id"]]  # none of the flooder's ever in hand
    assert doors.refusals == refusals + 200
    assert len(made) == 1  # the other's message alone was read


def test_the_webhook_takes_nothing_of_a_flooder():
    """A webhook's body from a person past their budget is read as no update: Telegram gets its
    200, the intake takes nothing; another person's body is an update."""
    import json

    from bot.runtime.config import Config
    from bot.telegram.webhook import read_update
    from tests.bot.conftest import bare_application

    doors = Doors(person=TIGHT, clock=lambda: 0.0)
    application = bare_application(Config(token="123:abc"), doors)
    spent(doors, FLOODER["id"])
    assert read_update(json.dumps(message(FLOODER)).encode(), application) is None
    assert read_update(json.dumps(message(OTHER)).encode(), application) is not None
