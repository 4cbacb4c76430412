"""Telegram's life cycle of the bot in a chat (issue 18, item 3), Updates fed to the real
Application against the emulator: removed, banned or blocked (a my_chat_member update, or only a
403 from a send) → the chat's rounds in every topic, its match and their jobs end quietly and stay
ended across a restart; added to a group → a greeting; a group that migrated without the bot
hearing of it → its state moves and the message goes to the supergroup; no traceback at ERROR
and no apology to a chat the bot cannot write to."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from telegram import Update
from telegram.error import Forbidden

from bot.play.ports import NEXT_DEAL, ROUND_END, Alarm
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.telegram.errors import on_error
from demo.emulator import BotApiEmulator
from tests.bot.conftest import Harness, make_config, running

GROUP = -3301
FORUM = -1003302
SUPERGROUP = -1003303
ANN = {"id": 81, "is_bot": False, "first_name": "Ann", "language_code": "en"}
LI = {"id": 82, "is_bot": False, "first_name": "李", "language_code": "zh"}


async def deliver_queued(h: Harness) -> None:
    """Feed the updates the emulator queued (my_chat_member ones) to the application."""
    queued = [{k: v for k, v in u.items() if not k.startswith("_")} for u in h.telegram.updates]
    h.telegram.updates.clear()
    for update in queued:
        await h.app.process_update(Update.de_json(update, h.app.bot))


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def open_rounds_of(h: Harness, chat_id: int) -> list[Round]:
    return [r for r in await h.stores.rounds.open_rounds() if r.chat_id == chat_id]


async def owed_to(h: Harness, chat_id: int) -> list[int]:
    return [r.round.id for r in await h.stores.rounds.unannounced()
            if r.round.chat_id == chat_id]


def jobs_of(h: Harness, chat_id: int) -> list[Alarm]:
    return h.services.table.scheduler.pending_in(chat_id)


async def test_removed_from_a_forum_every_topic_ends_quietly(harness: Harness, caplog):
    harness.telegram.chat(FORUM, title="Puzzle club", forum=True)
    first = harness.telegram.topic(FORUM, "24")
    second = harness.telegram.topic(FORUM, "Countdown")
    await harness.send(FORUM, ANN, "/match 3", topic=first)
    await harness.send(FORUM, ANN, "/countdown", topic=second)
    assert len(await harness.telegram.replies(FORUM, 2)) == 2
    assert len(await open_rounds_of(harness, FORUM)) == 2 and jobs_of(harness, FORUM)
    sent = len(harness.telegram.sent)

    await harness.telegram.remove_bot(FORUM, ANN)
    await deliver_queued(harness)
    assert await open_rounds_of(harness, FORUM) == []
    assert await owed_to(harness, FORUM) == []  # no result owed to a chat we cannot write to
    assert await harness.stores.matches.matches_on() == []
    assert harness.services.rounds.open_round(FORUM, first) is None
    assert harness.services.rounds.open_round(FORUM, second) is None
    assert jobs_of(harness, FORUM) == []  # the removed chat's alarms dropped
    assert len(harness.telegram.sent) == sent and errors(caplog) == []


async def test_a_removal_stays_across_a_restart(telegram: BotApiEmulator, pool: SolverPool,
                                                tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config) as bot:
        await bot.send(GROUP, ANN, "/match 2")
        await telegram.reply(GROUP)
        await telegram.remove_bot(GROUP, ANN, status="left")
        await deliver_queued(bot)
    calls = len(telegram.calls)
    async with running(telegram, pool, config) as bot:
        assert await bot.stores.matches.matches_on() == []
        assert await open_rounds_of(bot, GROUP) == []
    to_group = [c for c in telegram.calls[calls:] if str(c[1].get("chat_id")) == str(GROUP)]
    assert to_group == []  # nothing resumed, nothing tried


@pytest.mark.parametrize(("user", "words"), [(ANN, "Thanks for adding me"), (LI, "谢谢邀请")])
async def test_added_to_a_group_it_greets(harness: Harness, user: dict, words: str):
    await harness.telegram.add_bot(GROUP, user)
    await deliver_queued(harness)
    greeting = (await harness.telegram.reply(GROUP)).text
    assert words in greeting and "/play" in greeting and "/help" in greeting
    assert "/a" in greeting  # how to answer
    await harness.telegram.add_bot(ANN["id"], ANN, kind="private")  # a private chat: /start
    await harness.telegram.add_bot(GROUP, user, status="administrator")  # promoted: no news
    await deliver_queued(harness)
    assert [s.chat_id for s in harness.telegram.sent] == [GROUP]


async def test_the_greeting_tells_how_to_answer_in_privacy_mode(telegram: BotApiEmulator,
                                                               pool: SolverPool, tmp_path: Path):
    telegram.privacy_mode = True
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as bot:
        await telegram.add_bot(GROUP, ANN)
        await deliver_queued(bot)
        greeting = (await telegram.reply(GROUP)).text
    assert "privacy mode" in greeting and "/setprivacy" in greeting


async def test_a_timer_in_a_chat_that_removed_the_bot_unheard(harness: Harness, caplog):
    await harness.send(GROUP, ANN, "/match 2")
    await harness.telegram.reply(GROUP)
    [current] = await open_rounds_of(harness, GROUP)
    await harness.telegram.remove_bot(GROUP, ANN, notify=False)  # the update was missed
    await harness.services.alarms.ring(Alarm(ROUND_END, GROUP, current.id))
    assert await open_rounds_of(harness, GROUP) == [] and await owed_to(harness, GROUP) == []
    assert await harness.stores.matches.matches_on() == []  # the match stopped with its chat
    assert harness.services.matches.scheduler.pending(NEXT_DEAL, GROUP) is None
    assert errors(caplog) == []


async def test_a_match_deal_in_a_chat_that_removed_the_bot(harness: Harness, caplog):
    await harness.send(GROUP, ANN, "/match 2")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ANN, "/reveal")
    await harness.telegram.reply(GROUP)
    assert harness.services.matches.scheduler.pending(NEXT_DEAL, GROUP) is not None
    await harness.telegram.remove_bot(GROUP, ANN, notify=False)
    await harness.services.alarms.ring(Alarm(NEXT_DEAL, GROUP))
    assert await open_rounds_of(harness, GROUP) == [] and await owed_to(harness, GROUP) == []
    assert await harness.stores.matches.matches_on() == []
    assert errors(caplog) == []


async def test_no_apology_to_a_chat_the_bot_cannot_write_to(harness: Harness, caplog):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    await harness.telegram.remove_bot(GROUP, ANN, notify=False)
    before = len(harness.telegram.calls)
    await harness.send(GROUP, ANN, "/help")  # in flight when the bot was removed
    assert [c[0] for c in harness.telegram.calls[before:]] == ["sendMessage"]  # tried once
    assert await open_rounds_of(harness, GROUP) == []
    assert errors(caplog) == []
    # an error from a send no helper guarded reaches on_error: it does not apologise either
    update = Update.de_json({"update_id": 1, "message": harness.telegram.message(
        GROUP, harness.telegram.sent[-1].message_id)}, harness.app.bot)
    context = type("Context", (), {"error": Forbidden("bot was kicked from the group chat"),
                                   "application": harness.app, "bot": harness.app.bot,
                                   "bot_data": harness.app.bot_data})()
    before = len(harness.telegram.calls)
    await on_error(update, context)  # type: ignore[arg-type]
    assert harness.telegram.calls[before:] == [] and errors(caplog) == []


async def test_a_group_that_migrated_unheard(harness: Harness, caplog):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    [current] = await open_rounds_of(harness, GROUP)
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN, notify=False)
    await harness.services.alarms.ring(Alarm(ROUND_END, GROUP, current.id))
    result = await harness.telegram.reply(SUPERGROUP)
    assert "Time is up" in result.text
    ended = await harness.stores.rounds.get_round(current.id)
    assert ended is not None and ended.chat_id == SUPERGROUP and ended.status == "expired"
    assert await owed_to(harness, SUPERGROUP) == []

    await harness.send(GROUP, ANN, "/play")  # sent from the old group before it moved
    deal = await harness.telegram.reply(SUPERGROUP)
    dealt = harness.services.rounds.open_round(SUPERGROUP)
    assert dealt is not None and dealt.message_id == deal.message_id  # replies to it count
    assert harness.services.rounds.open_round(GROUP) is None
    assert errors(caplog) == []


async def test_owed_results_and_matches_at_start_in_a_chat_gone(telegram: BotApiEmulator,
                                                                pool: SolverPool,
                                                                tmp_path: Path, caplog):
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=1.0)
    async with running(telegram, pool, config) as bot:
        await bot.send(GROUP, ANN, "/match 2")
        await telegram.reply(GROUP)
        # the bot stops before the round's end
        bot.services.table.scheduler.cancel_chats(lambda chat: True)
    await telegram.remove_bot(GROUP, ANN, notify=False)
    with sqlite3.connect(config.database_path) as database:  # it ran out while the bot was down
        database.execute("UPDATE rounds SET deadline = deadline - 3600 WHERE status = 'open'")
    async with running(telegram, pool, config) as bot:
        assert await owed_to(bot, GROUP) == [] and await open_rounds_of(bot, GROUP) == []
        assert await bot.stores.matches.matches_on() == []
    assert errors(caplog) == []
    calls = len(telegram.calls)
    async with running(telegram, pool, config):  # and the next start tries nothing there
        pass
    assert [c for c in telegram.calls[calls:] if str(c[1].get("chat_id")) == str(GROUP)] == []


async def test_a_deleted_topic_ends_only_its_own_round(harness: Harness, caplog):
    harness.telegram.chat(FORUM, title="Puzzle club", forum=True)
    first = harness.telegram.topic(FORUM, "24")
    second = harness.telegram.topic(FORUM, "Countdown")
    await harness.send(FORUM, ANN, "/match 2", topic=first)
    await harness.send(FORUM, ANN, "/play", topic=second)
    await harness.telegram.replies(FORUM, 2)
    gone = harness.services.rounds.open_round(FORUM, first)
    kept = harness.services.rounds.open_round(FORUM, second)
    assert gone is not None and kept is not None
    harness.telegram.delete_topic(FORUM, first)
    await harness.services.alarms.ring(Alarm(ROUND_END, FORUM, gone.id, first))
    assert await owed_to(harness, FORUM) == []  # refused for good: nothing owed
    assert await harness.stores.matches.matches_on() == []  # its match stopped with it
    assert harness.services.rounds.open_round(FORUM, second) == kept  # the other goes on
    assert errors(caplog) == []


RESTRICTED_RIGHTS = ("can_change_info", "can_invite_users", "can_pin_messages",
                     "can_send_messages", "can_send_polls", "can_send_other_messages",
                     "can_add_web_page_previews", "can_manage_topics", "can_send_audios",
                     "can_send_documents", "can_send_photos", "can_send_videos",
                     "can_send_video_notes", "can_send_voice_notes", "can_edit_tag",
                     "can_react_to_messages")


async def test_muted_it_goes_quiet_and_unmuted_it_does_not_greet(harness: Harness, caplog):
    await harness.send(GROUP, ANN, "/match 2")
    await harness.telegram.reply(GROUP)
    sent = len(harness.telegram.sent)
    bot_user = harness.telegram.bot_user
    muted = {"status": "restricted", "user": bot_user, "is_member": True, "until_date": 0,
             **dict.fromkeys(RESTRICTED_RIGHTS, False)}
    member = {"status": "member", "user": bot_user}
    for number, (old, new) in enumerate([(member, muted), (muted, member)]):
        await harness.app.process_update(Update.de_json({"update_id": 900 + number,
                                                         "my_chat_member": {
            "chat": harness.telegram.message(GROUP, harness.telegram.sent[-1].message_id)[
                "chat"], "from": ANN, "date": 0, "old_chat_member": old,
            "new_chat_member": new}}, harness.app.bot))
        if number == 0:
            assert await open_rounds_of(harness, GROUP) == []
            assert await harness.stores.matches.matches_on() == []
    assert len(harness.telegram.sent) == sent and errors(caplog) == []


async def test_a_migrated_groups_round_is_dealt_again_where_hints_reach_it(harness: Harness):
    """The deal stays in the old group; its id names some other message in the supergroup (a
    bot's /help reply, there): the round's deal is shown again in the supergroup, and a hint
    edits that message, never the old id."""
    await harness.send(GROUP, ANN, "/play")
    old_deal = await harness.telegram.reply(GROUP)
    await harness.telegram.migrate(GROUP, SUPERGROUP, ANN)
    await deliver_queued(harness)  # Telegram's service message: migrate_to_chat_id
    again = await harness.telegram.reply(SUPERGROUP)
    current = harness.services.rounds.open_round(SUPERGROUP)
    assert current is not None and current.message_id == again.message_id != old_deal.message_id
    assert again.text.splitlines()[0] == old_deal.text.splitlines()[0]  # the same hand
    stored = await harness.stores.rounds.get_round(current.id)
    assert stored is not None and stored.message_id == again.message_id
    await harness.send(SUPERGROUP, ANN, "/hint", kind="supergroup")
    assert {(e.chat_id, e.message_id) for e in harness.telegram.edits} == \
        {(SUPERGROUP, again.message_id)}
