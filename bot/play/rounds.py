"""The round service: rounds of every game in many chats, as a plain class tests drive without
Telegram.

Deal, accept answers (the first right one wins, atomically; in Countdown the closest at the end),
hints with a point penalty, reveal, time out, resume after a restart, leaderboards, the chat's
language. Ending a round early, a hint and the chat's language are for whoever started the
round or a chat admin (asked through a callback, so no Telegram here). Open rounds, chat
languages and known players are kept in memory as well as in storage (this process is the
database's only writer), so an answer costs no read. Solver work goes to the pool through the
game's rules; what comes back is reply text (HTML).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.play.games import GAMES, Deal, PlayOptions, Rules, Verdict
from bot.play.games.rules import DEAL_SECONDS
from bot.play.throttle import Admission, Throttle, Ticket, WorkBudget
from bot.runtime.pool import SolverPool, SolverTimeout
from bot.store.storage import RaceWinner, Result, Round, Stats, Storage
from bot.text import markup
from bot.text.i18n import Texts, language_of, parse_language, texts_for

DEFAULT_SECONDS = {"24": 120.0, "countdown": 60.0, "yahtzee": 300.0}
DEAL_ROOM = 1.0  # what a costly deal reserves of the work budget beyond its search time
# A result the bot could not send before it stopped is sent at start-up, unless it is older than
# this: a day-old "Ann wins" would puzzle the chat more than it tells.
ANNOUNCE_WITHIN = 24 * 3600.0
# A right answer this long after the round was won is still told who was first, and by how much;
# later, or once a new round is on, the chat has moved on.
LATE_WITHIN = 60.0
WRONG_REACTION = "👎"  # one of the emoji Telegram allows as a reaction

AdminCheck = Callable[[], Awaitable[bool]]
"""Whether the speaker is an admin of the chat (asked only when it matters)."""


@dataclass(frozen=True)
class Chat:
    id: int
    type: str = "group"
    title: str | None = None


@dataclass(frozen=True)
class Player:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True)
class Reply:
    """Text to send; `dealt` is a round this reply opens (its timer starts), `closed` says the
    reply ended the chat's round (its timer goes), `ended` is that round's id (once the reply is
    sent, its result counts as announced). `reaction`: mark the answer with this emoji instead
    of sending `text` (a wrong typed attempt; `text` is said only if the reaction fails)."""

    text: str
    dealt: Round | None = None
    closed: bool = False
    ended: int | None = None
    reaction: str | None = None


@dataclass(frozen=True)
class Announcement:
    """A round's result to send at start-up; once sent, mark it with `Game.announced`."""

    round_id: int
    chat_id: int
    text: str


def hint_points(points: int) -> int:
    """A round won after a hint gives half the points (rounded up)."""
    return (points + 1) // 2


class Game:
    """Rounds in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, storage: Storage, pool: SolverPool,
                 seconds: Mapping[str, float] | None = None,
                 clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None,
                 deal_seconds: float = DEAL_SECONDS,
                 reads_group_messages: bool = True) -> None:
        self.storage = storage
        self.pool = pool
        self.seconds = {**DEFAULT_SECONDS, **(seconds or {})}
        self.clock = clock
        self.rng = rng or random.Random()
        self.deal_seconds = deal_seconds
        # False in privacy mode: groups' plain messages never reach the bot, so deals there do
        # not invite players to just type the answer
        self.reads_group_messages = reads_group_messages
        self.throttle = Throttle()
        self.budget = WorkBudget()  # shared with the solving service: one allowance per person
        self._dealing: dict[int, tuple[asyncio.Lock, int]] = {}  # chat id -> lock, its users
        self._open: dict[int, Round] = {}  # chat id -> its open round
        self._won: dict[int, tuple[Round, float]] = {}  # chat id -> its last round won, when
        self._hints: dict[int, int] = {}  # open round id -> hints given
        self._languages: dict[int, str] = {}
        self._chats: dict[int, tuple[str, str | None]] = {}
        self._users: dict[int, tuple[str, str | None]] = {}

    async def load(self) -> list[Round]:
        """Read the chats' languages and the open rounds; returns the open rounds."""
        self._languages = await self.storage.languages()
        rounds = await self.storage.open_rounds()
        self._open = {r.chat_id: r for r in rounds}
        return rounds

    # --- who and in which language -------------------------------------------------------------

    def texts(self, chat: Chat, player: Player | None = None) -> Texts:
        """The chat's language if it chose one, else the speaker's Telegram language; worded
        for a private chat or a group."""
        chosen = self._languages.get(chat.id)
        return texts_for(chosen or language_of(player.language_code if player else None),
                         private=chat.type == "private")

    def round_texts(self, current: Round) -> Texts:
        """The words for a round's end when nobody spoke: the chat's language, else the one it
        was dealt in. Telegram gives private chats the user's id, positive, and groups negative
        ids, so the chat's kind is known without asking."""
        return texts_for(self._languages.get(current.chat_id) or current.lang,
                         private=current.chat_id > 0)

    def help(self, chat: Chat, player: Player, bot_name: str) -> str:
        """/help: every command, with this bot's round lengths."""
        return self.texts(chat, player)("help", bot=bot_name, seconds_24=self.seconds["24"],
                                        seconds_countdown=self.seconds["countdown"],
                                        seconds_yahtzee=self.seconds["yahtzee"])

    async def _remember(self, chat: Chat | None, player: Player) -> None:
        """Store a chat or player the first time they are seen (or when their names change)."""
        if chat is not None and self._chats.get(chat.id) != (chat.type, chat.title):
            await self.storage.remember_chat(chat.id, chat.type, chat.title)
            self._chats[chat.id] = (chat.type, chat.title)
        if self._users.get(player.id) != (player.first_name, player.username):
            await self.storage.remember_user(player.id, player.first_name, player.username)
            self._users[player.id] = (player.first_name, player.username)

    async def set_language(self, chat: Chat, player: Player, choice: str,
                           is_admin: AdminCheck | None = None) -> str:
        """/lang en|zh (or zh-CN, en_US, ...): the chat's language from now on (a group's admins
        choose it); without a valid choice, the usage."""
        language = parse_language(choice)
        texts = self.texts(chat, player)
        if language is None:
            return texts("lang_usage", current=texts("lang_name"))
        if not await self._may_steer(chat, player, None, is_admin):
            return texts("lang_not_allowed")
        await self._remember(chat, player)
        await self.storage.set_language(chat.id, language)
        self._languages[chat.id] = language
        return texts_for(language, private=chat.type == "private")("lang_set")

    # --- rounds --------------------------------------------------------------------------------

    def open_round(self, chat_id: int) -> Round | None:
        return self._open.get(chat_id)

    async def play(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None) -> Reply:
        """Deal a new round of the game, or repeat the round already on in this chat.

        One deal at a time per chat: a /play sent meanwhile waits, then shows the new round.
        A deal that may take long (another target, more numbers) counts as heavy work.
        """
        texts = self.texts(chat, player)
        options = options or PlayOptions()
        async with self._one_deal_at_a_time(chat.id):
            current = self._open.get(chat.id)
            if current is not None:
                return Reply(self._still_open(current, texts))
            rules = GAMES[game]
            dealt = await self._deal(chat, player, rules, options, texts)
            if isinstance(dealt, str):
                return Reply(dealt)
            return await self._open_round(chat, player, rules, dealt, options, texts)

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

    async def _open_round(self, chat: Chat, player: Player, rules: Rules, dealt: Deal,
                          options: PlayOptions, texts: Texts) -> Reply:
        await self._remember(chat, player)
        now = self.clock()
        new = await self.storage.open_round(chat.id, dealt.game, dealt.hand, dealt.target,
                                            dealt.level, dealt.points, texts.language, now,
                                            now + self.seconds[dealt.game], player.id)
        if new is None:  # another /play won the race while this hand was dealt
            current = self._open.get(chat.id) or await self.storage.open_round_of(chat.id)
            return Reply(self._still_open(current, texts) if current else texts("no_round"))
        self._open[chat.id] = new
        self._won.pop(chat.id, None)
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

    def _still_open(self, current: Round, texts: Texts) -> str:
        left = max(0, round(current.deadline - self.clock()))
        return GAMES[current.game].still_open_text(current, texts, left)

    def is_deal(self, chat_id: int, message_id: int) -> bool:
        """Whether a message is the deal of the chat's round (open, or just won): a reply to it
        is an answer."""
        current = self._open.get(chat_id) or self._just_won(chat_id)
        return current is not None and current.message_id == message_id

    async def set_message(self, round_: Round, message_id: int) -> None:
        """The deal message's id: replies to it are answers."""
        await self.storage.set_message(round_.id, message_id)
        if (current := self._open.get(round_.chat_id)) is not None and current.id == round_.id:
            self._open[round_.chat_id] = dataclasses.replace(current, message_id=message_id)
        if (won := self._won.get(round_.chat_id)) is not None and won[0].id == round_.id:
            self._won[round_.chat_id] = (dataclasses.replace(won[0], message_id=message_id),
                                         won[1])

    async def answer(self, chat: Chat, player: Player, text: str, explicit: bool) -> Reply | None:
        """Judge an answer; None means stay silent (not an attempt, no round, throttled).

        Every answer is judged and recorded, so a right one always wins and a Countdown answer
        always competes; the throttle only holds back replies to the others, with one note to
        slow down per burst. A wrong typed attempt (not explicit) is marked with a reaction
        rather than a message, to keep the chat quiet.
        """
        current = self._open.get(chat.id)
        if current is None:
            return await self._late(chat, player, text, explicit)
        rules = GAMES[current.game]
        if not explicit and not rules.looks_like_answer(text):
            return None  # chatter: not even worth a trip to the pool
        verdict = await rules.judge(self.pool, current, text, explicit)
        if verdict.kind == "ignore":
            return None
        texts = self.texts(chat, player)
        await self._remember(chat, player)
        now = self.clock()
        right = verdict.kind == "right"
        refusal = None
        if rules.guesses is not None and verdict.distance is not None:
            made = await self.storage.record_guess(current.id, player.id, text[:200], right,
                                                   now, verdict.distance, rules.guesses)
            if made is None:  # counted from the stored answers, so a restart changes nothing
                right, refusal = False, texts("no_guesses_left", guesses=rules.guesses,
                                              name=markup.name(player.first_name))
            else:
                verdict = dataclasses.replace(verdict, params={"left": rules.guesses - made})
        else:
            await self.storage.record_answer(current.id, player.id, text[:200], right, now,
                                             verdict.distance)
        if not right:
            return await self._not_right(chat, player, current, verdict, texts, explicit,
                                         refusal)
        shown = markup.code(verdict.expression) if verdict.expression else \
            f"<code>{verdict.value}</code>"
        if await self.storage.close_round(current.id, "won", now, player.id,
                                          verdict.expression or verdict.value, current.points,
                                          now - current.started_at):
            self._forget(current)
            self._won[chat.id] = (current, now)
            won = texts("won", name=markup.name(player.first_name), answer=shown,
                        elapsed=texts.seconds(now - current.started_at), points=current.points)
            details = await rules.win_details(self.pool, current, texts)
            return Reply("\n\n".join(filter(None, [won, details])), closed=True,
                         ended=current.id)
        return Reply(self._too_late(await self.storage.race(current.id), now, texts))

    async def _not_right(self, chat: Chat, player: Player, current: Round, verdict: Verdict,
                         texts: Texts, explicit: bool, refusal: str | None = None
                         ) -> Reply | None:
        """The reply to an answer that did not win (yet): throttled; a typed attempt that
        scores nothing gets a reaction; a Countdown answer that ties or trails another
        player's earlier one is told so (the earlier answer wins a tie). A guess (Yahtzee)
        is always answered in words: "higher" or "lower" is what the player plays with."""
        rules = GAMES[current.game]
        admission = self.throttle.admit(chat.id, player.id)
        if admission is Admission.QUIET:
            return None
        if admission is Admission.NOTE:
            return Reply(texts("slow_down", name=markup.name(player.first_name)))
        if refusal is not None:
            return Reply(refusal)
        text = rules.verdict_text(verdict, current, texts)
        if rules.guesses is not None:
            return Reply(text)
        if verdict.distance is None or rules.points_for(verdict.distance) == 0:
            return Reply(text) if explicit else Reply(text, reaction=WRONG_REACTION)
        best = await self.storage.best_answer(current.id)  # this one is stored: ties settled
        if best is None or best.user_id == player.id:
            return Reply(text)
        key = "countdown_tie" if best.distance == verdict.distance else "countdown_behind"
        return Reply(texts(key, expression=markup.code(verdict.expression),
                           value=verdict.value, distance=verdict.distance,
                           name=markup.name(best.name), best=best.distance))

    async def _late(self, chat: Chat, player: Player, text: str,
                    explicit: bool) -> Reply | None:
        """An answer when no round is on. Right for the round just won, it is stored (its
        player played that round, as one who lost the race by a hair) and told who was first
        and by how much; anything else after a win is told the round is over, if explicit;
        with no recent win, an explicit answer hears there is no round."""
        texts = self.texts(chat, player)
        finished = self._just_won(chat.id)
        if finished is None:
            return Reply(texts("no_round")) if explicit else None
        rules = GAMES[finished.game]
        if not explicit and not rules.looks_like_answer(text):
            return None
        verdict = await rules.judge(self.pool, finished, text, explicit)
        winner = await self.storage.race(finished.id)
        if verdict.kind != "right" or winner is None or winner.user_id == player.id:
            return Reply(texts("round_over")) if explicit else None
        await self._remember(chat, player)
        now = self.clock()
        await self.storage.record_answer(finished.id, player.id, text[:200], True, now,
                                         verdict.distance)
        return Reply(self._too_late(winner, now, texts))

    def _just_won(self, chat_id: int) -> Round | None:
        """The chat's round won less than LATE_WITHIN ago (None once a new one is dealt)."""
        won = self._won.get(chat_id)
        if won is None:
            return None
        if self.clock() - won[1] > LATE_WITHIN:
            del self._won[chat_id]
            return None
        return won[0]

    @staticmethod
    def _too_late(winner: RaceWinner | None, at: float, texts: Texts) -> str:
        """A right answer stored at `at` lost the race: who was first, and by how much, from
        the stored times of both answers."""
        if winner is None:
            return texts("round_over")
        name, gap = markup.name(winner.name), at - winner.at
        if gap < 0.05:  # shown to a tenth of a second
            return texts("too_late_instant", name=name)
        return texts("too_late_by", name=name, seconds=texts.seconds(gap))

    async def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None) -> str:
        """The next step of a solution. The first lowers the round's points (once) and is for
        whoever started the round or an admin, since it costs everyone; after it, anyone may
        ask for the next step, until only the answer itself is left."""
        texts = self.texts(chat, player)
        current = self._open.get(chat.id)
        if current is None:
            return texts("no_round")
        rules = GAMES[current.game]
        if not rules.gives_hints:
            return texts("no_hints")
        if not current.hint_used and not await self._may_steer(chat, player, current, is_admin):
            return texts("hint_not_allowed", starter=await self._starter(current, texts))
        steps = await rules.hint_steps(self.pool, current)
        if not steps:
            return texts("no_hints")
        given = await self._hints_given(current)
        if given >= max(1, len(steps) - 1):  # the last step is the answer: never a hint
            return texts("hint_none_left", steps=", ".join(
                markup.code(step) for step, _ in steps[:given]))
        points = current.points if current.hint_used else hint_points(current.points)
        if await self.storage.give_hint(current.id, given + 1, points):
            self._hints[current.id] = given + 1
            if (still := self._open.get(chat.id)) is not None and still.id == current.id:
                self._open[chat.id] = dataclasses.replace(still, points=points, hint_used=True)
        step, value = steps[given]
        if given == 0:
            return texts("hint", step=markup.code(step), points=points)
        return texts("hint_next", step=markup.code(step),
                     value=f"<code>{markup.escape(value)}</code>",
                     points=points)

    async def _hints_given(self, current: Round) -> int:
        """How many steps of this round's solution were given (read once after a restart)."""
        if current.id not in self._hints:
            self._hints[current.id] = \
                await self.storage.hints_given(current.id) if current.hint_used else 0
        return self._hints[current.id]

    async def reveal(self, chat: Chat, player: Player,
                     is_admin: AdminCheck | None = None) -> Reply:
        """/reveal: end the round now and show the answers (whoever started it, or an admin)."""
        texts = self.texts(chat, player)
        current = self._open.get(chat.id)
        if current is None:
            return Reply(texts("no_round"))
        if not await self._may_steer(chat, player, current, is_admin):
            return Reply(texts("reveal_not_allowed", starter=await self._starter(current, texts)))
        closed = await self._close(current, "revealed", texts)
        return Reply(closed, closed=True, ended=current.id) if closed else \
            Reply(texts("no_round"))

    async def steer_refusal(self, chat: Chat, player: Player, round_id: int, action: str,
                            is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not take the hint ("hint") or end the round ("reveal") of the
        round `round_id` now, or None if they may: what a button press is told at once, before
        any work (the same rule as /hint and /reveal)."""
        texts = self.texts(chat, player)
        current = self._open.get(chat.id)
        if current is None or current.id != round_id:
            return texts("round_over")
        if action == "hint" and current.hint_used:
            return None
        if await self._may_steer(chat, player, current, is_admin):
            return None
        return texts(f"{action}_not_allowed", starter=await self._starter(current, texts))

    async def find_round(self, round_id: int) -> Round | None:
        """A round, open or closed, as stored."""
        return await self.storage.get_round(round_id)

    async def expire(self, round_id: int) -> tuple[int, str] | None:
        """The round's time ran out: (chat, text) if this call closed it."""
        current = next((r for r in self._open.values() if r.id == round_id), None)
        if current is None:
            return None
        texts = self.round_texts(current)
        closed = await self._close(current, "expired", texts)
        return (current.chat_id, closed) if closed else None

    async def _close(self, current: Round, status: str, texts: Texts) -> str | None:
        """Close a round without a right answer: where the closest answer wins, it does when the
        time is up (a round ended early has no winner, or ending it would be a way to win), and
        the message shows the puzzle's best answers."""
        rules = GAMES[current.game]
        early = status == "revealed" and self.clock() < current.deadline
        head = texts("timeout" if status == "expired" else "revealed",
                     goal=rules.goal_html(current, texts))
        details = await rules.reveal_text(self.pool, current, texts)
        winner, lines = None, [head]
        best = await self.storage.best_answer(current.id) \
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
        if not await self.storage.close_round(
                current.id, "won" if winner else status, now, winner,
                best.text if winner and best else None, points,
                best.at - current.started_at if winner and best else None):
            return None
        self._forget(current)
        return "\n".join([*lines, details])

    async def may_steer(self, chat: Chat, player: Player, started_by: int | None,
                        is_admin: AdminCheck | None) -> bool:
        """The rule of `_may_steer` for something else a player started (a match)."""
        return started_by == player.id or await self._may_steer(chat, player, None, is_admin)

    async def _may_steer(self, chat: Chat, player: Player, current: Round | None,
                         is_admin: AdminCheck | None) -> bool:
        """May this player end the round early, take the hint or set the language? In a private
        chat, always; in a group, if they started the round, or are an admin."""
        if chat.type == "private":
            return True
        if current is not None and current.started_by == player.id:
            return True
        return is_admin is not None and await is_admin()

    async def _starter(self, current: Round, texts: Texts) -> str:
        """Who started the round, to name in a refusal."""
        if current.started_by is None:
            return texts("starter_unknown")
        known = self._users.get(current.started_by)
        name = known[0] if known else await self.storage.user_name(current.started_by)
        return texts("starter", name=markup.name(name)) if name else texts("starter_unknown")

    def _forget(self, current: Round) -> None:
        self._hints.pop(current.id, None)
        if (still := self._open.get(current.chat_id)) is not None and still.id == current.id:
            del self._open[current.chat_id]

    async def announced(self, round_id: int) -> None:
        """The round's result message was sent: a restart does not send it again."""
        await self.storage.set_announced([round_id])

    async def resume(self) -> tuple[list[Round], list[Announcement]]:
        """After a restart: rounds still running (to re-arm), and results to send, oldest
        first: rounds closed before the stop whose result was never sent, rounds that had a
        right answer already (the earliest wins, as it would have), and rounds that ran out
        while the bot was down."""
        loaded = await self.load()
        running, results = [], await self._late_results()
        for current in loaded:
            if (settled := await self._settle(current)) is not None:
                results.append(settled)
            elif current.deadline > self.clock():
                running.append(current)
            elif (closed := await self.expire(current.id)) is not None:
                results.append(Announcement(current.id, *closed))
        return running, results

    async def _late_results(self) -> list[Announcement]:
        """The results of rounds closed before the stop that were never sent; those older than
        ANNOUNCE_WITHIN are only marked."""
        now, found, stale = self.clock(), [], []
        for result in await self.storage.unannounced():
            if now - result.ended_at > ANNOUNCE_WITHIN:
                stale.append(result.round.id)
            else:
                found.append(Announcement(result.round.id, result.round.chat_id,
                                          await self._result_text(result)))
        await self.storage.set_announced(stale)
        return found

    async def _settle(self, current: Round) -> Announcement | None:
        """Close an open round that already has a right answer (the bot stopped between
        storing it and closing the round): the earliest right answer wins."""
        right = await self.storage.first_right_answer(current.id)
        if right is None:
            return None
        verdict = await GAMES[current.game].judge(self.pool, current, right.text, True)
        shown = (verdict.expression or verdict.value) if verdict.kind == "right" else right.text
        elapsed = right.at - current.started_at
        if not await self.storage.close_round(current.id, "won", right.at, right.user_id, shown,
                                              current.points, elapsed):
            return None
        self._forget(current)
        result = Result(current, right.at, await self.storage.winner_name(current.id), shown,
                        current.points, elapsed, True, None)
        return Announcement(current.id, current.chat_id, await self._result_text(result))

    async def _result_text(self, result: Result) -> str:
        """A closed round's result, said late: which round, who won it (or that nobody did),
        and what the round's end shows."""
        current = result.round
        rules = GAMES[current.game]
        texts = self.round_texts(current)
        lines = [texts("late_result", game=texts.game(rules.name),
                       puzzle=rules.puzzle_html(current))]
        name, answer = markup.name(result.winner_name), markup.code(result.answer or "")
        if result.winner_name is None or (rules.closest_wins and not result.exact):
            if result.winner_name is not None and result.distance is not None:
                lines.append(texts("closest_wins", name=name, answer=answer,
                                   distance=result.distance, points=result.awarded))
            elif rules.closest_wins:
                lines.append(texts("nobody_close"))
            details = await rules.reveal_text(self.pool, current, texts)
        else:
            seconds = result.win_seconds if result.win_seconds is not None else \
                result.ended_at - current.started_at
            lines.append(texts("won", name=name, answer=answer, elapsed=texts.seconds(seconds),
                               points=result.awarded))
            details = await rules.win_details(self.pool, current, texts)
        return "\n".join(filter(None, [*lines, details]))

    async def migrate_chat(self, old_id: int, new_id: int) -> Round | None:
        """A group became a supergroup; returns its open round, now under the new id."""
        await self.storage.migrate_chat(old_id, new_id)
        if old_id in self._languages:
            self._languages[new_id] = self._languages.pop(old_id)
        moved = self._open.pop(old_id, None)
        if moved is not None:
            self._open[new_id] = dataclasses.replace(moved, chat_id=new_id)
        return self._open.get(new_id)

    # --- leaderboards --------------------------------------------------------------------------

    async def top(self, chat: Chat, player: Player, everywhere: bool,
                  game: str | None = None) -> str:
        texts = self.texts(chat, player)
        standings = await self.storage.top(None if everywhere else chat.id, game)
        if not standings:
            return texts("top_empty")
        where = texts("top_all" if everywhere else "top_chat")
        title = f"{where} · {texts.game(game)}" if game else where
        lines = [texts("top_title", title=title)]
        lines += [texts("top_line", rank=i, name=markup.name(s.name), points=s.points,
                        wins=s.wins) for i, s in enumerate(standings, 1)]
        return markup.clip("\n".join(lines))

    async def stats(self, chat: Chat, player: Player) -> str:
        texts = self.texts(chat, player)
        name = markup.name(player.first_name)
        rows = [row for row in await self.storage.stats(chat.id, player.id) if row.rounds_played]
        if not rows:
            return texts("stats_none", name=name)
        lines = [texts("stats_title", name=name)]
        lines += [self._stats_line(texts, row) for row in rows]
        if len(rows) > 1:
            lines.append(texts("stats_overall", points=sum(r.points for r in rows),
                               wins=sum(r.wins for r in rows),
                               played=sum(r.rounds_played for r in rows)))
        return "\n".join(lines)

    @staticmethod
    def _stats_line(texts: Texts, row: Stats) -> str:
        fastest = texts.seconds(row.fastest_win) if row.fastest_win is not None else "—"
        return texts("stats_game", game=texts.game(row.game), points=row.points, wins=row.wins,
                     played=row.rounds_played, fastest=fastest, streak=row.current_streak,
                     best_streak=row.best_streak)


__all__ = ["AdminCheck", "Announcement", "Chat", "Game", "Player", "Reply", "Rules", "Throttle",
           "hint_points"]
