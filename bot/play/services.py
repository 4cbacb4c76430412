"""Every game service, built once at start-up over the stores, the solver pool, a scheduler and a
clock, and handed to the Telegram side as one bundle. Each service is handed what it needs here;
none reaches another's attributes."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.play.community import Community, build_community
from bot.play.deals.dealer import Dealer
from bot.play.deals.solving import Solving
from bot.play.deals.stock import Stock
from bot.play.games.batches import DEAL_SECONDS
from bot.play.guards.throttle import WorkBudget
from bot.play.matches.matches import DEFAULT_ROUNDS, PAUSE, Matches
from bot.play.people import People
from bot.play.places import Places
from bot.play.round.answers import Answers
from bot.play.round.events import Closings
from bot.play.round.hints import Hints
from bot.play.round.recovery import Recovery
from bot.play.round.rounds import DEFAULT_SECONDS, Rounds
from bot.play.round.table import RoundTable
from bot.play.scheduler import Scheduler
from bot.play.settings import ChatSettings, Settings
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores

SOLVE_TIMEOUT = 10.0


@dataclass(frozen=True)
class Services:
    people: People
    table: RoundTable
    rounds: Rounds
    hints: Hints
    answers: Answers
    recovery: Recovery
    matches: Matches
    places: Places
    community: Community
    solving: Solving
    settings: Settings


def build_services(stores: Stores, pool: SolverPool, scheduler: Scheduler, *,
                   seconds: Mapping[str, float] | None = None,
                   deal_seconds: float = DEAL_SECONDS, solve_timeout: float = SOLVE_TIMEOUT,
                   pause: float = PAUSE, reads_group_messages: bool = True,
                   clock: Callable[[], float] = time.time,
                   rng: random.Random | None = None) -> Services:
    """The services of one bot. `clock` is the game's time (deadlines, answer times); the
    budget of solver seconds is shared by deals and /solve, one allowance per person, and the
    live puzzles of the open rounds are what the solving service refuses."""
    rng = rng or random.Random()
    people = People(stores.people)
    table = RoundTable(clock, scheduler)
    budget = WorkBudget()
    closings = Closings()
    dealer = Dealer(Stock(pool, lambda: rng.getrandbits(64)), budget, deal_seconds)
    settings = Settings(stores.people, people,
                        ChatSettings(seconds={**DEFAULT_SECONDS, **(seconds or {})},
                                     match=DEFAULT_ROUNDS), clock)
    rounds = Rounds(stores.rounds, people, table, dealer, pool, closings, seconds,
                    reads_group_messages=reads_group_messages, settings=settings)
    matches = Matches(stores.matches, stores.people, people, rounds, table, scheduler,
                      closings, pause)
    return Services(
        people=people, table=table, rounds=rounds,
        hints=Hints(stores.rounds, people, table, pool, rounds),
        answers=Answers(stores.rounds, people, table, pool, rounds),
        recovery=Recovery(stores.rounds, people, table, pool, rounds),
        matches=matches,
        places=Places(stores.rounds, people, table, scheduler, rounds, matches),
        community=build_community(stores, people, table, dealer, pool, clock),
        solving=Solving(pool, solve_timeout, budget, table.live),
        settings=settings)
