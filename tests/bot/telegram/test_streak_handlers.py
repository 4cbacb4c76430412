"""/streak, /storm and /practice through the real Application: a streak's hands follow each other
by the JobQueue, a wrong answer ends it with the best; a storm's too, a wrong answer costing time;
/practice deals a hand at the player's level; in a group each says where it is played; what
follows a command that takes nothing (or /storm's one word) is refused in the one shape; a flood
of them opens one hand."""

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


async def test_a_flood_of_streaks_and_practice_opens_one_hand(harness):
    """One person sends /streak, /practice and /storm 300 times at once, while another group
    asks /play: one hand is in play (a streak's, a storm's or a practice's), what is within the
    person's budget is told the streak or storm is on (or the round is), the rest are dropped
    unanswered, and the other group is dealt."""
    from telegram import Update

    from bot.runtime.doors import PERSON, Doors
    from tests.waiting import until

    telegram, chat, other = harness.telegram, ANN["id"], -3177
    telegram.chat(chat, kind="private")
    telegram.chat(other)
    fair = harness.app.update_processor
    fair.doors = Doors(clock=lambda: 0.0)  # time stands still: the budget does not refill
    for i in range(300):
        await telegram.say(chat, ANN, ("/streak", "/practice", "/storm")[i % 3], None,
                           "private")
    await telegram.say(other, telegram.user(3178, "Oz"), "/play")
    updates = [Update.de_json({k: v for k, v in u.items() if not k.startswith("_")},
                              harness.app.bot) for u in telegram.updates]
    telegram.updates.clear()
    for update in updates:  # as the fetcher takes them: through the fair processor
        await harness.app.update_queue.put(update)
    assert "Make 24!" in (await telegram.reply(other, timeout=30)).text
    await until(lambda: harness.app.update_queue.in_hand == 0, "every update handled")
    said = [m.text for m in telegram.sent if m.chat_id == chat]
    dealt = [t for t in said if "Make 24!" in t]
    assert len(dealt) == 1  # one hand: a practice's or the streak's first
    assert len(said) <= PERSON.burst  # a message past the budget is dropped unanswered
    assert fair.doors.refusals >= 300 - PERSON.burst
    current = harness.services.rounds.open_round(chat)
    assert current is not None
    streak = await harness.stores.streaks.streak_on(ANN["id"])
    storm = await harness.stores.storms.storm_on(ANN["id"])
    # at most one of them on, and its hand the one in play (else a practice hand's)
    assert streak is None or storm is None
    for on in (streak, storm):
        if on is not None:
            assert on.round_id == current.id


async def test_a_storm_in_a_group_alone_and_its_boards(telegram: BotApiEmulator,
                                                         pool: SolverPool, tmp_path: Path):
    chat = ANN["id"]
    telegram.chat(chat, kind="private")
    telegram.chat(GROUP)
    config = make_config(telegram, tmp_path / "t.sqlite3", round_seconds=60.0)
    async with started(telegram, pool, config) as h:
        h.ids = itertools.count(1)
        await h.send(GROUP, ANN, "/storm")
        said = (await telegram.reply(GROUP)).text
        assert "/storm in a private chat" in said and "This group's best storms today" in said
        await h.send(chat, ANN, "/storm now", kind="private")
        refused = (await telegram.reply(chat)).text
        assert "now" in refused and "/storm top" in refused  # what, the usage, an example
        assert h.services.rounds.open_round(chat) is None
        await h.send(chat, ANN, "/streak 5", kind="private")
        refused = (await telegram.reply(chat)).text
        assert "5" in refused and "/streak top" in refused
        assert await h.stores.streaks.streak_on(ANN["id"]) is None
        await h.send(chat, ANN, "/storm", kind="private")
        first = (await telegram.reply(chat)).text
        assert "Storm: hand 1." in first and "Solve as many hands as you can in 3 minutes" in first
        current = h.services.rounds.open_round(chat)
        assert current is not None
        await h.send(chat, ANN, solve(current.hand)[0], kind="private")
        assert "Solved: 1." in (await telegram.reply(chat)).text
        second = (await telegram.reply(chat, timeout=30)).text  # the JobQueue deals it
        assert "Storm: hand 2. Solved so far: 1." in second
        await h.send(chat, ANN, "/storm top", kind="private")
        board = (await telegram.reply(chat)).text
        assert "Best storms today" in board and "No storms yet." in board  # one still on
