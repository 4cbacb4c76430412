"""A match's standing in a place, apart from dealing its rounds: whether one is on, its step after
each round's close (the scoreboard or the podium, and the next deal set), its notices and next
deal on the scheduler, and its end when the bot can no longer write there. It deals nothing and
shows nothing, so it is built before the round service (whose closes it follows) and before the
outbox (whose fates bot.play.places acts on with it); the match service
(bot.play.matches.matches) deals on it.
"""

from __future__ import annotations

from bot.play.chats.people import People
from bot.play.matches.scoreboard import board, podium
from bot.play.ports import NEXT_DEAL, WARNING, Alarm, Scheduler
from bot.play.round.events import FollowUp, RoundClosed
from bot.play.round.table import RoundTable
from bot.store.protocols import MatchStore
from bot.store.records import Match, MatchRound, Round
from bot.text.i18n import Texts

PAUSE = 5.0  # seconds between the end of a round and the next deal
WARN = 30.0  # the notice comes this long before a round ends (half a round, if rounds are short)


class MatchBook:
    def __init__(self, store: MatchStore, people: People, table: RoundTable,
                 scheduler: Scheduler, pause: float = PAUSE, warn: float = WARN) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.scheduler = scheduler
        self.pause = pause
        self.warn = warn

    async def is_on(self, chat_id: int, topic: int = 0) -> bool:
        return await self.store.match_on(chat_id, topic) is not None

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A round ended in a topic with a match on: the scoreboard (the next deal is set), or
        the podium; it rides on the round's result, in its words (`texts`)."""
        match = await self.store.match_on(*event.round.place)
        if match is None:
            return FollowUp()
        said, on = await self.step(match, event.round.id, resumed=False, texts=texts)
        return FollowUp(said, match_on=on)

    async def step(self, match: Match, round_id: int | None, resumed: bool,
                   texts: Texts | None = None) -> tuple[str | None, bool]:
        """The match's next step once a round ended: what to say (in `texts`, else the
        match's chat's words), and whether it goes on."""
        if self.table.of(*match.place) is not None:
            return None, True  # a round is on: its end brings the next step
        rounds = await self.store.match_rounds(match.id)
        done = played(rounds)
        texts = texts or await self.people.chat_texts(match.chat_id, match.lang)
        scores = await self.store.match_scores(match.id)
        if done >= match.rounds:
            if not await self.store.end_match(match.id, "done", self.table.clock()):
                return None, False
            return podium(texts, "match_over", done, match.rounds, scores), False
        self.scheduler.set(Alarm(NEXT_DEAL, match.chat_id, topic=match.topic), self.pause)
        if not resumed and round_id not in {r.round_id for r in rounds}:
            return None, True  # a round outside the match ended: go on with it
        head = texts("match_resumed", number=done + 1, count=match.rounds) if resumed else \
            texts("match_scores", number=done, count=match.rounds)
        return "\n".join([head, *board(texts, scores),
                          texts("match_next", seconds=round(self.pause))]), True

    async def stop_all(self, chat_id: int, topic: int | None = None) -> None:
        """The bot can no longer write to the chat (or, given a `topic`, to that topic): its
        matches stop without a word."""
        for match in await self.store.matches_on():
            if match.chat_id == chat_id and topic in (None, match.topic):
                await self.store.end_match(match.id, "stopped", self.table.clock())
                self.scheduler.cancel(NEXT_DEAL, chat_id, match.topic)
                self.scheduler.cancel(WARNING, chat_id, match.topic)

    def follow_chat(self, old_id: int, new_id: int, moved: Round | None) -> None:
        """A group became a supergroup: a pending deal and notice follow it to the new id."""
        if self.scheduler.pending(NEXT_DEAL, old_id) is not None:
            self.scheduler.cancel(NEXT_DEAL, old_id)
            self.scheduler.set(Alarm(NEXT_DEAL, new_id), self.pause)
        if self.scheduler.pending(WARNING, old_id) is not None:
            self.scheduler.cancel(WARNING, old_id)
            if moved is not None:
                self.set_warning(moved)

    def warning_delay(self, round_: Round) -> float:
        """Seconds after the round's start when its "30 s left" notice is due."""
        length = round_.deadline - round_.started_at
        return length - (self.warn if length >= 2 * self.warn else length / 2)

    def set_warning(self, round_: Round) -> None:
        """The round's "30 s left" notice (skipped when that moment has passed)."""
        delay = round_.started_at + self.warning_delay(round_) - self.table.clock()
        if delay > 0:
            self.scheduler.set(Alarm(WARNING, round_.chat_id, round_.id, round_.topic), delay)
        else:
            self.scheduler.cancel(WARNING, round_.chat_id, round_.topic)


def played(rounds: list[MatchRound]) -> int:
    """How many of a match's rounds are over."""
    return sum(r.status != "open" for r in rounds)
