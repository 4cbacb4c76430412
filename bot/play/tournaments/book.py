"""Which rounds are a tournament's, apart from dealing them: a group's round of a tournament (its
seat), who may answer it (a person plays for the first group they answer in), and the line under
its result. It deals and shows nothing, so it is built before the round service (whose answers
it admits and whose closes it follows); the tournament service (bot.play.tournaments.service)
deals on it.

What it knows of the seats is what this process dealt, and what it read of the rest: a round
dealt by another process (before a restart, or a worker's chats taken over) is looked up once,
and only in a chat that is in a tournament (the chats in one are read at each look of the
schedule), so an ordinary round costs no look-up.
"""

from __future__ import annotations

from cachetools import LRUCache

from bot.play.chats.people import Chat, People, Player
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

    async def seat(self, record: Round) -> Seat | None:
        """The tournament round this round is, if it is one."""
        if record.id in self._seats:
            return self._seats[record.id]
        if self._chats is not None and record.chat_id not in self._chats:
            return None
        found = await self.store.seat(record.id)
        self._seats[record.id] = found
        return found

    async def refusal(self, record: Round, chat: Chat, player: Player,
                      texts: Texts) -> str | None:
        """Why the player's attempt at a tournament's round does not count here: they play
        for another group of it (the first they answered in; this one if none yet)."""
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
