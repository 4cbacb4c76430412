"""The rules of a round of 24 in a chat, as a plain class that tests drive without Telegram.

Deal, accept answers (first right one wins, atomically), hints with a point penalty, reveal,
time out, resume after a restart, leaderboards. Solver work goes to the pool; state to storage;
what comes back is reply text (HTML) for the handlers to send.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import texts
from bot.pool import SolverPool, SolverTimeout
from bot.storage import Round, Storage
from bot.texts import text
from bot.work import LOOKS_LIKE_MATH, Deal, Verdict, check_answer, deal, hint, solutions

REVEAL_SHOWN = 5
SOLVE_SHOWN = 10
SOLVE_MAX_NUMBERS = 6
TARGET = 24


@dataclass(frozen=True)
class Player:
    id: int
    first_name: str
    username: str | None = None


@dataclass(frozen=True)
class Started:
    """Result of /play: the text to send, and the round when a new one was dealt."""

    text: str
    round: Round | None


class Throttle:
    """At most `per_second` answers a second from one user in one chat; the rest are dropped."""

    def __init__(self, per_second: float = 2.0, clock: Callable[[], float] = time.monotonic):
        self.gap = 1.0 / per_second
        self.clock = clock
        self.last: dict[tuple[int, int], float] = {}

    def allow(self, chat_id: int, user_id: int) -> bool:
        now = self.clock()
        key = (chat_id, user_id)
        if now - self.last.get(key, -1e9) < self.gap:
            return False
        self.last[key] = now
        if len(self.last) > 10_000:  # forget the idle ones
            self.last = {k: t for k, t in self.last.items() if now - t < 60}
        return True


def hint_points(points: int) -> int:
    """A round won after a hint gives half the points (rounded up)."""
    return (points + 1) // 2


def elapsed_text(seconds: float) -> str:
    return f"{seconds:.1f} s"


class Game:
    """Rounds of 24 in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, storage: Storage, pool: SolverPool, round_seconds: float,
                 solve_timeout: float = 10.0, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None) -> None:
        self.storage = storage
        self.pool = pool
        self.round_seconds = round_seconds
        self.solve_timeout = solve_timeout
        self.clock = clock
        self.rng = rng or random.Random()
        self.throttle = Throttle()

    # --- rounds -------------------------------------------------------------------------------

    async def play(self, chat_id: int, chat_type: str, title: str | None,
                   player: Player) -> Started:
        """Deal a new round, or repeat the one already on."""
        await self.storage.remember(chat_id, chat_type, title, player.id, player.first_name,
                                    player.username)
        current = await self.storage.open_round_of(chat_id)
        if current is not None:
            return Started(self._still_open(current), None)
        dealt: Deal = await self.pool.run(deal, self.rng.getrandbits(64))
        now = self.clock()
        new = await self.storage.open_round(chat_id, dealt.hand, dealt.target, dealt.level,
                                            dealt.points, now, now + self.round_seconds)
        if new is None:  # another /play won the race
            current = await self.storage.open_round_of(chat_id)
            return Started(self._still_open(current) if current else text("no_round"), None)
        return Started(self.deal_text(new), new)

    def deal_text(self, round_: Round) -> str:
        return text("deal", numbers=texts.numbers_html(round_.hand), target=round_.target,
                    seconds=round(round_.deadline - round_.started_at), points=round_.points,
                    level=text(f"level_{round_.level}"))

    def _still_open(self, round_: Round) -> str:
        left = max(0, round(round_.deadline - self.clock()))
        return text("still_open", numbers=texts.numbers_html(round_.hand), target=round_.target,
                    seconds=left)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self.storage.set_message(round_id, message_id)

    async def open_round(self, chat_id: int) -> Round | None:
        return await self.storage.open_round_of(chat_id)

    async def answer(self, chat_id: int, chat_type: str, title: str | None, player: Player,
                     answer: str, explicit: bool) -> str | None:
        """Judge an answer; None means stay silent (not an attempt, throttled, no round)."""
        current = await self.storage.open_round_of(chat_id)
        if current is None:
            return text("no_round") if explicit else None
        if not explicit and not LOOKS_LIKE_MATH.match(answer.strip()):
            return None  # chatter: not even worth a trip to the pool
        verdict: Verdict = await self.pool.run(check_answer, answer, current.hand,
                                               current.target, explicit)
        if verdict.kind == "ignore" or not self.throttle.allow(chat_id, player.id):
            return None
        now = self.clock()
        await self.storage.record_answer(current.id, player.id, answer[:200],
                                         verdict.kind == "right", now, player.first_name)
        if verdict.kind != "right":
            return self._wrong(verdict, current)
        if await self.storage.win(current.id, player.id, verdict.expression, now):
            return text("won", name=texts.name_html(player.first_name),
                        expression=texts.code(verdict.expression),
                        elapsed=elapsed_text(now - current.started_at), points=current.points)
        winner = await self.storage.winner_name(current.id)
        return text("too_late", name=texts.name_html(winner or "Someone"))

    def _wrong(self, verdict: Verdict, current: Round) -> str:
        if verdict.kind == "wrong_value":
            return text("wrong_value", expression=texts.code(verdict.expression),
                        value=texts.code(verdict.value), target=current.target)
        if verdict.kind == "wrong_numbers":
            return text("wrong_numbers", reason=texts.escape(verdict.reason),
                        numbers=texts.numbers_html(current.hand))
        if verdict.kind == "division_by_zero":
            return text("division_by_zero")
        return text("unreadable", reason=texts.escape(verdict.reason))

    async def hint(self, chat_id: int) -> str:
        current = await self.storage.open_round_of(chat_id)
        if current is None:
            return text("no_round")
        step = await self.pool.run(hint, current.hand, current.target)
        points = current.points if current.hint_used else hint_points(current.points)
        await self.storage.use_hint(current.id, points)
        return text("hint", step=texts.code(step), points=points)

    async def reveal(self, chat_id: int) -> str:
        """/reveal: end the round now and show the solutions."""
        current = await self.storage.open_round_of(chat_id)
        if current is None:
            return text("no_round")
        return await self._close(current, "revealed", "reveal") or text("no_round")

    async def expire(self, round_id: int) -> tuple[int, str] | None:
        """The round's time ran out: (chat, text) if this call closed it."""
        current = await self.storage.get_round(round_id)
        if current is None or current.status != "open":
            return None
        closed = await self._close(current, "expired", "timeout")
        return (current.chat_id, closed) if closed else None

    async def _close(self, current: Round, status: str, key: str) -> str | None:
        found = await self.pool.run(solutions, current.hand, current.target)
        if not await self.storage.end(current.id, status, self.clock()):
            return None
        shown = found[:REVEAL_SHOWN]
        return text(key, numbers=texts.numbers_html(current.hand), target=current.target,
                    count_text=texts.count_text(len(found), len(shown)),
                    solutions=texts.solutions_html(shown, current.target))

    async def resume(self) -> tuple[list[Round], list[tuple[int, str]]]:
        """After a restart: rounds still running (to re-arm), and reveals of those that ran out."""
        running, expired = [], []
        for current in await self.storage.open_rounds():
            if current.deadline > self.clock():
                running.append(current)
            else:
                closed = await self.expire(current.id)
                if closed:
                    expired.append(closed)
        return running, expired

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        await self.storage.migrate_chat(old_id, new_id)

    # --- /solve, /top, /stats ------------------------------------------------------------------

    async def solve(self, arguments: str) -> str:
        request = parse_solve(arguments)
        if request is None:
            return text("solve_usage")
        numbers, target = request
        try:
            found = await self.pool.run(solutions, tuple(numbers), target,
                                        timeout=self.solve_timeout)
        except SolverTimeout:
            return text("solve_timeout", seconds=round(self.solve_timeout))
        shown_numbers = texts.numbers_html(numbers)
        if not found:
            return text("solve_none", numbers=shown_numbers, target=target)
        shown = found[:SOLVE_SHOWN]
        more = text("solve_more", count=len(found) - len(shown)) if len(found) > len(shown) else ""
        return text("solve_result", numbers=shown_numbers, target=target,
                    count_text=texts.count_text(len(found), len(shown)),
                    solutions=texts.solutions_html(shown, target), more=more)

    async def top(self, chat_id: int, everywhere: bool) -> str:
        standings = await self.storage.top(None if everywhere else chat_id)
        if not standings:
            return text("top_empty")
        lines = [text("top_title", title=text("top_all" if everywhere else "top_chat"))]
        lines += [text("top_line", rank=i, name=texts.name_html(s.name), points=s.points,
                       wins=s.wins) for i, s in enumerate(standings, 1)]
        return texts.clip("\n".join(lines))

    async def stats(self, chat_id: int, player: Player) -> str:
        found = await self.storage.stats(chat_id, player.id)
        name = texts.name_html(player.first_name)
        if found is None or found.rounds_played == 0:
            return text("stats_none", name=name)
        fastest = elapsed_text(found.fastest_win) if found.fastest_win is not None else "—"
        return text("stats", name=name, points=found.points, wins=found.wins,
                    played=found.rounds_played, fastest=fastest, streak=found.current_streak,
                    best_streak=found.best_streak)


SOLVE_REQUEST = re.compile(r"^\s*((?:\d+[\s,]+)*\d+)\s*(?:=\s*(-?\d+)\s*)?$")


def parse_solve(arguments: str) -> tuple[list[int], int] | None:
    """'3 8 3 8' or '1 2 3 4 5 = 100' -> (numbers, target); None when it isn't that."""
    match = SOLVE_REQUEST.match(arguments)
    if not match:
        return None
    numbers = [int(n) for n in re.split(r"[\s,]+", match.group(1).strip())]
    target = int(match.group(2)) if match.group(2) is not None else TARGET
    if not 1 <= len(numbers) <= SOLVE_MAX_NUMBERS or any(n > 1_000_000 for n in numbers):
        return None
    if abs(target) > 10**9:
        return None
    return numbers, target
