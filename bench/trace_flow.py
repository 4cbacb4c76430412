"""How far one update travels through the bot: for a typed winning answer and for a Hint press,
the project files whose code runs, the distinct calls from the Telegram face (bot/telegram) into
the game services (bot/play), the look-ups of the open round, and the store calls.

Counts, not timings: the same on any machine. The real Application plays against the Bot API
emulator in-process. To compare with another checkout (before a change), run this file with that
checkout first on the path: `PYTHONPATH=/tmp/old .venv/bin/python bench/trace_flow.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from telegram import Update

import bot
from bot.play.rules import Deal
from bot.runtime.config import Config
from bot.runtime.pool import SolverPool
from bot.telegram.app import build_application
from demo.emulator import BotApiEmulator

try:  # where the stock lives moved with issues 23 and 34
    from bot.play.dealing.stock import Stock
except ImportError:  # an older checkout
    try:
        from bot.play.deals.stock import Stock  # type: ignore[no-redef]
    except ImportError:
        from bot.play.stock import Stock  # type: ignore[no-redef]

CHAT = -9101
ANN = {"id": 911, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 912, "is_bot": False, "first_name": "Ben", "language_code": "en"}
HAND = (3, 3, 8, 8)
# reading the open round (of the table, the round service or the aggregate's repository)
LOOKUPS = {"of", "find", "get", "held", "open_round", "just_won", "is_deal"}


@contextlib.asynccontextmanager
async def started(config: Config, pool: SolverPool) -> AsyncIterator[Any]:
    """The bot's Application with `pool`, started as this checkout starts it: the composition
    root's bot in this loop, or, in a checkout from before `running`, the application built,
    then its post_init; stopped at the end."""
    try:
        from bot.wiring import running
    except ImportError:
        app = application(config, pool)
        await app.initialize()
        await app.post_init(app)
        await app.start()
        try:
            yield app
        finally:
            await app.stop()
            await app.shutdown()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
        return
    async with running(config, pool) as built:
        yield built.application


def application(config: Config, pool: SolverPool) -> Any:
    """The bot's Application with `pool`, as a checkout from before `running` builds it (the
    composition root's `build_bot`, or, before it, the application with its pool in the bot
    data)."""
    try:
        from bot.wiring import build_bot
    except ImportError:
        app = build_application(config)
        if isinstance(app.bot_data, dict):  # an older checkout still: string keys
            app.bot_data["pool"] = pool
        else:
            app.bot_data.pool = pool
        return app
    return build_bot(config, pool, webapp=None).application


@dataclass
class Trace:
    root: Path
    files: set[str] = field(default_factory=set)
    crossings: set[tuple[str, str]] = field(default_factory=set)
    lookups: int = 0
    store_calls: int = 0
    seen: list[FrameType] = field(default_factory=list)  # kept: ids stay unique
    seen_ids: set[int] = field(default_factory=set)

    def where(self, frame: FrameType | None) -> str | None:
        if frame is None:
            return None
        path = Path(frame.f_code.co_filename)
        try:
            return str(path.resolve().relative_to(self.root))
        except ValueError:
            return None

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call" or id(frame) in self.seen_ids:
            return  # a coroutine resumed is not a new call
        self.seen.append(frame)
        self.seen_ids.add(id(frame))
        callee = self.where(frame)
        if callee is None or not callee.startswith(("bot/", "solver/")) or \
                callee.startswith("demo/"):  # the emulator plays Telegram
            return
        self.files.add(callee)
        caller = self.where(frame.f_back)
        name = frame.f_code.co_name
        if caller and caller.startswith("bot/telegram/") and callee.startswith("bot/play/"):
            self.crossings.add((f"{caller}:{frame.f_back.f_code.co_name}",  # type: ignore[union-attr]
                                f"{callee}:{name}"))
        if name in LOOKUPS and callee.startswith("bot/play/") and \
                ("round" in callee or "table" in callee):
            self.lookups += 1
        if callee.startswith("bot/store/") and caller and not caller.startswith("bot/store/"):
            self.store_calls += 1


async def fixed_hand(self: object, rules: object, options: object,
                     budget: float = 1.0, who: int | None = None) -> tuple[Deal, float]:
    return Deal("24", HAND, 24, "hard", 30), 0.0


class Table:
    def __init__(self, app: Any, emulator: BotApiEmulator) -> None:
        self.app, self.emulator, self.ids = app, emulator, itertools.count(1)

    async def say(self, user: dict, text: str) -> None:
        message = await self.emulator.say(CHAT, user, text, None)
        self.emulator.updates.clear()
        await self.app.process_update(Update.de_json(
            {"update_id": next(self.ids), "message": message}, self.app.bot))

    async def press(self, user: dict, message_id: int, label: str) -> None:
        await self.emulator.press_button(CHAT, message_id, user, label)
        [update] = [u for u in self.emulator.updates if "callback_query" in u]
        self.emulator.updates.clear()
        await self.app.process_update(Update.de_json(
            {k: v for k, v in update.items() if not k.startswith("_")}, self.app.bot))

    def last(self) -> int:
        return [s for s in self.emulator.sent if s.chat_id == CHAT][-1].message_id


async def traced(table: Table, act: Callable[[], Awaitable[None]]) -> Trace:
    trace = Trace(Path(bot.__file__).resolve().parent.parent)  # the checkout being traced
    sys.setprofile(trace.profile)
    try:
        await act()
    finally:
        sys.setprofile(None)
    return trace


async def run(pool: SolverPool, folder: Path) -> dict[str, Trace]:
    emulator = BotApiEmulator()
    await emulator.start()
    emulator.chat(CHAT)
    config = Config(token=emulator.token, base_url=emulator.base_url,
                    database_path=folder / "trace.sqlite3", round_seconds=120.0,
                    solver_workers=1, rate_limit=False)
    original = Stock.take
    Stock.take = fixed_hand  # type: ignore[method-assign, assignment]
    try:
        async with started(config, pool) as app:
            return await trace_both(Table(app, emulator))
    finally:
        Stock.take = original  # type: ignore[method-assign]
        await emulator.stop()


async def trace_both(table: Table) -> dict[str, Trace]:
    """A Hint press, then a typed answer that wins, each traced."""
    await table.say(ANN, "/play")
    deal = table.last()
    await table.say(BEN, "1+2")  # warm: the judging worker has started
    found = {"Hint press": await traced(table, lambda: table.press(ANN, deal, "Hint"))}
    found["typed answer that wins"] = await traced(table, lambda: table.say(BEN, "8/(3-8/3)"))
    return found


async def main() -> None:
    pool = SolverPool(1)
    try:
        with tempfile.TemporaryDirectory() as folder:
            found = await run(pool, Path(folder))
    finally:
        pool.shutdown()
    print(f"{'update':<26} {'files':>5} {'face->play':>10} {'look-ups':>8} {'store calls':>11}")
    for name, trace in found.items():
        print(f"{name:<26} {len(trace.files):>5} {len(trace.crossings):>10} {trace.lookups:>8} "
              f"{trace.store_calls:>11}")
    if "-v" in sys.argv:
        for name, trace in found.items():
            print(f"\n{name}:\n  files: " + " ".join(sorted(trace.files)))
            print("  crossings:\n" + "\n".join(f"    {a} -> {b}" for a, b in
                                               sorted(trace.crossings)))


if __name__ == "__main__":
    asyncio.run(main())
