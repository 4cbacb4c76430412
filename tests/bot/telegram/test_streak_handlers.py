"""/streak and /practice through the real Application: a streak's hands follow each other by the
JobQueue, a wrong answer ends it with the best; /practice deals a hand at the player's level; in a
group each says where it is played."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import make_config
from tests.bot.conftest import running as started

GROUP = -3101
ANN = {"id": 3111, "is_bot": False, "first_name": "Ann", "language_code": "en"}


@pytest.mark.slow
async def test_a_streak_deals_on_until_a_wrong_answer(telegram: BotApiEmulator,
                                                       pool: SolverPool, tmp_path: Path):
    chat = ANN["id"]
    telegram.chat(chat, kind="private")
    telegram.chat(GROUP)
    config = make_config(telegram, tmp_path / "s.sqlite3", round_seconds=60.0)
    async with started(telegram, pool, config) as h:
        h.ids = itertools.count(1)
        await h.send(GROUP, ANN, "/streak")
        assert "/streak in a private chat" in (await telegram.reply(GROUP)).text
        await h.send(chat, ANN, "/streak", kind="private")
        first = await telegram.reply(chat)
        assert "Streak: hand 1." in first.text and "Your best: 0." in first.text
        current = h.services.rounds.open_round(chat)
        assert current is not None
        numbers = " ".join(map(str, current.hand))
        await h.send(chat, ANN, f"/solve {numbers}", kind="private")  # a solo hand is live too
        assert "being played" in (await telegram.reply(chat)).text
        await h.send(GROUP, ANN, f"/solve {numbers}")  # from the group she plays beside it
        assert "being played" in (await telegram.reply(GROUP)).text
        await h.send(chat, ANN, solve(current.hand)[0], kind="private")
        won = await telegram.reply(chat)
        assert "Solved in a row: 1." in won.text
        second = await telegram.reply(chat, timeout=30)  # the JobQueue deals it
        assert "Streak: hand 2." in second.text
        current = h.services.rounds.open_round(chat)
        assert current is not None
        numbers = "+".join(str(n) for n in current.hand)
        wrong = numbers if sum(current.hand) != 24 else numbers.replace("+", "*")
        await h.send(chat, ANN, wrong, kind="private")
        over = await telegram.reply(chat)
        assert "Streak over. Solved in a row: 1. Your best: 1." in over.text
        assert h.services.rounds.open_round(chat) is None


async def test_practice_in_a_group_and_alone(telegram: BotApiEmulator, pool: SolverPool,
                                             tmp_path: Path):
    chat = ANN["id"]
    telegram.chat(chat, kind="private")
    telegram.chat(GROUP)
    config = make_config(telegram, tmp_path / "p.sqlite3", round_seconds=60.0)
    async with started(telegram, pool, config) as h:
        h.ids = itertools.count(1)
        await h.send(GROUP, ANN, "/practice")
        assert "/practice in a private chat" in (await telegram.reply(GROUP)).text
        await h.send(chat, ANN, "/practice", kind="private")
        dealt = await telegram.reply(chat)
        assert "Make 24!" in dealt.text and "a hand at your level" in dealt.text
        assert h.services.rounds.open_round(chat) is not None
