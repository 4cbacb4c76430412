"""The bot's side of a group that becomes a supergroup while both ids play (issue 48): Telegram says
so in the group (`migrate_to_chat_id`) and in the supergroup (`migrate_from_chat_id`), in either
order, or the bot sees only one of them, or one twice. Each way, with a match and its round on in
both chats: no error, the supergroup's round and match go on, the group's end without a word (no
result owed), the scores are the rounds' once; the round table — what the Mini App's page reads —
holds the supergroup's round alone, and no alarm is left under the group's id while the
supergroup's ring for its own round. On SQLite and PostgreSQL. The store's merge itself:
tests/bot/play/test_places_collisions.py."""

from __future__ import annotations

import itertools
import logging
import time

import pytest
from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt
from bot.play.ports import KINDS, ROUND_END, STATUS, WARNING, Alarm
from tests.bot.conftest import BACKENDS, Harness
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)

GROUP, SUPERGROUP = -4811, -1_000_004_811
ANN = {"id": 4811, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 4812, "is_bot": False, "first_name": "Ben"}
ORDERS = {"to": ("to",), "from": ("from",), "to-from": ("to", "from"),
          "from-to": ("from", "to"), "to-twice": ("to", "to")}
service_ids = itertools.count(10_000)


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def open_in(h: Harness, chat_id: int) -> list[int]:
    return [r.id for r in await h.stores.rounds.open_rounds() if r.chat_id == chat_id]


async def status_written(h: Harness, chat_id: int) -> None:
    """The deal's status edit due after an answer, made now: due later, it would find the
    group moved (a refused edit moves it too) before the service message the test sends."""
    scheduler = h.services.table.scheduler
    alarm = scheduler.pending(STATUS, chat_id)
    if alarm is not None:
        scheduler.cancel(STATUS, chat_id)
        await h.services.alarms.ring(alarm)


async def match_with_an_answer(h: Harness, chat_id: int, player: dict, kind: str) -> int:
    """A match begun in the chat, a wrong answer to its round: the round's id."""
    await h.send(chat_id, player, "/match 2", kind=kind)
    await h.telegram.reply(chat_id)
    [opened] = await open_in(h, chat_id)
    await h.send(chat_id, player, "/a 1+1+1+1", kind=kind)
    await status_written(h, chat_id)
    return opened


async def both_play(h: Harness) -> tuple[int, int]:
    """Ann's match in the group; the group becomes a supergroup the bot has not heard of; Ben's
    match in the supergroup. The two open rounds: the group's, the supergroup's."""
    group = await match_with_an_answer(h, GROUP, ANN, "group")
    await h.telegram.migrate(GROUP, SUPERGROUP, ANN, notify=False)
    supergroup = await match_with_an_answer(h, SUPERGROUP, BEN, "supergroup")
    return group, supergroup


async def told(h: Harness, side: str) -> None:
    """One of the two service messages of the move, as Telegram sends it."""
    if side == "to":
        chat = {"id": GROUP, "type": "group", "title": "G"}
        said = {"migrate_to_chat_id": SUPERGROUP}
    else:
        chat = {"id": SUPERGROUP, "type": "supergroup", "title": "G"}
        said = {"migrate_from_chat_id": GROUP}
    message = {"message_id": next(service_ids), "date": int(time.time()), "chat": chat,
               "from": ANN, **said}
    await h.app.process_update(Update.de_json(
        {"update_id": next(h.ids), "message": message}, h.app.bot))


async def scores_hold(h: Harness) -> None:
    db = h.stores.rounds.db  # type: ignore[attr-defined]
    rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    scores = stored_scores(await db.fetch(SCORES_SQL))
    assert scores == expected_scores(rounds, answers)
    assert GROUP not in {key[0] for key in scores}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("harness", BACKENDS, indirect=True)
async def test_a_move_into_a_supergroup_in_play_merges_them(
        harness: Harness, order: str, caplog: pytest.LogCaptureFixture) -> None:
    group, supergroup = await both_play(harness)
    match = await harness.stores.matches.match_on(SUPERGROUP)
    said = len([s for s in harness.telegram.sent if s.chat_id in (GROUP, SUPERGROUP)])
    for side in ORDERS[order]:
        await told(harness, side)

    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == [supergroup]
    assert await open_in(harness, GROUP) == []
    ended = await harness.stores.rounds.get_round(group)
    assert ended is not None and (ended.status, ended.chat_id) == ("revealed", SUPERGROUP)
    assert await harness.stores.rounds.answerers(group) == [ANN["id"]]  # kept, counted
    assert await harness.stores.rounds.unannounced() == []
    assert await harness.stores.matches.match_on(SUPERGROUP) == match  # Ben's goes on
    assert await harness.stores.matches.match_on(GROUP) is None
    await scores_hold(harness)
    # quietly: the group's deal is in a chat nobody writes to, the supergroup has its own
    assert len([s for s in harness.telegram.sent if s.chat_id in (GROUP, SUPERGROUP)]) == said

    rounds, scheduler = harness.services.rounds, harness.services.table.scheduler
    assert rounds.open_round(GROUP) is None  # what a page of the group's round finds: over
    assert rounds.open_round(SUPERGROUP).id == supergroup  # type: ignore[union-attr]
    assert [kind for kind in KINDS if scheduler.pending(kind, GROUP) is not None] == []
    for kind in (ROUND_END, WARNING):
        assert scheduler.pending(kind, SUPERGROUP) == Alarm(kind, SUPERGROUP, supergroup)

    await harness.services.alarms.ring(Alarm(ROUND_END, SUPERGROUP, supergroup))
    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == []  # the supergroup's round ended on time
    assert await harness.stores.matches.match_on(SUPERGROUP) == match  # its match goes on
    await scores_hold(harness)


@pytest.mark.parametrize("harness", BACKENDS, indirect=True)
async def test_a_play_in_the_supergroup_while_the_move_runs_is_met_by_it(
        harness: Harness, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The traceback of the issue: Ben's /play in the supergroup is dealt after the move looked
    for a round there and before its rows moved (the move's parts take a while on a long
    history). The move's own transaction meets it and ends the group's round."""
    group = await match_with_an_answer(harness, GROUP, ANN, "group")
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN, notify=False)
    store, dealt = harness.stores.people, []
    moving = store.migrate_chat

    async def played_meanwhile(old_id: int, new_id: int) -> None:
        outcome = await harness.services.rounds.deal(
            Chat(SUPERGROUP, "supergroup", "G"), Player(BEN["id"], "Ben"), "24")
        assert isinstance(outcome, Dealt)
        dealt.append(outcome.round.id)
        await moving(old_id, new_id)

    monkeypatch.setattr(store, "migrate_chat", played_meanwhile)
    await told(harness, "to")

    assert errors(caplog) == []
    assert await open_in(harness, SUPERGROUP) == dealt
    ended = await harness.stores.rounds.get_round(group)
    assert ended is not None and (ended.status, ended.chat_id) == ("revealed", SUPERGROUP)
    assert harness.services.rounds.open_round(SUPERGROUP).id == dealt[0]  # type: ignore[union-attr]
    assert harness.services.rounds.open_round(GROUP) is None
    scheduler = harness.services.table.scheduler
    assert [kind for kind in KINDS if scheduler.pending(kind, GROUP) is not None] == []
    assert scheduler.pending(ROUND_END, SUPERGROUP) == Alarm(ROUND_END, SUPERGROUP, dealt[0])
    await scores_hold(harness)
