"""What happens to a chat's state when Telegram says something of the chat itself — the one place
that acts on a chat's fate, whoever found it (a send through the outbox, a service message, the
bot's own member status): a group that became a supergroup (its rounds, scores, match and timers
move to the new id, merged with what the supergroup already has, a deal left behind is shown
again there, and what the tournaments' book remembers of the group follows), and a chat or forum
topic the bot can no longer write to (its matches stop and its open rounds close with no winner
and no points, without a word).

Two classes, because the outbox that finds a fate is built on what acts on it: `Fates` acts and
hands back what to show (it deals, ends and sends nothing, so the composition builds it before
the outbox and passes it in), and `Places` is what the faces and a worker's notices call: it
shows what `Fates` handed back through the outbox, and takes up a round another process moved.

Where several processes each play some chats (a cluster's workers, by partition), the supergroup
is mostly another process's: this one moves the rows, lets the group's round and alarms go, and
hands over (the Holding port); the other takes the round up (`take_moved`), arms its end and
shows its deal again in the supergroup, and goes on with the match; its tournaments' book
follows the move as the moving process's did.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from bot.play.chats.people import People
from bot.play.chats.settings import Settings
from bot.play.matches.book import MatchBook
from bot.play.matches.matches import Matches
from bot.play.outcomes import Closed, Dealt, Outcome, Said
from bot.play.ports import (
    NEXT_DEAL,
    WARNING,
    Fate,
    Gone,
    Handover,
    Holding,
    HoldsAll,
    Moved,
    Scheduler,
    Target,
)
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.round.views import Views
from bot.play.tournaments.book import TournamentBook
from bot.runtime import metrics
from bot.store.protocols import RoundStore
from bot.store.records import Place, Round

Shown = tuple[Outcome, Target]
log = logging.getLogger(__name__)


class Fates:
    """Acts on what Telegram said of a chat and hands back what to show; shows nothing itself."""

    def __init__(self, store: RoundStore, people: People, settings: Settings,
                 table: RoundTable, scheduler: Scheduler, book: MatchBook, views: Views,
                 entries: TournamentBook, moving: asyncio.Lock,
                 holding: Holding | None = None) -> None:
        self.store = store
        self.people = people
        self.settings = settings
        self.table = table
        self.scheduler = scheduler
        self.book = book  # the places' matches: stopped, or following the move
        self.views = views  # words a moved round's deal again
        self.entries = entries  # who plays for which group of a tournament: follows the move
        self.holding = holding or HoldsAll()
        self._moving = moving  # one move at a time: the table follows each in turn

    async def settle(self, fate: Fate) -> list[Shown]:
        """Act on what Telegram said of a chat: moved, or gone."""
        if isinstance(fate, Moved):
            return await self.migrate(fate.old_id, fate.new_id)
        await self.abandon(fate.chat_id, fate.topic, "Telegram refused a message")
        return []

    async def migrate(self, old_id: int, new_id: int) -> list[Shown]:
        """A group became a supergroup: its rows move to the new id (bot.store.sql.people), its
        language, settings, open round and alarms follow. The round's deal stays behind in the
        old group, and its message id means another message in the supergroup: it is forgotten,
        and the deal is to be shown again there (once sent, replies and hints tie to it).

        The supergroup may be in play already (a /play or /match there before the bot heard of
        the move): the two merge, and what the supergroup has goes on — its deal is where its
        members play, the group's in a chat nobody writes to — while the group's round or
        match ends quietly (a topic holds one of each). Telegram says it twice, in the group
        and in the supergroup, in either order, and a refused send says it again: the moves
        run one at a time, and one that finds nothing left to move changes nothing."""
        if old_id == new_id:  # only a forged message says so
            return []
        handover = None
        async with self._moving:
            if await self.book.is_on(new_id):  # the supergroup's match goes on
                await self.book.stop_all(old_id)
            await self.people.migrate_chat(old_id, new_id)
            self.entries.moved(old_id, new_id)
            self.settings.migrate(old_id, new_id)
            if self.holding.holds(new_id):
                moved = await self._follow(old_id, new_id)
                self.book.follow_chat(old_id, new_id, moved[0].record if moved else None)
            else:
                moved, handover = None, self._let_go(old_id, new_id)
        if handover is not None:
            await self.holding.hand_over(handover)
        log.info("chat %s became supergroup %s: its state moved there", old_id, new_id)
        if moved is not None and moved[1]:  # its deal was sent in the old group
            return [(await self.views.dealt_again(moved[0]), Target(new_id))]
        return []

    async def _follow(self, old_id: int, new_id: int) -> tuple[OpenRound, bool] | None:
        """The table follows what the store's move did to the group's open round (a group has
        no topics): it moved, with its alarms (and whether its deal was sent), or the
        supergroup's own round met it and it ended: off the table, its alarms gone."""
        held = self.table.of(old_id)
        if held is None:
            return None
        stored = await self.store.get_round(held.id)
        if self.table.of(old_id) is not held:  # it closed meanwhile, by its own transition
            return None
        if stored is not None and stored.status == "open":
            return self.table.move(old_id, new_id)
        self.table.drop(held)
        self.scheduler.cancel(WARNING, old_id)
        metrics.record_round_ended(held.record.game, "abandoned")
        return None

    def _let_go(self, old_id: int, new_id: int) -> Handover | None:
        """The supergroup is another process's: the group's round leaves the table and every
        alarm of the group goes (its rows moved already); what to hand over, if anything."""
        held = self.table.of(old_id)
        match = any(self.scheduler.pending(kind, old_id) is not None
                    for kind in (NEXT_DEAL, WARNING))
        self.table.release(lambda chat: chat == old_id)
        if held is None and not match:
            return None
        return Handover(old_id, new_id, held.id if held is not None else None, match)

    async def abandon(self, chat_id: int, topic: int | None = None, why: str = "") -> list[Round]:
        """The bot can no longer write to the chat (removed, banned, blocked, the chat deleted)
        or, given a `topic`, to that topic: its matches stop and its open rounds close with no
        winner and no points, each marked announced (no result is owed to a chat that cannot
        be written to, so a restart sends none), and their alarms go. Returns the rounds."""
        await self.book.stop_all(chat_id, topic)
        closed = await self._end_rounds(chat_id, topic)
        where = f"chat {chat_id}" + (f" topic {topic}" if topic else "")
        log.info("%s takes no more messages (%s): %d open rounds and its matches ended quietly",
                 where, why, len(closed))
        return closed

    async def _end_rounds(self, chat_id: int, topic: int | None) -> list[Round]:
        """The open rounds of the chat (or of one topic) closed without a word: no winner, no
        points, announced, their alarms gone."""
        def here(place: Place) -> bool:
            return place[0] == chat_id and topic in (None, place[1])

        now, closed = self.table.clock(), []
        for current in await self.store.open_rounds():
            if not here(current.place):
                continue
            if await self.store.close_round(current.id, "revealed", now):
                closed.append(current)
                metrics.record_round_ended(current.game, "abandoned")
            if (held := self.table.find(current.id)) is not None:
                self.table.drop(held)
            self.scheduler.cancel(WARNING, chat_id, current.topic)
        await self.store.set_announced([r.id for r in closed])
        return closed


class Places:
    """What the faces and a worker's notices call of a chat's fate: `Fates` acts, and what it
    hands back is shown here through the outbox; and a round another process moved is taken up."""

    def __init__(self, fates: Fates, store: RoundStore, people: People, settings: Settings,
                 table: RoundTable, scheduler: Scheduler, rounds: Rounds, matches: Matches,
                 entries: TournamentBook, outbox: Outbox, moving: asyncio.Lock) -> None:
        self.fates = fates
        self.store = store
        self.people = people
        self.settings = settings
        self.table = table
        self.scheduler = scheduler
        self.rounds = rounds  # ends or words a round taken up
        self.matches = matches
        self.entries = entries  # who plays for which group of a tournament: follows a move
        self.outbox = outbox
        self._moving = moving  # the lock `Fates` moves under: one move at a time

    async def settle(self, fate: Fate) -> None:
        """Act on what Telegram said of a chat (moved, or gone), and show what follows."""
        await self._show(await self.fates.settle(fate))

    async def migrate(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup (`Fates.migrate`); its deal shown again there."""
        await self._show(await self.fates.migrate(old_id, new_id))

    async def abandon(self, chat_id: int, topic: int | None = None, why: str = "") -> list[Round]:
        """The bot can no longer write to the chat or topic (`Fates.abandon`)."""
        return await self.fates.abandon(chat_id, topic, why)

    async def _show(self, shown: list[Shown]) -> None:
        for outcome, target in shown:
            await self.outbox.show(outcome, target)

    async def take_moved(self, moved: Handover) -> None:
        """Another process moved a group's rows to a supergroup this one plays: the round that
        moved (if still open, and the topic holds no other) is taken up — its end armed, or
        ended if its time ran out meanwhile, its deal shown again in the supergroup, where its
        old message is not — and a match that moved goes on, unless the supergroup's own
        match has its next deal set; who played for the group plays for the supergroup here
        too (this process may remember them bound to the group: a refusal elsewhere read it).
        Telegram may say it again: what is held already is left."""
        new_id, shown = moved.new_id, []
        said: list[tuple[Place, str]] = []
        async with self._moving:
            await self.people.load()  # the languages and settings that moved with the rows
            await self.settings.load()
            self.entries.moved(moved.old_id, new_id)
            record = None if moved.round_id is None else \
                await self.store.get_round(moved.round_id)
            if record is not None and record.status == "open" and \
                    record.chat_id == new_id and self.table.find(record.id) is None and \
                    self.table.of(new_id, record.topic) is None:
                shown += await self._take_up(record)
            if moved.match and self.scheduler.pending(NEXT_DEAL, new_id) is None:
                said = await self.matches.resume(lambda chat: chat == new_id)
        for outcome in shown:
            await self.outbox.show(outcome, Target(new_id, outcome.round.topic))
        for place, text in said:
            await self.outbox.show(Said(text), Target(*place))
        log.info("took up supergroup %s, moved from group %s by another process", new_id,
                 moved.old_id)

    async def _take_up(self, record: Round) -> list[Closed | Dealt]:
        had_deal = record.message_id is not None  # in the old group: not a message here
        self.table.adopt([dataclasses.replace(record, message_id=None)],
                         await self.rounds.stand_in_terms([record]))
        current = self.table.find(record.id)
        assert current is not None
        if record.deadline > self.table.clock():
            self.table.arm(current)
            return [await self.rounds.dealt_again(current)] if had_deal else []
        closed = await self.rounds.end(current, "expired", await self.people.round_texts(record),
                                       follow=False)
        return [closed] if closed is not None else []


__all__ = ["Fates", "Gone", "Moved", "Places", "Shown"]
