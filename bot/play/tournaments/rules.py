"""A tournament's terms and bounds, decisions only: what a request for one may ask and what it
gets by default, the level of each round, when it starts, its code. No words, no store.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.play.games import FIRST
from bot.play.games import GAMES as PLAYED

GAMES = tuple(name for name, game in PLAYED.items() if game.tournaments)  # one hand for all
MIX = "mix"  # a level per round: easy, then medium, then hard
GRADES = tuple(dict.fromkeys(level for name in GAMES for level in PLAYED[name].levels))
LEVELS = (*GRADES, MIX)
MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 1, 20, 10
MIN_SECONDS, MAX_SECONDS = 20, 600  # a round's length
START_MINUTES = 10  # a tournament starts this long after it is made, unless asked otherwise
MAX_START_MINUTES = 7 * 24 * 60  # at most a week ahead
# The size limit: at the free rate (30 messages a second, some kept for the rest of the bot)
# dealing to this many groups takes 20 s; Telegram's paid broadcasts (up to 1,000 a second)
# deal it in under a second
MAX_GROUPS = 500
MIN_GROUPS = 2  # a tournament nobody joined (the group that made it alone) is cancelled
# The chats following a tournament get its boards beside its groups, at the same deal rate (with
# paid broadcasts, each billed): MAX_FOLLOWERS by default (bot.runtime.config's
# TOURNAMENT_FOLLOWERS, docs/tournaments.md says why). A chat follows MAX_FOLLOWED not over at
# once: more would be a board every few seconds, and each one's boards cost as much as a group's.
MAX_FOLLOWERS = 100
MAX_FOLLOWED = 5
BEST_PLAYERS = 3  # a group scores the points of its three best players: a big group gains little
PAUSE = 20.0  # seconds between a round's close in every group and the next deal: the board
DEAL_GRACE = 120.0  # a group's deal not begun this long after its round opened is skipped
TICK = 1.0  # how often a schedule looks again while its round is being played
REDISPATCH = 5.0  # an errand that left no trace is sent again at most this often
NAME_LIMIT = 64
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I to mistake
CODE_LENGTH = 6


@dataclass(frozen=True)
class TournamentRequest:
    """What /tournament new asked for (None: the default). `starts_in`: seconds from now;
    `starts_at`: a minute of the UTC day (the next one to come)."""

    name: str | None = None
    game: str = FIRST.name
    level: str = MIX
    rounds: int = DEFAULT_ROUNDS
    seconds: float | None = None
    starts_in: float | None = None
    starts_at: int | None = None


def starts(request: TournamentRequest, now: float) -> float:
    """The moment it starts: in `starts_in`, at the next `starts_at` (UTC), or in
    START_MINUTES."""
    if request.starts_at is not None:
        day = 24 * 3600
        moment = now - now % day + request.starts_at * 60
        return moment if moment > now else moment + day
    return now + (request.starts_in if request.starts_in is not None else START_MINUTES * 60)


def level_of(level: str, number: int, rounds: int) -> str:
    """The level round `number` of `rounds` is dealt at: the tournament's, or with a mix,
    easy, then medium, then hard, a third of the rounds each (the first rounds easy)."""
    if level != MIX:
        return level
    return GRADES[min(len(GRADES) - 1, (number - 1) * len(GRADES) // max(rounds, 1))]


def draw_code(rng: random.Random) -> str:
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """A code as typed (any case, a link's "t_" before it): itself, or None if it is none."""
    code = text.strip().upper().removeprefix("T_")
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None


def deal_order(groups: list[int], rng: random.Random) -> list[int]:
    """The order a round's deals leave in: drawn afresh each round, so that no group is always
    dealt first (the deals to many groups leave over seconds)."""
    order = list(groups)
    rng.shuffle(order)
    return order


assert [level_of(MIX, n, 10) for n in (1, 4, 5, 7, 8)] == \
    ["easy", "easy", "medium", "medium", "hard"]
assert level_of(MIX, 10, 10) == "hard" and level_of("hard", 1, 10) == "hard"
assert level_of(MIX, 1, 1) == "easy"
assert read_code(" t_abc234 ") == "ABC234" and read_code("ABC0") is None
assert starts(TournamentRequest(starts_at=60), 86400 * 3 + 30) == 86400 * 3 + 3600
assert starts(TournamentRequest(starts_at=0), 86400 * 3 + 30) == 86400 * 4
