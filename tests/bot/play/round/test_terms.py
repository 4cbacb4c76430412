"""A settings change applies from the next round (issue 35, item 9): an open round keeps the terms
it was dealt with — hints, plain typed answers, its length — whatever an admin changes meanwhile;
the next deal follows the new settings."""

from __future__ import annotations

from bot.play.chats.people import Chat, Player
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness, new_services
from tests.bot.telegram.test_buttons import labels as labels_in
from tests.bot.telegram.test_buttons import press as press_in

GROUP = -3601
ALICE = {"id": 361, "is_bot": False, "first_name": "Alice"}  # the admin
BOB = {"id": 362, "is_bot": False, "first_name": "Bob"}


def labels(h: Harness, message_id: int) -> list[str]:
    return labels_in(h, message_id, GROUP)


async def press(h: Harness, message_id: int, user: dict, label: str):  # type: ignore[no-untyped-def]
    return await press_in(h, message_id, user, label, GROUP)


async def panel(h: Harness) -> int:
    h.telegram.promote(GROUP, ALICE["id"])
    await h.send(GROUP, ALICE, "/settings")
    return (await h.telegram.reply(GROUP)).message_id


@ON_BOTH_BACKENDS
async def test_hints_turned_off_reach_only_the_next_round(harness: Harness):
    settings = await panel(harness)
    await harness.send(GROUP, BOB, "/play")
    deal = await harness.telegram.reply(GROUP)
    assert "Hint" in labels(harness, deal.message_id)
    assert (await press(harness, settings, ALICE, "Hints → off")).text == "Saved."
    hinted = await press(harness, deal.message_id, BOB, "Hint")  # Bob dealt it, hints were on
    assert hinted.text.startswith("💡 Hint 1"), hinted.text
    assert "Hint" in labels(harness, deal.message_id)  # the edited deal keeps its button
    said = len(harness.telegram.sent)
    await harness.send(GROUP, BOB, "/hint")  # the next step: into the deal, marked, no words
    assert all("Hints are off" not in s.text for s in harness.telegram.sent[said:])
    assert harness.telegram.reactions[-1].emoji in ("👌", "🤷")
    await harness.send(GROUP, BOB, "/reveal")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, BOB, "/play")  # the next round: no hints
    nxt = await harness.telegram.reply(GROUP)
    assert "Hint" not in labels(harness, nxt.message_id)
    await harness.send(GROUP, BOB, "/hint")
    assert "Hints are off" in (await harness.telegram.reply(GROUP)).text


@ON_BOTH_BACKENDS
async def test_typing_turned_off_reaches_only_the_next_round(harness: Harness):
    settings = await panel(harness)
    await harness.send(GROUP, BOB, "/play")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None
    assert (await press(harness, settings, ALICE, "Typed answers → off")).text == "Saved."
    wrong = "+".join(map(str, current.hand)) if sum(current.hand) != 24 else \
        "*".join(map(str, current.hand))
    edits = len(harness.telegram.edits)
    await harness.send(GROUP, BOB, wrong)  # typed, not /a: it still counts in this round
    assert len(harness.telegram.edits) > edits or \
        await harness.stores.rounds.answerers(current.id) == [BOB["id"]]
    assert await harness.stores.rounds.answerers(current.id) == [BOB["id"]]


async def test_a_rounds_terms_are_what_it_was_dealt_with(services: Services, clock: Clock):
    """Without Telegram: the length, hints and typing of a round stay as dealt."""
    group, admin = Chat(GROUP, "group", "G"), Player(ALICE["id"], "Alice")

    async def yes() -> bool:
        return True

    dealt = await services.rounds.play(group, admin, "24")
    before = services.rounds.open_round(GROUP)
    assert before is not None
    for key, value in (("seconds_24", "300"), ("hints", "0"), ("typing", "0")):
        await services.settings.change(group, admin, yes, GROUP, key, value)
    held = services.table.of(GROUP)
    assert held is not None and held.terms.hints and held.terms.typing
    assert services.rounds.open_round(GROUP).deadline == before.deadline  # type: ignore[union-attr]
    assert dealt.round.id == before.id
    terms = await services.rounds.terms(GROUP)
    assert not terms.hints and not terms.typing


async def test_a_restart_keeps_the_terms_a_round_was_dealt_with(
        services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    """The terms are stored with the round: the bot started again after a change keeps them
    for the open round (and the next round follows the change). A round stored before they
    were (no terms in its row) takes the chat's settings, as it did."""
    group, admin = Chat(GROUP, "group", "G"), Player(ALICE["id"], "Alice")
    older = Chat(GROUP - 1, "group", "Older")

    async def yes() -> bool:
        return True

    await services.rounds.play(group, admin, "24")
    for chat in (group, older):
        for key in ("hints", "typing"):
            await services.settings.change(chat, admin, yes, chat.id, key, "0")
    now = clock()
    assert await stores.rounds.open_round(older.id, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                          now, now + 60) is not None  # no terms stored
    again, _ = new_services(stores, pool, clock, seed=2)  # the bot started again
    await again.recovery.owed()
    held = again.table.of(GROUP)
    assert held is not None and held.terms.hints and held.terms.typing
    terms = await again.rounds.terms(GROUP)
    assert not terms.hints and not terms.typing
    old = again.table.of(older.id)
    assert old is not None and not old.terms.hints and not old.terms.typing
