"""After a restart, or when a process takes chats over from another (a cluster's worker taking up
partitions whose owner stopped answering): rounds still running get their end alarms again, and
the results owed are worded and shown — rounds that ran out meanwhile, that had a right answer
already, or whose result had no time to be sent — then matches and streaks go on where they
stopped, and storms end with what they scored. A result owed after a take-over says it is late,
never that the bot restarted: for the chat, nothing did.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from bot.play.chats.people import People
from bot.play.chats.settings import Settings
from bot.play.matches.matches import Matches
from bot.play.outcomes import Closed, Dealt, Outcome, Said
from bot.play.ports import Target
from bot.play.round.events import RoundClosed
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.rules.records import Right
from bot.play.solo.storms import Storms
from bot.play.solo.streaks import Streaks
from bot.play.tournaments.service import Tournaments
from bot.store.protocols import RoundStore
from bot.store.records import Result, Round

log = logging.getLogger(__name__)
Chats = Callable[[int], bool]  # which chats a resume or a release is about (None: all)
# A result the bot could not send before it stopped is sent at start-up, unless it is older than
# this: a day-old "Ann wins" would puzzle the chat more than it tells.
ANNOUNCE_WITHIN = 24 * 3600.0


class Recovery:
    def __init__(self, store: RoundStore, people: People, settings: Settings,
                 table: RoundTable, rounds: Rounds, matches: Matches, outbox: Outbox,
                 tournaments: Tournaments | None = None, streaks: Streaks | None = None,
                 storms: Storms | None = None) -> None:
        self.store = store
        self.people = people
        self.settings = settings
        self.table = table
        self.rounds = rounds  # closes the rounds that ran out meanwhile, words every result
        self.matches = matches
        self.outbox = outbox
        self.tournaments = tournaments  # their live hands, live again before any result
        self.streaks = streaks  # go on once the rounds did (their late closes followed)
        self.storms = storms  # ... and end, with what they scored

    async def resume(self, chats: Chats | None = None) -> list[Closed | Dealt]:
        """Load the chats' languages and settings and the open rounds, arm the end of every
        round still running, show what the bot owes, oldest first, then let the matches go on.
        Returns the results (and deals) shown. With `chats`, only those chats' rounds and
        matches are taken up, beside the rounds held already (a process that plays some chats
        of many, taking more of them over): what is owed there is late, not after a restart."""
        if self.tournaments is not None and chats is None:
            await self.tournaments.resume()
        owed = await self._owed_taking_up(chats)
        for outcome in owed:
            await self._show(outcome, outcome.round.place)
        said = await self.matches.resume(chats)
        if self.streaks is not None:
            said += await self.streaks.resume(chats)
        if self.storms is not None:
            said += await self.storms.resume(chats)
        for place, text in said:
            await self._show(Said(text), place)
        if owed or said:
            log.info("resumed: sent %d results, %d matches and streaks said where they stand",
                     len(owed), len(said))
        return owed

    async def _owed_taking_up(self, chats: Chats | None) -> list[Closed | Dealt]:
        """What is owed, read (for chats taken over) while no tournament's deal of this
        process opens a round in them: the worker running a schedule plays a partition's chats
        from the moment it owns it, so its errands may deal there while their rounds are being
        taken up (bot.play.tournaments.errands, `taking_up`)."""
        if chats is None or self.tournaments is None:
            return await self.owed(chats)
        async with self.tournaments.errands.taking_up(chats):
            return await self.owed(chats)

    async def _show(self, outcome: Outcome, place: tuple[int, int]) -> None:
        try:  # a chat gone or migrated is settled by the outbox
            await self.outbox.show(outcome, Target(*place))
        except Exception:  # the network: the next start tries again
            log.warning("could not send what is owed to chat %s now", place[0])

    def release(self, chats: Chats) -> int:
        """Let those chats go (another process takes them up, from the database): their open
        rounds leave memory and their alarms are cancelled; nothing is written. How many
        rounds left."""
        return self.table.release(chats)

    async def owed(self, chats: Chats | None = None) -> list[Closed | Dealt]:
        """What a restart owes, oldest first: the results of rounds closed before the stop
        whose result was never sent, of rounds that had a right answer already (the earliest
        wins, as it would have), and of rounds that ran out while the bot was down; and the
        deal of a running round whose deal message is unknown (the bot stopped between sending
        it and storing its id: replies and hints could not reach it), a tournament's as the
        tournament deals it. A match's next step is its own resume, so these results carry no
        scoreboard."""
        await self.people.load()
        await self.settings.load()
        loaded = [r for r in await self.store.open_rounds() if chats is None or chats(r.chat_id)]
        if chats is not None:  # one held already was dealt here meanwhile: its errand shows it
            held = {current.id for current in self.table.rounds()}
            loaded = [r for r in loaded if r.id not in held]
        terms = await self.rounds.stand_in_terms(loaded)
        if chats is None:
            self.table.load(loaded, terms)
        else:
            self.table.adopt(loaded, terms)
        clock = self.table.clock
        restarted = chats is None  # else taken over from another process
        results: list[Closed | Dealt] = [*await self._late_results(chats)]
        for record in loaded:
            current = self.table.find(record.id)
            assert current is not None
            if (settled := await self._settle(current, restarted)) is not None:
                results.append(settled)
            elif (numbered := await self._never_shown(current)) is not None:
                results.append(numbered)
            elif record.deadline > clock():
                self.table.arm(current)
                if record.message_id is None:
                    results.append(await self.rounds.dealt_again(current))
            elif (closed := await self.rounds.end(
                    current, "expired", await self.people.round_texts(record), follow=False)):
                results.append(closed)
        return results

    async def _never_shown(self, current: OpenRound) -> Dealt | None:
        """A group's round of a tournament whose deal was never shown (the process dealing it
        stopped before its message went), dealt again with its line and its clock from now,
        even past its deadline: the group never saw it. None for any other round."""
        if self.tournaments is None or current.record.message_id is not None:
            return None
        return await self.tournaments.never_shown(current)

    async def _late_results(self, chats: Chats | None) -> list[Closed]:
        """The results of rounds closed before the stop that were never sent; those older than
        ANNOUNCE_WITHIN are only marked."""
        now, found, stale = self.table.clock(), [], []
        for result in await self.store.unannounced():
            if chats is not None and not chats(result.round.chat_id):
                continue
            if now - result.ended_at > ANNOUNCE_WITHIN:
                stale.append(result.round.id)
            else:
                found.append(await self._late(result, chats is None))
        await self.store.set_announced(stale)
        return found

    async def _settle(self, current: OpenRound, restarted: bool) -> Closed | None:
        """Close an open round that already has a right answer (the bot stopped between
        storing it and closing the round): the earliest right answer wins."""
        record = current.record
        right = await self.store.first_right_answer(record.id)
        if right is None:
            return None
        verdict = current.rules.judge(record, right.text, True)
        shown = verdict.shown if isinstance(verdict, Right) else right.text
        current.won_before(right.user_id, shown, right.at)
        if not (await self.table.commit(current)).closed:
            return None
        elapsed = right.at - record.started_at
        return await self._late(Result(record, right.at,
                                       await self.store.winner_name(record.id), shown,
                                       record.points, elapsed, True, None), restarted)

    async def _late(self, result: Result, restarted: bool) -> Closed:
        """A result owed since before the stop (or the take-over), worded as late, with the
        winning answer and the achievements the round earned under its head (a late close:
        matches resume on their own)."""
        if result.winner_name is not None and not result.answer:  # quote what won it
            right = await self.store.first_right_answer(result.round.id)
            if right is not None:
                result = dataclasses.replace(result, answer=right.text)
        head, rest, listed_all = await self.rounds.results.late(
            result, restarted, await self._live_elsewhere(result.round))
        texts = await self.people.round_texts(result.round)
        return await self.rounds.finish(result.round, head, rest, texts, listed_all,
                                        [RoundClosed(result.round, late=True)])

    async def _live_elsewhere(self, record: Round) -> bool:
        """Whether the round is a group's round of a tournament round not closed in every
        group yet, asked of the database: a take-over loads no tournament's live hands into
        memory (a restart loads them first), and the round's own seat tells without them."""
        return self.tournaments is not None and await self.tournaments.book.still_live(record)
