"""After a restart: rounds still running get their end alarms again, and the results the bot owes
are worded — rounds that ran out while it was down, that had a right answer already, or whose
result it had no time to send.
"""

from __future__ import annotations

from bot.play.chats.people import People
from bot.play.games import GAMES
from bot.play.round.outcomes import Closed, Dealt
from bot.play.round.rounds import Rounds
from bot.play.round.table import RoundTable
from bot.runtime import metrics
from bot.runtime.pool import SolverPool
from bot.store.protocols import RoundStore
from bot.store.records import Result, Round
from bot.text import markup

# A result the bot could not send before it stopped is sent at start-up, unless it is older than
# this: a day-old "Ann wins" would puzzle the chat more than it tells.
ANNOUNCE_WITHIN = 24 * 3600.0


class Recovery:
    def __init__(self, store: RoundStore, people: People, table: RoundTable, pool: SolverPool,
                 rounds: Rounds) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.pool = pool
        self.rounds = rounds  # closes the rounds that ran out meanwhile, words every result

    async def resume(self) -> list[Closed | Dealt]:
        """Load the open rounds and the chats' languages and settings, arm the end of every
        round still running, and return what to send, oldest first: the results of rounds
        closed before the stop whose result was never sent, of rounds that had a right answer
        already (the earliest wins, as it would have), and of rounds that ran out while the
        bot was down;
        and the deal of a running round whose deal message is unknown (the bot stopped between
        sending it and storing its id: replies and hints could not reach it). A match's next
        step is its own resume (bot.play.matches), so these results carry no scoreboard."""
        await self.people.load()
        if self.rounds.settings is not None:
            await self.rounds.settings.load()
        loaded = await self.store.open_rounds()
        self.table.load(loaded)
        clock = self.table.clock
        results: list[Closed | Dealt] = [*await self._late_results()]
        for current in loaded:
            if (settled := await self._settle(current)) is not None:
                results.append(settled)
            elif current.deadline > clock():
                opened = self.table.find(current.id)
                assert opened is not None
                self.table.arm(opened)
                if current.message_id is None:
                    results.append(self.rounds.dealt(current, self.rounds.deal_view(opened),
                                                     self.people.round_texts(current)))
            elif (closed := await self.rounds.close(
                    current, "expired", self.people.round_texts(current), follow=False)):
                results.append(closed)
        return results

    async def _late_results(self) -> list[Closed]:
        """The results of rounds closed before the stop that were never sent; those older than
        ANNOUNCE_WITHIN are only marked."""
        now, found, stale = self.table.clock(), [], []
        for result in await self.store.unannounced():
            if now - result.ended_at > ANNOUNCE_WITHIN:
                stale.append(result.round.id)
            else:
                found.append(await self._late(result))
        await self.store.set_announced(stale)
        return found

    async def _settle(self, current: Round) -> Closed | None:
        """Close an open round that already has a right answer (the bot stopped between
        storing it and closing the round): the earliest right answer wins."""
        right = await self.store.first_right_answer(current.id)
        if right is None:
            return None
        verdict = GAMES[current.game].judge(current, right.text, True)
        shown = (verdict.expression or verdict.value) if verdict.kind == "right" else right.text
        elapsed = right.at - current.started_at
        if not await self.store.close_round(current.id, "won", right.at, right.user_id, shown,
                                            current.points, elapsed):
            return None
        metrics.record_round_ended(current.game, "won")
        self.table.close(current)
        return await self._late(Result(current, right.at,
                                       await self.store.winner_name(current.id), shown,
                                       current.points, elapsed, True, None))

    async def _late(self, result: Result) -> Closed:
        """A result owed since before the stop, worded as late."""
        text, listed_all = await self.result_text(result)
        texts = self.people.round_texts(result.round)
        return await self.rounds.finish(result.round, "", text, texts, listed_all, follow=False)

    async def result_text(self, result: Result) -> tuple[str, bool]:
        """A closed round's result, said late: which round, who won it (or that nobody did),
        and what the round's end shows; and whether that lists every solution."""
        current = result.round
        rules = GAMES[current.game]
        texts = self.people.round_texts(current)
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
        details = await rules.win_details(self.pool, current, texts)
        if details and self.table.live.elsewhere(current):
            details = texts("answers_held_back")
        return "\n".join(filter(None, [*lines, details])), not rules.pages_solutions
