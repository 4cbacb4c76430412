"""A start parameter naming a group the signed person is not in is refused before any look-up
where the bot already knows (issue 70; `Face.member`): one Telegram said left (a chat_member
update to the admin bot) is refused on the round's endpoints and on the group's page without a
getChatMember; in a group the bot was removed from, nobody is asked about either."""

from __future__ import annotations

import pytest

from bot.webapp.init_data import sign, user_fields
from tests.bot.conftest import Clock, Harness
from tests.bot.telegram.test_members import handle_queued, lookups
from tests.bot.webapp_support import (
    ANN,
    EVE,
    GROUP,
    SOLUTION,
    deal_known,
    hand_clock,
    page_server,
    post,
    signed_for,
)

NOT_MEMBER = "Видеть и решать раунды группы могут только её участники."  # Eve's Russian


@pytest.fixture
def clock(harness: Harness) -> Clock:
    return hand_clock(harness)


def group_page(user: dict, clock: Clock, h: Harness) -> dict:
    """The group's page, opened from the group's Direct Link."""
    data = sign(user_fields(user["id"], user["first_name"], int(clock()), user["language_code"],
                            f"g{GROUP}"), h.telegram.token)
    return {"init_data": data, "page": f"g{GROUP}"}


async def test_one_telegram_said_left_is_refused_without_a_lookup(harness: Harness,
                                                                   clock: Clock):
    """Eve opened the group's round (asked once: a member); she leaves and Telegram tells the
    admin bot. Her next requests — the round, an answer, the group's page — are refused in her
    words, and nobody asks Telegram; nothing of hers is judged."""
    current = await deal_known(harness)
    await harness.telegram.add_bot(GROUP, ANN, status="administrator")
    await handle_queued(harness)
    ticket = f"{GROUP}_0_{current.id}"
    eves = signed_for(EVE, current, harness.telegram.token)
    async with page_server(harness) as base:
        status, _ = await post(base, "api/round", {"init_data": eves, "round": ticket})
        assert status == 200
        asked = lookups(harness)
        await harness.telegram.member_changes(GROUP, EVE, "left")
        await handle_queued(harness)
        for path, body in (("api/round", {"init_data": eves, "round": ticket}),
                           ("api/answer", {"init_data": eves, "round": ticket,
                                           "steps": SOLUTION}),
                           ("api/page", group_page(EVE, clock, harness))):
            status, said = await post(base, path, body)
            assert (status, said.get("said")) == (403, NOT_MEMBER), path
        assert lookups(harness) == asked
    assert await harness.stores.rounds.answerers(current.id) == []


async def test_a_group_the_bot_left_asks_about_nobody(harness: Harness, clock: Clock):
    """The bot removed from the group: its page, opened by anyone, is refused at once."""
    await deal_known(harness)
    await harness.telegram.remove_bot(GROUP, ANN)
    await handle_queued(harness)
    asked = lookups(harness)
    async with page_server(harness) as base:
        status, said = await post(base, "api/page", group_page(EVE, clock, harness))
    assert (status, said.get("said")) == (403, NOT_MEMBER)
    assert lookups(harness) == asked
