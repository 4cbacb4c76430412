"""Load benchmark: the real bot (`python -m bot`, a separate process) against the fake Bot API.

200 group chats play at once: each deals (/play), then three players answer (two wrong, one
right). Prints (1) with RATE_LIMIT=off, the bot's own capacity: updates per second and the
latency from an update's delivery (getUpdates returning it) to the reply reaching the server;
(2) with rate limiting on and the server enforcing Telegram's limits, the highest send rates seen
and whether any reply was lost. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.emulator import FloodLimits  # noqa: E402
from solver import solve  # noqa: E402
from tests.fake_telegram import FakeTelegram  # noqa: E402


async def start_bot(server: FakeTelegram, database: Path, rate_limit: bool, workers: int):
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": server.token, "TELEGRAM_BASE_URL": server.base_url,
           "DATABASE_PATH": str(database), "ROUND_SECONDS": "600", "LOG_LEVEL": "WARNING",
           "SOLVER_WORKERS": str(workers), "RATE_LIMIT": "on" if rate_limit else "off"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env,
                                                   stdin=asyncio.subprocess.DEVNULL)
    for _ in range(600):
        await asyncio.sleep(0.05)
        if any(c[0] == "getUpdates" for c in server.calls):
            return process
    process.kill()
    raise SystemExit("the bot did not start")


async def wait_sent(server: FakeTelegram, count: int, timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while len(server.sent) < count and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    return len(server.sent) >= count


async def play(chats: int, rate_limit: bool, workers: int, timeout: float) -> dict:
    server = FakeTelegram(flood=FloodLimits() if rate_limit else None)
    await server.start()
    with tempfile.TemporaryDirectory() as folder:
        process = await start_bot(server, Path(folder) / "load.sqlite3", rate_limit, workers)
        try:
            players = [server.user(100 + i, f"P{i}") for i in range(3)]
            ids = [-10_000 - i for i in range(chats)]
            for chat in ids:
                server.chat(chat)
            started = time.perf_counter()
            for chat in ids:
                await server.say(chat, players[0], "/play")
            dealt = await wait_sent(server, chats, timeout)
            hands = {}
            for sent in server.sent[:chats]:
                hands[sent.chat_id] = tuple(int(n) for n in re.findall(r"\d+",
                                                                        sent.text.splitlines()[0]))
            answers = {}
            for chat in ids:
                hand = hands.get(chat)
                if hand is None:
                    continue
                a, b, c, d = hand
                for player, text in zip(players, (f"/a {a}+{b}+{c}+{d}", f"/a {a}*{b}",
                                                  f"/a {solve(hand)[0]}"), strict=True):
                    message = await server.say(chat, player, text)
                    answers[(chat, message["message_id"])] = message
            finished = await wait_sent(server, chats + 3 * len(hands), timeout)
            elapsed = time.perf_counter() - started
        finally:
            process.terminate()
            await process.wait()
    delivered = {}
    for update in server.updates_log:
        message = update["message"]
        delivered[(message["chat"]["id"], message["message_id"])] = update.get("_delivered_at")
    latencies = [sent.at - delivered[(sent.chat_id, sent.reply_to)] for sent in server.sent
                 if sent.reply_to is not None and delivered.get((sent.chat_id, sent.reply_to))]
    per_second = max(sum(1 for s in server.sent if t <= s.at < t + 1) for t in
                     (s.at for s in server.sent)) if server.sent else 0
    per_chat_minute = max(sum(1 for s in server.sent if s.chat_id == c) for c in ids)
    await server.stop()
    return {"updates": chats * 4, "replies": len(server.sent), "expected": chats * 4,
            "complete": dealt and finished, "elapsed": elapsed,
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p99": sorted(latencies)[int(0.99 * (len(latencies) - 1))] if latencies else
            float("nan"), "max_per_second": per_second, "max_per_chat_minute": per_chat_minute,
            "flood_errors": server.flood_errors}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--limited-chats", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="50 and 20 chats")
    args = parser.parse_args()
    if args.quick:
        args.chats, args.limited_chats = 50, 20
    free = asyncio.run(play(args.chats, False, args.workers, timeout=120))
    print(f"(1) capacity, RATE_LIMIT=off: {args.chats} group chats x (deal + 3 answers)")
    print(f"{'measure':<34}{'value':>12}{'target':>12}")
    rate = free["updates"] / free["elapsed"]
    print(f"{'updates handled per second':<34}{rate:>12.0f}{'>= 200':>12}")
    print(f"{'p50 delivery -> reply':<34}{free['p50'] * 1000:>10.1f}ms")
    print(f"{'p99 delivery -> reply':<34}{free['p99'] * 1000:>10.1f}ms{'< 100 ms':>12}")
    print(f"{'replies / expected':<34}{free['replies']:>6}/{free['expected']}\n")
    limited = asyncio.run(play(args.limited_chats, True, args.workers, timeout=300))
    print(f"(2) rate limited (AIORateLimiter), server enforcing 30/s and 20/min per group: "
          f"{args.limited_chats} chats")
    print(f"{'highest messages in any second':<34}{limited['max_per_second']:>12}{'<= 30':>12}")
    print(f"{'highest messages to one group':<34}{limited['max_per_chat_minute']:>12}"
          f"{'<= 20/min':>12}")
    print(f"{'429 answers (retried)':<34}{limited['flood_errors']:>12}")
    print(f"{'replies / expected':<34}{limited['replies']:>6}/{limited['expected']}"
          f"{'none lost' if limited['replies'] == limited['expected'] else 'LOST':>12}")
    print(f"{'wall time':<34}{limited['elapsed']:>11.1f}s")


if __name__ == "__main__":
    main()
