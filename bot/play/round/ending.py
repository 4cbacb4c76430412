"""How a round ends without a right answer — its time ran out, an alarm was missed, it was ended
early — and the result every closed round is shown with: its events handled (a match adds its
scoreboard), its buttons. It decides no one's right to end a round (bot.play.round.steering).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import Settings
from bot.play.games import GAMES
from bot.play.outcomes import Closed
from bot.play.ports import Target
from bot.play.round.decisions import Ending
from bot.play.round.events import Closings, FollowUp, RoundClosed
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.results import Results
from bot.play.round.showing import result_actions
from bot.play.round.table import RoundTable
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text.i18n import Texts

OVERDUE_GRACE = 1.0  # a round's alarm gets this long to ring before the sweep ends the round


class Endings:
    """Rounds closed without a winner's answer, and the results of closed rounds."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, results: Results,
                 closings: Closings, outbox: Outbox, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.people = people
        self.table = table
        self.results = results
        self.closings = closings
        self.outbox = outbox

    async def ended_here(self, chat: Chat, round_id: int, pages: bool = False) -> Round | None:
        """The ended round of this chat a result's button names (`pages`: one whose game pages
        its solutions), or None: a forged press names a round that never ended here."""
        ended = await self.store.get_round(round_id)
        if ended is None or ended.chat_id != chat.id or ended.status == "open" or \
                (pages and not GAMES[ended.game].rules.pages_solutions):
            return None
        return ended

    async def expire(self, round_id: int) -> Closed | None:
        """The round's time ran out: its result, shown in its topic, if this call closed it."""
        current = self.table.find(round_id)
        if current is None:
            return None
        record = current.record
        closed = await self.end(current, "expired", await self.people.round_texts(record))
        await self.outbox.show(closed, Target(record.chat_id, record.topic))
        return closed

    async def overdue(self) -> list[Closed]:
        """End every open round whose deadline passed more than OVERDUE_GRACE ago (its alarm
        should have rung: the loop stalled, the process was paused): their results."""
        now = self.table.clock()
        late = [r.id for r in self.table.rounds() if r.record.deadline + OVERDUE_GRACE <= now]
        ended = [await self.expire(round_id) for round_id in late]
        return [closed for closed in ended if closed is not None]

    async def end(self, current: OpenRound, status: str, texts: Texts,
                  ended_by: Player | None = None, follow: bool = True,
                  more: Callable[[], Awaitable[str]] | None = None,
                  everyone_passed: bool = False) -> Closed | None:
        """Close a round without a right answer, not shown yet; None if it was closed already.
        Where the closest answer wins, it does, whether the time ran out or the round was ended
        early — but never an answer of `ended_by`, who ended it. `follow`: every follower
        handles the event; else only those of a late close (at a restart, where matches resume
        on their own, the achievements still ride on the result); `more` words lines for under
        the result's head once the round is closed (a stopped match's podium);
        `everyone_passed`: all who answered passed (it scores as at its time-out)."""
        record, rules = current.record, current.rules
        early = status == "revealed" and self.table.clock() < record.deadline
        best = None
        if rules.closest_wins:
            best = await self.store.best_answer(
                record.id, excluding=ended_by.id if early and ended_by else None)
        answered = ended_by is not None and early and \
            ended_by.id in await self.store.answerers(record.id)
        if not current.is_open:
            return None
        ending = Ending(status, best, rules.points_for(best.distance) if best else 0, early,
                        ended_by.id if ended_by else None, answered, everyone_passed)
        current.close(ending, self.table.clock())
        committed = await self.table.commit(current)
        if not committed.closed:
            return None
        quoted = ending.best is not None and ending.points > 0  # the closest answer, unless
        head = self.results.ending_head(  # the hand is live for everyone (a tournament's)
            record, ending, texts, ended_by.first_name if ended_by else None,
            quoted and await self.results.for_everyone(record))
        revealed = await self.results.answers_shown(record, texts)
        if more is not None:
            head = f"{head}\n{await more()}"
        events = committed.events if follow else [late(event) for event in committed.events]
        return await self.finish(record, head, "\n" + revealed.text, texts, revealed.complete,
                                 events, missed=bool(current.answered))

    async def finish(self, ended: Round, head: str, rest: str, texts: Texts,
                     listed_all: bool, events: list[RoundClosed], missed: bool = False) -> Closed:
        """A closed round's result, `head` then `rest`: its events handled (a match adds its
        scoreboard under the head) and its buttons; `missed`: someone answered it and did not
        win, who may ask the coach's line where the game and the chat have one."""
        followed = FollowUp()
        for event in events:
            said = await self.closings.closed(event, texts)  # one language: the head's
            followed = FollowUp("\n".join(filter(None, [followed.lines, said.lines])) or None,
                                followed.match_on or said.match_on,
                                followed.answers_later or said.answers_later)
        if followed.lines:
            head = f"{head}\n{followed.lines}"
        if followed.answers_later and rest.strip() == texts("answers_held_back"):
            rest = ""  # a follower's line says when the answers come (a tournament's): once
        coach = missed and GAMES[ended.game].rules.coaches and \
            (ended.chat_id > 0 or (await self.settings.of(ended.chat_id)).coach)
        actions = result_actions(ended, followed.match_on, listed_all or followed.answers_later,
                                 coach)
        return Closed(ended, head + rest, head, texts, actions)


def late(event: RoundClosed) -> RoundClosed:
    """The close as a late one: its result is said after a restart."""
    return RoundClosed(event.round, late=True)
