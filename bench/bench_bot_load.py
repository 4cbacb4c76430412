"""Load benchmark: the real bot (`python -m bot`, its own process) against the Bot API emulator.

Group chats play at once: each deals (/play), then three players answer (two wrong, one right).

(1) The bot's own capacity, with outgoing rate limiting off (RATE_LIMIT=off):
    a. burst: every chat's /play at once, then every answer at once; updates handled per second.
    b. steady load: new chats whose updates arrive at a fixed rate (default 200 a second, each
       answer once its chat's deal is out); the 50th/99th percentile time from an update's
       delivery (getUpdates returning it) to its reply reaching the server (a wrong answer's
       reply is a reaction on it, since issue 17: it counts as its reply).
(2) With rate limiting on (the default: PTB's AIORateLimiter) and the emulator enforcing
    Telegram's limits (30 messages a second, 20 a minute per group, 429 with retry_after
    beyond): the highest rates the emulator saw, its 429 answers, and whether a reply was lost.

Loopback only; every wait is bounded. `--quick` for a smaller run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.demo.emulator import BotApiEmulator, FloodLimits  # noqa: E402
from solver import first_solution  # noqa: E402

PLAYERS = 3


@dataclass
class Run:
    """One bot process against one emulator."""

    emulator: BotApiEmulator
    process: asyncio.subprocess.Process
    players: list[dict] = field(default_factory=list)
    answers: dict[int, list[str]] = field(default_factory=dict)


async def start(rate_limit: bool, workers: int, folder: Path) -> Run:
    emulator = BotApiEmulator(flood=FloodLimits() if rate_limit else None)
    await emulator.start()
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": emulator.token,
           "TELEGRAM_BASE_URL": emulator.base_url, "DATABASE_PATH": str(folder / "load.sqlite3"),
           "ROUND_SECONDS": "600", "LOG_LEVEL": "WARNING", "SOLVER_WORKERS": str(workers),
           "RATE_LIMIT": "on" if rate_limit else "off"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env,
                                                   stdin=asyncio.subprocess.DEVNULL)
    for _ in range(1200):  # ready once it polls for updates
        if any(call[0] == "getUpdates" for call in emulator.calls):
            break
        await asyncio.sleep(0.05)
    else:
        process.kill()
        raise SystemExit("the bot did not start")
    players = [emulator.user(100 + i, f"P{i}") for i in range(PLAYERS)]
    return Run(emulator, process, players)


async def stop(run: Run) -> None:
    run.process.terminate()
    await run.process.wait()
    await run.emulator.stop()


def chats(start: int, count: int) -> list[int]:
    return [-10_000 - start - i for i in range(count)]


def answers_for(deal_text: str) -> list[str]:
    """Two wrong answers and a right one for the hand on a deal's first line."""
    hand = [int(n) for n in re.findall(r"\d+", deal_text.splitlines()[0])]
    right = first_solution(hand)
    assert right is not None, deal_text
    wrong = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
    return [f"/a {wrong}", f"/a {hand[0]}*{hand[1]}", f"/a {right}"]


async def sent_to(run: Run, chat_ids: list[int], per_chat: int, timeout: float) -> bool:
    wanted = set(chat_ids)

    def done() -> bool:
        said = sum(1 for s in run.emulator.sent if s.chat_id in wanted)
        marked = sum(1 for r in run.emulator.reactions if r.chat_id in wanted)
        return said + marked >= per_chat * len(wanted)

    return await run.emulator.wait_for(done, timeout)


async def burst(run: Run, ids: list[int], timeout: float) -> dict:
    """Every /play at once, then every answer at once."""
    for chat in ids:
        run.emulator.chat(chat)
    started = time.perf_counter()
    for chat in ids:
        await run.emulator.say(chat, run.players[0], "/play")
    await sent_to(run, ids, 1, timeout)
    dealt = time.perf_counter()
    deals = {s.chat_id: s.text for s in run.emulator.sent if s.chat_id in set(ids)}
    prepared = {chat: answers_for(text) for chat, text in deals.items()}
    answering = time.perf_counter()
    for chat, lines in prepared.items():
        for player, line in zip(run.players, lines, strict=True):
            await run.emulator.say(chat, player, line)
    complete = await sent_to(run, ids, 1 + PLAYERS, timeout)
    finished = time.perf_counter()
    return {"deal_rate": len(deals) / (dealt - started),
            "answer_rate": PLAYERS * len(deals) / (finished - answering),
            "rate": (1 + PLAYERS) * len(ids) / (dealt - started + finished - answering),
            "complete": complete and len(deals) == len(ids)}


async def steady(run: Run, ids: list[int], per_second: float, timeout: float) -> dict:
    """Updates at a fixed rate: each chat's /play, and its answers once the deal is out."""
    for chat in ids:
        run.emulator.chat(chat)
    queue: list[tuple[int, str, int]] = [(chat, "/play", 0) for chat in ids]
    started = time.perf_counter()
    sent_updates = read = 0
    wanted, deal_seen = set(ids), set()
    while queue or len(deal_seen) < len(ids):
        for s in run.emulator.sent[read:]:
            if s.chat_id in wanted and s.chat_id not in deal_seen and s.reply_to is None:
                deal_seen.add(s.chat_id)
                queue += [(s.chat_id, line, p) for p, line in enumerate(answers_for(s.text))]
        read = len(run.emulator.sent)
        due = int((time.perf_counter() - started) * per_second) - sent_updates
        for _ in range(min(due, len(queue))):
            chat, line, player = queue.pop(0)
            await run.emulator.say(chat, run.players[player], line)
            sent_updates += 1
        if time.perf_counter() - started > timeout:
            break
        await asyncio.sleep(0.002)
    complete = await sent_to(run, ids, 1 + PLAYERS, timeout)
    elapsed = time.perf_counter() - started
    latencies = delivery_to_reply(run, set(ids))
    return {"offered": per_second, "handled": sent_updates / elapsed, "complete": complete,
            "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
            "count": len(latencies)}


def delivery_to_reply(run: Run, wanted: set[int]) -> list[float]:
    """Per reply, the time from its update's delivery; a deal answers its chat's first update."""
    delivered: dict[tuple[int, int], float] = {}
    for update in run.emulator.updates_log:
        message = update.get("message")
        if message and message["chat"]["id"] in wanted and "_delivered_at" in update:
            delivered[(message["chat"]["id"], message["message_id"])] = update["_delivered_at"]
    first = {}
    for chat, message_id in sorted(delivered):
        first.setdefault(chat, message_id)
    latencies = []
    for sent in run.emulator.sent:
        if sent.chat_id in wanted:
            answered = sent.reply_to if sent.reply_to is not None else first[sent.chat_id]
            key = (sent.chat_id, answered)
            if key in delivered:
                latencies.append(sent.at - delivered[key])
    for reaction in run.emulator.reactions:  # a wrong answer marked: its reply
        key = (reaction.chat_id, reaction.message_id)
        if reaction.chat_id in wanted and key in delivered:
            latencies.append(reaction.at - delivered[key])
    return latencies


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def capacity(chats_count: int, rate: float, workers: int) -> tuple[dict, dict]:
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, workers, Path(folder))
        try:
            warm = await burst(run, chats(0, 20), 60)  # the workers' caches, the connections
            assert warm["complete"]
            hot = await burst(run, chats(100, chats_count), 120)
            paced = await steady(run, chats(1000, chats_count), rate, 120)
        finally:
            await stop(run)
    return hot, paced


async def limited(chats_count: int, group_burst: int, workers: int) -> dict:
    """Many chats at once, then one group asked `group_burst` questions in a row: more than
    Telegram lets a bot send to one group in a minute."""
    with tempfile.TemporaryDirectory() as folder:
        run = await start(True, workers, Path(folder))
        try:
            ids = chats(0, chats_count)
            began = time.perf_counter()
            result = await burst(run, ids, 300)
            busy = chats(5000, 1)
            run.emulator.chat(busy[0])
            for _ in range(group_burst):
                await run.emulator.say(busy[0], run.players[1], "/solve 3 8 3 8")
            result["complete"] &= await sent_to(run, busy, group_burst, 300)
            ids += busy
            sent = [s for s in run.emulator.sent if s.chat_id in set(ids)]
            marked = [r for r in run.emulator.reactions if r.chat_id in set(ids)]
            per_second = max(sum(1 for s in sent if t <= s.at < t + 1) for t in
                             (s.at for s in sent))
            per_group = max(sum(1 for s in sent if s.chat_id == c and t <= s.at < t + 60)
                            for c in ids for t in (s.at for s in sent if s.chat_id == c))
            result.update(replies=len(sent) + len(marked), elapsed=time.perf_counter() - began,
                          expected=(1 + PLAYERS) * (len(ids) - 1) + group_burst,
                          per_second=per_second, per_group=per_group,
                          flood_errors=run.emulator.flood_errors)
        finally:
            await stop(run)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="steady updates per second")
    parser.add_argument("--limited-chats", type=int, default=60)
    parser.add_argument("--group-burst", type=int, default=25,
                        help="questions asked in one group in a row (Telegram allows 20/min)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="50 and 20 chats")
    args = parser.parse_args()
    if args.quick:
        args.chats, args.limited_chats = 50, 20
    hot, paced = asyncio.run(capacity(args.chats, args.rate, args.workers))
    print(f"(1) capacity, RATE_LIMIT=off, {args.chats} group chats x (deal + {PLAYERS} answers),"
          f" {args.workers} solver workers")
    print(f"{'measure':<44}{'value':>10}{'target':>12}")
    print(f"{'a. burst: updates handled per second':<44}{hot['rate']:>10.0f}{'>= 200':>12}")
    print(f"{'   deals per second (/play)':<44}{hot['deal_rate']:>10.0f}")
    print(f"{'   answers per second (/a)':<44}{hot['answer_rate']:>10.0f}")
    print(f"{'b. steady: offered updates per second':<44}{paced['offered']:>10.0f}")
    print(f"{'   handled updates per second':<44}{paced['handled']:>10.0f}")
    print(f"{'   p50 delivery -> reply':<44}{paced['p50'] * 1000:>8.1f}ms")
    print(f"{'   p99 delivery -> reply':<44}{paced['p99'] * 1000:>8.1f}ms{'< 100 ms':>12}")
    print(f"{'   every reply arrived':<44}{'yes' if paced['complete'] else 'NO':>10}\n")
    lim = asyncio.run(limited(args.limited_chats, args.group_burst, args.workers))
    print(f"(2) rate limited (AIORateLimiter), the emulator enforcing 30/s and 20/min per group:"
          f" {args.limited_chats} chats, then {args.group_burst} questions in one group")
    print(f"{'highest messages in any second':<44}{lim['per_second']:>10}{'<= 30':>12}")
    print(f"{'highest messages to one group in a minute':<44}{lim['per_group']:>10}"
          f"{'<= 20':>12}")
    print(f"{'429 answers (retried by the bot)':<44}{lim['flood_errors']:>10}")
    print(f"{'replies / expected':<44}{lim['replies']:>6}/{lim['expected']}"
          f"{'none lost' if lim['replies'] == lim['expected'] else 'LOST':>12}")
    print(f"{'wall time':<44}{lim['elapsed']:>9.1f}s")


if __name__ == "__main__":
    main()
