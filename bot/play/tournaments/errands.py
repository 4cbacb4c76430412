"""What a tournament has done in one chat, by the process playing that chat (every chat, in one
process; its partitions' on a cluster's worker, the errand carried to it through the stream):
deal a round to a group, show the board after a round, say the tournament was cancelled. Each
is claimed in the database first, so an errand done twice (sent again by a schedule taken over,
delivered again after a worker died) deals or shows once; a deal sent again while the first is
still at work here waits for it.

A group's deal is an ordinary round of that group, opened the moment before its message is
sent: its clock starts at its own deal, and every answer is timed from there. It keeps no hint
(every group plays the same hand on the same terms) and counts against nobody's bound on open
rounds. An ordinary round still open where the deal goes is ended first, its result shown. A
deal stored and never shown (the process dealing it stopped before its message went) is shown by
the process that takes the group up, with its line, its clock started at that deal; a group
taken up here while a deal errand of this process opens its round there waits for that round
(`taking_up`), so the round is shown once, by the errand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

from bot.play.chats.people import Chat, People, Player
from bot.play.dealing.analyses import Analyses
from bot.play.games import GAMES
from bot.play.outcomes import Dealt, Said
from bot.play.ports import Delivery, Errand, Gone, Target
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.rules import Deal
from bot.play.tournaments.book import TournamentBook
from bot.play.tournaments.rules import BEST_PLAYERS
from bot.play.tournaments.words import SHOWN, Board, board_text
from bot.runtime.locks import KeyedLocks
from bot.store.protocols import PeopleStore
from bot.store.records import Round
from bot.store.tournament_records import Seat, Tournament, TournamentRound
from bot.store.tournament_store import TournamentStore
from bot.text import markup
from bot.text.i18n import Texts

log = logging.getLogger(__name__)
DEAL, BOARD, CANCELLED = "deal", "board", "cancelled"
NOBODY, CALLED_OFF = 0, 1  # why a tournament was cancelled (a cancellation errand's `number`)
SEND_TRIES, SEND_WAIT = 3, 2.0  # a refused send of a deal or a board: tried again so
Chats = Callable[[int], bool]  # the chats being taken up from another process


@dataclass(frozen=True)
class Opened:
    """A group's round opened by a deal errand here (stored, in this process's table, linked
    to its deal), to be shown numbered among `groups`."""

    dealt: Dealt
    groups: int


class Errands:
    def __init__(self, store: TournamentStore, people: People, people_store: PeopleStore,
                 book: TournamentBook, rounds: Rounds, table: RoundTable, analyses: Analyses,
                 outbox: Outbox, clock: Callable[[], float], pause: float) -> None:
        self.store = store
        self.people = people
        self.people_store = people_store
        self.book = book
        self.rounds = rounds
        self.table = table
        self.analyses = analyses
        self.outbox = outbox
        self.clock = clock
        self.pause = pause
        self._dealing = KeyedLocks()  # one deal of a round to a group at a time
        # A group taken up here (its open rounds read from the database and resumed) and a
        # deal errand of this process opening a round there wait for each other: the chats
        # being taken up now, the chats where a deal is opening its round now (`taking_up`)
        self._taking: list[Chats] = []
        self._opening: Counter[int] = Counter()
        self._turn = asyncio.Condition()

    async def do(self, errand: Errand) -> None:
        """Do the errand here (this process plays its chat)."""
        tournament = await self.store.get(errand.tournament_id)
        if tournament is None:
            return
        if errand.kind == DEAL:
            await self.deal(tournament, errand.number, errand.chat_id)
        elif errand.kind == BOARD:
            await self.board(tournament, errand.number, errand.chat_id)
        elif errand.kind == CANCELLED:
            await self.cancelled(tournament, errand.chat_id, errand.number)

    # --- a group's deal ----------------------------------------------------------------------

    async def deal(self, tournament: Tournament, number: int, chat_id: int) -> Dealt | None:
        """Deal round `number` to the group, unless it was dealt (or skipped) already, the
        round closed, or the group no longer plays."""
        async with self._dealing.held((tournament.id, number, chat_id)):
            return await self._deal(tournament, number, chat_id)

    async def _deal(self, tournament: Tournament, number: int, chat_id: int) -> Dealt | None:
        async with self._opening_in(chat_id):
            opened = await self._open(tournament, number, chat_id)
        if not isinstance(opened, Opened):
            return opened
        return await self._show(tournament, opened.dealt, number, opened.groups)

    async def _open(self, tournament: Tournament, number: int, chat_id: int
                    ) -> Opened | Dealt | None:
        """The group's round opened here, to be shown; or this deal's own round, dealt before
        the process that dealt it stopped (linked, and not shown again: a Dealt); None when
        there is nothing to deal (dealt or skipped already, the round closed, the group no
        longer playing, or a round stored there that this process does not hold yet)."""
        if tournament.status != "running":
            return None
        done = next((r for r in await self.store.rounds(tournament.id) if r.number == number),
                    None)
        entrants = await self.store.entrants(tournament.id)
        entrant = next((e for e in entrants if e.chat_id == chat_id), None)
        if done is None or done.status != "live" or entrant is None or not entrant.playing:
            return None
        claim = await self.store.claim_deal(tournament.id, number, chat_id, self.clock())
        if claim.status != "dealing":
            return None
        starter = await self._starter(tournament, chat_id, entrant.joined_by)
        if starter is None:
            await self.store.skip_deal(tournament.id, number, chat_id)
            return None
        chat, player = starter
        chat = replace(chat, topic=entrant.topic)
        adopted = await self._in_the_way(tournament, done, chat, claim.claimed_at)
        if adopted is not None:
            return adopted
        terms = replace(await self.rounds.terms(chat_id), hints=False)
        dealt = await self.rounds.deal_given(chat, player, Deal(
            done.game, done.hand, done.target, done.level, done.points,
            self.analyses.known(done.game, done.hand, done.target)), tournament.seconds, terms)
        if not isinstance(dealt, Dealt):  # a round stored and not in this process's table yet
            return None  # (its chat being taken up): the deal stays claimed, sent again later
        await self._link(tournament, number, dealt.round)
        return Opened(dealt, len([e for e in entrants if e.playing]))

    @contextlib.asynccontextmanager
    async def taking_up(self, chats: Chats) -> AsyncIterator[None]:
        """While these chats are taken up from another process (their open rounds read from
        the database and resumed): a deal errand of this process opening a round in one of
        them now finishes opening it first (stored, in the table, linked), and one that comes
        meanwhile waits until the end. Else the round an errand here had just stored, its
        deal not yet shown, would be read as a deal never shown and shown by the take-over
        too (issue 70): a partition taken by the worker that runs the schedule while it deals
        a round."""
        async with self._turn:
            self._taking.append(chats)
        try:
            async with self._turn:
                await self._turn.wait_for(lambda: not any(chats(c) for c in self._opening))
            yield
        finally:
            async with self._turn:
                self._taking.remove(chats)
                self._turn.notify_all()

    @contextlib.asynccontextmanager
    async def _opening_in(self, chat_id: int) -> AsyncIterator[None]:
        """While a deal errand opens its round in the chat: never while the chat is being
        taken up here (`taking_up`)."""
        async with self._turn:
            await self._turn.wait_for(lambda: not any(t(chat_id) for t in self._taking))
            self._opening[chat_id] += 1
        try:
            yield
        finally:
            async with self._turn:
                self._opening[chat_id] -= 1
                if self._opening[chat_id] <= 0:
                    del self._opening[chat_id]
                self._turn.notify_all()

    async def never_shown(self, current: OpenRound) -> Dealt | None:
        """A group's round of a tournament stored and never shown (the process dealing it
        stopped before its message went: a restart, a worker's chats taken over), to be shown
        now with its line, its clock started again: the group's time runs from the deal it
        sees. None if it is no tournament's."""
        seated = await self._seated(current.record)
        if seated is None or not current.restarted(self.table.clock()):
            return None
        tournament, number = seated
        await self.table.commit(current)
        self.table.arm(current)
        dealt = await self.rounds.dealt_again(current)
        playing = [e for e in await self.store.entrants(tournament.id) if e.playing]
        return self._numbered(tournament, dealt, number, len(playing))

    async def _seated(self, record: Round) -> tuple[Tournament, int] | None:
        """The tournament and the round a stored round is a group's deal of: its seat, or
        the deal claimed in its chat of a live round of its hand and not linked yet (the
        process dealing it stopped in between), linked now."""
        seat = await self.book.seat(record)
        if seat is not None:
            tournament = await self.store.get(seat.tournament_id)
            return None if tournament is None else (tournament, seat.number)
        tournament = await self.store.of_chat(record.chat_id)
        if tournament is None or tournament.status != "running":
            return None
        live = next((r for r in await self.store.rounds(tournament.id)
                     if r.status == "live" and tuple(r.hand) == tuple(record.hand)), None)
        if live is None:
            return None
        claim = await self.store.deal(tournament.id, live.number, record.chat_id)
        if claim is None or claim.status != "dealing" or record.started_at < claim.claimed_at:
            return None
        await self._link(tournament, live.number, record)
        return tournament, live.number

    async def _starter(self, tournament: Tournament, chat_id: int, joined_by: int | None
                       ) -> tuple[Chat, Player | None] | None:
        """The group, and whose name its rounds are dealt in: who joined it (or made the
        tournament), as stored; nobody's once neither is (a /forget takes a person's name
        off the tournament, never their group out of it: issue 70). None: the group itself
        is not stored."""
        for user_id in (joined_by, tournament.created_by):
            if user_id is None:
                continue
            known = await self.people.as_stored(chat_id, user_id, tournament.lang)
            if known is not None:
                return known
        group = await self.people_store.chat(chat_id)
        return (Chat(chat_id, *group), None) if group is not None else None

    async def _in_the_way(self, tournament: Tournament, done: TournamentRound, chat: Chat,
                          claimed_at: float) -> Dealt | None:
        """A round open where the deal goes: this deal's own, dealt before the process that
        dealt it stopped (it is linked, and not dealt again: returned), or an ordinary one
        (ended now, its result shown)."""
        current = self.table.of(chat.id, chat.topic)
        if current is None:
            return None
        record = current.record
        if tuple(record.hand) == tuple(done.hand) and record.started_at >= claimed_at:
            await self._link(tournament, done.number, record)
            return await self.rounds.dealt_again(current)
        texts = await self.people.round_texts(record)
        ended = await self.rounds.end(current, "revealed", texts)
        if ended is not None:
            ended = replace(ended, text=f"{ended.text}\n{texts('tournament_interrupts')}")
            await self.outbox.show(ended, Target(chat.id, chat.topic, quote=False))
        return None

    async def _link(self, tournament: Tournament, number: int, record: Round) -> None:
        await self.store.dealt(tournament.id, number, record.chat_id, record.id,
                               record.started_at)
        self.book.seated(record.id, Seat(tournament.id, number, record.chat_id))

    async def _show(self, tournament: Tournament, dealt: Dealt, number: int,
                    groups: int) -> Dealt:
        """The deal, numbered in the tournament, shown; a group the bot may not write to any
        more is skipped from now on."""
        record = dealt.round
        dealt = self._numbered(tournament, dealt, number, groups)
        delivery = await self.shown(dealt, Target(record.chat_id, record.topic, broadcast=True))
        if delivery is not None and isinstance(delivery.fate, Gone) and \
                delivery.fate.topic is None:
            await self.store.drop_group(tournament.id, record.chat_id)
        return dealt

    def _numbered(self, tournament: Tournament, dealt: Dealt, number: int,
                  groups: int) -> Dealt:
        """The deal with its line in the tournament under it, for good."""
        line = dealt.texts("tournament_round_line", name=markup.name(tournament.name),
                           number=number, count=tournament.rounds, groups=groups)
        if (opened := self.table.find(dealt.round.id)) is not None:
            opened.numbered(line)  # hints and notices edit it as it is
        return replace(dealt, text=f"{dealt.text}\n{line}")

    async def shown(self, outcome: Dealt | Said, target: Target) -> Delivery | None:
        """Shown, tried again SEND_TRIES times SEND_WAIT apart when the send raised (nothing
        was sent: Telegram's flood limit outlasted the limiter's own retries, the network was
        down): None if it never went. A round dealt and never shown would be lost to its
        group; a board claimed and never shown, too."""
        for attempt in range(SEND_TRIES):
            try:
                return await self.outbox.show(outcome, target)
            except Exception as error:
                log.warning("a tournament's message to chat %d was refused (%s); %s",
                            target.chat_id, error, "trying again" if attempt + 1 < SEND_TRIES
                            else "given up")
                if attempt + 1 < SEND_TRIES:
                    await asyncio.sleep(SEND_WAIT)
        return None

    # --- the board after a round -------------------------------------------------------------

    async def board(self, tournament: Tournament, number: int, chat_id: int) -> Said | None:
        """The board after round `number` in this chat, once: a group that was dealt it, or
        a chat that follows the tournament."""
        done = next((r for r in await self.store.rounds(tournament.id) if r.number == number),
                    None)
        if done is None or done.status != "closed":
            return None
        entrants = {e.chat_id: e for e in await self.store.entrants(tournament.id)}
        deal = await self.store.deal(tournament.id, number, chat_id)
        played = deal is not None and deal.status == "dealt"
        if played:
            claimed = await self.store.claim_board(tournament.id, number, chat_id, self.clock())
        else:
            claimed = chat_id not in entrants and \
                await self.store.claim_follower(tournament.id, chat_id, number)
        if not claimed:
            return None
        entrant = entrants.get(chat_id)
        follower_lang = dict(await self.store.followers(tournament.id)).get(chat_id)
        texts = await self.people.chat_texts(chat_id, entrant.lang if entrant else
                                       follower_lang or tournament.lang)
        said = Said(board_text(texts, await self._board(tournament, done, chat_id, played,
                                                        texts)))
        if await self.shown(said, Target(chat_id, entrant.topic if entrant else 0,
                                         broadcast=True)) is None:
            await self.store.unclaim_board(tournament.id, number, chat_id, played)
            return None  # the schedule sends it again
        return said

    async def _board(self, tournament: Tournament, done: TournamentRound, chat_id: int,
                     played: bool, texts: Texts) -> Board:
        solves = [s for s in await self.store.solves(tournament.id) if s.number == done.number]
        return Board(
            tournament, done, await self.answers(tournament, done, texts), chat_id, played,
            next((s for s in solves if s.chat_id == chat_id), None),
            await self.store.players(tournament.id, SHOWN),
            await self.store.group_players(tournament.id, chat_id, SHOWN) if played else [],
            await self.store.groups_board(tournament.id, BEST_PLAYERS),
            None if done.number >= tournament.rounds else self.pause)

    async def answers(self, tournament: Tournament, done: TournamentRound, texts: Texts) -> str:
        """The round's hand and its answers, shown once it closed in every group."""
        record = as_round(tournament, done)
        analysis = await self.analyses.of(done.game, done.hand, done.target)
        return GAMES[done.game].words.revealed(analysis, record, texts).text

    async def cancelled(self, tournament: Tournament, chat_id: int, why: int) -> Said:
        """The tournament was cancelled (`why`: NOBODY joined it in time, or the group that
        made it CALLED_OFF it): said in the chat."""
        entrant = next((e for e in await self.store.entrants(tournament.id)
                        if e.chat_id == chat_id), None)
        texts = await self.people.chat_texts(chat_id, entrant.lang if entrant else tournament.lang)
        said = Said(texts("tournament_called_off" if why == CALLED_OFF else
                          "tournament_cancelled", name=markup.name(tournament.name)))
        await self.outbox.show(said, Target(chat_id, entrant.topic if entrant else 0))
        return said


def as_round(tournament: Tournament, done: TournamentRound) -> Round:
    """A tournament round as a round record, for the games' words (its hand, its target)."""
    return Round(0, tournament.chat_id, done.game, done.hand, done.target, done.level,
                 done.points, tournament.lang, None, done.opened_at,
                 done.opened_at + tournament.seconds, done.status, False)

