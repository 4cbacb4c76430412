"""The round service: a round's life in many chats — deal, hint, reveal, time out — as a plain
class tests drive without Telegram.

Answers are judged in bot.play.answers and a restart is resumed in bot.play.recovery; all three
share the open rounds in memory (bot.play.open_rounds). A round's end is an alarm set through
the scheduler port when it is dealt. Ending a round early and the first hint follow the rule of
bot.play.permissions. Solver work goes to the pool through the game's rules; what comes back is
reply text (HTML).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

from bot.play.games import GAMES, Deal, PlayOptions, Rules
from bot.play.games.rules import DEAL_SECONDS
from bot.play.open_rounds import OpenRounds
from bot.play.people import Chat, People, Player
from bot.play.permissions import AdminCheck, may_steer
from bot.play.reply import Reply
from bot.play.scheduler import ROUND_END, Alarm, Scheduler
from bot.play.throttle import Ticket, WorkBudget
from bot.runtime.pool import SolverPool, SolverTimeout
from bot.store.protocols import RoundStore
from bot.store.records import Round
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
        self._dealing: dict[int, tuple[asyncio.Lock, int]] = {}  # chat id -> lock, its users

    @property
    def clock(self) -> Callable[[], float]:
        return self.board.clock

    def open_round(self, chat_id: int) -> Round | None:
        return self.board.of(chat_id)

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
        async with self._one_deal_at_a_time(chat.id):
            current = self.board.of(chat.id)
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
        started = time.perf_counter()
        try:
            dealt = await rules.deal(self.pool, self.rng.getrandbits(64), options,
                                     self.deal_seconds)
        except SolverTimeout:
            return texts("deal_timeout")
        finally:
            if ticket is not None:
                self.budget.settle(ticket, time.perf_counter() - started)
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
                                          now + length, player.id)
        if new is None:  # another /play won the race while this hand was dealt
            current = self.board.of(chat.id) or await self.store.open_round_of(chat.id)
            return Reply(self.still_open(current, texts) if current else texts("no_round"))
        self.board.start(new)
        self.scheduler.set(Alarm(ROUND_END, chat.id, new.id), length)
        typing = self.reads_group_messages or chat.type == "private"
        text = "\n".join(filter(None, [rules.deal_text(new, texts),
                                        rules.how_to_answer(texts, typing)]))
        if options.level is not None and dealt.level != options.level:
            text += "\n" + texts("play_other_level", wanted=texts(f"level_{options.level}"),
                                 level=texts(f"level_{dealt.level}"), target=dealt.target)
        return Reply(text, dealt=new)

    @asynccontextmanager
    async def _one_deal_at_a_time(self, chat_id: int) -> AsyncIterator[None]:
        """A lock per chat, kept while someone holds or waits for it: ten /play at once in a
        chat make one deal, not ten."""
        lock, users = self._dealing.get(chat_id, (asyncio.Lock(), 0))
        self._dealing[chat_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._dealing[chat_id]
            if users == 1:
                del self._dealing[chat_id]
            else:
                self._dealing[chat_id] = (lock, users - 1)

    def still_open(self, current: Round, texts: Texts) -> str:
        left = max(0, round(current.deadline - self.clock()))
        return GAMES[current.game].still_open_text(current, texts, left)

    def is_deal(self, chat_id: int, message_id: int) -> bool:
        """Whether a message is the deal of the chat's round (open, or just won): a reply to it
        is an answer."""
        return self.board.is_deal(chat_id, message_id)

    async def set_message(self, round_: Round, message_id: int) -> None:
        """The deal message's id: replies to it are answers."""
        await self.store.set_message(round_.id, message_id)
        self.board.update(round_.id, round_.chat_id, message_id=message_id)

    # --- steering: hints and the early end -----------------------------------------------------

    async def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None) -> str:
        """The next step of a solution. The first lowers the round's points (once) and is for
        whoever started the round or an admin, since it costs everyone; after it, anyone may
        ask for the next step, until only the answer itself is left."""
        texts = self.people.texts(chat, player)
        current = self.board.of(chat.id)
        if current is None:
            return texts("no_round")
        rules = GAMES[current.game]
        if not rules.gives_hints:
            return texts("no_hints")
        if not current.hint_used and not await may_steer(chat.type, player.id,
                                                         current.started_by, is_admin):
            return texts("hint_not_allowed",
                         starter=await self.people.starter(current.started_by, texts))
        steps = await rules.hint_steps(self.pool, current)
        if not steps:
            return texts("no_hints")
        given = await self._hints_given(current)
        if given >= max(1, len(steps) - 1):  # the last step is the answer: never a hint
            return texts("hint_none_left", steps=", ".join(
                markup.code(step) for step, _ in steps[:given]))
        points = current.points if current.hint_used else hint_points(current.points)
        if await self.store.give_hint(current.id, given + 1, points):
            self.board.hints[current.id] = given + 1
            self.board.update(current.id, chat.id, points=points, hint_used=True)
        step, value = steps[given]
        if given == 0:
            return texts("hint", step=markup.code(step), points=points)
        return texts("hint_next", step=markup.code(step),
                     value=f"<code>{markup.escape(value)}</code>", points=points)

    async def _hints_given(self, current: Round) -> int:
        """How many steps of this round's solution were given (read once after a restart)."""
        if current.id not in self.board.hints:
            self.board.hints[current.id] = \
                await self.store.hints_given(current.id) if current.hint_used else 0
        return self.board.hints[current.id]

    async def reveal(self, chat: Chat, player: Player,
                     is_admin: AdminCheck | None = None) -> Reply:
        """/reveal: end the round now and show the answers (whoever started it, or an admin)."""
        texts = self.people.texts(chat, player)
        current = self.board.of(chat.id)
        if current is None:
            return Reply(texts("no_round"))
        if not await may_steer(chat.type, player.id, current.started_by, is_admin):
            return Reply(texts("reveal_not_allowed",
                               starter=await self.people.starter(current.started_by, texts)))
        closed = await self.close(current, "revealed", texts)
        return Reply(closed, closed=True, ended=current.id) if closed else \
            Reply(texts("no_round"))

    async def steer_refusal(self, chat: Chat, player: Player, round_id: int, action: str,
                            is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not take the hint ("hint") or end the round ("reveal") of the
        round `round_id` now, or None if they may: what a button press is told at once, before
        any work (the same rule as /hint and /reveal)."""
        texts = self.people.texts(chat, player)
        current = self.board.of(chat.id)
        if current is None or current.id != round_id:
            return texts("round_over")
        if action == "hint" and current.hint_used:
            return None
        if await may_steer(chat.type, player.id, current.started_by, is_admin):
            return None
        return texts(f"{action}_not_allowed",
                     starter=await self.people.starter(current.started_by, texts))

    # --- the end -------------------------------------------------------------------------------

    async def expire(self, round_id: int) -> tuple[int, str] | None:
        """The round's time ran out: (chat, text) if this call closed it."""
        current = self.board.find(round_id)
        if current is None:
            return None
        closed = await self.close(current, "expired", self.people.round_texts(current))
        return (current.chat_id, closed) if closed else None

    async def close(self, current: Round, status: str, texts: Texts) -> str | None:
        """Close a round without a right answer: where the closest answer wins, it does when the
        time is up (a round ended early has no winner, or ending it would be a way to win), and
        the message shows the puzzle's best answers."""
        rules = GAMES[current.game]
        early = status == "revealed" and self.clock() < current.deadline
        head = texts("timeout" if status == "expired" else "revealed",
                     goal=rules.goal_html(current, texts))
        details = await rules.reveal_text(self.pool, current, texts)
        winner, lines = None, [head]
        best = await self.store.best_answer(current.id) \
            if rules.closest_wins and not early else None
        points = rules.points_for(best.distance) if best is not None else 0
        now = self.clock()
        if best is not None and points > 0:
            winner = best.user_id
            lines.append(texts("closest_wins", name=markup.name(best.name),
                               answer=markup.code(best.text), distance=best.distance,
                               points=points))
        elif rules.closest_wins:
            lines.append(texts("ended_early" if early else "nobody_close"))
        if not await self.store.close_round(
                current.id, "won" if winner else status, now, winner,
                best.text if winner and best else None, points,
                best.at - current.started_at if winner and best else None):
            return None
        self.ended(current)
        return "\n".join([*lines, details])

    def ended(self, current: Round, won_at: float | None = None) -> None:
        """The round closed: it leaves the open rounds, and its end alarm goes."""
        self.board.end(current, won_at)
        self.scheduler.cancel(ROUND_END, current.chat_id)

    async def announced(self, round_id: int) -> None:
        """The round's result message was sent: a restart does not send it again."""
        await self.store.set_announced([round_id])

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
