"""What the live-puzzle rule costs everyone else (issue 24): shares of /solve requests refused.

1. Collateral at scale: 1,000 rounds live across 1,000 chats (hands of 24 with 4 to 6 numbers,
   Countdown draws), and random five-number `/solve` requests from people in none of those
   chats: the share refused (goal ≤ 1%), and the share that reaches some live round at all (each
   costs the bot one getChatMember per chat reached, cached a minute).
2. A troll's reach: one account keeps open as many rounds as it may (bot.play.round.dealing
   ROUNDS_PER_PLAYER) of the kind that hurts most; the share of the 1,820 four-number hands
   (target 24) refused to a member of the troll's group (goal < 1%; 48% before, and to all).

Counts from the rule itself (bot.play.guards.live), no Telegram: the same on any machine.
"""

from __future__ import annotations

import asyncio
import random
import statistics
from collections.abc import Callable
from functools import partial
from itertools import combinations_with_replacement

from bot.play.games.countdown import rules as countdown
from bot.play.guards.live import LivePuzzles
from bot.play.round.dealing import ROUNDS_PER_PLAYER
from bot.play.solving.solving import Solving
from bot.store.records import Round
from bot.telegram.grammar import SolveRequest
from bot.text.i18n import Texts
from solver import is_solvable

FOURS = list(combinations_with_replacement(range(1, 14), 4))
TILES = [n for n in range(1, 11) for _ in range(2)]


def a_round(round_id: int, chat_id: int, game: str, hand: tuple, target: int) -> Round:
    return Round(round_id, chat_id, game, hand, target, "", 10, "en", None, 0.0, 60.0, "open",
                 False)


def hand_of_24(rng: random.Random, count: int, target: int = 24) -> tuple[int, ...]:
    while True:
        hand = tuple(rng.randint(1, 13) for _ in range(count))
        if is_solvable(hand, target):
            return hand


def draw(rng: random.Random, large: int) -> tuple[tuple[int, ...], int]:
    return (tuple(rng.sample(countdown.LARGE, large) + rng.sample(TILES, 6 - large)),
            rng.randint(101, 999))


def busy_world(rng: random.Random, rounds: int) -> LivePuzzles:
    """Rounds live in as many chats, dealt as groups ask for them: mostly 24 with four
    numbers, some with five or six (to 24 or 100), some Countdown."""
    live = LivePuzzles()
    for i in range(rounds):
        kind = rng.random()
        if kind < 0.6:
            live.add(a_round(i, -(i + 1), "24", hand_of_24(rng, 4), 24))
        elif kind < 0.75:
            live.add(a_round(i, -(i + 1), "24", hand_of_24(rng, 5), 24))
        elif kind < 0.85:
            live.add(a_round(i, -(i + 1), "24", hand_of_24(rng, 6, 100), 100))
        else:
            hand, target = draw(rng, rng.randint(0, 4))
            live.add(a_round(i, -(i + 1), "countdown", hand, target))
    return live


def collateral(rng: random.Random, rounds: int = 1000, asks: int = 20_000
               ) -> tuple[float, float, float]:
    """Asked of the solving service itself (its `refusal`, as /solve, inline and the buttons
    ask it) by someone in none of the chats: (refused, reaching some live round, getChatMember
    asks per request) over random five-number asks."""
    live = busy_world(rng, rounds)
    solving = Solving(pool=None, timeout=10.0, live=live)  # type: ignore[arg-type]
    texts = Texts("en")
    asked = 0

    async def outsider(chat_id: int) -> bool:
        nonlocal asked
        asked += 1
        return False

    async def run() -> tuple[int, int]:
        refused = reaching = 0
        for _ in range(asks):
            request = SolveRequest(tuple(rng.randint(1, 13) for _ in range(5)), 24)
            reaching += bool(live.reaching(request.numbers, request.target))
            refused += await solving.refusal(request, texts, outsider) is not None
        return refused, reaching

    refused, reaching = asyncio.run(run())
    return refused / asks, reaching / asks, asked / asks


def countdown_round(rng: random.Random, large: int) -> tuple[str, tuple[int, ...], int]:
    return ("countdown", *draw(rng, large))


Kind = tuple[str, Callable[[random.Random], tuple[str, tuple[int, ...], int]]]
KINDS: list[Kind] = [
    ("24, four numbers", lambda r: ("24", hand_of_24(r, 4), 24)),
    ("24, five numbers", lambda r: ("24", hand_of_24(r, 5), 24)),
    ("24, five numbers to 30", lambda r: ("24", hand_of_24(r, 5, 30), 30)),
    ("24, six numbers", lambda r: ("24", hand_of_24(r, 6, 100), 100)),
    *[(f"Countdown, {large} large", partial(countdown_round, large=large)) for large in range(5)],
]


def troll_share(rng: random.Random, make: Callable[[random.Random], tuple], samples: int
                ) -> list[float]:
    """Shares of the 1,820 four-number hands refused to a member of the troll's group, the
    troll holding ROUNDS_PER_PLAYER rounds of one kind there, over several samples."""
    shares = []
    for _ in range(samples):
        live = LivePuzzles()
        for i in range(ROUNDS_PER_PLAYER):
            game, hand, target = make(rng)
            live.add(a_round(i, -1, game, hand, target))
        shares.append(sum(bool(live.reaching(h, 24)) for h in FOURS) / len(FOURS))
    return shares


def main() -> None:
    rng = random.Random(24)
    refused, reaching, asked = collateral(rng)
    print("1,000 rounds live across chats, 20,000 random five-number /solve from outsiders:")
    print(f"  refused {refused:.2%} (goal <= 1%); reaching some live round {reaching:.2%}, "
          f"{asked:.2f} getChatMember asks a request (cached a minute)")
    print(f"\nOne account's {ROUNDS_PER_PLAYER} open rounds (the most it may keep): the 1,820 "
          "four-number hands refused to a member of its group")
    print(f"  {'kind':<26} {'median':>8} {'max':>8}")
    worst = 0.0
    for name, make in KINDS:
        shares = troll_share(rng, make, 30)
        worst = max(worst, max(shares))
        print(f"  {name:<26} {statistics.median(shares):>8.2%} {max(shares):>8.2%}")
    print(f"  worst {worst:.2%} (goal < 1%; before issue 24: 48%, and to everyone)")


if __name__ == "__main__":
    main()
