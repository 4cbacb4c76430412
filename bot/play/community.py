"""The services that answer about people rather than about one round: the boards, each player's
record, the daily puzzle, and what a person or a group admin may delete. Built beside the round's
services (bot.play.services) and handed the same stores, table of live puzzles, dealer, pool and
clock, so that what answers about people can grow without touching what plays a round."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.play.daily import Daily
from bot.play.deals.dealer import Dealer
from bot.play.people import People
from bot.play.privacy import Privacy
from bot.play.round.table import RoundTable
from bot.play.standings import Standings
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores


@dataclass(frozen=True)
class Community:
    standings: Standings
    daily: Daily
    privacy: Privacy


def build_community(stores: Stores, people: People, table: RoundTable, dealer: Dealer,
                    pool: SolverPool, clock: Callable[[], float]) -> Community:
    """The community's services over the round side's stores, people, table and pool; the
    daily puzzle is made live in the table's live puzzles (what /solve and inline refuse),
    and the dealer deals no hand that reaches it."""
    daily = Daily(stores.daily, people, pool, table.live, clock)
    dealer.keep_daily_back(table.live)
    return Community(standings=Standings(stores.scores, people, clock), daily=daily,
                     privacy=Privacy(stores.forgetting, people, daily, clock))
