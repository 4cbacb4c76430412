"""The bot's life cycle in a chat with the real bot (`python -m bot`) against the emulator (issue
18, item 3): it asks for my_chat_member updates, and removed from a group mid-match it ends the
round and the match there without a word, sends nothing more there (not at the round's end, not
after kill -9 and a restart) and logs no error; added to a group it greets; a group that
migrated while the bot missed the news gets its round's result in the supergroup."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from demo.emulator import BotApiEmulator
from tests.e2e.test_bot_process import ANN, GROUP

SUPERGROUP = -1002001


def rows(database: Path, query: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return connection.execute(query).fetchall()


async def until(check, timeout: float = 15.0) -> bool:
    for _ in range(int(timeout / 0.05)):
        if check():
            return True
        await asyncio.sleep(0.05)
    return False


def tried_in(telegram: BotApiEmulator, chat_id: int, since: int) -> list[str]:
    return [c[0] for c in telegram.calls[since:] if str(c[1].get("chat_id")) == str(chat_id)]


def log_errors(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines()
            if " ERROR " in line or "CRITICAL" in line or "Traceback" in line]


async def test_removed_mid_match_it_goes_quiet(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=3)
    await bot.start()
    assert "my_chat_member" in telegram._allowed  # asked for in getUpdates
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/match 3")
    assert "Match: round 1 of 3" in (await telegram.reply(GROUP)).text
    since = len(telegram.calls)
    await telegram.remove_bot(GROUP, ANN)
    assert await until(lambda: rows(bot.database, "SELECT status FROM matches") ==
                       [("stopped",)])
    # the round's end is written in a transaction of its own, after the match's stop
    assert await until(lambda: rows(bot.database, "SELECT status, announced FROM rounds") ==
                       [("revealed", 1)])
    await asyncio.sleep(4)  # past the round's end and the match's pause
    assert tried_in(telegram, GROUP, since) == []

    await bot.kill()
    since = len(telegram.calls)
    await bot.start()
    await asyncio.sleep(1)
    assert tried_in(telegram, GROUP, since) == []  # nothing owed, no match to resume
    assert log_errors(bot.log) == []


async def test_added_to_a_group_it_greets(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    await telegram.add_bot(GROUP, ANN)
    greeting = (await telegram.reply(GROUP)).text
    assert "Thanks for adding me" in greeting and "/play" in greeting


async def test_a_group_migrated_unheard_gets_its_result(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=2)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    await telegram.reply(GROUP)
    await telegram.migrate(GROUP, SUPERGROUP, ANN, notify=False)
    result = await telegram.reply(SUPERGROUP)  # sent to the old id, refused, sent again here
    assert "Time is up" in result.text
    assert await until(lambda: rows(bot.database, "SELECT chat_id, announced FROM rounds") ==
                       [(SUPERGROUP, 1)])  # marked sent just after Telegram took it
    assert log_errors(bot.log) == []
