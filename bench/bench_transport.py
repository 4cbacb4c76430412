"""The transport alone (issue 44, item 2): the bot's own HTTP/1.1 client
(bot/telegram/lean_request.py) against a BaseRequest on aiohttp's ClientSession
(bench/aiohttp_request.py), both sending the same sendMessage calls through PTB's Bot to the Bot
API emulator, which runs in a process of its own so that this process's CPU time is the
client's alone.

Each run sends REQUESTS messages, CONCURRENCY at once (the bot's pool holds 8 connections), with
each client in turn (the order alternates run by run); it prints the CPU time per request and
the requests a second, medians of the runs, and the ratio aiohttp / ours.

    python bench/bench_transport.py               # 5 runs of 3,000 requests, 16 at once
    python bench/bench_transport.py --quick       # 3 runs of 600

aiohttp is not a dependency of the bot: `pip install -e '.[bench]'` brings it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from telegram import Bot  # noqa: E402

from bot.telegram.lean_request import LeanRequest  # noqa: E402

CHAT = -1001
CONNECTIONS = 8  # as bot/telegram/app.py's pool
SERVER = """
import asyncio, sys
from demo.emulator import BotApiEmulator

async def main():
    emulator = BotApiEmulator(open_chats=True)
    await emulator.start()
    print(emulator.base_url, emulator.token, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await emulator.stop()

asyncio.run(main())
"""


def aiohttp_request() -> type:
    try:
        from bench.aiohttp_request import AiohttpTransport
    except ImportError as missing:
        raise SystemExit(f"{missing}: pip install -e '.[bench]'") from missing
    return AiohttpTransport


async def one_run(kind: type, base_url: str, token: str, requests: int,
                  concurrency: int) -> tuple[float, float]:
    """CPU seconds per request and requests a second, for one client."""
    bot = Bot(token, base_url=base_url, request=kind(connection_pool_size=CONNECTIONS,
                                                     pool_timeout=30.0))
    await bot.initialize()
    await bot.send_message(CHAT, "warm")  # the connections opened before the clock starts
    left = iter(range(requests))

    async def sender() -> None:
        for number in left:
            await bot.send_message(CHAT, f"message {number}")

    began, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(sender() for _ in range(concurrency)))
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    await bot.shutdown()
    return used / requests, requests / wall


async def measure(runs: int, requests: int, concurrency: int) -> dict[str, list[tuple]]:
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdout is not None and server.stdin is not None
    try:
        base_url, token = server.stdout.readline().split()
        kinds = {"ours (lean_request)": LeanRequest, "aiohttp": aiohttp_request()}
        figures: dict[str, list[tuple]] = {name: [] for name in kinds}
        for run in range(runs):
            order = list(kinds.items()) if run % 2 == 0 else list(kinds.items())[::-1]
            for name, kind in order:
                figures[name].append(await one_run(kind, base_url, token, requests,
                                                   concurrency))
        return figures
    finally:
        server.stdin.close()
        server.wait(timeout=30)


def table(figures: dict[str, list[tuple]]) -> str:
    cpu = {name: statistics.median(f[0] for f in runs) for name, runs in figures.items()}
    rate = {name: statistics.median(f[1] for f in runs) for name, runs in figures.items()}
    ours, theirs = "ours (lean_request)", "aiohttp"
    lines = ["| client | CPU per request | requests a second |", "| --- | --- | --- |"]
    lines += [f"| {name} | {cpu[name] * 1e6:,.0f} µs | {rate[name]:,.0f} |" for name in figures]
    lines.append(f"| aiohttp / ours | {cpu[theirs] / cpu[ours]:.2f}× | "
                 f"{rate[theirs] / rate[ours]:.2f}× |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--quick", action="store_true", help="3 runs of 600 requests")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.requests = 3, 600
    with open("/proc/loadavg") as load:
        print(f"load average at the start: {load.read().split()[0]}")
    figures = asyncio.run(measure(args.runs, args.requests, args.concurrency))
    print(f"{args.requests} sendMessage calls a run, {args.concurrency} at once, "
          f"medians of {args.runs} runs")
    print(table(figures))


if __name__ == "__main__":
    main()
