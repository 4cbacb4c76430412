"""A tournament's schedule, run by one process (the only one, or on a cluster the worker whose
schedule it is: bot.store.sql.tournament_statements' WORKER_DUE, a lease of its own taken over
like a partition): at its start it is cancelled if nobody joined, or it deals its first round; each
round's hand is drawn once, made live for everyone, and a deal errand goes to every group in an
order drawn afresh each round, spread at the deal rate; while the groups play it watches until
every group's round is over (a deal that never came is skipped after DEAL_GRACE), then closes the
round (its hand is no longer live), sends the board to every group and follower, and deals the
next one a PAUSE later; after the last, the podium.

Everything it decides is in the database before it acts (the round drawn, closed; the deals and
boards claimed where they are done), so a schedule taken over mid-round goes on from there: the
errands it may have sent already are sent again, and do nothing twice; a deal claimed by a
process that died before dealing it is sent again too.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from bot.play.chats.people import People
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.games import GAMES
from bot.play.guards.live import Shared, tournament_key
from bot.play.ports import Errand
from bot.play.rules import Deal, PlayOptions
from bot.play.tournaments.book import TournamentBook
from bot.play.tournaments.errands import BOARD, CANCELLED, DEAL, NOBODY
from bot.play.tournaments.rules import (
    DEAL_GRACE,
    MIN_GROUPS,
    REDISPATCH,
    TICK,
    deal_order,
    level_of,
)
from bot.store.tournament_records import Tournament, TournamentRound
from bot.store.tournament_store import TournamentStore

log = logging.getLogger(__name__)
REDRAWS = 5  # a hand this tournament dealt already is drawn again, so many times at most
Send = Callable[[Errand], Awaitable[None]]


class Schedule:
    def __init__(self, store: TournamentStore, people: People, book: TournamentBook,
                 dealer: Dealer, analyses: Analyses, shared: Shared, send: Send,
                 clock: Callable[[], float], rng: random.Random, deal_rate: float,
                 pause: float) -> None:
        self.store = store
        self.people = people
        self.book = book
        self.dealer = dealer
        self.analyses = analyses
        self.shared = shared  # the hands live for everyone (the live-hand rule)
        self.send = send  # an errand to the process playing its chat
        self.clock = clock
        self.rng = rng
        self.deal_rate = deal_rate  # errands a second: deals and boards spread at this rate
        self.pause = pause
        self._stepping: dict[int, asyncio.Task[None]] = {}  # tournament -> its step running
        self._sent_again: dict[tuple[int, int, str], float] = {}  # last re-sent, per round
        self._looking: asyncio.Future[None] | None = None  # the look at the schedules running

    async def tick(self) -> None:
        """A look at the schedules, on its own (the housekeeping's turn is not held by a busy
        database), unless one is running: it notes the chats in a tournament and takes the
        schedules due now, whose steps run on their own too (a round's deals take seconds)."""
        if self._looking is None or self._looking.done():
            self._looking = asyncio.ensure_future(self._look())

    async def _look(self) -> None:
        try:
            self.book.chats_in_play(await self.store.on_in())
            due = await self.store.due(self.clock())
        except Exception as error:  # the database away: the next look tries again
            log.warning("tournaments: could not look at the schedules (%s: %s)",
                        type(error).__name__, error)
            return
        for tournament_id in due:
            if tournament_id not in self._stepping:
                step = asyncio.ensure_future(self._step_quietly(tournament_id))
                self._stepping[tournament_id] = step
                step.add_done_callback(self._stepped(tournament_id))

    @property
    def busy(self) -> bool:
        """Whether a look or a step is running."""
        return bool(self._stepping) or (self._looking is not None and not self._looking.done())

    def _stepped(self, tournament_id: int) -> Callable[[asyncio.Future[None]], None]:
        def done(_step: asyncio.Future[None]) -> None:
            self._stepping.pop(tournament_id, None)
        return done

    async def settled(self) -> None:
        """Once the look and every step running now have ended."""
        if self._looking is not None:
            await asyncio.gather(self._looking, return_exceptions=True)
        while self._stepping:
            await asyncio.gather(*self._stepping.values(), return_exceptions=True)

    async def _step_quietly(self, tournament_id: int) -> None:
        try:
            await self.step(tournament_id)
        except Exception:  # the database or the network: the next look tries again
            log.exception("tournament %d: its step failed; tried again at the next look",
                          tournament_id)

    async def step(self, tournament_id: int) -> None:
        """What the tournament's schedule does now."""
        tournament = await self.store.get(tournament_id)
        if tournament is None or tournament.status not in ("open", "running"):
            return
        if tournament.status == "open" and not await self._begin(tournament):
            return
        await self._go_on(tournament)

    async def _begin(self, tournament: Tournament) -> bool:
        """Its start: cancelled if fewer than MIN_GROUPS joined (each told), else running.
        Whether it runs."""
        now = self.clock()
        if now < tournament.starts_at:
            await self.store.set_next(tournament.id, tournament.starts_at)
            return False
        entrants = [e.chat_id for e in await self.store.entrants(tournament.id) if e.playing]
        if len(entrants) < MIN_GROUPS:
            if await self.store.finish(tournament.id, "cancelled", now):
                chats = entrants + [c for c, _ in await self.store.followers(tournament.id)]
                await self._dispatch(tournament.id, NOBODY, CANCELLED, chats)
            return False
        return await self.store.start(tournament.id, now)

    async def _go_on(self, tournament: Tournament) -> None:
        """A running tournament: its first round dealt, its live round watched, or after a
        closed one, the boards seen to and the next round dealt (or the end)."""
        rounds = await self.store.rounds(tournament.id)
        last = rounds[-1] if rounds else None
        if last is None:
            await self._deal(tournament, 1, set())
        elif last.status == "live":
            self.shared.add(tournament_key(tournament.id, last.number), last.game, last.hand,
                            last.target)  # after a take-over: this process keeps it now
            await self._watch(tournament, last)
        else:
            await self._after(tournament, last, {r.hand for r in rounds})

    async def _after(self, tournament: Tournament, last: TournamentRound,
                     used: set[tuple]) -> None:
        now = self.clock()
        await self._send_again(tournament, last, BOARD)
        if last.number >= tournament.rounds:
            await self.store.finish(tournament.id, "done", now)
            return
        ready = (last.closed_at or now) + self.pause
        if now < ready:
            await self.store.set_next(tournament.id, ready)
            return
        await self._deal(tournament, last.number + 1, used)

    # --- a round ---------------------------------------------------------------------------

    async def _deal(self, tournament: Tournament, number: int, used: set[tuple]) -> None:
        """Round `number`: its hand drawn and stored (live for everyone from now), then a deal
        errand to every playing group, in an order drawn for this round."""
        drawn = await self._draw(tournament, level_of(tournament.level, number,
                                                      tournament.rounds), used)
        now = self.clock()
        if drawn is None:  # no hand now (the pool busy): the next look tries again
            await self.store.set_next(tournament.id, now + TICK)
            return
        done = await self.store.open_round(tournament.id, number, drawn.game, drawn.hand,
                                           drawn.target, drawn.level, drawn.points, now)
        if drawn.analysis is not None and done.hand == drawn.hand:
            self.analyses.keep(done.game, done.hand, done.target, drawn.analysis)
        self.shared.add(tournament_key(tournament.id, number), done.game, done.hand,
                        done.target)
        await self.store.set_next(tournament.id, now + TICK)
        groups = [e.chat_id for e in await self.store.entrants(tournament.id) if e.playing]
        await self._dispatch(tournament.id, number, DEAL, deal_order(groups, self.rng))

    async def _draw(self, tournament: Tournament, level: str, used: set[tuple]) -> Deal | None:
        """A hand this tournament has not dealt yet (REDRAWS tries), never the daily puzzle's
        (the dealer sees to that)."""
        rules = GAMES[tournament.game].rules
        options = PlayOptions(level=level) if rules.levels else PlayOptions()
        texts = await self.people.chat_texts(tournament.chat_id, tournament.lang)
        drawn = None
        for _ in range(REDRAWS):
            found = await self.dealer.deal(rules, options, 0, tournament.chat_id, texts)
            if not isinstance(found, Deal):
                return drawn
            drawn = found
            if tuple(found.hand) not in used:
                break
        return drawn

    async def _watch(self, tournament: Tournament, live: TournamentRound) -> None:
        """While the groups play: deals that never came are sent again (or, after
        DEAL_GRACE, skipped), and once every group's round is over the round closes."""
        now = self.clock()
        if now >= live.opened_at + DEAL_GRACE:
            await self.store.skip_late(tournament.id, live.number, now - DEAL_GRACE, now)
        else:
            await self._send_again(tournament, live, DEAL)
        if await self.store.not_over(tournament.id, live.number) == 0:
            await self._close(tournament, live)
        else:
            await self.store.set_next(tournament.id, now + TICK)

    async def _close(self, tournament: Tournament, live: TournamentRound) -> None:
        """The round is over in every group: its hand is no longer live, and every group that
        played it and every follower gets the board (its answers, the standings)."""
        now = self.clock()
        if not await self.store.close_round(tournament.id, live.number, now):
            return
        self.shared.remove(tournament_key(tournament.id, live.number))
        await self.store.set_next(tournament.id, now + self.pause)
        await self._dispatch(tournament.id, live.number, BOARD,
                             await self._board_chats(tournament.id, live.number))
        if live.number >= tournament.rounds:
            await self.store.finish(tournament.id, "done", now)

    async def _board_chats(self, tournament_id: int, number: int,
                           unshown: bool = False) -> list[int]:
        """The chats a round's board goes to (`unshown`: those not sent it yet): each group
        dealt the round, in an order drawn, and the followers."""
        groups = [d.chat_id for d in await self.store.deals(tournament_id, number)
                  if d.status == "dealt" and not (unshown and d.shown_at is not None)]
        followers = [c for c, _ in await self.store.followers(tournament_id)]
        return deal_order(groups, self.rng) + followers

    # --- errands ---------------------------------------------------------------------------

    async def _dispatch(self, tournament_id: int, number: int, kind: str,
                        chats: list[int]) -> None:
        """An errand to each chat, in this order, spread at the deal rate: Telegram's limit
        on all the bot sends means a message to each of many groups leaves over seconds."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        for i, chat_id in enumerate(chats):
            wait = began + i / self.deal_rate - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.send(Errand(kind, tournament_id, number, chat_id))

    async def _send_again(self, tournament: Tournament, done: TournamentRound,
                          kind: str) -> None:
        """Errands of this round that left no trace (a schedule taken over mid-way, a stream
        that lost one), sent again, REDISPATCH seconds apart at most: a deal to a playing
        group that has none, or whose deal was claimed REDISPATCH ago and never dealt (the
        process claiming it may have died with it: one still at work finishes first, and the
        errand sent again finds the deal done), a board to a group that was not shown it
        (followers: each claims its own)."""
        key = (tournament.id, done.number, kind)
        now = self.clock()
        if now - self._sent_again.get(key, done.closed_at or done.opened_at) < REDISPATCH:
            return
        self._sent_again = {k: at for k, at in self._sent_again.items()
                            if now - at < DEAL_GRACE}  # a round's key lives a while only
        self._sent_again[key] = now
        if kind == DEAL:
            begun = {d.chat_id for d in await self.store.deals(tournament.id, done.number)
                     if d.status != "dealing" or now - d.claimed_at < REDISPATCH}
            chats = [e.chat_id for e in await self.store.entrants(tournament.id)
                     if e.playing and e.chat_id not in begun]
        else:
            chats = await self._board_chats(tournament.id, done.number, unshown=True)
        await self._dispatch(tournament.id, done.number, kind, chats)
