"""/forget while play is on (issue 44, item 4), on both backends through the real handlers: a
round (or match) open in the person's private chat ends with the forget, unscored and unsaid,
and nothing of it stays; a group round they answered in keeps only its anonymous outcome; the
forget and the round's end may race either way; a second forget is harmless; and a forget a kill
interrupted is finished by the next start (or by the person's next /forget). The confirmation is
answered before the rows go (their erasure runs after it): a test that looks at the rows waits
for the erasure (`Privacy.erased`)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from bot.play.community import privacy
from bot.play.ports import NEXT_DEAL, ROUND_END, STATUS, WARNING, Alarm
from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness, make_config, running
from tests.bot.store.test_forget_on_disk import BEN, CY, ZED, rows_naming
from tests.postgres import BACKENDS, emptied

GROUP = -2744
ZED_ID = ZED["id"]
YES = "✅ Yes, delete"
ROUND_ENDED = "The round you had on here ended with it, unscored."


class Killed(Exception):
    """The process died here (a test's stand-in for a kill)."""


async def private_round(h: Harness) -> int:
    """Zed deals a round in private and answers it wrong once: its id."""
    await h.send(ZED_ID, ZED, "/play", kind="private")
    await h.telegram.reply(ZED_ID)
    current = h.services.rounds.open_round(ZED_ID)
    assert current is not None
    await h.send(ZED_ID, ZED, "/a 1+1", kind="private")
    return current.id


async def confirm_forget(h: Harness) -> str:
    """/forget and its confirmation through the handlers: the question's text afterwards."""
    await h.send(ZED_ID, ZED, "/forget", kind="private")
    asked = await h.telegram.reply(ZED_ID)
    done = await h.press(ZED_ID, asked.message_id, ZED, YES)
    assert done.text == "Deleted."
    await h.services.community.privacy.erased()  # the rows go after the answer
    message = h.telegram.message(ZED_ID, asked.message_id)
    assert message is not None
    return str(message["text"])


def said_since(h: Harness, sent: int) -> list[tuple[int | None, str]]:
    """What the bot sent to any chat since the count `sent`."""
    return [(s.chat_id, s.text) for s in h.telegram.sent[sent:]]


def alarms_of(h: Harness, chat_id: int) -> list[str]:
    scheduler = h.services.table.scheduler
    return [kind for kind in (ROUND_END, STATUS, NEXT_DEAL, WARNING)
            if scheduler.pending(kind, chat_id) is not None]


@ON_BOTH_BACKENDS
async def test_a_private_round_ends_with_the_forget_unsaid_and_unkept(harness: Harness):
    round_id = await private_round(harness)
    assert ROUND_END in alarms_of(harness, ZED_ID)
    sent, edits = len(harness.telegram.sent), len(harness.telegram.edits)
    text = await confirm_forget(harness)
    assert "no longer keep" in text and ROUND_ENDED in text
    assert said_since(harness, sent + 1) == []  # the question only: no result, nowhere
    assert len(harness.telegram.edits) == edits + 1  # the question, answered
    assert harness.services.rounds.open_round(ZED_ID) is None
    assert alarms_of(harness, ZED_ID) == []
    assert await rows_naming(harness) == []
    assert await harness.stores.rounds.get_round(round_id) is None
    assert await harness.stores.forgetting.unfinished_forgets() == []
    # its end, had its alarm rung anyway, does nothing and says nothing
    assert await harness.services.alarms.ring(Alarm(ROUND_END, ZED_ID, round_id)) is None
    assert said_since(harness, sent + 1) == []
    assert await rows_naming(harness) == []


@ON_BOTH_BACKENDS
async def test_a_private_match_stops_with_the_forget(harness: Harness):
    await harness.send(ZED_ID, ZED, "/match 3", kind="private")
    await harness.telegram.reply(ZED_ID)
    assert harness.services.rounds.open_round(ZED_ID) is not None
    assert await harness.services.matches.is_on(ZED_ID)
    sent = len(harness.telegram.sent)
    assert ROUND_ENDED in await confirm_forget(harness)
    assert said_since(harness, sent + 1) == []  # no podium, no next deal
    assert alarms_of(harness, ZED_ID) == []
    assert not await harness.services.matches.is_on(ZED_ID)
    assert await rows_naming(harness) == []


@ON_BOTH_BACKENDS
async def test_without_a_round_on_the_confirmation_says_no_round_ended(harness: Harness):
    await private_round(harness)
    await harness.send(ZED_ID, ZED, "/reveal", kind="private")
    await harness.telegram.reply(ZED_ID)
    text = await confirm_forget(harness)
    assert "no longer keep" in text and ROUND_ENDED not in text
    assert await rows_naming(harness) == []


async def group_round_zed_answered(h: Harness) -> int:
    """Ben deals in the group; Ben, Cy and then Zed answer wrong (Zed's is the latest)."""
    await h.send(GROUP, BEN, "/play")
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    for player in (BEN, CY, ZED):
        await h.send(GROUP, player, "/a 1+1")
    return current.id


@ON_BOTH_BACKENDS
async def test_a_group_round_keeps_only_its_anonymous_outcome(harness: Harness):
    round_id = await group_round_zed_answered(harness)
    await confirm_forget(harness)
    assert harness.services.rounds.open_round(GROUP) is not None  # the group plays on
    assert await harness.stores.rounds.answerers(round_id) == [BEN["id"], CY["id"]]
    assert await rows_naming(harness) == []
    sent = len(harness.telegram.sent)
    await harness.services.alarms.ring(Alarm(ROUND_END, GROUP, round_id))
    [(chat, result)] = said_since(harness, sent)
    assert chat == GROUP and "Time is up" in result and ZED["first_name"] not in result
    ended = await harness.stores.rounds.get_round(round_id)
    assert ended is not None and ended.status == "expired"
    assert await rows_naming(harness) == []


async def test_the_open_group_round_no_longer_shows_their_name(harness: Harness):
    await group_round_zed_answered(harness)
    await confirm_forget(harness)
    edits = len(harness.telegram.edits)
    await harness.send(GROUP, BEN, "/pass")  # the deal's status is written again (its alarm)

    def deal() -> list[str]:
        return [e.text for e in harness.telegram.edits[edits:] if e.chat_id == GROUP]

    async with asyncio.timeout(5):
        while not deal():
            await asyncio.sleep(0.05)
    assert ZED["first_name"] not in deal()[-1]
    assert "1 of 2 who answered" in deal()[-1]  # nor counts them


@ON_BOTH_BACKENDS
async def test_the_round_closing_while_the_forget_runs(harness: Harness,
                                                       monkeypatch: pytest.MonkeyPatch):
    """The round's end has closed it in memory and is writing the close when the forget runs
    whole: the close then finds no row, scores nothing and says nothing."""
    round_id = await private_round(harness)
    store = harness.stores.rounds
    closing, go_on = asyncio.Event(), asyncio.Event()
    close_round = store.close_round

    async def slow_close(*args, **kwargs) -> bool:
        closing.set()
        await go_on.wait()
        return await close_round(*args, **kwargs)

    monkeypatch.setattr(store, "close_round", slow_close)
    sent = len(harness.telegram.sent)
    ending = asyncio.create_task(harness.services.rounds.expire(round_id))
    await closing.wait()
    await harness.services.community.privacy.forget(ZED_ID)
    await harness.services.community.privacy.erased()
    go_on.set()
    assert await ending is None
    assert said_since(harness, sent) == []
    assert harness.services.rounds.open_round(ZED_ID) is None
    assert alarms_of(harness, ZED_ID) == []
    assert await rows_naming(harness) == []


@ON_BOTH_BACKENDS
async def test_the_round_s_end_while_the_erasure_waits(harness: Harness,
                                                       monkeypatch: pytest.MonkeyPatch):
    """The confirmation is answered before the erasure: it ended the private round (its row
    deleted, the round off the table), so its end, rung while the erasure waits, finds
    nothing and says nothing; the erasure then deletes the rest."""
    round_id = await private_round(harness)
    forgetting = harness.stores.forgetting
    erasing, go_on = asyncio.Event(), asyncio.Event()
    forget_user = forgetting.forget_user

    async def slow_forget(user_id: int) -> None:
        erasing.set()
        await go_on.wait()
        await forget_user(user_id)

    monkeypatch.setattr(forgetting, "forget_user", slow_forget)
    sent = len(harness.telegram.sent)
    assert await harness.services.community.privacy.forget(ZED_ID) is True
    await erasing.wait()
    assert await harness.stores.rounds.get_round(round_id) is None
    assert await harness.services.alarms.ring(Alarm(ROUND_END, ZED_ID, round_id)) is None
    assert await harness.stores.forgetting.unfinished_forgets() == [ZED_ID]
    go_on.set()
    await harness.services.community.privacy.erased()
    assert said_since(harness, sent) == []
    assert alarms_of(harness, ZED_ID) == []
    assert await rows_naming(harness) == []
    assert await harness.stores.forgetting.unfinished_forgets() == []


@ON_BOTH_BACKENDS
async def test_forgetting_twice_in_a_row(harness: Harness):
    await private_round(harness)
    await group_round_zed_answered(harness)
    privacy = harness.services.community.privacy
    assert sorted(await asyncio.gather(privacy.forget(ZED_ID), privacy.forget(ZED_ID))) == \
        [False, True]  # one after the other: the first ended the round
    await privacy.erased()
    assert await rows_naming(harness) == []
    text = await confirm_forget(harness)  # and once more, with nothing left
    assert "no longer keep" in text and ROUND_ENDED not in text
    assert await rows_naming(harness) == []
    assert await harness.stores.forgetting.unfinished_forgets() == []


async def killed_mid_forget(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Zed's forget is answered (the private round ended with it), then its erasure dies at
    each try after its parts ran (their answers deleted a part at a time), before its one
    transaction: the note stays, and so does what that transaction deletes."""
    db = h.stores.forgetting.db  # type: ignore[attr-defined]

    async def killed(_steps) -> None:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(db, "run_all", killed)
        patch.setattr(privacy, "ERASE_PAUSE", 0.0)
        assert await h.services.community.privacy.forget(ZED_ID) is True
        await h.services.community.privacy.erased()
    assert await h.stores.forgetting.unfinished_forgets() == [ZED_ID]
    assert await rows_naming(h)  # what the one transaction deletes is still there


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_start_after_a_kill_mid_forget_finishes_it(
        backend: str, telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    if backend == "postgres":
        url = request.getfixturevalue("postgres_url")
        await emptied(url)
        config = dataclasses.replace(config, database_url=url)
    async with running(telegram, pool, config) as first:
        await private_round(first)
        await group_round_zed_answered(first)
        await killed_mid_forget(first, monkeypatch)
    sent = len(telegram.sent)
    async with running(telegram, pool, config) as again:
        async with asyncio.timeout(10):  # the housekeeping's first run, at start
            while await again.stores.forgetting.unfinished_forgets() or \
                    again.services.rounds.open_round(ZED_ID) is not None:
                await asyncio.sleep(0.05)
        assert alarms_of(again, ZED_ID) == []
        assert await rows_naming(again) == []
        assert ZED_ID not in [chat for chat, _ in said_since(again, sent)]


@ON_BOTH_BACKENDS
async def test_the_next_forget_finishes_one_a_kill_interrupted(
        harness: Harness, monkeypatch: pytest.MonkeyPatch):
    await private_round(harness)
    await killed_mid_forget(harness, monkeypatch)
    sent = len(harness.telegram.sent)
    assert ROUND_ENDED not in await confirm_forget(harness)  # the first answer ended it
    assert said_since(harness, sent + 1) == []
    assert alarms_of(harness, ZED_ID) == []
    assert await rows_naming(harness) == []
    assert await harness.stores.forgetting.unfinished_forgets() == []
