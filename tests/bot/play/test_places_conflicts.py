"""A group that becomes a supergroup while the supergroup already has a round or a match of its own
(issue 35, item 5): someone's /play or /match in the supergroup came before the bot heard of the
move — by the service message, or by a send the old group refused with its new id. A topic holds
one open round and one match, so the old group's end without a word; the supergroup's go on, and
the move itself never fails."""

from __future__ import annotations

import logging

import pytest
from telegram import Update

from bot.play.ports import ROUND_END, Alarm
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness

GROUP, SUPERGROUP = -3501, -1003501
ANN = {"id": 351, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 352, "is_bot": False, "first_name": "Ben"}


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def deliver_queued(h: Harness) -> None:
    """Feed the updates the emulator queued (the migration's service message)."""
    queued = [{k: v for k, v in u.items() if not k.startswith("_")} for u in h.telegram.updates]
    h.telegram.updates.clear()
    for update in queued:
        await h.app.process_update(Update.de_json(update, h.app.bot))


async def open_in(h: Harness, chat_id: int) -> list[int]:
    return [r.id for r in await h.stores.rounds.open_rounds() if r.chat_id == chat_id]


async def moved_while_both_play(h: Harness, command: str) -> tuple[int, int]:
    """A round (or match) in the group; the group becomes a supergroup unheard; Ben starts one
    in the supergroup. The two rounds' ids: the group's, the supergroup's."""
    await h.send(GROUP, ANN, command)
    await h.telegram.reply(GROUP)
    [old] = await open_in(h, GROUP)
    await h.telegram.migrate(GROUP, SUPERGROUP, ANN, notify=False)
    await h.send(SUPERGROUP, BEN, command, kind="supergroup")
    await h.telegram.reply(SUPERGROUP)
    [new] = await open_in(h, SUPERGROUP)
    return old, new


@ON_BOTH_BACKENDS
async def test_the_service_message_moves_a_group_whose_supergroup_has_a_round(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    old, new = await moved_while_both_play(harness, "/play")
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN)  # now the bot hears of it
    await deliver_queued(harness)
    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == [new]  # the supergroup's round goes on
    ended = await harness.stores.rounds.get_round(old)
    assert ended is not None and ended.status == "revealed" and ended.chat_id == SUPERGROUP
    assert [r.round.id for r in await harness.stores.rounds.unannounced()] == []  # no result owed
    assert harness.services.rounds.open_round(SUPERGROUP).id == new  # type: ignore[union-attr]
    assert harness.services.rounds.open_round(GROUP) is None


@ON_BOTH_BACKENDS
async def test_a_refused_send_moves_a_group_whose_supergroup_has_a_round(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    """The group's round ends by its timer: its result, refused with the new id, finds the
    supergroup busy with a round of its own."""
    old, new = await moved_while_both_play(harness, "/play")
    await harness.services.alarms.ring(Alarm(ROUND_END, GROUP, old))
    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == [new]
    ended = await harness.stores.rounds.get_round(old)
    assert ended is not None and ended.status != "open"


@ON_BOTH_BACKENDS
async def test_a_group_with_a_match_moves_into_a_supergroup_with_its_own(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    _old, new = await moved_while_both_play(harness, "/match 2")
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN)
    await deliver_queued(harness)
    assert errors(caplog) == []
    match = await harness.stores.matches.match_on(SUPERGROUP)
    assert match is not None and match.started_by == BEN["id"]  # the supergroup's own goes on
    assert await harness.stores.matches.match_on(GROUP) is None
    assert await open_in(harness, SUPERGROUP) == [new]


@ON_BOTH_BACKENDS
async def test_without_a_round_of_its_own_the_supergroup_takes_the_groups(
        harness: Harness, caplog: pytest.LogCaptureFixture):
    """The control: the move as it always was — the round follows the group."""
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    [old] = await open_in(harness, GROUP)
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN)
    await deliver_queued(harness)
    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == [old]
