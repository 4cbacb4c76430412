"""A new puzzle for a round: taken from the stock (made ahead in the solver pool's heavy lane with
its analysis), and charged to the player's and the chat's budget of solver time when the deal may
take long (another target, more numbers)."""

from __future__ import annotations

from bot.play.dealing.stock import Stock
from bot.play.guards.live import EVERYONE, LivePuzzles, is_rolls
from bot.play.guards.throttle import Ticket, WorkBudget
from bot.play.rules import Deal, PlayOptions, Rules
from bot.play.rules.batches import DEAL_SECONDS
from bot.runtime.pool import SolverTimeout
from bot.text.i18n import Texts

DEAL_ROOM = 1.0  # what a costly deal reserves of the work budget beyond its search time
DAILY_REDEALS = 4  # hands set aside at most when they reach the daily puzzle


class Dealer:
    def __init__(self, stock: Stock, budget: WorkBudget,
                 deal_seconds: float = DEAL_SECONDS, daily: LivePuzzles | None = None) -> None:
        """`daily`: the live puzzles that hold the daily one. No hand that reaches the daily
        puzzle is dealt (its round would show its answers in the chat): such a hand is set
        aside for the next one, DAILY_REDEALS times at most."""
        self.stock = stock
        self.live = daily
        self.budget = budget  # shared with the solving service: one allowance per person
        self.deal_seconds = deal_seconds
        self._cold: set[int] = set()  # people waiting for a slow kind's first hand

    async def deal(self, rules: Rules, options: PlayOptions, player_id: int, chat_id: int,
                   texts: Texts) -> Deal | str:
        """A new puzzle, or why there is none (busy, too slow, no hand for that target, your
        rare deal still being made: one at a time per person)."""
        cold = rules.costly(options) and not self.stock.ready(rules, options, self.deal_seconds)
        if cold and player_id in self._cold:
            return texts("deal_in_the_making")
        if cold:
            self._cold.add(player_id)
        try:
            return await self._deal(rules, options, player_id, chat_id, texts)
        finally:
            if cold:
                self._cold.discard(player_id)

    async def _deal(self, rules: Rules, options: PlayOptions, player_id: int, chat_id: int,
                    texts: Texts) -> Deal | str:
        ticket: Ticket | None = None
        if rules.costly(options):
            taken = self.budget.take(player_id, chat_id, self.deal_seconds + DEAL_ROOM)
            if isinstance(taken, int):
                return texts("busy", seconds=taken)
            ticket = taken
        cost = self.deal_seconds + DEAL_ROOM  # what a deal stopped at its limit costs
        try:
            dealt, cost = await self.stock.take(rules, options, self.deal_seconds, player_id)
            for _ in range(DAILY_REDEALS):
                if dealt is None or not self._reaches_daily(dealt):
                    break
                dealt, more = await self.stock.take(rules, options, self.deal_seconds, player_id)
                cost += more
        except SolverTimeout:
            return texts("deal_timeout")
        finally:
            if ticket is not None:  # the hand's own solver time, made ahead or just now
                self.budget.settle(ticket, cost)
        if dealt is None:
            return texts("play_no_hand", count=options.count or 4,
                         target=24 if options.target is None else options.target)
        return dealt

    def _reaches_daily(self, dealt: Deal) -> bool:
        return self.live is not None and not is_rolls(dealt.hand) and any(
            r.chat_id == EVERYONE for r in self.live.reaching(dealt.hand, dealt.target))
