"""The Mini App's answer, timed: from a tap on Submit in headless chromium to the win message on
the emulator, and from the page's POST alone (no browser) to the same message, in each game.

The bot is the real Application on the Bot API emulator; each round is a known puzzle dealt in
a group, the page opened with initData signed for the round: 24's 8 3 8 3 with 8/(3-8/3)
tapped, Countdown's 100 25 75 50 6 3 for 952 with ((100+6)*3*75-50)/25, Yahtzee's 13 rolls with
their best total guessed. Prints the medians. `--screenshots docs` also saves the page at 360 px:
24 in Telegram's light and dark themes (docs/webapp-light.png, docs/webapp-dark.png), Countdown
in the light one and Yahtzee in the dark one (docs/webapp-countdown.png, docs/webapp-yahtzee.png).

    .venv/bin/python bench/bench_webapp.py [--rounds 10] [--screenshots docs]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.runtime.config import Config  # noqa: E402
from bot.runtime.pool import SolverPool  # noqa: E402
from bot.store.records import Round  # noqa: E402
from bot.telegram.context import App  # noqa: E402
from bot.webapp.init_data import sign, user_fields  # noqa: E402
from bot.webapp.server import serve  # noqa: E402
from bot.webapp.tickets import ticket_of  # noqa: E402
from bot.wiring import Bot, running  # noqa: E402
from demo.emulator import BotApiEmulator  # noqa: E402
from tests.bot.webapp_support import BEST, EXACT, ROLLS, TARGET, TILES  # noqa: E402
from tests.e2e.webapp_browser import DARK, LIGHT, Browser, page_address  # noqa: E402

CHAT = -9101
ANN = {"id": 911, "is_bot": False, "first_name": "Ann", "language_code": "en"}
SOLUTION = [[2, "/", 3], [1, "-", 2], [0, "/", 1]]
# each game's known round: (hand, target, level, points) and the winning answer's body
ROUNDS = {"24": (((8, 3, 8, 3), 24, "easy", 10), {"steps": SOLUTION}),
          "countdown": ((TILES, TARGET, "2", 10), {"steps": EXACT, "tile": 0}),
          "yahtzee": ((ROLLS, BEST, "", 20), {"guess": str(BEST)})}
BOTS: dict[int, Bot] = {}  # each application's bot (its stores)


async def deal(app: App, game: str = "24") -> Round:
    stores, services = BOTS[id(app)].stores, app.bot_data.services
    await stores.people.remember_chat(CHAT, "group", "Test group")
    await stores.people.remember_user(ANN["id"], ANN["first_name"])
    now = services.rounds.clock()
    hand, target, level, points = ROUNDS[game][0]
    await stores.rounds.open_round(CHAT, game, hand, target, level, points, "en", now,
                                   now + 120, ANN["id"])
    services.table.load(await stores.rounds.open_rounds())
    opened = services.table.of(CHAT)
    assert opened is not None
    return opened.record


def signed(app: App, current: Round) -> str:
    return sign(user_fields(ANN["id"], ANN["first_name"], int(time.time()), "en",
                            ticket_of(current).text), app.bot.token)


async def win(emulator: BotApiEmulator, since: int) -> float:
    while len([s for s in emulator.sent if s.chat_id == CHAT]) <= since:
        await asyncio.sleep(0.002)
    assert [s for s in emulator.sent if s.chat_id == CHAT][since].text.startswith("✅ Ann")
    return time.perf_counter()


def sent(emulator: BotApiEmulator) -> int:
    return len([s for s in emulator.sent if s.chat_id == CHAT])


async def by_browser(app: App, emulator: BotApiEmulator, browser: Browser, base: str) -> float:
    current = await deal(app)
    await asyncio.to_thread(browser.open, page_address(base, ticket_of(current).text,
                                                       signed(app, current)))
    await asyncio.to_thread(browser.tap, SOLUTION)
    before = sent(emulator)
    tapped = time.perf_counter()
    await asyncio.to_thread(browser.submit)
    return await win(emulator, before) - tapped


async def by_post(app: App, emulator: BotApiEmulator, base: str, game: str = "24") -> float:
    current = await deal(app, game)
    body = json.dumps({"init_data": signed(app, current), "round": ticket_of(current).text,
                       **ROUNDS[game][1]})
    async with httpx.AsyncClient() as client:
        before = sent(emulator)
        posted = time.perf_counter()
        response = await client.post(base + "api/answer", content=body)
        assert response.status_code == 200 and response.json()["right"], response.text
    return await win(emulator, before) - posted


async def screenshots(app: App, base: str, folder: Path) -> None:
    shots = (("light", "24", LIGHT, SOLUTION[:1], 1), ("dark", "24", DARK, SOLUTION[:1], 1),
             ("countdown", "countdown", LIGHT, EXACT[:2], None),
             ("yahtzee", "yahtzee", DARK, [], None))
    for name, game, theme, steps, picked in shots:
        current = await deal(app, game)
        data = signed(app, current)
        browser = await asyncio.to_thread(Browser)
        try:
            await asyncio.to_thread(browser.telegram, data, theme,
                                    "dark" if theme is DARK else "light", ANN)
            await asyncio.to_thread(browser.open, f"{base}?round={ticket_of(current).text}")
            await asyncio.to_thread(browser.tap, steps)  # 24: a fraction on a tile
            if picked is not None:  # Countdown: the closest tile so far is the answer shown
                await asyncio.to_thread(browser.pick, picked)
            await asyncio.to_thread(browser.screenshot, folder / f"webapp-{name}.png")
        finally:
            await asyncio.to_thread(browser.close)
        stores = BOTS[id(app)].stores
        await stores.rounds.close_round(current.id, "revealed", time.time())
        app.bot_data.services.table.load(await stores.rounds.open_rounds())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--screenshots", type=Path, help="save webapp-light/dark.png here")
    arguments = parser.parse_args()
    emulator = BotApiEmulator()
    await emulator.start()
    emulator.chat(CHAT)
    pool = SolverPool(1)
    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=emulator.token, base_url=emulator.base_url,
                        database_path=Path(folder) / "bench.sqlite3", solver_workers=1,
                        rate_limit=False)
        started = contextlib.AsyncExitStack()  # the composition root's bot, closed at the end
        bot = await started.enter_async_context(running(config, pool))
        app = BOTS.setdefault(id(bot.application), bot).application
        server, port = await serve(bot.face, 0)
        base = f"http://127.0.0.1:{port}/webapp/"
        try:
            if arguments.screenshots:
                await screenshots(app, base, arguments.screenshots)
                print(f"screenshots in {arguments.screenshots}/webapp-light.png, -dark.png")
            posts = {game: [await by_post(app, emulator, base, game)
                            for _ in range(arguments.rounds)] for game in ROUNDS}
            browser = await asyncio.to_thread(Browser)
            try:
                taps = [await by_browser(app, emulator, browser, base)
                        for _ in range(arguments.rounds)]
            finally:
                await asyncio.to_thread(browser.close)
            print(f"{'from':<52} {'median ms':>9} {'min':>6} {'max':>6}  rounds")
            rows = [("24: tap on Submit (chromium) to the win message", taps)] + \
                [(f"{game}: POST /webapp/api/answer to the win message", times)
                 for game, times in posts.items()]
            for label, times in rows:
                print(f"{label:<52} {statistics.median(times) * 1000:9.0f} "
                      f"{min(times) * 1000:6.0f} {max(times) * 1000:6.0f}  {len(times)}")
        finally:
            server.stop()
            await started.aclose()
            pool.shutdown()
            await emulator.stop()


if __name__ == "__main__":
    asyncio.run(main())
