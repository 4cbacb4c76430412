"""The round service: a round's life in many chats and topics — deal, reveal, time out — as a
plain class tests drive without Telegram.

Answers are judged in bot.play.answers, hints given in bot.play.hints and a restart is resumed in
bot.play.recovery; they share the open rounds in memory (bot.play.open_rounds). A round's end is
an alarm set through the scheduler port when it is dealt. Ending a round early follows the rule
of bot.play.permissions. Deals come from the stock (bot.play.stock), made ahead in the solver
pool's heavy lane with their analysis, which hints and the round's end read (bot.play.games.rules
`ANALYSES`); what comes back is reply text (HTML). A round's deal is one message, edited as hints
and notices come.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

from bot.play.games import GAMES, Deal, PlayOptions, Revealed, Rules
from bot.play.games.rules import ANALYSES, DEAL_SECONDS
from bot.play.open_rounds import OpenRounds
from bot.play.people import Chat, People, Player
from bot.play.permissions import AdminCheck, end_refusal, may_steer
from bot.play.reply import Reply
from bot.play.scheduler import ROUND_END, Alarm, Scheduler
from bot.play.stock import Stock
from bot.play.throttle import Ticket, WorkBudget
from bot.runtime.pool import SolverPool, SolverTimeout
from bot.store.protocols import RoundStore
from bot.store.records import Place, Round
from bot.text import markup
from bot.text.i18n import Texts

DEFAULT_SECONDS = {"24": 120.0, "countdown": 60.0, "yahtzee": 300.0}
DEAL_ROOM = 1.0  # what a costly deal reserves of the work budget beyond its search time


def hint_points(points: int) -> int:
    """A round won after a hint gives half the points (rounded up)."""
    return (points + 1) // 2


class Rounds:
    """Rounds in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, store: RoundStore, people: People, pool: SolverPool,
                 scheduler: Scheduler, board: OpenRounds, budget: WorkBudget,
                 seconds: Mapping[str, float] | None = None,
                 rng: random.Random | None = None, deal_seconds: float = DEAL_SECONDS,
                 reads_group_messages: bool = True) -> None:
        self.store = store
        self.people = people
        self.pool = pool
        self.scheduler = scheduler
        self.board = board
        self.budget = budget  # shared with the solving service: one allowance per person
        self.seconds = {**DEFAULT_SECONDS, **(seconds or {})}
        self.rng = rng or random.Random()
        self.deal_seconds = deal_seconds
        # False in privacy mode: groups' plain messages never reach the bot, so deals there do
        # not invite players to just type the answer
        self.reads_group_messages = reads_group_messages
        self._dealing: dict[Place, tuple[asyncio.Lock, int]] = {}  # topic -> lock, its users
        self.stock = Stock(pool, lambda: self.rng.getrandbits(64))

    @property
    def clock(self) -> Callable[[], float]:
        return self.board.clock

    def open_round(self, chat_id: int, topic: int = 0) -> Round | None:
        return self.board.of(chat_id, topic)

    async def find_round(self, round_id: int) -> Round | None:
        """A round, open or closed, as stored."""
        return await self.store.get_round(round_id)

    # --- dealing -------------------------------------------------------------------------------

    async def play(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None) -> Reply:
        """Deal a new round of the game, or repeat the round already on in this chat.

        One deal at a time per chat: a /play sent meanwhile waits, then shows the new round.
        A deal that may take long (another target, more numbers) counts as heavy work.
        """
        texts = self.people.texts(chat, player)
        options = options or PlayOptions()
        async with self._one_deal_at_a_time(chat.id, chat.topic):
            current = self.board.of(chat.id, chat.topic)
            if current is not None:
                return Reply(self.still_open(current, texts))
            rules = GAMES[game]
            dealt = await self._deal(chat, player, rules, options, texts)
            if isinstance(dealt, str):
                return Reply(dealt)
            return await self._open(chat, player, rules, dealt, options, texts)

    async def _deal(self, chat: Chat, player: Player, rules: Rules, options: PlayOptions,
                    texts: Texts) -> Deal | str:
        """A new puzzle, or why there is none (busy, too slow, no hand for that target)."""
        ticket: Ticket | None = None
        if rules.costly(options):
            taken = self.budget.take(player.id, chat.id, self.deal_seconds + DEAL_ROOM)
            if isinstance(taken, int):
                return texts("busy", seconds=taken)
            ticket = taken
        cost = self.deal_seconds + DEAL_ROOM  # what a deal stopped at its limit costs
        try:
            dealt, cost = await self.stock.take(rules, options, self.deal_seconds)
        except SolverTimeout:
            return texts("deal_timeout")
        finally:
            if ticket is not None:  # the hand's own solver time, made ahead or just now
                self.budget.settle(ticket, cost)
        if dealt is None:
            return texts("play_no_hand", count=options.count or 4,
                         target=24 if options.target is None else options.target)
        return dealt

    async def _open(self, chat: Chat, player: Player, rules: Rules, dealt: Deal,
                    options: PlayOptions, texts: Texts) -> Reply:
        """Store the dealt round and set its end (before anything is sent, so that a failed
        send cannot leave a round without an end)."""
        await self.people.remember(chat, player)
        now = self.clock()
        length = self.seconds[dealt.game]
        new = await self.store.open_round(chat.id, dealt.game, dealt.hand, dealt.target,
                                          dealt.level, dealt.points, texts.language, now,
                                          now + length, player.id, chat.topic)
        if new is None:  # another /play won the race while this hand was dealt
            current = self.board.of(chat.id, chat.topic) or \
                await self.store.open_round_of(chat.id, chat.topic)
            return Reply(self.still_open(current, texts) if current else texts("no_round"))
        self.board.start(new)
        if dealt.analysis is not None:
            ANALYSES.keep(new.game, new.hand, new.target, dealt.analysis)
        self.scheduler.set(Alarm(ROUND_END, chat.id, new.id, chat.topic), length)
        text = self._deal_text(new, texts, chat.type)
        if options.level is not None and dealt.level != options.level:
            text += "\n" + texts("play_other_level", wanted=texts(f"level_{options.level}"),
                                 level=texts(f"level_{dealt.level}"), target=dealt.target)
        self.board.deals[new.id] = text
        return Reply(text, dealt=new)

    def _deal_text(self, current: Round, texts: Texts, chat_type: str) -> str:
        typing = self.reads_group_messages or chat_type == "private"
        rules = GAMES[current.game]
        return "\n".join(filter(None, [rules.deal_text(current, texts),
                                        rules.how_to_answer(texts, typing)]))

    @asynccontextmanager
    async def _one_deal_at_a_time(self, chat_id: int, topic: int) -> AsyncIterator[None]:
        """A lock per chat and topic, kept while someone holds or waits for it: ten /play at
        once in a topic make one deal, not ten."""
        place = (chat_id, topic)
        lock, users = self._dealing.get(place, (asyncio.Lock(), 0))
        self._dealing[place] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._dealing[place]
            if users == 1:
                del self._dealing[place]
            else:
                self._dealing[place] = (lock, users - 1)

    def still_open(self, current: Round, texts: Texts) -> str:
        left = max(0, round(current.deadline - self.clock()))
        return GAMES[current.game].still_open_text(current, texts, left)

    def is_deal(self, chat_id: int, message_id: int, topic: int = 0) -> bool:
        """Whether a message is the deal of the topic's round (open, or just won): a reply to
        it is an answer."""
        return self.board.is_deal(chat_id, message_id, topic)

    async def set_message(self, round_: Round, message_id: int) -> None:
        """The deal message's id: replies to it are answers, and hints edit it."""
        await self.store.set_message(round_.id, message_id)
        self.board.update(round_, message_id=message_id)

    def deal_view(self, current: Round, note: tuple[str, str] | None = None) -> str:
        """The deal's text as it stands: as dealt, with its notes (the hints given so far, the
        time left in a match) under it. `note` (kind, line) is added or replaced first."""
        notes = self.board.notes.setdefault(current.id, {})
        if note is not None:
            notes[note[0]] = note[1]
        base = self.board.deals.get(current.id)
        if base is None:  # after a restart: as dealt, less its level note and match number
            texts = self.people.round_texts(current)
            base = self._deal_text(current, texts, "private" if current.chat_id > 0 else "group")
            self.board.deals[current.id] = base
        return markup.clip("\n".join([base, *notes.values()]))

    async def reveal(self, chat: Chat, player: Player,
                     is_admin: AdminCheck | None = None) -> Reply:
        """/reveal: end the round now and show the answers (see `end_refusal` for who may)."""
        texts = self.people.texts(chat, player)
        current = self.board.of(chat.id, chat.topic)
        if current is None:
            return Reply(texts("no_round"), notice=texts("no_round"))
        refusal = await self.end_refusal(chat, player, current, is_admin)
        if refusal is not None:
            return Reply(refusal, notice=refusal)
        closed = await self.close(current, "revealed", texts, ended_by=player)
        return closed or Reply(texts("no_round"), notice=texts("no_round"))

    async def end_refusal(self, chat: Chat, player: Player, current: Round,
                          is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not end the round early (None: they may): only its starter
        or an admin may, and once others have answered, only an admin (bot.play.permissions),
        so that ending a round never changes who scores."""
        texts = self.people.texts(chat, player)
        answerers = await self.store.answerers(current.id) if chat.type != "private" else []
        why = await end_refusal(chat.type, player.id, current.started_by, answerers, is_admin)
        if why is None:
            return None
        left = max(0, round(current.deadline - self.clock()))
        if why == "others_answered":
            return texts("reveal_others_answered", seconds=left)
        return texts("reveal_not_allowed", seconds=left,
                     starter=await self.people.starter(current.started_by, texts))

    async def steer_refusal(self, chat: Chat, player: Player, round_id: int, action: str,
                            is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not take the hint ("hint") or end the round ("reveal") of the
        round `round_id` now, or None if they may: what a button press is told at once, before
        any work (the same rules as /hint and /reveal)."""
        texts = self.people.texts(chat, player)
        current = self.board.of(chat.id, chat.topic)
        if current is None or current.id != round_id:
            return texts("round_over")
        if action == "reveal":
            return await self.end_refusal(chat, player, current, is_admin)
        if current.hint_used or await may_steer(chat.type, player.id, current.started_by,
                                                is_admin):
            return None
        return texts("hint_not_allowed",
                     starter=await self.people.starter(current.started_by, texts))

    # --- the end -------------------------------------------------------------------------------

    async def expire(self, round_id: int) -> Reply | None:
        """The round's time ran out: its result, if this call closed it."""
        current = self.board.find(round_id)
        if current is None:
            return None
        return await self.close(current, "expired", self.people.round_texts(current))

    async def close(self, current: Round, status: str, texts: Texts,
                    ended_by: Player | None = None) -> Reply | None:
        """Close a round without a right answer; None if it was closed already. Where the
        closest answer wins, it does, whether the time ran out or the round was ended early
        — but never an answer of `ended_by`, who ended it. The message shows the puzzle's best
        answers, unless the same puzzle is live in another chat."""
        rules = GAMES[current.game]
        early = status == "revealed" and self.clock() < current.deadline
        lines = [texts("timeout" if status == "expired" else "revealed",
                       goal=rules.goal_html(current, texts))]
        revealed = await self.answers_shown(current, texts)
        winner, best = None, None
        if rules.closest_wins:
            best = await self.store.best_answer(
                current.id, excluding=ended_by.id if early and ended_by else None)
        points = rules.points_for(best.distance) if best is not None else 0
        now = self.clock()
        if best is not None and points > 0:
            winner = best.user_id
            lines.append(texts("closest_wins", name=markup.name(best.name),
                               answer=markup.code(best.text), distance=best.distance,
                               points=points))
        elif rules.closest_wins:
            lines.append(texts("nobody_close"))
        if early and rules.closest_wins and ended_by is not None:
            lines.append(texts("ended_early", name=markup.name(ended_by.first_name)))
        if not await self.store.close_round(
                current.id, "won" if winner else status, now, winner,
                best.text if winner and best else None, points,
                best.at - current.started_at if winner and best else None):
            return None
        self.ended(current)
        head = "\n".join(lines)
        return Reply(f"{head}\n{revealed.text}", closed=True, ended=current.id, head=head,
                     listed_all=revealed.complete)

    async def answers_shown(self, current: Round, texts: Texts) -> Revealed:
        """The puzzle's answers for its result, or a line saying they are kept back while
        the same puzzle is live in another chat (the bot solves no live round for anyone)."""
        if self.board.live.elsewhere(current):
            return Revealed(texts("answers_held_back"), complete=False)
        return await GAMES[current.game].reveal(self.pool, current, texts)

    def ended(self, current: Round, won_at: float | None = None) -> None:
        """The round closed: it leaves the open rounds, and its end alarm goes."""
        self.board.end(current, won_at)
        self.scheduler.cancel(ROUND_END, current.chat_id, current.topic)

    async def announced(self, round_id: int, head: str | None = None) -> None:
        """The round's result message was sent (a restart does not send it again); `head` is
        its part that stays on top when its solutions are paged."""
        await self.store.set_announced([round_id])
        if head is not None:
            self.board.remember_result(round_id, head)

    def result_head(self, round_id: int) -> str:
        """The head of a round's result as it was sent (who won, or how it ended, and a
        match's scoreboard), to keep on top while its solutions are paged ("" once
        forgotten)."""
        return self.board.results.get(round_id, "")

    async def migrate_chat(self, old_id: int, new_id: int) -> Round | None:
        """A group became a supergroup; returns its open round, now under the new id, whose
        end alarm moves with it."""
        await self.people.migrate_chat(old_id, new_id)
        moved = self.board.move(old_id, new_id)
        self.scheduler.cancel(ROUND_END, old_id)
        if moved is not None:
            self.scheduler.set(Alarm(ROUND_END, new_id, moved.id),
                               moved.deadline - self.clock())
        return moved
