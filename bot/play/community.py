"""The services that answer about people rather than about one round: the boards and each
player's record. Built beside the round's services (bot.play.services) and handed the same
stores, table of live puzzles, dealer, pool and clock, so that what answers about people can
grow without touching what plays a round."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.play.deals.dealer import Dealer
from bot.play.people import People
from bot.play.round.table import RoundTable
from bot.play.standings import Standings
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores


@dataclass(frozen=True)
class Community:
    standings: Standings


def build_community(stores: Stores, people: People, table: RoundTable, dealer: Dealer,
                    pool: SolverPool, clock: Callable[[], float]) -> Community:
    """The community's services over the round side's stores, people, table and dealer."""
    del table, dealer, pool, clock  # what the boards need today is the stores and names
    return Community(standings=Standings(stores.scores, people))
