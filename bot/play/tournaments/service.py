"""Tournaments between groups: a group's admin makes one (/tournament new: its name, game, level,
rounds, round length and start) and gets a code; admins of other groups join with it until the
start (a group is in one at a time: the database holds it); a group's admin, or anyone in their
own private chat, may follow it, within bounds, and unfollow it. At the start every joined
group is dealt the same hand, round after round on one schedule
(bot.play.tournaments.schedule), each group's round an ordinary round of that group
(bot.play.tournaments.errands: every answer path as in any round, its clock from its own deal);
the board follows each round in every group and follower, and the podium the last.

One instance for the whole bot, built at start-up: the faces call its commands; the housekeeping
calls `tick` every second (the schedules this process runs); a cluster's worker hands it the
errands other workers send its chats (`errand`). What a command says comes back as `Announced`:
its words, and the code of the tournament it is about, for the face's join link.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.chats.people import Chat, People, Player
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.guards.live import Shared, tournament_key
from bot.play.guards.permissions import AdminCheck
from bot.play.outcomes import Dealt
from bot.play.ports import Errand, Holding
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.tournaments.book import TournamentBook
from bot.play.tournaments.errands import CALLED_OFF, CANCELLED, Errands
from bot.play.tournaments.rules import (
    MAX_FOLLOWED,
    MAX_FOLLOWERS,
    MAX_GROUPS,
    NAME_LIMIT,
    PAUSE,
    TournamentRequest,
    draw_code,
    read_code,
    starts,
)
from bot.play.tournaments.schedule import Schedule
from bot.play.tournaments.words import named, terms, when
from bot.store.protocols import PeopleStore
from bot.store.tournament_records import Tournament
from bot.store.tournament_store import TournamentStore
from bot.text import markup
from bot.text.i18n import Texts

log = logging.getLogger(__name__)
GROUP_KINDS = ("group", "supergroup")
CODE_TRIES = 5
DEAL_RATE = 25.0  # errands a second: under Telegram's 30, some left for the rest of the bot


@dataclass(frozen=True)
class Announced:
    """What /tournament says: its words; the code of the tournament it is about, when other
    groups may still join it (the face adds its join link); the tournament's id, when it has
    one to show (the face adds its page)."""

    text: str
    code: str | None = None
    tournament_id: int | None = None


class Tournaments:
    def __init__(self, store: TournamentStore, people: People, people_store: PeopleStore,
                 book: TournamentBook, rounds: Rounds, table: RoundTable, dealer: Dealer,
                 analyses: Analyses, shared: Shared, outbox: Outbox, holding: Holding,
                 clock: Callable[[], float], rng: random.Random,
                 deal_rate: float = DEAL_RATE, pause: float = PAUSE,
                 most_followers: int = MAX_FOLLOWERS) -> None:
        self.store = store
        self.people = people
        self.book = book
        self.rounds = rounds  # the chats' settings: a round's length by default
        self.shared = shared
        self.holding = holding
        self.clock = clock
        self.rng = rng
        self.most_followers = most_followers  # chats following one tournament, at most
        self.errands = Errands(store, people, people_store, book, rounds, table, analyses,
                               outbox, clock, pause)
        self.schedule = Schedule(store, people, book, dealer, analyses, shared, self.send,
                                 clock, rng, deal_rate, pause)
        self._errands: set[asyncio.Future[None]] = set()  # errands done here, in flight

    # --- the schedule and its errands ------------------------------------------------------

    async def tick(self) -> None:
        """The housekeeping's look, every second: the schedules this process runs, due now."""
        await self.schedule.tick()

    async def settled(self) -> None:
        """Once every step and errand running now has ended (tests, a stop)."""
        await self.schedule.settled()
        while self._errands or self.schedule.busy:
            await self.schedule.settled()
            if self._errands:
                await asyncio.gather(*self._errands, return_exceptions=True)

    async def send(self, errand: Errand) -> None:
        """Have the errand done: here, on its own (a slow chat holds up no other), or by the
        process playing its chat."""
        if not self.holding.holds(errand.chat_id):
            await self.holding.carry(errand)
            return
        doing = asyncio.ensure_future(self._quietly(errand))
        self._errands.add(doing)
        doing.add_done_callback(self._errands.discard)

    async def _quietly(self, errand: Errand) -> None:
        try:
            await self.errands.do(errand)
        except Exception:  # the chat's network: the schedule sends it again if it left no trace
            log.exception("tournament %d: %s errand to chat %d failed", errand.tournament_id,
                          errand.kind, errand.chat_id)

    async def errand(self, errand: Errand) -> None:
        """An errand another process sent for a chat this one plays."""
        await self.errands.do(errand)

    async def never_shown(self, current: OpenRound) -> Dealt | None:
        """A group's deal of a tournament that was stored and never shown, as recovery finds
        it: to be shown now, with its line and its clock from now (None: no tournament's)."""
        return await self.errands.never_shown(current)

    async def resume(self) -> None:
        """After a restart of the one process: the tournaments' live hands are live again at
        once (before a result or a /solve could show one)."""
        self.book.chats_in_play(await self.store.on_in())
        for live in await self.store.live_rounds():
            self.shared.add(tournament_key(live.tournament_id, live.number), live.game,
                            live.hand, live.target)

    # --- the commands ----------------------------------------------------------------------

    async def new(self, chat: Chat, player: Player, request: TournamentRequest,
                  is_admin: AdminCheck | None) -> Announced:
        """/tournament new: a group's admin makes one; the group is in it."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_for(chat, is_admin, texts)) is not None:
            return refused
        if (on := await self.store.of_chat(chat.id)) is not None:
            return self._already(on, texts)
        await self.people.remember(chat, player)
        now = self.clock()
        name = " ".join((request.name or texts("tournament_default_name", group=chat.title
                                               or texts("tournament_this_group"))).split())
        settings = await self.rounds.chat_settings(chat.id)
        seconds = request.seconds or settings.seconds[request.game]
        made = None
        for _ in range(CODE_TRIES):
            made = await self.store.create(
                draw_code(self.rng), name[:NAME_LIMIT], request.game, request.level,
                request.rounds, seconds, starts(request, now), chat.id, player.id,
                texts.language, now)
            if made is not None:
                break
        if made is None:
            return Announced(texts("tournament_try_again"))
        if await self.store.join(made.id, chat.id, chat.topic, player.id, texts.language, now,
                                 MAX_GROUPS) == "elsewhere":  # a join beside it came first
            await self.store.discard(made.id)
            return await self._taken(chat, texts)
        self.book.in_play(chat.id)
        return Announced(texts("tournament_created", name=markup.name(made.name),
                               terms=terms(texts, made), when=when(texts, made, now),
                               code=made.code, most=MAX_GROUPS), made.code, made.id)

    async def join(self, chat: Chat, player: Player, code: str,
                   is_admin: AdminCheck | None) -> Announced:
        """/tournament join CODE (or the join link): a group's admin joins it, until it
        starts, while it has room."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_for(chat, is_admin, texts)) is not None:
            return refused
        found = await self._by_code(code, texts)
        if isinstance(found, Announced):
            return found
        if found.status != "open":
            return self._closed(found, texts)
        if (on := await self.store.of_chat(chat.id)) is not None:
            return self._already(on, texts)
        await self.people.remember(chat, player)
        joined = await self.store.join(found.id, chat.id, chat.topic, player.id, texts.language,
                                       self.clock(), MAX_GROUPS)
        if joined == "full":
            return Announced(texts("tournament_full", name=markup.name(found.name),
                                   most=MAX_GROUPS))
        if joined == "elsewhere":  # another join (or /tournament new) of the group came first
            return await self._taken(chat, texts)
        self.book.in_play(chat.id)
        groups = len(await self.store.entrants(found.id))
        return Announced(texts("tournament_joined", name=markup.name(found.name),
                               groups=groups, terms=terms(texts, found),
                               when=when(texts, found, self.clock())), found.code, found.id)

    async def follow(self, chat: Chat, player: Player, code: str,
                     is_admin: AdminCheck | None) -> Announced:
        """/tournament follow CODE: the chat gets the boards and the podium (not the hands),
        as its admin or, in a private chat, its person asks; within the bounds on a
        tournament's followers (each board to each costs a send, with paid broadcasts Stars)
        and on the tournaments a chat follows at once."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_following_for(chat, is_admin, texts)) is not None:
            return refused
        found = await self._by_code(code, texts)
        if isinstance(found, Announced):
            return found
        if found.status not in ("open", "running"):
            return self._closed(found, texts)
        if any(e.chat_id == chat.id for e in await self.store.entrants(found.id)):
            return self._already(found, texts)
        await self.people.remember(chat, player)
        followed = await self.store.follow(found.id, chat.id, texts.language,
                                           self.most_followers, MAX_FOLLOWED)
        if followed == "full":
            return Announced(texts("tournament_followers_full", name=markup.name(found.name),
                                   most=self.most_followers), tournament_id=found.id)
        if followed == "too_many":
            return Announced(texts("tournament_follows_too_many", most=MAX_FOLLOWED))
        if followed == "over":
            return Announced(texts("tournament_ended", name=markup.name(found.name)))
        return Announced(texts("tournament_following", name=markup.name(found.name)),
                         tournament_id=found.id)

    async def unfollow(self, chat: Chat, player: Player, code: str | None,
                       is_admin: AdminCheck | None) -> Announced:
        """/tournament unfollow CODE: the chat gets that tournament's boards no more; without
        a code, none of the tournaments it follows (each named)."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_following_for(chat, is_admin, texts)) is not None:
            return refused
        if not code:
            return await self._unfollow_all(chat, texts)
        found = await self._by_code(code, texts)
        if isinstance(found, Announced):
            return found
        if not await self.store.unfollow(found.id, chat.id):
            return Announced(texts("tournament_not_following", name=markup.name(found.name)))
        return Announced(texts("tournament_unfollowed", names=named(texts, [found])))

    async def _unfollow_all(self, chat: Chat, texts: Texts) -> Announced:
        """Every tournament not over that the chat follows, unfollowed and named."""
        gone = [t for t in await self.store.followed(chat.id)
                if await self.store.unfollow(t.id, chat.id)]
        if not gone:
            return Announced(texts("tournament_follows_none"))
        return Announced(texts("tournament_unfollowed", names=named(texts, gone)))

    async def show(self, chat: Chat, player: Player) -> Announced:
        """/tournament alone: the tournament this group is in, or how to make or join one."""
        texts = await self.people.texts(chat, player)
        on = await self.store.of_chat(chat.id)
        if on is None:
            return Announced(texts("tournament_none"))
        return await self._state(on, texts)

    async def leave(self, chat: Chat, player: Player, is_admin: AdminCheck | None
                    ) -> Announced:
        """/tournament leave: a group's admin takes it out before the start (the group that
        made it calls it off instead)."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_for(chat, is_admin, texts)) is not None:
            return refused
        on = await self.store.of_chat(chat.id)
        if on is None:
            return Announced(texts("tournament_none"))
        if on.status != "open":
            return Announced(texts("tournament_leave_late", name=markup.name(on.name)))
        if on.chat_id == chat.id:
            return Announced(texts("tournament_leave_own", name=markup.name(on.name)))
        await self.store.leave(on.id, chat.id)
        return Announced(texts("tournament_left", name=markup.name(on.name)))

    async def cancel(self, chat: Chat, player: Player, is_admin: AdminCheck | None
                     ) -> Announced:
        """/tournament cancel: the admin of the group that made it calls it off before the
        start; the other groups and the followers are told."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_for(chat, is_admin, texts)) is not None:
            return refused
        on = await self.store.of_chat(chat.id)
        if on is None or on.chat_id != chat.id:
            return Announced(texts("tournament_not_yours"))
        if on.status != "open" or not await self.store.finish(on.id, "cancelled",
                                                                self.clock()):
            return Announced(texts("tournament_leave_late", name=markup.name(on.name)))
        others = [e.chat_id for e in await self.store.entrants(on.id) if e.chat_id != chat.id]
        for other in others + [c for c, _ in await self.store.followers(on.id)]:
            await self.send(Errand(CANCELLED, on.id, CALLED_OFF, other))
        return Announced(texts("tournament_called_off", name=markup.name(on.name)))

    async def start_now(self, chat: Chat, player: Player, is_admin: AdminCheck | None
                        ) -> Announced:
        """/tournament start: the admin of the group that made it starts it now."""
        texts = await self.people.texts(chat, player)
        if (refused := await self._not_for(chat, is_admin, texts)) is not None:
            return refused
        on = await self.store.of_chat(chat.id)
        if on is None or on.chat_id != chat.id:
            return Announced(texts("tournament_not_yours"))
        now = self.clock()
        if on.status != "open" or not await self.store.reschedule(on.id, now):
            return Announced(texts("tournament_leave_late", name=markup.name(on.name)))
        return Announced(texts("tournament_starting", name=markup.name(on.name),
                               groups=len(await self.store.entrants(on.id))))

    # --- what the commands say -------------------------------------------------------------

    async def _not_for(self, chat: Chat, is_admin: AdminCheck | None,
                       texts: Texts) -> Announced | None:
        """Why this speaker may not steer the group's tournaments: not a group, or not one
        of its admins."""
        if chat.type not in GROUP_KINDS:
            return Announced(texts("tournament_groups_only"))
        if is_admin is None or not await is_admin():
            return Announced(texts("tournament_admins_only"))
        return None

    async def _not_following_for(self, chat: Chat, is_admin: AdminCheck | None,
                                 texts: Texts) -> Announced | None:
        """Why this speaker may not have the chat follow or unfollow: in a group, not one of
        its admins (a private chat is its own person's)."""
        if chat.type == "private" or (is_admin is not None and await is_admin()):
            return None
        return Announced(texts("tournament_follow_admins_only"))

    async def _taken(self, chat: Chat, texts: Texts) -> Announced:
        """The group's own join lost to another at the same moment: the tournament it is in."""
        on = await self.store.of_chat(chat.id)
        return self._already(on, texts) if on is not None else Announced(
            texts("tournament_try_again"))

    async def _by_code(self, code: str, texts: Texts) -> Tournament | Announced:
        read = read_code(code)
        found = await self.store.by_code(read) if read is not None else None
        if found is None:
            return Announced(texts("tournament_unknown_code", code=markup.code(code.strip()
                                                                              or "?")))
        return found

    def _already(self, on: Tournament, texts: Texts) -> Announced:
        return Announced(texts("tournament_already_in", name=markup.name(on.name),
                               code=on.code))

    def _closed(self, found: Tournament, texts: Texts) -> Announced:
        if found.status == "running":
            return Announced(texts("tournament_started_already", name=markup.name(found.name),
                                   code=found.code))
        return Announced(texts("tournament_ended", name=markup.name(found.name)))

    async def _state(self, on: Tournament, texts: Texts) -> Announced:
        groups = len([e for e in await self.store.entrants(on.id) if e.playing])
        if on.status == "open":
            state = texts("tournament_state_open", when=when(texts, on, self.clock()))
        else:
            played = len(await self.store.rounds(on.id))
            state = texts("tournament_state_running", number=max(played, 1), count=on.rounds)
        return Announced(texts("tournament_status", name=markup.name(on.name), code=on.code,
                               groups=groups, terms=terms(texts, on), state=state),
                         on.code if on.status == "open" else None, on.id)
