"""Dealing a round: /play and Play again, the hand (adaptive, or from the stock at the level play
learned of it), the bounds on how many rounds one person or one group keeps open, and the round
stored with its end armed before anything is sent. It judges no answer and ends no round.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import Settings
from bot.play.dealing.adaptive import (
    ADAPTIVE,
    ADAPTIVE_AFTER,
    REDRAWS,
    SIZE,
    TARGET,
    AdaptiveDeals,
)
from bot.play.dealing.adaptive import GAME as ADAPTIVE_GAME
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.games import GAMES
from bot.play.games.help import no_round
from bot.play.guards.stand_ins import counted_as, speaks_for_a_chat
from bot.play.outcomes import Dealt, Refused, Said
from bot.play.ports import NEXT_DEAL, ClaimGone, OpenRounds, OwedClaim, StarterFull, Target
from bot.play.round.ending import Endings
from bot.play.round.open_round import OpenRound, Terms
from bot.play.round.outbox import Outbox
from bot.play.round.own import OwnRounds
from bot.play.round.table import RoundTable
from bot.play.round.views import Views
from bot.play.rules import Deal, PlayOptions
from bot.runtime import metrics
from bot.runtime.locks import KeyedLocks
from bot.store.protocols import RoundStore
from bot.text.i18n import Texts

DEFAULT_SECONDS = {name: game.seconds for name, game in GAMES.items()}
# Each open round makes the solving commands refuse its chat's members a few hands (the rule of
# bot.play.guards.live), so how many one person, or one group's topics, keep open is bounded:
# one account then refuses a member of its group under 1% of the 1,820 four-number hands. A
# stand-in for a chat (a group's anonymous admins: bot.play.guards.stand_ins) is one person in
# each chat it writes in, so its rounds are counted in that chat alone, which one process plays.
ROUNDS_PER_PLAYER = 3  # open rounds one person started, in all chats (on every process: OpenRounds)
ROUNDS_PER_CHAT = 5  # open rounds in one group's forum topics
UNBOUNDED = 1 << 30  # a round dealt for a group (a tournament's) counts against no one's bound


class Dealing:
    """New rounds, one deal at a time per topic."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, dealer: Dealer,
                 analyses: Analyses, settings: Settings, adaptive: AdaptiveDeals | None,
                 views: Views, endings: Endings, outbox: Outbox,
                 open_rounds: OpenRounds | None = None) -> None:
        self.store = store
        # where a round is stored, within the bound on its starter's open rounds in all chats
        # (beyond the table: several processes each hold their own chats' rounds)
        self.open_rounds = open_rounds or OwnRounds(store)
        self.people = people
        self.table = table
        self.dealer = dealer
        self.analyses = analyses
        self.settings = settings
        self.adaptive = adaptive  # deals by the learned difficulty (None: the model's levels)
        self.views = views
        self.endings = endings
        self.outbox = outbox
        self._dealing = KeyedLocks()  # one deal at a time per topic

    async def terms(self, chat_id: int) -> Terms:
        """The chat's settings a round dealt there now keeps to its end."""
        chosen = await self.settings.of(chat_id)
        return Terms(hints=chosen.hints, typing=chosen.typing)

    async def play(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None, target: Target | None = None,
                   claim: OwedClaim | None = None) -> Dealt | Said | None:
        """A game's command: deal a new round of the game and show it, or say which
        round is on in this topic already. With the owed claim of the update that asks: the
        round is stored only while this process holds it, and settles it (None, nothing shown:
        another process was given the update meanwhile and answers it). Between a match's
        rounds the topic is the match's: its next deal is on its way, and a round dealt there
        would score outside the match and hold the match's next round back until it ended."""
        outcome = await self._between_match_rounds(chat, player) or \
            await self._deal(chat, player, game, options, claim)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def replay(self, chat: Chat, player: Player, round_id: int, same_level: bool,
                     target: Target | None = None) -> Dealt | Said | Refused:
        """Play again (or Same level) under the result of round `round_id`: the same game as
        its rules say, unless a round is on in the topic (a notice says so). A press naming a
        round that never ended in this chat is refused. A deal lost to another press made
        meanwhile shows nothing: that deal is right there."""
        texts = await self.people.texts(chat, player)
        ended = await self.endings.ended_here(chat, round_id)
        if ended is None:
            return Refused(texts("button_unknown"))
        if (current := self.table.of(chat.id, chat.topic)) is not None:
            return Refused(self.views.still_open(current.record, texts))
        if (between := await self._between_match_rounds(chat, player)) is not None:
            return Refused(between.text)
        outcome = await self.deal(chat, player, ended.game,
                                  GAMES[ended.game].rules.replay_options(ended, same_level))
        if isinstance(outcome, Dealt) or self.table.of(chat.id, chat.topic) is None:
            await self.outbox.show(outcome, target or Target(chat.id, chat.topic, quote=False))
        return outcome

    async def _between_match_rounds(self, chat: Chat, player: Player) -> Said | None:
        """What a player's deal hears in the pause between a match's rounds (its next deal
        set, no round open), or None."""
        if self.table.of(chat.id, chat.topic) is not None or \
                self.table.scheduler.pending(NEXT_DEAL, chat.id, chat.topic) is None:
            return None
        return Said((await self.people.texts(chat, player))("match_between"))

    async def deal(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None) -> Dealt | Said:
        """A new round of the game, dealt and stored but not shown (a match numbers it first).
        One deal at a time per topic: a /play sent meanwhile waits, then hears of the new
        round."""
        outcome = await self._deal(chat, player, game, options, None)
        assert outcome is not None  # only a claim can be another process's
        return outcome

    async def _deal(self, chat: Chat, player: Player, game: str, options: PlayOptions | None,
                    claim: OwedClaim | None) -> Dealt | Said | None:
        """deal, under the update's claim if any (None: the claim is another process's)."""
        options = options or PlayOptions()
        chosen: PlayOptions | None = None
        played: int | None = None
        if self._refused_now(chat, player):  # refused below: nothing read but its words
            texts = await self.people.texts(chat, player)
        else:
            texts, chosen, played = await self._asked(chat, player, game, options)
        async with self._dealing.held((chat.id, chat.topic)):
            current = self.table.of(chat.id, chat.topic)
            if current is not None:
                return Said(self.views.still_open(current.record, texts))
            if (bounded := self._bound(chat, player, texts)) is not None:
                return bounded
            if chosen is None:  # a round ended meanwhile
                chosen = await self.settings.options(chat.id, game, options)
            dealt = await self._dealt(chat, player, game, chosen, texts, played)
            if isinstance(dealt, str):
                return Said(dealt)
            return await self._open(chat, player, dealt, chosen, texts, claim=claim,
                                    most=most_for(player))

    async def _asked(self, chat: Chat, player: Player, game: str, options: PlayOptions
                     ) -> tuple[Texts, PlayOptions, int | None]:
        """What a deal reads of its chat and starter, asked together: the chat's words, what
        its settings deal, the chat's and the starter's rows stored (before the round names
        them), and — where the deal may be adaptive by default — how many rounds the chat has
        played (None: not asked). For a chat new to this process that is one trip to SQLite's
        thread where there were three, each waiting its turn behind the busy loop."""
        adaptive = self.adaptive
        played = adaptive.rounds_played(chat.id) if adaptive is not None and \
            options.level is None and chat.type != "private" and \
            self._plain(game, options) else None
        texts, chosen, count, _ = await asyncio.gather(
            self.people.texts(chat, player), self.settings.options(chat.id, game, options),
            played or _nothing(), self.people.remember(chat, player))
        return texts, chosen, count

    @staticmethod
    def _plain(game: str, options: PlayOptions) -> bool:
        """A deal adaptive deals can make: four numbers to 24."""
        return game == ADAPTIVE_GAME and options.count in (None, SIZE) and \
            options.target in (None, TARGET)

    async def _dealt(self, chat: Chat, player: Player, game: str, options: PlayOptions,
                     texts: Texts, played: int | None = None) -> Deal | str:
        """The hand: an adaptive one (asked for, or a group's default once it has played
        ADAPTIVE_AFTER rounds and chose no level) for four numbers to 24; else from the stock,
        at the level play has learned of it (a hand learned to be of another level than the
        one asked is set aside, REDRAWS times at most). `played`: the chat's rounds, if read
        already."""
        adaptive = self.adaptive
        if adaptive is not None and self._plain(game, options) and (
                options.level == ADAPTIVE or (
                    options.level is None and chat.type != "private"
                    and not await self.settings.chose_level(chat.id)
                    and (played if played is not None
                         else await adaptive.rounds_played(chat.id)) >= ADAPTIVE_AFTER)):
            seconds = (await self.settings.of(chat.id)).seconds[game]
            return await adaptive.deal(chat.id, player.id, seconds)
        if options.level == ADAPTIVE:  # another size or target: a level drawn, as by default
            options = replace(options, level=None)
        asker = counted_as(chat.id, player.id)  # a rare deal's turn, budget, one at a time
        dealt = await self.dealer.deal(GAMES[game].rules, options, asker, chat.id, texts)
        if adaptive is None or not isinstance(dealt, Deal):
            return dealt
        learned = await adaptive.learned_level(dealt)
        for _ in range(REDRAWS):
            if learned is None or options.level in (None, learned):
                break
            again = await self.dealer.deal(GAMES[game].rules, options, asker, chat.id, texts)
            if not isinstance(again, Deal):
                break
            dealt, learned = again, await adaptive.learned_level(again)
        return dealt if learned is None else adaptive.relevelled(dealt, learned)

    async def deal_aimed(self, chat: Chat, player: Player, aim: float,
                         only: Callable[[str], bool] | None = None,
                         length: float | None = None) -> Dealt | Said:
        """A round of 24 that the chat's players of late (in a private chat: its person) solve
        with chance about `aim` in the chat's round length, or in `length` seconds, as long as
        it lasts then (a streak's next hand, each a little harder; a storm's, as long as its
        clock has left; `only`: among the hands whose ratings key it takes, a practice's),
        stored and not shown; without the learned difficulties, the level nearest the aim. A
        round on in the topic, or the player's bound, is said instead."""
        texts = await self.people.texts(chat, player)
        async with self._dealing.held((chat.id, chat.topic)):
            current = self.table.of(chat.id, chat.topic)
            if current is not None:
                return Said(self.views.still_open(current.record, texts))
            if (bounded := self._bound(chat, player, texts)) is not None:
                return bounded
            seconds = length or (await self.settings.of(chat.id)).seconds[ADAPTIVE_GAME]
            if self.adaptive is not None:
                dealt: Deal | str = await self.adaptive.deal(chat.id, player.id, seconds, aim,
                                                             only)
            else:
                level = "easy" if aim >= 0.75 else "medium" if aim >= 0.5 else "hard"
                dealt = await self.dealer.deal(
                    GAMES[ADAPTIVE_GAME].rules, PlayOptions(level=level),
                    counted_as(chat.id, player.id), chat.id, texts)
            if isinstance(dealt, str):
                return Said(dealt)
            opened = await self._open(chat, player, dealt, PlayOptions(), texts, length=length,
                                      most=most_for(player))
        assert opened is not None  # only a claim can be another process's
        return opened

    async def deal_given(self, chat: Chat, player: Player | None, dealt: Deal, length: float,
                         terms: Terms) -> Dealt | Said:
        """A round of a hand drawn elsewhere (a tournament's, the same in every group),
        lasting `length` seconds from now under these terms, started in `player`'s name
        without counting against their bound (None: in nobody's, the chat as stored); stored
        with its end armed, not shown. A round on in the topic is said instead."""
        texts = await self.people.texts(chat, player)
        async with self._dealing.held((chat.id, chat.topic)):
            current = self.table.of(chat.id, chat.topic)
            if current is not None:
                return Said(self.views.still_open(current.record, texts))
            opened = await self._open(chat, player, dealt, PlayOptions(), texts,
                                      length=length, terms=terms, most=UNBOUNDED)
        assert opened is not None  # only a claim can be another process's
        return opened

    def _refused_now(self, chat: Chat, player: Player) -> bool:
        """Whether a deal asked now would be refused (a round on in the topic, a bound
        reached), as memory knows: a flood of /play then costs no read of the store."""
        return self.table.of(chat.id, chat.topic) is not None or \
            self._reached(chat, player) is not None

    def _bound(self, chat: Chat, player: Player, texts: Texts) -> Said | None:
        """Why no new round may open now: the player has ROUNDS_PER_PLAYER open (a stand-in
        for a chat, in this chat), or the group's topics ROUNDS_PER_CHAT."""
        reached = self._reached(chat, player)
        return Said(texts(reached[0], most=reached[1])) if reached is not None else None

    def _reached(self, chat: Chat, player: Player) -> tuple[str, int] | None:
        """The bound a new round would pass (its refusal's key and the most), or None."""
        if self.table.started_by(counted_as(chat.id, player.id)) >= ROUNDS_PER_PLAYER:
            return "play_too_many_rounds", ROUNDS_PER_PLAYER
        if self.table.in_chat(chat.id) >= ROUNDS_PER_CHAT:
            return "play_too_many_topics", ROUNDS_PER_CHAT
        return None

    async def _open(self, chat: Chat, player: Player | None, dealt: Deal, options: PlayOptions,
                    texts: Texts, length: float | None = None, terms: Terms | None = None,
                    most: int = ROUNDS_PER_PLAYER, claim: OwedClaim | None = None
                    ) -> Dealt | Said | None:
        """Store the dealt round and arm its end (before anything is sent, so that a failed
        send cannot leave a round without an end); its length and terms the chat's, unless
        given. With a claim, stored only while it is this process's (None if not)."""
        if player is not None:  # nobody's: a deal of a chat known already
            await self.people.remember(chat, player)
        starter = player.id if player is not None else None
        now = self.table.clock()
        terms = terms or await self.terms(chat.id)
        length = length or (await self.settings.of(chat.id)).seconds[dealt.game]
        new = await self.open_rounds.open_round(
            most, chat.id, dealt.game, dealt.hand, dealt.target, dealt.level,
            dealt.points, texts.language, now, now + length, starter, chat.topic,
            hints_on=terms.hints, typing_on=terms.typing, claim=claim)
        if isinstance(new, ClaimGone):
            return None
        if isinstance(new, StarterFull):  # the table counted only this process's rounds
            return Said(texts("play_too_many_rounds", most=ROUNDS_PER_PLAYER))
        if new is None:  # another /play won the race while this hand was dealt
            held = self.table.of(chat.id, chat.topic)
            current = held.record if held else \
                await self.store.open_round_of(chat.id, chat.topic)
            return Said(self.views.still_open(current, texts) if current else no_round(texts))
        metrics.record_round_dealt(new.game)
        if dealt.analysis is not None:
            self.analyses.keep(new.game, new.hand, new.target, dealt.analysis)
        text = self.views.deal_text(new, texts, chat.type, terms)
        if options.level not in (None, ADAPTIVE) and dealt.level != options.level:
            text += "\n" + texts("play_other_level", wanted=texts(f"level_{options.level}"),
                                 level=texts(f"level_{dealt.level}"), target=dealt.target)
        opened = OpenRound(new, terms, text, fresh=True)
        self.table.add(opened)
        actions = self.views.actions(opened)
        opened.rewritten((text, actions, texts.language))
        return Dealt(new, text, texts, actions)


def most_for(player: Player) -> int:
    """The bound the store holds a new round's starter to, in every chat: ROUNDS_PER_PLAYER; a
    stand-in for a chat, none there (`_bound` counted its rounds in the chat it writes in, and
    the table holds every round of that chat; the store would count its id in every chat)."""
    return UNBOUNDED if speaks_for_a_chat(player.id) else ROUNDS_PER_PLAYER


def seconds_of(seconds: Mapping[str, float] | None) -> dict[str, float]:
    """Round lengths per game: the defaults, with what the operator set over them."""
    return {**DEFAULT_SECONDS, **(seconds or {})}


async def _nothing() -> None:
    """An awaitable of nothing, in place of a read not asked."""
