"""After a restart: rounds still running get their end alarms again, and the results the bot owes
are worded — rounds that ran out while it was down, that had a right answer already, or whose
result it had no time to send.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.games import GAMES
from bot.play.rounds import Rounds
from bot.play.scheduler import ROUND_END, Alarm
from bot.store.records import Result, Round
from bot.text import markup

# A result the bot could not send before it stopped is sent at start-up, unless it is older than
# this: a day-old "Ann wins" would puzzle the chat more than it tells.
ANNOUNCE_WITHIN = 24 * 3600.0


@dataclass(frozen=True)
class Announcement:
    """A round's result to send at start-up, in the chat's topic where it was played; once
    sent, mark it with `Rounds.announced`. `listed_all`: it lists every solution."""

    round_id: int
    chat_id: int
    text: str
    topic: int = 0
    listed_all: bool = True


class Recovery:
    def __init__(self, rounds: Rounds) -> None:
        self.rounds = rounds
        self.store = rounds.store

    async def resume(self) -> list[Announcement]:
        """Load the open rounds and the chats' languages, set the end of every round still
        running, and return the results to send, oldest first: rounds closed before the stop
        whose result was never sent, rounds that had a right answer already (the earliest wins,
        as it would have), and rounds that ran out while the bot was down."""
        await self.rounds.people.load()
        loaded = await self.store.open_rounds()
        self.rounds.board.load(loaded)
        clock = self.rounds.clock
        results = await self._late_results()
        for current in loaded:
            if (settled := await self._settle(current)) is not None:
                results.append(settled)
            elif current.deadline > clock():
                self.rounds.scheduler.set(
                    Alarm(ROUND_END, current.chat_id, current.id, current.topic),
                    current.deadline - clock())
            elif (closed := await self.rounds.expire(current.id)) is not None:
                results.append(Announcement(current.id, current.chat_id, closed.text,
                                            current.topic, closed.listed_all))
        return results

    async def _late_results(self) -> list[Announcement]:
        """The results of rounds closed before the stop that were never sent; those older than
        ANNOUNCE_WITHIN are only marked."""
        now, found, stale = self.rounds.clock(), [], []
        for result in await self.store.unannounced():
            if now - result.ended_at > ANNOUNCE_WITHIN:
                stale.append(result.round.id)
            else:
                text, listed_all = await self.result_text(result)
                found.append(Announcement(result.round.id, result.round.chat_id, text,
                                          result.round.topic, listed_all))
        await self.store.set_announced(stale)
        return found

    async def _settle(self, current: Round) -> Announcement | None:
        """Close an open round that already has a right answer (the bot stopped between
        storing it and closing the round): the earliest right answer wins."""
        right = await self.store.first_right_answer(current.id)
        if right is None:
            return None
        verdict = await GAMES[current.game].judge(self.rounds.pool, current, right.text, True)
        shown = (verdict.expression or verdict.value) if verdict.kind == "right" else right.text
        elapsed = right.at - current.started_at
        if not await self.store.close_round(current.id, "won", right.at, right.user_id, shown,
                                            current.points, elapsed):
            return None
        self.rounds.board.end(current)
        result = Result(current, right.at, await self.store.winner_name(current.id), shown,
                        current.points, elapsed, True, None)
        text, listed_all = await self.result_text(result)
        return Announcement(current.id, current.chat_id, text, current.topic, listed_all)

    async def result_text(self, result: Result) -> tuple[str, bool]:
        """A closed round's result, said late: which round, who won it (or that nobody did),
        and what the round's end shows; and whether that lists every solution."""
        current = result.round
        rules = GAMES[current.game]
        texts = self.rounds.people.round_texts(current)
        lines = [texts("late_result", game=texts.game(rules.name),
                       puzzle=rules.puzzle_html(current))]
        name, answer = markup.name(result.winner_name), markup.code(result.answer or "")
        if result.winner_name is None or (rules.closest_wins and not result.exact):
            if result.winner_name is not None and result.distance is not None:
                lines.append(texts("closest_wins", name=name, answer=answer,
                                   distance=result.distance, points=result.awarded))
            elif rules.closest_wins:
                lines.append(texts("nobody_close"))
            revealed = await self.rounds.answers_shown(current, texts)
            return "\n".join([*lines, revealed.text]), revealed.complete
        seconds = result.win_seconds if result.win_seconds is not None else \
            result.ended_at - current.started_at
        lines.append(texts("won", name=name, answer=answer, elapsed=texts.seconds(seconds),
                           points=result.awarded))
        details = await rules.win_details(self.rounds.pool, current, texts)
        if details and self.rounds.board.live.elsewhere(current):
            details = texts("answers_held_back")
        return "\n".join(filter(None, [*lines, details])), not rules.pages_solutions
