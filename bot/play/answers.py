"""Judging answers to the rounds on: the first right one wins (atomically, in the database), in
Countdown the closest at the end; a right answer a moment late is told who was first.

Every answer is judged and recorded, so a right one always wins and a Countdown answer always
competes; the throttle only holds back replies to the others, with one note to slow down per
burst. A wrong typed attempt is marked with a reaction rather than a message, to keep the chat
quiet.
"""

from __future__ import annotations

import dataclasses

from bot.play.games import GAMES, Verdict
from bot.play.people import Chat, People, Player
from bot.play.reply import Reply
from bot.play.rounds import Rounds
from bot.play.throttle import Admission, Throttle
from bot.store.records import RaceWinner, Round
from bot.text import markup
from bot.text.i18n import Texts

WRONG_REACTION = "👎"  # one of the emoji Telegram allows as a reaction


class Answers:
    """One instance for the whole bot, beside the round service whose rounds it judges."""

    def __init__(self, rounds: Rounds, throttle: Throttle | None = None) -> None:
        self.rounds = rounds
        self.store = rounds.store
        self.people: People = rounds.people
        self.board = rounds.board
        self.throttle = throttle or Throttle()

    async def answer(self, chat: Chat, player: Player, text: str, explicit: bool) -> Reply | None:
        """Judge an answer; None means stay silent (not an attempt, no round, throttled)."""
        current = self.board.of(chat.id)
        if current is None:
            return await self._late(chat, player, text, explicit)
        rules = GAMES[current.game]
        if not explicit and not rules.looks_like_answer(text):
            return None  # chatter: not even worth a trip to the pool
        verdict = await rules.judge(self.rounds.pool, current, text, explicit)
        if verdict.kind == "ignore":
            return None
        texts = self.people.texts(chat, player)
        await self.people.remember(chat, player)
        now = self.board.clock()
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
            return await self._not_right(chat, player, current, verdict, texts, explicit,
                                         refusal)
        return await self._won(chat, player, current, verdict, texts, now)

    async def _won(self, chat: Chat, player: Player, current: Round, verdict: Verdict,
                   texts: Texts, now: float) -> Reply:
        """A right answer: it wins if it closes the round (one closing UPDATE decides)."""
        shown = markup.code(verdict.expression) if verdict.expression else \
            f"<code>{verdict.value}</code>"
        if not await self.store.close_round(current.id, "won", now, player.id,
                                            verdict.expression or verdict.value,
                                            current.points, now - current.started_at):
            return Reply(too_late(await self.store.race(current.id), now, texts))
        self.rounds.ended(current, won_at=now)
        won = texts("won", name=markup.name(player.first_name), answer=shown,
                    elapsed=texts.seconds(now - current.started_at), points=current.points)
        details = await GAMES[current.game].win_details(self.rounds.pool, current, texts)
        return Reply("\n\n".join(filter(None, [won, details])), closed=True, ended=current.id)

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
        best = await self.store.best_answer(current.id)  # this one is stored: ties settled
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
        texts = self.people.texts(chat, player)
        finished = self.board.just_won(chat.id)
        if finished is None:
            return Reply(texts("no_round")) if explicit else None
        rules = GAMES[finished.game]
        if not explicit and not rules.looks_like_answer(text):
            return None
        verdict = await rules.judge(self.rounds.pool, finished, text, explicit)
        winner = await self.store.race(finished.id)
        if verdict.kind != "right" or winner is None or winner.user_id == player.id:
            return Reply(texts("round_over")) if explicit else None
        await self.people.remember(chat, player)
        now = self.board.clock()
        await self.store.record_answer(finished.id, player.id, text[:200], True, now,
                                       verdict.distance)
        return Reply(too_late(winner, now, texts))


def too_late(winner: RaceWinner | None, at: float, texts: Texts) -> str:
    """A right answer stored at `at` lost the race: who was first, and by how much, from the
    stored times of both answers."""
    if winner is None:
        return texts("round_over")
    name, gap = markup.name(winner.name), at - winner.at
    if gap < 0.05:  # shown to a tenth of a second
        return texts("too_late_instant", name=name)
    return texts("too_late_by", name=name, seconds=texts.seconds(gap))
