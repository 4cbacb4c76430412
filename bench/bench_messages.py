"""Messages per round: what a round costs a group's phones. Each scenario plays one round through
the real Application against the Bot API emulator (in-process, no network) and counts what the
bot did in the chat from the deal on: messages sent, messages edited, reactions set, notices
(answers to button presses with a text).

Counts, not timings: the same scenario gives the same counts on any machine. To compare with
another checkout of the bot (before a change), run this file with that checkout first on the
path, e.g. `PYTHONPATH=/tmp/main .venv/bin/python bench/bench_messages.py`: it uses only what
the bot offered before issue 17 (the emulator, build_application, on_startup, the games table).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from telegram import Update
from telegram.ext import Application

from bot.play.dealing.stock import Stock
from bot.play.rules import Deal
from bot.runtime.config import Config
from bot.runtime.pool import SolverPool
from bot.wiring import running
from demo.emulator import BotApiEmulator

CHAT = -9001
ANN = {"id": 901, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 902, "is_bot": False, "first_name": "Ben", "language_code": "en"}
HAND = (3, 3, 8, 8)  # one hint step (8/3), then two more to the answer: 8/(3-8/3)
MANY = (1, 2, 3, 4, 6)  # many solutions: pages to turn
DEALT: list[tuple[int, ...]] = [HAND]  # the hand the next deal is (a scenario switches it)
WRONG = ("3+3+8+8", "3*3+8+8", "8*3-8+3")
TILES, TARGET = (1, 3, 7, 10, 25, 50), 831  # Countdown: 830 is the closest
NEAR = ((ANN, "(10+7)*50-25-3"), (BEN, "(10+7)*50-25"), (ANN, "(10+7)*50-25+1"),
        (BEN, "(10+7)*50-25+3-1"), (ANN, "10*(3*25+1+7)"))  # 9, 6, 5, 4 and 1 away


@dataclass(frozen=True)
class Count:
    sent: int
    edited: int
    reactions: int
    notices: int


class Table:
    """The application and the emulator of one scenario; `count()` since the deal."""

    def __init__(self, app: Application, emulator: BotApiEmulator) -> None:
        self.app, self.emulator = app, emulator
        self.ids = itertools.count(1)
        self.mark = (0, 0, 0, 0)

    async def say(self, user: dict, text: str, reply_to: int | None = None) -> dict:
        message = await self.emulator.say(CHAT, user, text, reply_to)
        self.emulator.updates.clear()
        await self.app.process_update(Update.de_json(
            {"update_id": next(self.ids), "message": message}, self.app.bot))
        return message

    async def press(self, user: dict, message_id: int, label: str) -> None:
        await self.emulator.press_button(CHAT, message_id, user, label)
        [update] = [u for u in self.emulator.updates if "callback_query" in u]
        self.emulator.updates.clear()
        await self.app.process_update(Update.de_json(
            {k: v for k, v in update.items() if not k.startswith("_")}, self.app.bot))

    async def ring(self, kind: str) -> None:
        """Ring the chat's alarm of one kind now (as time passing would)."""
        services = self.app.bot_data.services
        scheduler = services.table.scheduler
        for alarm in scheduler.pending_in(CHAT):
            if alarm.kind == kind:
                scheduler.cancel(alarm.kind, alarm.chat_id, alarm.topic)
                await services.alarms.ring(alarm)

    def last(self) -> int:
        return [s for s in self.emulator.sent if s.chat_id == CHAT][-1].message_id

    def start_counting(self) -> None:
        self.mark = self._now()

    def _now(self) -> tuple[int, int, int, int]:
        e = self.emulator
        return (len([s for s in e.sent if s.chat_id == CHAT]),
                len([x for x in e.edits if x.chat_id == CHAT]),
                len([r for r in e.reactions if r.chat_id == CHAT]),
                len([a for a in e.callback_answers if a.text]))

    def count(self) -> Count:
        return Count(*(now - then for now, then in zip(self._now(), self.mark, strict=True)))


async def deal(t: Table, command: str = "/play") -> int:
    t.start_counting()
    await t.say(ANN, command)
    return t.last()


async def hints_wrongs_and_a_win_by_command(t: Table) -> None:
    """/hint twice, three wrong /a, a right /a (as in privacy mode)."""
    await deal(t)
    for _ in range(2):
        await t.say(ANN, "/hint")
    for wrong in WRONG:
        await t.say(BEN, f"/a {wrong}")
    await t.say(BEN, "/a 8/(3-8/3)")


async def hints_wrongs_and_a_win_by_buttons(t: Table) -> None:
    """Hint pressed twice, three wrong answers typed, a right reply to the deal."""
    dealt = await deal(t)
    for _ in range(2):
        await t.press(ANN, dealt, "Hint")
    for wrong in WRONG:
        await t.say(BEN, wrong)
    await t.say(BEN, "8/(3-8/3)", reply_to=dealt)


async def no_more_hints_pressed_twice(t: Table) -> None:
    """The two hints, then Hint twice more (nothing left), then the win."""
    dealt = await deal(t)
    for _ in range(4):
        await t.press(ANN, dealt, "Hint")
    await t.say(BEN, "8/(3-8/3)")


async def show_all_solutions_and_two_pages(t: Table) -> None:
    """A round of a hand with many solutions won, Show all solutions, ▶ twice."""
    DEALT[0] = MANY
    try:
        await deal(t)
        await t.say(BEN, "/a 6*4*(3-2)*1")
        result = t.last()
        await t.press(BEN, result, "Show all solutions")
        paged = t.last()
        for _ in range(2):
            await t.press(BEN, paged, "▶")
    finally:
        DEALT[0] = HAND


async def play_again_pressed_twice(t: Table) -> None:
    """A round revealed, Play again pressed, then pressed again while the new round is on;
    counted from the second press."""
    await deal(t)
    await t.say(ANN, "/reveal")
    result = t.last()
    [again] = [data for label, data in t.emulator.buttons(CHAT, result) if label == "Play again"]
    await t.press(BEN, result, "Play again")
    t.start_counting()
    await t.emulator.press(CHAT, result, BEN, again)  # an old client still shows the button
    [update] = [u for u in t.emulator.updates if "callback_query" in u]
    t.emulator.updates.clear()
    await t.app.process_update(Update.de_json(
        {k: v for k, v in update.items() if not k.startswith("_")}, t.app.bot))


async def a_match_round_with_its_notice(t: Table) -> None:
    """/match 2: the first round, its "time left" notice rung by hand, a win."""
    t.start_counting()
    await t.say(ANN, "/match 2")
    await t.ring("warn")
    await t.say(BEN, "/a 8/(3-8/3)")


async def countdown_five_near_answers(t: Table) -> None:
    """A Countdown round: five answers within 10 of the target, a second apart (each status
    written as it comes), then the time is up."""
    await deal(t, "/countdown")
    for player, answer in NEAR:
        await t.say(player, f"/a {answer}")
        await t.ring("status")
    await t.ring("round")


async def a_round_ended_by_pass(t: Table) -> None:
    """Two players answer wrong, then both pass: /pass, then the Pass button under the deal."""
    dealt = await deal(t)
    await t.say(BEN, f"/a {WRONG[0]}")
    await t.say(ANN, f"/a {WRONG[1]}")
    await t.ring("status")
    await t.say(BEN, "/pass")
    await t.ring("status")
    await t.press(ANN, dealt, "Pass")


async def fixed_hand(stock: object, rules: object, options: object,
                     budget: float = 1.0, who: int | None = None) -> tuple[Deal, float]:
    """What the stock deals in these scenarios: DEALT[0], hard, or with many solutions easy;
    Countdown's known tiles."""
    if getattr(rules, "name", "24") == "countdown":
        return Deal("countdown", TILES, TARGET, "2", 10), 0.0
    if DEALT[0] == MANY:
        return Deal("24", MANY, 24, "easy", 10), 0.0
    return Deal("24", HAND, 24, "hard", 30), 0.0


SCENARIOS: list[Callable[[Table], Awaitable[None]]] = [
    hints_wrongs_and_a_win_by_command, hints_wrongs_and_a_win_by_buttons,
    no_more_hints_pressed_twice, show_all_solutions_and_two_pages, play_again_pressed_twice,
    a_match_round_with_its_notice, countdown_five_near_answers, a_round_ended_by_pass]


async def run(scenario: Callable[[Table], Awaitable[None]], pool: SolverPool,
              folder: Path) -> Count:
    emulator = BotApiEmulator()
    await emulator.start()
    emulator.chat(CHAT)
    config = Config(token=emulator.token, base_url=emulator.base_url,
                    database_path=folder / f"{scenario.__name__}.sqlite3", round_seconds=120.0,
                    solver_workers=1, rate_limit=False)
    original = Stock.take
    Stock.take = fixed_hand  # type: ignore[method-assign, assignment]
    try:
        async with running(config, pool) as bot:
            table = Table(bot.application, emulator)
            await scenario(table)
            return table.count()
    finally:
        Stock.take = original  # type: ignore[method-assign]
        await emulator.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_known_args()
    pool = SolverPool(2)
    try:
        with tempfile.TemporaryDirectory() as folder:
            print(f"{'scenario':<40} {'sent':>4} {'edited':>6} {'reactions':>9} {'notices':>7}")
            for scenario in SCENARIOS:
                c = await run(scenario, pool, Path(folder))
                print(f"{scenario.__name__:<40} {c.sent:>4} {c.edited:>6} {c.reactions:>9} "
                      f"{c.notices:>7}")
    finally:
        pool.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
