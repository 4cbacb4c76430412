"""Which rounds are a tournament's, apart from dealing them: a group's round of a tournament (its
seat), who may answer it (a person plays for the first group they answer in; a group's anonymous
admins, or a channel, for the group they write in), whether its round is still live somewhere,
and the line under its result. It deals and shows nothing, so it is built before the round
service (whose answers it admits and whose closes it follows); the tournament service
(bot.play.tournaments.service) deals on it.

What it knows of the seats is what this process dealt, and what it read of the rest: a round
dealt by another process (before a restart, or a worker's chats taken over) is looked up once,
and only in a chat that is in a tournament (the chats in one are read at each look of the
schedule), so an ordinary round costs no look-up. A group that becomes a supergroup takes what
it knows of the group along (`moved`), as the store's move takes the rows.
"""

from __future__ import annotations

from dataclasses import replace

from cachetools import LRUCache

from bot.play.chats.people import Chat, People, Player
from bot.play.guards.stand_ins import speaks_for_a_chat
from bot.play.round.events import FollowUp, RoundClosed
from bot.store.records import Round
from bot.store.tournament_records import Seat
from bot.store.tournament_store import TournamentStore
from bot.text import markup
from bot.text.i18n import Texts

SEATS_KEPT = 10_000  # rounds known to be (or not to be) a tournament's
BOUND_KEPT = 10_000  # people known to play for a group


class TournamentBook:
    def __init__(self, store: TournamentStore, people: People) -> None:
        self.store = store
        self.people = people
        # round id -> its seat, or None: not a tournament's (the least lately asked go first;
        # one gone is read again)
        self._seats: LRUCache[int, Seat | None] = LRUCache(SEATS_KEPT)
        # (tournament, person) -> the group they play for (read again once gone)
        self._bound: LRUCache[tuple[int, int], int] = LRUCache(BOUND_KEPT)
        self._chats: set[int] | None = None  # chats in a tournament not over (None: not read)

    def seated(self, round_id: int, seat: Seat) -> None:
        """A group's round of a tournament was dealt here."""
        self._seats[round_id] = seat

    def chats_in_play(self, chats: set[int]) -> None:
        """The chats in a tournament not over, as just read."""
        self._chats = chats

    def in_play(self, chat_id: int) -> None:
        """The chat joined a tournament here."""
        if self._chats is not None:
            self._chats.add(chat_id)

    def moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup, and the store moved its rows (the people who play for
        it, its deals: bot.store.sql.tournament_statements' CHAT_MOVE): what this process
        remembers of the group follows. Left under the old id, a person bound to the group
        before the move would be refused in the supergroup as one who plays for "another"
        group, until the process restarted. A move is rare, so a walk over the bounded maps
        is cheap."""
        for key, chat_id in list(self._bound.items()):
            if chat_id == old_id:
                self._bound[key] = new_id
        for round_id, seat in list(self._seats.items()):
            if seat is not None and seat.chat_id == old_id:  # the round moved with the rows
                self._seats[round_id] = replace(seat, chat_id=new_id)
        if self._chats is not None and old_id in self._chats:
            self._chats.discard(old_id)
            self._chats.add(new_id)

    async def seat(self, record: Round) -> Seat | None:
        """The tournament round this round is, if it is one."""
        if record.id in self._seats:
            return self._seats[record.id]
        if self._chats is not None and record.chat_id not in self._chats:
            return None
        found = await self.store.seat(record.id)
        self._seats[record.id] = found
        return found

    async def still_live(self, record: Round) -> bool:
        """Whether this round is a group's round of a tournament round not closed in every
        group yet (its hand live for everyone), as the database says: a result said late
        (after a restart, or a worker's take-over) asks it before anything in memory knows
        the tournament's live hands."""
        seat = await self.seat(record)
        if seat is None:
            return False
        played = await self.store.rounds(seat.tournament_id)
        return any(r.number == seat.number and r.status == "live" for r in played)

    async def refusal(self, record: Round, chat: Chat, player: Player,
                      texts: Texts) -> str | None:
        """Why the player's attempt at a tournament's round does not count here: they play
        for another group of it (the first they answered in; this one if none yet). A sender
        that speaks for a chat (a group's anonymous admins, a channel: bot.play.guards.stand_ins)
        is no person: it plays for the group it writes in, and is bound to none. Bound to the
        first group it answered in, one group's anonymous admins would take the id, and every
        other group's would be refused."""
        if speaks_for_a_chat(player.id):
            return None
        seat = await self.seat(record)
        if seat is None:
            return None
        key = (seat.tournament_id, player.id)
        bound = self._bound.get(key)
        if bound is None:
            await self.people.remember(chat, player)  # their row, before a row names them
            bound = await self.store.bind_player(seat.tournament_id, player.id, record.chat_id)
            self._bound[key] = bound
        if bound == record.chat_id:
            return None
        group = self.people.chat_of(bound).title
        return texts("tournament_other_group", name=markup.name(player.first_name),
                     group=markup.name(group or str(bound)))

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A group's round of a tournament closed: its result says the answers and the
        standings come when every group has played it, and offers neither Play again nor
        all the solutions (a late close too: the same line each time)."""
        seat = await self.seat(event.round)
        if seat is None:
            return FollowUp()
        tournament = await self.store.get(seat.tournament_id)
        if tournament is None:
            return FollowUp()
        return FollowUp(texts("tournament_round_done", name=markup.name(tournament.name),
                              number=seat.number, count=tournament.rounds),
                        match_on=True, answers_later=True)
