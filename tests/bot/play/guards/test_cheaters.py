"""The live-puzzle rule against someone who tries (issue 24): a scripted cheater, a member of the
group where a round is on (whether or not he ever spoke there), asks the bot anything in private
or inline — the exact hand, the hand with 0, 1 or any extra number, the hand less one number with
the target moved by it (T±x, T×x, T÷x, x−T), other targets, Countdown's tiles less one or two,
Yahtzee's rolls with one to three dice changed — then does at most one arithmetic step with a
number of the hand (or drops a `+0`/`×1` term) and answers first.

Over seeded rounds of every game he wins no more often than the same cheater with no bot, who
has nothing to work from: never. The same cheater against the same hands once the round is over
(the bot then answers him) does win: the test can fail. A non-member asking the same is answered.
"""

from __future__ import annotations

import html
import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from bot.play.guards.throttle import Allowance
from solver import evaluate, parse, solve
from solver.countdown import solve_countdown
from solver.errors import SolverError
from solver.expr import numbers as expr_numbers
from solver.yahtzee import best_assignment
from tests.bot.conftest import Harness
from tests.bot.play.words.test_latex import infix_of

pytestmark = pytest.mark.slow

GROUP = -7501
ANN = {"id": 751, "is_bot": False, "first_name": "Ann", "language_code": "en"}
EVE = {"id": 752, "is_bot": False, "first_name": "Eve", "language_code": "en"}  # the cheater
ZED = {"id": 753, "is_bot": False, "first_name": "Zed", "language_code": "en"}  # not a member
ASCII = str.maketrans({"×": "*", "÷": "/", "−": "-"})
DROPS = ("+0", "-0", "*1", "/1")
ROUNDS = 6  # seeded rounds per game and size


def solvable(rng: random.Random, count: int, target: int) -> tuple[int, ...]:
    while True:
        hand = tuple(rng.randint(1, 13) for _ in range(count))
        if solve(hand, target):
            return hand


def requests_24(hand: tuple[int, ...], target: int) -> list[str]:
    """Every way around the rule the cheater knows, for a hand that uses every number."""
    whole = " ".join(map(str, hand))
    asks = [f"/solve {whole} = {target}", f"/solve {whole} 0 = {target}",
            f"/solve {whole} 1 = {target}", f"/solve {whole} 7 = {target}",
            f"/solve {whole} = 0", f"/solve {whole} = {2 * target}",
            f"/solve {whole} = {target + 1}", f"/solve {whole} = {target} --closest",
            f"@ {whole} 0", f"@ {whole} = 0"]
    for i, x in enumerate(hand):
        rest = " ".join(map(str, hand[:i] + hand[i + 1:]))
        moved = {target - x, target + x, target * x, x - target}
        if x and target % x == 0:
            moved.add(target // x)
        asks += [f"/solve {rest} = {t}" for t in sorted(moved) if abs(t) <= 10**6]
    return asks


def requests_countdown(tiles: tuple[int, ...], target: int) -> list[str]:
    asks = [f"/countdown {' '.join(map(str, tiles))} = {target}",
            f"/solve --closest {' '.join(map(str, tiles))} 1 = {target}"]
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles) + 1):  # less one tile (j == len), or two
            rest = [t for k, t in enumerate(tiles) if k not in (i, j)]
            for t in {target, target - tiles[i], target + tiles[i]}:
                asks.append(f"/countdown {' '.join(map(str, rest))} = {t}")
    return asks


def one_step(expression: str, hand: tuple[int, ...]) -> set[str]:
    """What the cheater makes of an expression the bot gave: it as it is, with a `+0` or `×1`
    dropped, or one step further with a number of the hand."""
    plain = expression.translate(ASCII).replace(" ", "")
    found = {plain}
    for drop in DROPS:
        found |= {plain.replace(drop, "", 1), plain.replace(drop[::-1], "", 1)}
    for x in set(hand):
        found |= {f"({plain})+{x}", f"({plain})-{x}", f"{x}-({plain})", f"({plain})*{x}",
                  f"({plain})/{x}", f"{x}/({plain})"}
    return found


def answers(expression: str, hand: tuple[int, ...], target: int, part: bool) -> bool:
    """Whether an expression answers the round: its value, with the hand's numbers (all of
    them, or, where part of the hand may answer, some)."""
    try:
        tree = parse(expression)
        value = evaluate(tree)
    except (SolverError, ZeroDivisionError, ValueError):
        return False
    used, dealt = Counter(expr_numbers(tree)), Counter(hand)
    fits = not used - dealt if part else used == dealt
    return fits and value == Fraction(target)


def expressions_in(sent_html: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", sent_html)
            if re.search(r"[-+*/×÷−]", html.unescape(c))]


async def cheat(h: Harness, user: dict, hand: tuple[int, ...], target: int,
                asks: list[str], part: bool) -> bool:
    """The cheater asks everything, privately and inline, then tries one step on whatever the
    bot gave him: whether he found an answer to the round."""
    private = user["id"]
    given: list[str] = []
    for ask in asks:
        if ask.startswith("@ "):
            answered = await h.inline(user, ask[2:])
            given += [e for r in answered.results for e in
                      expressions_in(r.get("input_message_content", {}).get("message_text", ""))]
            continue
        sent = len(h.telegram.sent)
        await h.send(private, user, ask, kind="private")
        given += [e for s in h.telegram.sent[sent:] if s.chat_id == private
                  for e in [*expressions_in(s.html), *map(infix_of, s.formulas)]]
    return any(answers(candidate, hand, target, part)
               for expression in given for candidate in one_step(expression, hand))


async def deal_known(h: Harness, game: str, hand: tuple, target: int) -> int:
    await h.stores.people.remember_chat(GROUP, "group", "G")
    await h.stores.people.remember_user(ANN["id"], "Ann")
    now = h.services.rounds.clock()
    made = await h.stores.rounds.open_round(GROUP, game, hand, target, "easy", 10, "en", now,
                                            now + 600, ANN["id"])
    assert made is not None
    h.services.table.load(await h.stores.rounds.open_rounds())
    return made.id


async def end_round(h: Harness) -> None:
    await h.send(GROUP, ANN, "/reveal")


@pytest.fixture(autouse=True)
def players(harness: Harness) -> None:
    """Zed is in no chat of the bot's rounds; Eve never spoke in the group (a member all the
    same, as Telegram says); nobody runs out of solver time however much they ask."""
    harness.telegram.chat(GROUP)
    harness.telegram.leave(GROUP, ZED["id"])
    harness.services.solving.budget.allowances = {"user": Allowance(10**6, 1.0),
                                                  "chat": Allowance(10**6, 1.0)}


@pytest.mark.parametrize(("count", "target"), [(4, 24), (5, 24), (6, 100)])
async def test_the_24_cheater_wins_nothing_from_the_bot(harness: Harness, count: int,
                                                        target: int):
    rng = random.Random(count)
    for _ in range(ROUNDS):
        hand = solvable(rng, count, target)
        asks = requests_24(hand, target)
        await deal_known(harness, "24", hand, target)
        assert not await cheat(harness, EVE, hand, target, asks, False), hand
        outsider = await cheat(harness, ZED, hand, target, asks[:2], False)
        await end_round(harness)
        assert outsider  # someone outside the group was answered all along
        # the control: the same cheater, the round over, finds an answer in what he is told
        assert await cheat(harness, EVE, hand, target, asks[:2], False)


def countdown_tiles() -> list[int]:
    """Countdown's tiles: two of each 1..10 and the four large ones."""
    return [n for n in range(1, 11) for _ in range(2)] + [25, 50, 75, 100]


async def test_the_countdown_cheater_wins_nothing_from_the_bot(harness: Harness):
    rng = random.Random(7)
    found = 0
    while found < ROUNDS:
        tiles = tuple(rng.sample(countdown_tiles(), 6))
        target = rng.randint(101, 999)
        if solve_countdown(tiles, target, "subset").nearest != target:
            continue  # a draw with an exact answer, for the control to find
        found += 1
        asks = requests_countdown(tiles, target)
        await deal_known(harness, "countdown", tiles, target)
        assert not await cheat(harness, EVE, tiles, target, asks, True), (tiles, target)
        await end_round(harness)
        assert await cheat(harness, EVE, tiles, target, asks[:1], True)  # the control


async def test_the_yahtzee_cheater_learns_no_total_from_the_bot(harness: Harness):
    rng = random.Random(3)
    for _ in range(ROUNDS):
        rolls = tuple(tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(13))
        best = best_assignment(list(rolls)).total
        await deal_known(harness, "yahtzee", rolls, best)

        async def learned(dice: list[list[int]] | tuple) -> set[int]:
            sent = len(harness.telegram.sent)
            await harness.send(EVE["id"], EVE, "/yahtzee " + " ".join(
                "".join(map(str, r)) for r in dice), kind="private")
            return {int(t) for s in harness.telegram.sent[sent:]
                    for t in re.findall(r"best total is <b>(\d+)</b>", s.html)}

        told: set[int] = set()
        for changed in (0, 1, 2, 3):
            dice = [list(r) for r in rolls]
            for i in rng.sample(range(13), changed):
                dice[i][0] = dice[i][0] % 6 + 1
            told |= await learned(dice)
        assert not told, told  # nothing to answer with but a blind guess
        await end_round(harness)
        assert await learned(rolls) == {best}  # the control: the round over, he is told


LIVE = "🤫 That puzzle"


async def ask(h: Harness, user: dict, text: str) -> str:
    sent = len(h.telegram.sent)
    await h.send(user["id"], user, text, kind="private")
    return "\n".join(s.text for s in h.telegram.sent[sent:])


async def test_the_examples_of_the_issue_are_refused_to_members(harness: Harness):
    """Each way around the old rule that a member used to win with."""
    await deal_known(harness, "24", (10, 2, 2, 10), 24)
    for text in ("/solve 10 2 2 10 0", "/solve 10 2 2 10 1", "/solve 10 2 2 10 = 0",
                 "/solve 10 2 2 10 = 48", "/solve 10 2 2 = 14"):
        assert (await ask(harness, EVE, text)).startswith(LIVE), text
        assert not (await ask(harness, ZED, text)).startswith(LIVE), text  # an outsider
    for query in ("10 2 2 10 0", "10 2 2 10 24 = 0"):
        answered = await harness.inline(EVE, query)
        assert answered.results[0]["id"] == "live" and int(answered.params["cache_time"]) == 0
        answered = await harness.inline(ZED, query)  # answered, and kept for nobody
        assert answered.results[0]["id"] != "live" and int(answered.params["cache_time"]) == 0
        assert answered.params.get("is_personal") in (True, "true", "True")
    await end_round(harness)
    await deal_known(harness, "24", (5, 3, 5, 2, 3, 8), 100)
    assert (await ask(harness, EVE, "/solve 5 3 5 2 3 = 92")).startswith(LIVE)
    await end_round(harness)
    await deal_known(harness, "countdown", (100, 5, 4, 2, 9, 75), 684)
    assert (await ask(harness, EVE, "/solve 100 5 4 2 9 = 609")).startswith(LIVE)
    assert (await ask(harness, EVE, "/countdown 100 5 4 2 9 = 609")).startswith(LIVE)


FORUM = -1007502


async def test_one_person_and_one_group_keep_few_rounds_open(harness: Harness):
    """A troll can't open a round in 1,500 topics: three rounds a person, five a group."""
    harness.telegram.chat(FORUM, title="Club", forum=True)
    topics = [harness.telegram.topic(FORUM, f"t{i}") for i in range(7)]
    for topic in topics[:3]:
        await harness.send(FORUM, EVE, "/play", topic=topic)
    await harness.send(FORUM, EVE, "/play", topic=topics[3])
    said = [s for s in harness.telegram.sent if s.chat_id == FORUM]
    assert "You have 3 rounds on already" in said[-1].text
    await harness.send(FORUM, ANN, "/play", topic=topics[3])
    await harness.send(FORUM, ZED, "/play", topic=topics[4])
    await harness.send(FORUM, ZED, "/play", topic=topics[5])
    said = [s for s in harness.telegram.sent if s.chat_id == FORUM]
    assert "5 rounds are on in this group's topics already" in said[-1].text
    assert len([r for r in await harness.stores.rounds.open_rounds() if r.chat_id == FORUM]) == 5
