"""Practice (/practice, in a private chat): a hand of 24 that needs the theme the player stands
weakest in (docs/themes.md: learned beside their rating from the rounds they tried, as their
page shows it), at the edge of their skill — aimed at the chance the adaptive deals aim at,
three times in four. The deal names the theme; a miss may ask the coach's line under the result,
which names what the hand needed and a first step. A player whose rounds say nothing yet of any
theme gets a hand at their level, and is told so.

A practice hand is an ordinary round of 24 (rated, scored, live for the solving commands while it
is played): nothing of its own is stored, and the standings it is chosen by learn from it.
"""

from __future__ import annotations

import dataclasses

from bot.play.chats.people import Chat, People, Player
from bot.play.dealing.adaptive import TARGET
from bot.play.dealing.practice import PracticeHands
from bot.play.outcomes import Dealt, Said
from bot.play.ports import Target
from bot.play.ratings import AIM
from bot.play.ratings.model import GAMES as RATED
from bot.play.ratings.tried import weakest_theme
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.words.themes import theme_name
from bot.store.protocols import PageStore, RatingStore

SINCE = 365 * 86400.0  # the rounds a standing is learned from: the last year's, as the page's


class Practice:
    def __init__(self, pages: PageStore, ratings: RatingStore, people: People, rounds: Rounds,
                 table: RoundTable, hands: PracticeHands, outbox: Outbox) -> None:
        self.pages = pages
        self.ratings = ratings
        self.people = people
        self.rounds = rounds
        self.table = table  # the hand's open round, whose deal keeps the practice's line
        self.hands = hands  # the candidates' themes
        self.outbox = outbox

    async def start(self, chat: Chat, player: Player,
                    target: Target | None = None) -> Dealt | Said:
        """/practice: a hand of the player's weakest theme, shown; refused in a group and
        while a round is on in the chat."""
        outcome = await self._start(chat, player)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _start(self, chat: Chat, player: Player) -> Dealt | Said:
        texts = await self.people.texts(chat, player)
        if chat.type != "private":
            return Said(texts("practice_alone"))
        if (current := self.rounds.open_round(chat.id, chat.topic)) is not None:
            return Said(self.rounds.still_open(current, texts))
        code = await self.weakest(player.id)
        only = await self.hands.wanting(code) if code is not None else None
        dealt = await self.rounds.deal_aimed(chat, player, AIM, only)
        if not isinstance(dealt, Dealt):
            return dealt
        line = texts("practice_theme", theme=theme_name(texts, code, {TARGET})) \
            if code is not None and only is not None else texts("practice_unknown")
        if (opened := self.table.find(dealt.round.id)) is not None:
            opened.numbered(line)  # kept under the deal as hints rewrite it
        return dataclasses.replace(dealt, text=f"{dealt.text}\n{line}")

    async def weakest(self, user_id: int) -> str | None:
        """The theme the player stands weakest in (None: their rounds say nothing yet)."""
        ratings = {}
        for game in RATED:
            rows = await self.ratings.player_ratings(user_id, game)  # newest season first
            if rows:
                ratings[game] = rows[0].rating
        return await weakest_theme(self.pages, user_id, self.rounds.clock() - SINCE, ratings)
