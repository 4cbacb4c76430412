"""Every game service, built once at start-up over the stores, the solver pool and a scheduler,
and handed to the Telegram side as one bundle."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.play.answers import Answers
from bot.play.games.rules import DEAL_SECONDS
from bot.play.hints import Hints
from bot.play.matches import PAUSE, Matches
from bot.play.open_rounds import OpenRounds
from bot.play.people import People
from bot.play.recovery import Recovery
from bot.play.rounds import Rounds
from bot.play.scheduler import Scheduler
from bot.play.solving import Solving
from bot.play.standings import Standings
from bot.play.throttle import WorkBudget
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores

SOLVE_TIMEOUT = 10.0


@dataclass(frozen=True)
class Services:
    people: People
    rounds: Rounds
    hints: Hints
    answers: Answers
    recovery: Recovery
    matches: Matches
    standings: Standings
    solving: Solving


def build_services(stores: Stores, pool: SolverPool, scheduler: Scheduler, *,
                   seconds: Mapping[str, float] | None = None,
                   deal_seconds: float = DEAL_SECONDS, solve_timeout: float = SOLVE_TIMEOUT,
                   pause: float = PAUSE, reads_group_messages: bool = True,
                   clock: Callable[[], float] = time.time,
                   rng: random.Random | None = None) -> Services:
    """The services of one bot. `clock` is the game's time (deadlines, answer times); the
    budget of solver seconds is shared by deals and /solve, one allowance per person, and the
    live puzzles of the open rounds are what the solving service refuses."""
    people = People(stores.people)
    budget = WorkBudget()
    rounds = Rounds(stores.rounds, people, pool, scheduler, OpenRounds(clock), budget,
                    seconds, rng=rng, deal_seconds=deal_seconds,
                    reads_group_messages=reads_group_messages)
    return Services(people=people, rounds=rounds, hints=Hints(rounds), answers=Answers(rounds),
                    recovery=Recovery(rounds), matches=Matches(stores.matches, rounds, pause),
                    standings=Standings(stores.scores, people),
                    solving=Solving(pool, solve_timeout, budget, rounds.board.live))
