"""Yahtzee rewards solving, not listening (issue 17, item 2): whole rounds played through the real
bot with a "cheater" who reads only what is public — every message the bot sends to the chat and
every reaction it sets, after his guesses and after the honest players' — and bisects on it.

What he reads is shown to be the same whatever the answer (the same rolls dealt with two
different hidden totals give the same public transcript, guess for guess), so his guesses are a
function of the table alone: round for round he does exactly as well as a blind guesser who
never looks at the chat. The same cheater against a leaky bot (one that says "higher" or
"lower", as the bot once did) reads different transcripts and beats the blind guesser: the test
can fail.
"""

from __future__ import annotations

import re

import pytest

from bot.play.games.yahtzee import rules as yahtzee
from bot.play.games.yahtzee.words import YahtzeeWords
from bot.play.rules.records import Near, Verdict
from bot.store.records import Round
from bot.text.i18n import Texts
from tests.bot.conftest import Harness

CHAT = -7301
ANN = {"id": 731, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BOB = {"id": 732, "is_bot": False, "first_name": "Bob", "language_code": "en"}  # the cheater
CY = {"id": 733, "is_bot": False, "first_name": "Cy", "language_code": "en"}
SEEDS = range(12)


def public(h: Harness, since_sent: int, since_reactions: int) -> list[str]:
    """Everything public since then: the bot's messages, and whose messages it marked how."""
    said = [f"says {s.text}" for s in h.telegram.sent[since_sent:] if s.chat_id == CHAT]
    for reaction in h.telegram.reactions[since_reactions:]:
        author = (h.telegram.message(CHAT, reaction.message_id) or {})["from"]["first_name"]
        said.append(f"marks {author}'s {reaction.emoji}")
    return said


def blind(low: int, high: int, turn: int) -> int:
    """What a guesser who never reads the chat tries, turn by turn: a fixed spread."""
    return low + (high - low) * (turn + 1) // 8


def honest(low: int, high: int) -> tuple[int, int]:
    """Ann's and Cy's guesses, typed in the open."""
    return low + (high - low) * 3 // 16, low + (high - low) * 5 // 16


def narrowed(low: int, high: int, seen: list[str]) -> tuple[int, int, bool]:
    """The range left by every "higher than N" / "lower than N" the bot said to anyone."""
    told = False
    for line in seen:
        if found := re.search(r"higher than (\d+)", line, re.I):
            low, told = max(low, int(found.group(1)) + 1), True
        elif found := re.search(r"lower than (\d+)", line, re.I):
            high, told = min(high, int(found.group(1)) - 1), True
    return low, high, told


async def play(h: Harness, rolls: tuple, total: int) -> tuple[list[int], list[str]]:
    """One round of these rolls whose best total is said to be `total`: Ann and Cy guess in
    the open, Bob bisects on what he reads; the time runs out. Bob's guesses and everything
    public."""
    await h.stores.people.remember_chat(CHAT, "group", "G")
    await h.stores.people.remember_user(ANN["id"], "Ann")
    now = h.services.rounds.clock()
    made = await h.stores.rounds.open_round(CHAT, "yahtzee", rolls, total, "", 20, "en", now,
                                            now + 60, ANN["id"])
    assert made is not None
    h.services.table.load(await h.stores.rounds.open_rounds())
    low, high = yahtzee.total_bounds(rolls)  # said in the deal: the table's, not the answer's
    h.services.rounds.throttle.buckets.clear()
    sent, reactions = len(h.telegram.sent), len(h.telegram.reactions)
    await h.send(CHAT, ANN, "nice rolls")  # chatter
    for player, guess in zip((ANN, CY), honest(low, high), strict=True):
        await h.send(CHAT, player, str(guess))
    mine: list[int] = []
    for turn in range(yahtzee.GUESSES):
        left_low, left_high, told = narrowed(low, high, public(h, sent, reactions))
        mine.append((left_low + left_high) // 2 if told else blind(low, high, turn))
        await h.send(CHAT, BOB, str(mine[-1]))
        if h.services.rounds.open_round(CHAT) is None:
            break  # an exact guess ended it
    seen = public(h, sent, reactions)
    if h.services.rounds.open_round(CHAT) is not None:
        await h.services.rounds.expire(made.id)
    return mine, seen


def rounds() -> list[tuple[tuple, int]]:
    """Random deals with their best totals (none that an honest guess hits exactly)."""
    dealt = [yahtzee.roll_all(seed) for seed in SEEDS]
    return [(d.hand, d.target) for d in dealt
            if d.target not in honest(*yahtzee.total_bounds(d.hand))]


def blind_distance(rolls: tuple, best: int) -> int:
    low, high = yahtzee.total_bounds(rolls)
    return min(abs(blind(low, high, turn) - best) for turn in range(yahtzee.GUESSES))


async def test_the_public_transcript_is_the_same_whatever_the_answer(harness: Harness):
    for rolls, best in rounds():
        guesses, seen = await play(harness, rolls, best)
        low, high = yahtzee.total_bounds(rolls)
        other = next(t for t in (best + 23, best - 23, best + 31)  # another hidden total
                     if low <= t <= high and t not in (*guesses, *honest(low, high)))
        again, seen_again = await play(harness, rolls, other)
        assert again == guesses and seen_again == seen, (best, seen, seen_again)
        assert len(seen) == 5 and all(line.endswith("✍") for line in seen)  # marks, no word


async def test_the_cheater_does_no_better_than_a_blind_guesser(harness: Harness):
    cheater, blind_guesser = [], []
    for rolls, best in rounds():
        guesses, _ = await play(harness, rolls, best)
        cheater.append(min(abs(g - best) for g in guesses))
        blind_guesser.append(blind_distance(rolls, best))
    assert len(cheater) >= 10 and cheater == blind_guesser  # round for round: nothing learned


def leak(self: YahtzeeWords, verdict: Verdict, round_: Round, texts: Texts,
         left: int | None = None) -> str:
    """What the bot once said to a guess: which side of the answer it is on."""
    if isinstance(verdict, Near):
        side = "Higher" if int(verdict.value) < round_.target else "Lower"
        return f"{side} than {verdict.value}"
    return super(YahtzeeWords, self).verdict_text(verdict, round_, texts, left)


async def test_against_a_leaky_bot_the_same_cheater_wins(harness: Harness,
                                                         monkeypatch: pytest.MonkeyPatch):
    """The control: were the guesses not sealed, this test would catch it."""
    monkeypatch.setattr(YahtzeeWords, "verdict_text", leak)
    harness.telegram.no_reactions.add(CHAT)  # so the words are sent
    cheater, blind_guesser, differs = [], [], 0
    for rolls, best in rounds():
        guesses, seen = await play(harness, rolls, best)
        cheater.append(min(abs(g - best) for g in guesses))
        blind_guesser.append(blind_distance(rolls, best))
        differs += (await play(harness, rolls, best + 40))[1] != seen
    assert differs == len(cheater)  # what he read told the answers apart
    assert sum(cheater) < sum(blind_guesser)  # and he used it: closer, over the rounds
