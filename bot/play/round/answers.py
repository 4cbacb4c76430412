"""Judging answers to the rounds on: the first right one wins (atomically, in the database), in
Countdown and Yahtzee the closest at the end; a right answer a moment late is told who was first.

Every answer is judged and recorded, so a right one always wins and a Countdown answer always
competes; the throttle only holds back replies to the others, with one note to slow down per
burst. The chat stays quiet: a wrong attempt, however it was given (typed, a reply to the deal,
/a), in 24 and Countdown alike, goes into the deal's status with why it does not win (one edit
a second at most, no message); a Yahtzee
guess is marked the same way whatever its distance (it is sealed until the end); only what
cannot be read as an answer at all is answered in words, when the player meant it as one. A
reply to the deal that is not an attempt (no operator between two of the hand's numbers) is
talk, and gets nothing.
"""

from __future__ import annotations

import dataclasses
import time

from bot.play.chats.people import Chat, People, Player
from bot.play.dealing.analyses import ANALYSES
from bot.play.games import GAMES, Verdict
from bot.play.games.yahtzee import GUESS_REACTION
from bot.play.guards.throttle import Admission, Throttle
from bot.play.round.open_round import Attempt
from bot.play.round.outcomes import Closed, Edited, Marked, Noted, Said
from bot.play.round.rounds import Rounds
from bot.play.round.table import RoundTable
from bot.runtime import metrics
from bot.runtime.pool import SolverPool
from bot.store.protocols import RoundStore
from bot.store.records import RaceWinner, Round
from bot.text import markup
from bot.text.i18n import Texts

IN_WORDS = frozenset({"unreadable"})  # verdicts said in words: the input is not an answer
Answered = Closed | Edited | Marked | Noted | Said | None


class Answers:
    """One instance for the whole bot, beside the round service whose rounds it judges."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, pool: SolverPool,
                 rounds: Rounds, throttle: Throttle | None = None) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.pool = pool
        self.rounds = rounds  # a win's result is finished there, like every result
        self.throttle = throttle or Throttle()

    async def answer(self, chat: Chat, player: Player, text: str, explicit: bool,
                     replied: bool = False) -> Answered:
        """Judge an answer; None means stay silent (not an attempt, no round, throttled).
        `explicit`: given as an answer (/a, or a reply to the deal: `replied`)."""
        opened = self.table.of(chat.id, chat.topic)
        if opened is None:
            return await self._late(chat, player, text, explicit, replied)
        current = opened.record
        rules = GAMES[current.game]
        if not explicit and not rules.looks_like_answer(text):
            return None  # chatter: not even worth a trip to the judge
        if not explicit and not self.types_answers(chat):
            return None
        if replied and not rules.tries(text, current):
            return None  # talk about the deal, not an answer to it
        judging = time.monotonic()
        verdict = rules.judge(current, text, explicit)
        metrics.observe_answer_latency(current.game, time.monotonic() - judging)
        if verdict.kind == "ignore":
            return None
        texts = self.people.texts(chat, player)
        await self.people.remember(chat, player)
        now = self.table.clock()
        right = verdict.kind == "right"
        refusal = None
        if rules.guesses is not None and verdict.distance is not None:
            made = await self.store.record_guess(current.id, player.id, text[:200], right,
                                                 now, verdict.distance, rules.guesses)
            if made is None:  # counted from the stored answers, so a restart changes nothing
                right, refusal = False, texts("no_guesses_left", guesses=rules.guesses,
                                              name=markup.name(player.first_name))
            else:
                verdict = dataclasses.replace(verdict, params={"left": rules.guesses - made})
        else:
            await self.store.record_answer(current.id, player.id, text[:200], right, now,
                                           verdict.distance)
        if not right:
            return await self._not_right(chat, player, current, verdict, texts, refusal)
        return await self._won(chat, player, current, verdict, texts, now)

    def types_answers(self, chat: Chat) -> bool:
        """Whether a plain typed message may be an answer here (a group may say no)."""
        return chat.type == "private" or self.rounds.chat_settings(chat.id).typing

    async def _won(self, chat: Chat, player: Player, current: Round, verdict: Verdict,
                   texts: Texts, now: float) -> Closed | Said:
        """A right answer: it wins if it closes the round (one closing UPDATE decides)."""
        shown = markup.code(verdict.expression) if verdict.expression else \
            f"<code>{verdict.value}</code>"
        if not await self.store.close_round(current.id, "won", now, player.id,
                                            verdict.expression or verdict.value,
                                            current.points, now - current.started_at):
            return Said(too_late(await self.store.race(current.id), now, texts))
        metrics.record_round_ended(current.game, "won")
        held_back = self.table.live.elsewhere(current)
        self.table.close(current, won_at=now)
        rules = GAMES[current.game]
        won = texts("won", name=markup.name(player.first_name), answer=shown,
                    elapsed=texts.seconds(now - current.started_at), points=current.points)
        details = await rules.win_details(self.pool, current, texts)
        if details and held_back:
            details = texts("answers_held_back")
        return await self.rounds.finish(current, won, f"\n\n{details}" if details else "",
                                        texts, listed_all=await self._one_way(current))

    async def _one_way(self, current: Round) -> bool:
        """Whether a won round has nothing more to page through: its game pages no solutions,
        or the winning answer is its only one (no [Show all solutions] under "1 solution")."""
        rules = GAMES[current.game]
        if not rules.pages_solutions:
            return True
        return len((await ANALYSES.of(self.pool, rules, current)).solutions) <= 1

    async def _not_right(self, chat: Chat, player: Player, current: Round, verdict: Verdict,
                         texts: Texts, refusal: str | None = None
                         ) -> Edited | Marked | Noted | Said | None:
        """The reply to an answer that did not win (yet). A guess (Yahtzee) is marked the same
        whatever its distance; what cannot be read is said in words (throttled: one note to
        slow down per burst); any other attempt goes into the deal's status with why it does
        not win — a Countdown answer that could score stands among the closest there — and
        the status is written at most once a second (bot.play.round.status)."""
        rules = GAMES[current.game]
        if rules.guesses is not None and refusal is None and verdict.kind not in IN_WORDS:
            return Marked(GUESS_REACTION, rules.verdict_text(verdict, current, texts))
        opened = self.table.find(current.id)
        if opened is None:  # closed meanwhile: its result says the rest
            return None
        if refusal is not None or verdict.kind in IN_WORDS or current.message_id is None:
            # not an answer at all, or no deal to write the status into (never sent)
            admission = self.throttle.admit(chat.id, player.id)  # guesses are few: never held
            if admission is Admission.QUIET:
                return None
            if admission is Admission.NOTE:
                return Said(texts("slow_down", name=markup.name(player.first_name)))
            return Said(refusal or rules.verdict_text(verdict, current, texts))
        valid = verdict.kind == "close" and verdict.distance is not None
        opened.attempted(Attempt(player.id, player.first_name, verdict,
                                 verdict.distance if valid else None, self.table.clock()))
        shown = self.rounds.status(opened, rules.verdict_text(verdict, current, texts))
        return Noted(shown.text) if isinstance(shown, Marked) else shown

    async def _late(self, chat: Chat, player: Player, text: str,
                    explicit: bool, replied: bool = False) -> Said | None:
        """An answer when no round is on. Right for the round just won, it is stored (its
        player played that round, as one who lost the race by a hair) and told who was first
        and by how much; anything else after a win is told the round is over, if explicit;
        with no recent win, an explicit answer hears there is no round."""
        texts = self.people.texts(chat, player)
        finished = self.table.just_won(chat.id, chat.topic)
        if finished is None:
            return Said(texts("no_round")) if explicit else None
        rules = GAMES[finished.game]
        if (not explicit and not (rules.looks_like_answer(text) and self.types_answers(chat))) or \
                (replied and not rules.tries(text, finished)):
            return None
        verdict = rules.judge(finished, text, explicit)
        winner = await self.store.race(finished.id)
        if verdict.kind != "right" or winner is None or winner.user_id == player.id:
            return Said(texts("round_over")) if explicit else None
        await self.people.remember(chat, player)
        now = self.table.clock()
        await self.store.record_answer(finished.id, player.id, text[:200], True, now,
                                       verdict.distance)
        return Said(too_late(winner, now, texts))


def too_late(winner: RaceWinner | None, at: float, texts: Texts) -> str:
    """A right answer stored at `at` lost the race: who was first, and by how much, from the
    stored times of both answers."""
    if winner is None:
        return texts("round_over")
    name, gap = markup.name(winner.name), at - winner.at
    if gap < 0.05:  # shown to a tenth of a second
        return texts("too_late_instant", name=name)
    return texts("too_late_by", name=name, seconds=texts.seconds(gap))
