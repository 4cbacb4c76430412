"""Match mode (/match N): N rounds of 24 in a row in one chat, a scoreboard after each round, a
"30 s left" notice in each, and a podium at the end.

A plain class over the round service and the match store: it says what to send, and sets the
next deal and the notices through the scheduler port. Everything is read from the database
(tables `matches` and `match_rounds`), so a restart resumes a match where it stopped: its open
round goes on, or the next one is dealt. Where the bot can no longer write (removed from the
chat, or its topic gone), `abandon` ends the place's matches and open rounds without a word.
"""

from __future__ import annotations

import dataclasses

from bot.play.games import GAMES
from bot.play.people import Chat, Player
from bot.play.permissions import AdminCheck, may_steer
from bot.play.reply import Reply
from bot.play.rounds import Rounds
from bot.play.scheduler import NEXT_DEAL, WARNING, Alarm
from bot.store.protocols import MatchStore
from bot.store.records import Match, MatchRound, MatchScore, Place, Round
from bot.text import markup
from bot.text.i18n import Texts

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 2, 20, 10
PAUSE = 5.0  # seconds between the end of a round and the next deal
WARN = 30.0  # the notice comes this long before a round ends (half a round, if rounds are short)
MEDALS = ("🥇", "🥈", "🥉")


class Matches:
    """Matches in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, store: MatchStore, rounds: Rounds, pause: float = PAUSE,
                 warn: float = WARN) -> None:
        self.store = store
        self.rounds = rounds
        self.people = rounds.people
        self.scheduler = rounds.scheduler
        self.pause = pause
        self.warn = warn

    async def is_on(self, chat_id: int, topic: int = 0) -> bool:
        return await self.store.match_on(chat_id, topic) is not None

    async def start(self, chat: Chat, player: Player, count: int) -> Reply:
        """Start a match in this topic and deal its first round (refused while a match or a
        round is on there)."""
        texts = self.people.texts(chat, player)
        if (on := await self.store.match_on(chat.id, chat.topic)) is not None:
            return Reply(await self._on_text(on, texts))
        if self.rounds.open_round(chat.id, chat.topic) is not None:
            return Reply(texts("match_round_on"))
        reply = await self.rounds.play(chat, player, "24")
        if reply.dealt is None:
            return reply
        match = await self.store.open_match(chat.id, count, player.id, texts.language,
                                            self.rounds.clock(), chat.topic)
        if match is None:  # another /match won the race: this stays an ordinary round
            return reply
        return await self._numbered(match, reply, texts)

    async def deal_next(self, chat_id: int, topic: int = 0) -> Reply | None:
        """The next round of the topic's match, if one is due (None: no match on, a round is
        on, or the match has had its rounds). A Reply without a round says why none was dealt;
        the next try is then set a pause later."""
        match = await self.store.match_on(chat_id, topic)
        if match is None or self.rounds.open_round(chat_id, topic) is not None:
            return None
        if _played(await self.store.match_rounds(match.id)) >= match.rounds:
            return None
        known = await self.people.store.chat_and_user(chat_id, match.started_by or 0)
        if known is None:  # cannot happen: the first deal stored both; end rather than guess
            await self.store.end_match(match.id, "stopped", self.rounds.clock())
            return None
        (kind, title), (first_name, username) = known
        chat = Chat(chat_id, kind, title, topic)
        starter = Player(match.started_by or 0, first_name, username, match.lang)
        reply = await self.rounds.play(chat, starter, "24")
        if reply.dealt is None:
            if self.rounds.open_round(chat_id, topic) is None:  # too slow: try again shortly
                self.scheduler.set(Alarm(NEXT_DEAL, chat_id, topic=topic), self.pause)
            return reply
        return await self._numbered(match, reply, self.people.texts(chat, starter))

    async def _numbered(self, match: Match, reply: Reply, texts: Texts) -> Reply:
        """A round dealt into the match: its number, and its "30 s left" notice set."""
        assert reply.dealt is not None
        number = await self.store.add_match_round(match.id, reply.dealt.id)
        self._set_warning(reply.dealt)
        text = reply.text + "\n" + texts("match_round", number=number, count=match.rounds)
        self.rounds.board.deals[reply.dealt.id] = text  # hints and notices edit it as it is
        return dataclasses.replace(reply, text=text)

    async def after_round(self, chat_id: int, round_id: int | None, topic: int = 0
                          ) -> str | None:
        """A round ended in the topic: the scoreboard (the next deal is set), or the podium;
        it rides on the round's result message."""
        match = await self.store.match_on(chat_id, topic)
        return None if match is None else await self._step(match, round_id, resumed=False)

    async def _step(self, match: Match, round_id: int | None, resumed: bool) -> str | None:
        if self.rounds.open_round(*match.place) is not None:
            return None  # a round is on: its end brings the next step
        rounds = await self.store.match_rounds(match.id)
        played, texts = _played(rounds), self.people.chat_texts(match.chat_id, match.lang)
        scores = await self.store.match_scores(match.id)
        if played >= match.rounds:
            if not await self.store.end_match(match.id, "done", self.rounds.clock()):
                return None
            return podium(texts, "match_over", played, match.rounds, scores)
        self.scheduler.set(Alarm(NEXT_DEAL, match.chat_id, topic=match.topic), self.pause)
        if not resumed and round_id not in {r.round_id for r in rounds}:
            return None  # a round outside the match ended: go on with it
        head = texts("match_resumed", number=played + 1, count=match.rounds) if resumed else \
            texts("match_scores", number=played, count=match.rounds)
        return "\n".join([head, *board(texts, scores),
                          texts("match_next", seconds=round(self.pause))])

    async def stop(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None
                   ) -> Reply:
        """/match stop: end the topic's match now (whoever started it, or a chat admin), its
        open round with it under the rule of an early end (bot.play.permissions: once others
        have answered it, only an admin), and show the podium so far."""
        texts = self.people.texts(chat, player)
        match = await self.store.match_on(chat.id, chat.topic)
        if match is None:
            return Reply(texts("match_none"))
        if not await may_steer(chat.type, player.id, match.started_by, is_admin):
            return Reply(texts("match_stop_not_allowed",
                               starter=await self.people.starter(match.started_by, texts)))
        rounds = await self.store.match_rounds(match.id)
        current = self.rounds.open_round(chat.id, chat.topic)
        if current is not None and current.id not in {r.round_id for r in rounds}:
            current = None  # a round outside the match goes on
        if current is not None and \
                await self.rounds.end_refusal(chat, player, current, is_admin) is not None:
            return Reply(texts("match_stop_wait",
                               seconds=max(0, round(current.deadline - self.rounds.clock()))))
        if not await self.store.end_match(match.id, "stopped", self.rounds.clock()):
            return Reply(texts("match_none"))
        self.scheduler.cancel(NEXT_DEAL, chat.id, chat.topic)
        self.scheduler.cancel(WARNING, chat.id, chat.topic)
        ended = None
        if current is not None:
            ended = await self.rounds.close(current, "revealed", texts, ended_by=player)
        played = _played(await self.store.match_rounds(match.id))
        final = podium(texts, "match_stopped", played, match.rounds,
                       await self.store.match_scores(match.id))
        if ended is None:
            return Reply(final)
        return dataclasses.replace(ended, text=ended.with_board(final),
                                   head=f"{ended.head}\n{final}")

    async def _on_text(self, match: Match, texts: Texts) -> str:
        rounds = await self.store.match_rounds(match.id)
        number = max((r.number for r in rounds), default=0)
        return texts("match_on", number=max(number, 1), count=match.rounds)

    def warning_delay(self, round_: Round) -> float:
        """Seconds after the round's start when its "30 s left" notice is due."""
        length = round_.deadline - round_.started_at
        return length - (self.warn if length >= 2 * self.warn else length / 2)

    def _set_warning(self, round_: Round) -> None:
        """The round's "30 s left" notice (skipped when that moment has passed)."""
        delay = round_.started_at + self.warning_delay(round_) - self.rounds.clock()
        if delay > 0:
            self.scheduler.set(Alarm(WARNING, round_.chat_id, round_.id, round_.topic), delay)
        else:
            self.scheduler.cancel(WARNING, round_.chat_id, round_.topic)

    def warning(self, chat_id: int, round_id: int, topic: int = 0) -> Reply | None:
        """The "30 s left" notice, if the round is still on: a line under its deal."""
        current = self.rounds.open_round(chat_id, topic)
        if current is None or current.id != round_id:
            return None
        texts = self.people.chat_texts(chat_id, current.lang)
        left = max(1, round(current.deadline - self.rounds.clock()))
        line = texts("match_time_left", seconds=left)
        return Reply(self.rounds.deal_view(current, ("warn", line)), edit=current,
                     notice=texts("match_time_left_alone", seconds=left,
                                  puzzle=GAMES[current.game].puzzle_html(current)))

    async def resume(self) -> list[tuple[Place, str]]:
        """After a restart (and after the round service resumed): the notices of match rounds
        still running are set again, and per match what to send (the next deal is set)."""
        said = []
        for match in await self.store.matches_on():
            current = self.rounds.open_round(*match.place)
            if current is not None:
                rounds = await self.store.match_rounds(match.id)
                if current.id in {r.round_id for r in rounds}:
                    self._set_warning(current)
                continue  # its end brings the next step
            text = await self._step(match, None, resumed=True)
            if text is not None:
                said.append((match.place, text))
        return said

    async def abandon(self, chat_id: int, topic: int | None = None) -> list[Round]:
        """The bot can no longer write to the chat (removed, banned, blocked, the chat deleted)
        or, given a `topic`, to that topic: its matches stop and its open rounds close with no
        winner and no points, each marked announced (no result is owed to a chat that cannot
        be written to, so a restart sends none), and their alarms go. Returns the rounds."""
        def here(place: Place) -> bool:
            return place[0] == chat_id and topic in (None, place[1])

        now = self.rounds.clock()
        for match in await self.store.matches_on():
            if here(match.place):
                await self.store.end_match(match.id, "stopped", now)
                self.scheduler.cancel(NEXT_DEAL, chat_id, match.topic)
        closed = []
        for current in await self.rounds.store.open_rounds():
            if here(current.place) and await self.rounds.store.close_round(
                    current.id, "revealed", now):
                closed.append(current)
            if here(current.place):
                self.rounds.ended(self.rounds.board.find(current.id) or current)
                self.scheduler.cancel(WARNING, chat_id, current.topic)
        await self.rounds.store.set_announced([r.id for r in closed])
        return closed

    def follow_chat(self, old_id: int, new_id: int, moved: Round | None) -> None:
        """A group became a supergroup: a pending deal and notice follow it to the new id."""
        if self.scheduler.pending(NEXT_DEAL, old_id) is not None:
            self.scheduler.cancel(NEXT_DEAL, old_id)
            self.scheduler.set(Alarm(NEXT_DEAL, new_id), self.pause)
        if self.scheduler.pending(WARNING, old_id) is not None:
            self.scheduler.cancel(WARNING, old_id)
            if moved is not None:
                self._set_warning(moved)


def _played(rounds: list[MatchRound]) -> int:
    return sum(r.status != "open" for r in rounds)


def board(texts: Texts, scores: list[MatchScore], medals: bool = False) -> list[str]:
    """The standings, one line a player (medals for the first three on the podium)."""
    if not scores:
        return [texts("match_nobody")]
    return [texts("match_line", place=MEDALS[i] if medals and i < len(MEDALS) else f"{i + 1}.",
                  name=markup.name(s.name), points=s.points, wins=s.wins)
            for i, s in enumerate(scores)]


def podium(texts: Texts, key: str, played: int, count: int, scores: list[MatchScore]) -> str:
    """The end of a match: how many rounds were played, and the standings with medals."""
    return "\n".join([texts(key, played=played, count=count),
                      *board(texts, scores, medals=True)])
