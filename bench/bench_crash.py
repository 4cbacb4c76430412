"""Crash and race trials: the real bot (`python -m bot`, its own process) against the Bot API
emulator on 127.0.0.1.

(a) kill -9: each trial starts the bot, has players in several group chats play rounds of 24
    (wrong answers, one to three right answers at the same instant, rounds nobody wins), kills
    the bot with SIGKILL at a random instant, starts it again and lets it settle (every round
    ends: ROUND_SECONDS is short). Then it checks `PRAGMA integrity_check`; the scores table
    against the recomputation from rounds and answers (tests/bot/scoring.py); that every round that
    ended was announced exactly once (the chat's result messages, in order, against the rounds
    in the database); that no round with a right answer is still open; and that no update got
    two replies although Telegram (the emulator) delivered some again.
(b) races: rounds where two to four players send the right answer at the same instant:
    exactly one winner, and each of the others is told who was first.

`python bench/bench_crash.py [--trials 30] [--races 100] [--seed 1] [--postgres]`; tests/e2e
runs a small version. With --postgres the bot keeps its data in PostgreSQL (a server of its own,
tests/postgres/server.py): the same trials and checks, but SQLite's integrity_check (a killed
client cannot damage a PostgreSQL server's files). Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from demo.emulator import BotApiEmulator, Sent  # noqa: E402
from solver import first_solution  # noqa: E402
from tests.bot.scoring import (  # noqa: E402
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)
from tests.e2e.conftest import BotProcess  # noqa: E402

ROUND_SECONDS = 3.0
THROTTLE_PAUSE = 1.0  # a player answers at most once a second here: races, not the throttle
FIRST_DEAL_SECONDS = 30.0  # a kill trial waits this long at most for its first deal
PLAYERS = [{"id": 300 + i, "is_bot": False, "first_name": f"P{i}"} for i in range(4)]
WINNER = re.compile(r"^(?:✅ )?(\S+) (?:wins|was closest)", re.MULTILINE)
FIRST = re.compile(r"^(?:⌛ )?(\S+) was first")


class CountingEmulator(BotApiEmulator):
    """The emulator, counting how often each update is delivered (Telegram delivers an update
    again when the bot stopped before confirming it)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.deliveries: Counter[int] = Counter()

    async def api_getupdates(self, params: dict) -> list:
        batch = await super().api_getupdates(params)
        self.deliveries.update(u["update_id"] for u in batch)
        return batch


@dataclass
class Figures:
    trials: int = 0
    integrity_ok: int = 0
    integrity_checked: int = 0  # trials on SQLite (PostgreSQL has no integrity_check)
    score_mismatches: int = 0
    rounds: int = 0
    won: int = 0
    announced_once: int = 0
    announced_never: int = 0
    announced_twice: int = 0
    late_results: int = 0  # sent at start-up: stored before the kill, never sent
    open_with_right_answer: int = 0
    still_open: int = 0
    redelivered: int = 0
    double_replies: int = 0
    races: int = 0
    one_winner: int = 0
    told_who: int = 0
    losers: int = 0
    loser_replies: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def puzzle(sent: Sent) -> list[int]:
    """The hand in a deal ("Make 24!") or in "a round is on" (numbers are in <code>)."""
    return [int(n) for n in re.findall(r"<code>(\d+)</code>", sent.html.splitlines()[0])]


def kind(sent: Sent) -> str:
    if (sent.reply_to is None and "Make 24" in sent.text) or "A round of 24 is on" in sent.text:
        return "deal"
    if "Sent after a restart" in sent.text:
        return "late"
    if " wins with " in sent.text or "Time is up" in sent.text or "Round over" in sent.text:
        return "result"
    return "other"


async def message(emulator: BotApiEmulator, chat: int, since: int, want: str,
                  timeout: float) -> Sent | None:
    """The first message of this kind sent to the chat after index `since` of `sent`."""
    def found() -> Sent | None:
        return next((s for s in emulator.sent[since:]
                     if s.chat_id == chat and kind(s) in want.split("|")), None)

    await emulator.wait_for(lambda: found() is not None, timeout)
    return found()


async def first_deal(emulator: BotApiEmulator, chats: list[int], since: int) -> bool:
    """Wait (FIRST_DEAL_SECONDS at most) for a deal in any of the chats after index `since`."""
    return await emulator.wait_for(lambda: any(
        s.chat_id in chats and kind(s) == "deal" for s in emulator.sent[since:]),
        FIRST_DEAL_SECONDS)


async def play(emulator: BotApiEmulator, chat: int, rng: random.Random) -> None:
    """Rounds in one chat until cancelled: wrong answers, then one to three right answers at
    once, or none (the round runs out)."""
    while True:
        mark = len(emulator.sent)
        await emulator.say(chat, rng.choice(PLAYERS), "/play")
        deal = await message(emulator, chat, mark, "deal", 10)
        if deal is None:
            continue
        hand = puzzle(deal)
        for player in rng.sample(PLAYERS, rng.randint(0, 2)):
            await emulator.say(chat, player, f"/a {'+'.join(map(str, hand))}+1")
        right = first_solution(hand)
        mark = len(emulator.sent)
        if right is not None and rng.random() < 0.8:
            await asyncio.gather(*(emulator.say(chat, p, f"/a {right}")
                                   for p in rng.sample(PLAYERS, rng.randint(1, 3))))
        await message(emulator, chat, mark, "result|late", ROUND_SECONDS + 10)
        await asyncio.sleep(rng.uniform(0, 0.3))


class Database:
    """The bot's database as the checks read it: its SQLite file, or its PostgreSQL database
    (`url`)."""

    def __init__(self, path: Path, url: str | None = None) -> None:
        self.path = path
        self.url = url

    async def fetch(self, sql: str) -> list[Sequence]:
        if self.url is None:
            with sqlite3.connect(self.path) as db:
                return db.execute(sql).fetchall()
        import asyncpg

        connection = await asyncpg.connect(self.url)
        try:
            return list(await connection.fetch(sql))
        finally:
            await connection.close()

    async def integrity_ok(self) -> bool | None:
        """SQLite's integrity_check after the kills (None on PostgreSQL: none to run)."""
        if self.url is not None:
            return None
        return (await self.fetch("PRAGMA integrity_check"))[0][0] == "ok"

    async def score_mismatches(self) -> list[str]:
        """Where the scores table differs from the recomputation (tests/bot/scoring.py)."""
        rounds, answers = read_rows(await self.fetch(ROUNDS_SQL), await self.fetch(ANSWERS_SQL))
        expected = expected_scores(rounds, answers)
        stored = stored_scores(await self.fetch(SCORES_SQL))
        return [f"{key}: stored {stored.get(key)}, expected {expected.get(key)}"
                for key in sorted(set(expected) | set(stored), key=repr)
                if stored.get(key) != expected.get(key)]


OPEN_ROUNDS = "SELECT COUNT(*) FROM rounds WHERE status = 'open'"
SETTLES = 3  # a trial's bot started, settled and stopped at most this often (settle_and_stop)


async def settle(emulator: BotApiEmulator, database: Database, timeout: float = 60) -> bool:
    """Until the bot has taken every update given to it, every round has ended and the bot has
    sent nothing for a second (an update still waiting could open a round after the check):
    whether that came within `timeout`."""
    deadline = time.monotonic() + timeout
    quiet_since, count = time.monotonic(), -1
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        if len(emulator.sent) != count:
            quiet_since, count = time.monotonic(), len(emulator.sent)
        [(still,)] = await database.fetch(OPEN_ROUNDS)
        if not still and not emulator.updates and time.monotonic() - quiet_since > 1.0:
            return True
    return False


async def settle_and_stop(bot: BotProcess, emulator: BotApiEmulator,
                          database: Database) -> None:
    """Start the bot, let it settle, stop it. An update it had taken and was still handling when
    it looked settled (a /play dealt slowly on a loaded machine: nothing sent, no round stored
    yet) opens its round during the stop; that round is the next start's to resume and end, so
    the bot is started again for it. A round the running bot never ended (settle timed out) is
    not given another start: the check counts it."""
    for _ in range(SETTLES):
        await bot.start()
        settled = await settle(emulator, database)
        await bot.stop()
        [(still,)] = await database.fetch(OPEN_ROUNDS)
        if not settled or not still:
            return


ENDED_ROUNDS = ("SELECT r.id, r.status, u.first_name FROM rounds r LEFT JOIN users u "
                "ON u.id = r.winner_id WHERE r.chat_id = {chat:d} AND r.status != 'open' "
                "ORDER BY r.id")


async def check_chat(database: Database, emulator: BotApiEmulator, chat: int,
                     figures: Figures) -> None:
    """The chat's result messages, in order, against its rounds: one each, same winner."""
    check_results([tuple(row) for row in await database.fetch(ENDED_ROUNDS.format(chat=chat))],
                  emulator, chat, figures)


def check_results(rounds: list[tuple], emulator: BotApiEmulator, chat: int,
                  figures: Figures) -> None:
    """The chat's result messages against its ended rounds (id, status, winner's name)."""
    results = [s for s in emulator.sent if s.chat_id == chat and kind(s) in ("result", "late")]
    figures.rounds += len(rounds)
    figures.won += sum(status == "won" for _, status, _ in rounds)
    figures.late_results += sum(kind(s) == "late" for s in results)
    said = [(m.group(1) if (m := WINNER.search(s.text)) else None) for s in results]
    stored = [winner for _, _, winner in rounds]
    # walk both lists in order: a result said again, or a round never said
    j = 0
    for i, winner in enumerate(stored):
        if j < len(said) and said[j] == winner:
            figures.announced_once += 1
            j += 1
            following = stored[i + 1] if i + 1 < len(stored) else object()
            while j < len(said) and said[j] == winner and following != winner:
                figures.announced_twice += 1
                figures.problems.append(f"chat {chat}: round {rounds[i][0]} announced twice")
                j += 1
        else:
            figures.announced_never += 1
            figures.problems.append(f"chat {chat}: round {rounds[i][0]} never announced")
    figures.announced_twice += len(said) - j
    figures.problems += [f"chat {chat}: a result of no round: {w!r}" for w in said[j:]]


async def check(database: Database, emulator: CountingEmulator, chats: list[int],
                figures: Figures) -> None:
    integrity = await database.integrity_ok()
    if integrity is not None:
        figures.integrity_checked += 1
        figures.integrity_ok += integrity
    mismatches = await database.score_mismatches()
    figures.score_mismatches += len(mismatches)
    figures.problems += mismatches
    [(right,)] = await database.fetch(
        "SELECT COUNT(*) FROM rounds r WHERE status = 'open' AND EXISTS "
        "(SELECT 1 FROM answers a WHERE a.round_id = r.id AND a.correct = 1)")
    figures.open_with_right_answer += right
    [(still,)] = await database.fetch(OPEN_ROUNDS)
    figures.still_open += still
    for chat in chats:
        await check_chat(database, emulator, chat, figures)
    replies = Counter((s.chat_id, s.reply_to) for s in emulator.sent
                      if s.chat_id in chats and s.reply_to is not None)
    figures.double_replies += sum(n - 1 for n in replies.values() if n > 1)


async def kill_trials(trials: int, seed: int, folder: Path, chats_per_trial: int = 4,
                      figures: Figures | None = None, url: str | None = None) -> Figures:
    """`url`: the bot's data in that PostgreSQL database (migrated) instead of a file."""
    figures = figures or Figures()
    rng = random.Random(seed)
    emulator = CountingEmulator()
    await emulator.start()
    database = Database(folder / "crash.sqlite3", url)
    bot = bot_process(emulator, database, ROUND_SECONDS)
    try:
        for trial in range(trials):
            chats = [-700_000 - trial * 100 - i for i in range(chats_per_trial)]
            for chat in chats:
                emulator.chat(chat)
            await bot.start()
            mark = len(emulator.sent)
            players = [asyncio.create_task(play(emulator, chat, random.Random(rng.random())))
                       for chat in chats]
            # the kill lands 0.2 to 5 s into play, counted from the trial's first deal: on a
            # loaded machine a slow first deal would otherwise leave a trial nothing to kill
            await first_deal(emulator, chats, mark)
            await asyncio.sleep(rng.uniform(0.2, 5.0))
            await bot.kill()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            await settle_and_stop(bot, emulator, database)
            figures.trials += 1
            await check(database, emulator, chats, figures)
        figures.redelivered += sum(n > 1 for n in emulator.deliveries.values())
    finally:
        await bot.stop()
        await emulator.stop()
    return figures


def bot_process(emulator: BotApiEmulator, database: Database, seconds: float) -> BotProcess:
    bot = BotProcess(emulator, database.path, seconds)
    if database.url is not None:
        bot.env["DATABASE_URL"] = database.url
    return bot


async def race_trials(races: int, seed: int, folder: Path,
                      figures: Figures | None = None, url: str | None = None) -> Figures:
    figures = figures or Figures()
    rng = random.Random(seed)
    emulator = CountingEmulator()
    await emulator.start()
    database = Database(folder / "race.sqlite3", url)
    bot = bot_process(emulator, database, 60)
    chat = -800_000
    emulator.chat(chat)
    try:
        await bot.start()
        for _ in range(races):
            await asyncio.sleep(THROTTLE_PAUSE)
            mark = len(emulator.sent)
            await emulator.say(chat, PLAYERS[0], "/play")
            deal = await message(emulator, chat, mark, "deal", 15)
            assert deal is not None, "no deal"
            right = first_solution(puzzle(deal))
            racers = rng.sample(PLAYERS, rng.randint(2, 4))
            said = await asyncio.gather(*(emulator.say(chat, p, f"/a {right}") for p in racers))
            ids = {m["message_id"] for m in said}
            await emulator.wait_for(lambda ids=ids: len([s for s in emulator.sent
                                                         if s.reply_to in ids]) >= len(ids),
                                    15)
            replies = [s for s in emulator.sent if s.reply_to in ids and s.chat_id == chat]
            winners = [m.group(1) for s in replies if (m := WINNER.search(s.text))]
            figures.loser_replies.update(
                "was first" if FIRST.search(s.text) else s.text.split(".")[0]
                for s in replies if not WINNER.search(s.text))
            figures.races += 1
            figures.losers += len(racers) - 1
            if len(winners) == 1:
                figures.one_winner += 1
                figures.told_who += sum(bool((m := FIRST.search(s.text)) and
                                             m.group(1) == winners[0]) for s in replies)
            else:
                figures.problems.append(f"race with winners {winners}")
        mismatches = await database.score_mismatches()
        figures.score_mismatches += len(mismatches)
        figures.problems += mismatches
    finally:
        await bot.stop()
        await emulator.stop()
    return figures


def table(figures: Figures) -> str:
    rows = [
        ("kill -9 trials", figures.trials),
        ("integrity_check ok", f"{figures.integrity_ok} of {figures.integrity_checked}"
         if figures.integrity_checked else "none to run (PostgreSQL)"),
        ("scores differing from the recomputation", figures.score_mismatches),
        ("rounds ended (won)", f"{figures.rounds} ({figures.won})"),
        ("announced exactly once", f"{figures.announced_once} of {figures.rounds}"),
        ("never announced / announced twice",
         f"{figures.announced_never} / {figures.announced_twice}"),
        ("results sent at start-up (stored, unsent at the kill)", figures.late_results),
        ("rounds left open with a right answer", figures.open_with_right_answer),
        ("updates delivered again / replies sent twice",
         f"{figures.redelivered} / {figures.double_replies}"),
        ("races (2-4 right answers at once)", figures.races),
        ("exactly one winner", f"{figures.one_winner} of {figures.races}"),
        ("others told who was first", f"{figures.told_who} of {figures.losers}"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'measure':<{width}} | value |", f"| {'-' * width} | --- |"]
    lines += [f"| {name:<{width}} | {value} |" for name, value in rows]
    return "\n".join(lines)


async def main(trials: int, races: int, seed: int, postgres: bool = False) -> Figures:
    with tempfile.TemporaryDirectory() as folder:
        if not postgres:
            figures = await kill_trials(trials, seed, Path(folder))
            return await race_trials(races, seed, Path(folder), figures)
        from tests.postgres.server import PostgresServer

        with PostgresServer() as server:
            kills, races_url = await migrated(server, "crash"), await migrated(server, "race")
            figures = await kill_trials(trials, seed, Path(folder), url=kills)
            return await race_trials(races, seed, Path(folder), figures, url=races_url)


async def migrated(server: Any, name: str) -> str:
    """A new database on the server, migrated as the bot's start-up would."""
    import asyncpg

    from bot.store.postgres import open_postgres

    connection = await asyncpg.connect(server.url())
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    await (await open_postgres(server.url(name))).close()
    return server.url(name)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments.trials, arguments.races, arguments.seed,
                              arguments.postgres))
    print(table(result))
    print("what the others were told:", dict(result.loser_replies))
    for problem in result.problems[:20]:
        print("  ", problem)
