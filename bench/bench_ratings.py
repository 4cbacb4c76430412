"""Benchmark of the learned ratings (bot/play/ratings): simulated play through the real rating
code, and one table of what it learned and what it costs.

    python bench/bench_ratings.py [--data CSV] [--rounds 20000] [--players 200]
                                  [--adaptive 300] [--seed 1]

The simulator is a model of its own, not the rating code's: player i on hand h finds a solution
at all with chance r_h ** exp(-2 s_i) (r_h: the hand's 4nums.com solve rate), and if so after a
log-normal time, median 2 x AMT_h x exp(-s_i) (AMT_h: its mean time there; people in a chat are
slower than that site's regulars), log spread 0.6. A player who is stuck answers wrong with
chance 0.5 (one who finds it, 0.1, earlier) and then passes with chance 0.4. A group races: the
first right answer within 120 s wins and the others stop there; the rating code sees only what
a chat would (who solved when, who answered wrong, who passed, when the round closed). Rounds of
one player stand for the daily puzzle.

(a) hands: each of the 1362 solvable hands of 1..13 has as its true difficulty the expected
Math Garden score (1 - t/120 for a solve at t, else 0) of a player of skill 0 in the
simulator, from its solve rate and time; after --rounds rounds of random groups (1 to 4 of
--players) on random hands, the learned difficulties are ranked against it (Spearman), and
against the site's own ranking by mean time; the fixed model's prior is the baseline.
(b) players: the learned ratings against the simulated skills. (c) adaptive deals: a weak and a
strong group of three new players, --adaptive rounds each, dealt by the adaptive choice among
the learned hands (none of the group's last 100 again); the solve rate of the last 100.
(d) the cost of one update (a round of three) and of one adaptive choice. (e) a win never
lowers its winner: the same season played again with wins rated by the likelihood alone, as
before (a slow win could lower), and for both, how many wins lowered their winner and the mean
rating at each quarter of the season on the scale /top shows (1500 for a new player): a rule
that inflated ratings would show the mean climbing quarter after quarter. (f) a player's themes
(bot.play.ratings.themes, what their page shows): after the season, a new player of skill 0 who is
weak in one theme (on a hand that needs it they play as one WEAK_BY weaker) plays 50 rounds,
alone or in random groups; from the rounds the page reads (those they answered, and those they
dealt that nobody won), the theme their standings name weakest, of 10 such players, for each
theme of at least 5 % of the hands (and, to compare, alone with the answered rounds only).
(g) practice (bot.play.solo.practice): each such player alone, after their 50 rounds, is dealt
50 hands as /practice deals them (the theme their standings name weakest, the product's own
filter, at the adaptive deals' aim; none named: a hand at their level) and 50 at their level;
the share of each that needs the theme they are truly weak in, and the one over the other (the
issue's goal, 3 times, where the theme is at most a third of the hands).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import csv
import dataclasses
import math
import os
import random
import statistics
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.play.community.standings import SHOWN_MEAN, SHOWN_PER_UNIT
from bot.play.dealing.adaptive import Leaving
from bot.play.ratings import (
    Book,
    ClosedRound,
    HandIndex,
    Response,
    adaptive_hands,
    hand_key,
    new_hand,
    new_player,
    rate_round,
)
from bot.play.ratings.themes import ThemedRound, standings
from solver import rate
from solver.errors import SolverError
from solver.themes import THEMES, themes

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "4nums-human-difficulty.csv"
GAME = "24"
DEADLINE = 120.0
SEASON = "2026-11"

SKILL_SPREAD = 0.5  # the simulated players' skills: normal, this standard deviation
WRONG_STUCK, WRONG_FINDING, PASSING = 0.5, 0.1, 0.4
GROUP_SIZES, GROUP_WEIGHTS = (1, 2, 3, 4), (0.3, 0.3, 0.25, 0.15)
WEAK, STRONG = (-0.6, -0.4), (0.4, 0.6)
WEAK_BY = 3.0  # (f): how much weaker the player is on a hand of their weak theme
THEMED_ROUNDS, THEMED_RUNS = 50, 10  # (f): a player's rounds, and players of each theme
# the goal (9 of 10) is a player's 50 rounds alone, in a theme of at least this share of
# the hands (a product last, one solution only): a rarer one comes up in 50 random hands a few
# times (a step past 24, 9 %: named in 7 to 10 of 10 over seeds 1 to 3), and in a group a player
# beaten to a hand says nothing of it
GOAL_SHARE = 0.15
PRACTICE_DEALS = 50  # (g): hands dealt each player as /practice deals them, and at their level
RECENT = 30  # an adaptive group is dealt none of its last this many hands again
LAST = 100  # the adaptive rounds whose solve rate is judged


@dataclass(frozen=True)
class People:
    """The simulator's own model of people (see the module's docstring)."""

    slow: float = 4.0  # times the site's mean time: a chat's players type their answers
    spread: float = 0.6  # standard deviation of one player's log solve time on one hand
    stuck: float = 0.5  # how much skill keeps a player from getting stuck


@dataclass(frozen=True)
class TrueHand:
    """A hand as people played it on 4nums.com: mean solve time and solve rate."""

    numbers: tuple[int, ...]
    seconds: float
    solved: float

    @property
    def key(self) -> str:
        return hand_key(self.numbers, 24)


@dataclass(frozen=True)
class Attempt:
    """What one simulated player would do on a hand, given all the time in the world."""

    solve: float  # seconds to a right answer, inf when stuck
    wrong: float  # seconds to a wrong answer, inf when none
    give_up: float  # seconds to a pass, inf when none


def read_hands(path: Path) -> list[TrueHand]:
    with path.open(encoding="utf-8") as source:
        return [TrueHand(tuple(int(n) for n in row["Puzzles"].split()), float(row["AMT (s)"]),
                         float(row["Solved rate"].rstrip("%")) / 100)
                for row in csv.DictReader(source)]


def finds_chance(people: People, skill: float, hand: TrueHand) -> float:
    return hand.solved ** math.exp(-people.stuck * skill)


def attempt(rng: random.Random, people: People, skill: float, hand: TrueHand) -> Attempt:
    inf = math.inf
    if rng.random() < finds_chance(people, skill, hand):
        solve = people.slow * hand.seconds * math.exp(-skill + people.spread * rng.gauss(0, 1))
        wrong = rng.uniform(0, min(solve, DEADLINE)) if rng.random() < WRONG_FINDING else inf
        return Attempt(solve, wrong, inf)
    if rng.random() >= WRONG_STUCK:
        return Attempt(inf, inf, inf)
    wrong = rng.uniform(0, DEADLINE)
    give_up = rng.uniform(wrong, DEADLINE) if rng.random() < PASSING else inf
    return Attempt(inf, wrong, give_up)


def race(rng: random.Random, people: People, players: Sequence[tuple[int, float]],
         hand: TrueHand, censoring: str = "censored") -> tuple[ClosedRound, bool]:
    """One round of a group on a hand: what the chat saw, and whether anyone solved it.
    `censoring` other than "censored" tells the rating code a race's losers lost ("failed":
    as if they had given up) or nothing of them ("ignored"), to compare."""
    attempts = {pid: attempt(rng, people, skill, hand) for pid, skill in players}
    first = min(a.solve for a in attempts.values())
    end = min(first, DEADLINE)
    last_pass = max(a.give_up for a in attempts.values())
    if last_pass < end:  # everyone passed: the round ends then, as at a time-out
        end = last_pass
    won = first < DEADLINE and first <= end
    responses = tuple(Response(pid, solved_at=a.solve if won and a.solve == first else None,
                               wrong=int(a.wrong < end),
                               passed_at=a.give_up if a.give_up < end else None)
                      for pid, a in attempts.items())
    if won and censoring != "censored":
        losers = [r for r in responses if r.solved_at is None and r.passed_at is None]
        kept = [r for r in responses if r not in losers]
        if censoring == "failed":
            kept += [dataclasses.replace(r, passed_at=end) for r in losers]
        responses = tuple(kept)
    return ClosedRound(GAME, hand.key, DEADLINE, end, responses), won


def true_difficulty(people: People, hand: TrueHand) -> float:
    """Minus the expected Math Garden score of a player of skill 0 alone on the hand."""
    quantiles = [NormalDist().inv_cdf((i + 0.5) / 400) for i in range(400)]
    speed = statistics.fmean(max(0.0, 1 - people.slow * hand.seconds * math.exp(people.spread * q)
                                 / DEADLINE) for q in quantiles)
    return -finds_chance(people, 0.0, hand) * speed


def ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    data = np.asarray(values, dtype=float)
    order = np.argsort(data, kind="stable")
    ranked = np.empty(len(data))
    ranked[order] = np.arange(1, len(data) + 1)
    _, groups = np.unique(data, return_inverse=True)
    sums = np.bincount(groups, weights=ranked)
    return (sums / np.bincount(groups))[groups]


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def fresh_book(hands: Sequence[TrueHand], floored: bool = True) -> Book:
    """Every hand at the fixed model's difficulty, as at its first deal."""
    return Book(SEASON, (new_hand(GAME, h.key, 0.0, 4, 24, rate(h.numbers)) for h in hands),
                floored)


@dataclass
class Season:
    """(e): what a season of `learn` did to the players' ratings."""

    wins: int = 0
    lowered: int = 0  # wins after which the winner's rating was lower than before
    means: list[float] = dataclasses.field(default_factory=list)  # at each quarter, as shown


def learn(book: Book, people: People, hands: Sequence[TrueHand], skills: Sequence[float],
          rounds: int, rng: random.Random, censoring: str) -> Season:
    """(a) and (b): random groups on random hands."""
    season = Season()
    quarters = {rounds * q // 4 for q in range(1, 5)}
    for number in range(rounds):
        size = rng.choices(GROUP_SIZES, GROUP_WEIGHTS)[0]
        group = [(pid, skills[pid]) for pid in rng.sample(range(len(skills)), size)]
        closed, _ = race(rng, people, group, rng.choice(hands), censoring)
        before = {r.player_id: book.player(r.player_id, GAME, 0.0).rating
                  for r in closed.responses if r.solved_at is not None}
        book.rate(closed, float(number))
        season.wins += len(before)
        season.lowered += sum(book.player(pid, GAME, 0.0).rating < rating
                              for pid, rating in before.items())
        if number + 1 in quarters:
            season.means.append(SHOWN_MEAN + SHOWN_PER_UNIT * statistics.fmean(
                book.player(pid, GAME, 0.0).rating for pid in range(len(skills))))
    return season


def adaptive(book: Book, people: People, by_key: dict[str, TrueHand], skills: Sequence[float],
             first_id: int, rounds: int, rng: random.Random, censoring: str) -> list[bool]:
    """(c): a group of new players dealt adaptively; whether each round was solved."""
    group = [(first_id + i, skill) for i, skill in enumerate(skills)]
    recent: deque[str] = deque(maxlen=RECENT)
    solved = []
    for number in range(rounds):
        key = book.choose(GAME, [pid for pid, _ in group], DEADLINE, float(number), rng,
                          exclude=set(recent))
        recent.append(key)
        closed, won = race(rng, people, group, by_key[key], censoring)
        book.rate(closed, float(number))
        solved.append(won)
    return solved


def costs(book: Book, rng: random.Random, repeat: int,
          many: int) -> tuple[float, float, float]:
    """Median µs of one update (three players), median ms of one adaptive choice among the
    book's hands, and among `many` hands."""
    hands = list(book.hands.values())
    players = {pid: new_player(pid, GAME, SEASON, 0.0) for pid in range(3)}
    scale = book.scale(GAME, 0.0)
    update: list[int] = []
    choice: list[int] = []
    large: list[int] = []
    index = book.indexes[GAME]
    big = HandIndex((f"h{i}", rng.gauss(-2.0, 1.5)) for i in range(many))
    for _ in range(repeat):
        hand = rng.choice(hands)
        closed = ClosedRound(GAME, hand.hand_key, DEADLINE, 30.0,
                             (Response(0, solved_at=30.0), Response(1, wrong=1), Response(2)))
        start = time.perf_counter_ns()
        rate_round(closed, players, hand, scale, 1.0)
        update.append(time.perf_counter_ns() - start)
        group = [(rng.gauss(-1.0, 1.0), 0.4) for _ in range(3)]
        for where, sink in ((index, choice), (big, large)):
            start = time.perf_counter_ns()
            adaptive_hands(where, group, DEADLINE, scale, 5)
            sink.append(time.perf_counter_ns() - start)
    return (statistics.median(update) / 1e3, statistics.median(choice) / 1e6,
            statistics.median(large) / 1e6)


def hands_themes(hands: Sequence[TrueHand]) -> dict[str, tuple[str, ...]]:
    """Each hand's themes, by key (solver.themes: what the bot writes for a rated hand)."""
    found = {}
    for hand in hands:
        try:
            found[hand.key] = themes(hand.numbers, 24).codes
        except SolverError:
            found[hand.key] = ()
    return found


MODES = {  # (f): where the player plays, and whether the rounds they dealt are read
    "alone": (False, True),  # what the page reads: the rounds answered, and dealt and unsolved
    "in groups": (True, True),  # the dealer drawn from the group
    "alone, answered only": (False, False),  # as the page read before it read the dealt
}


def weak_player(book: Book, people: People, hands: Sequence[TrueHand],
                needs: dict[str, tuple[str, ...]], skills: Sequence[float], weak: str, me: int,
                rounds: int, rng: random.Random, mode: str) -> tuple[Book, str | None]:
    """A new player weak in `weak` plays `rounds` rounds on random hands (on a copy of the book:
    the season's ratings stay as they are): the book after, and the theme the standings name
    weakest from the rounds the page reads (PageStore.tried_hands: those the player answered,
    and those they dealt that nobody won), None if none has enough rounds."""
    groups, dealt = MODES[mode]
    played = copy.deepcopy(book)
    tried: list[tuple[str, bool]] = []
    for number in range(rounds):
        hand = rng.choice(hands)
        size = rng.choices(GROUP_SIZES, GROUP_WEIGHTS)[0] if groups else 1
        others = [(pid, skills[pid]) for pid in rng.sample(range(len(skills)), size - 1)]
        mine = 0.0 - (WEAK_BY if weak in needs[hand.key] else 0.0)
        group = [(me, mine), *others]
        closed, won = race(rng, people, group, hand)
        played.rate(closed, float(number))
        [response] = [r for r in closed.responses if r.player_id == me]
        dealer = rng.choice(group)[0]
        if response.solved_at is not None or response.wrong or \
                (dealt and dealer == me and not won):
            tried.append((hand.key, response.solved_at is not None))
    rating = played.player(me, GAME, 0.0).rating
    found = standings([ThemedRound(solved, rating - played.hands[GAME, key].difficulty,
                                   needs[key]) for key, solved in tried])
    return played, found[0].code if found else None


def weakest_named(book: Book, people: People, hands: Sequence[TrueHand],
                  needs: dict[str, tuple[str, ...]], skills: Sequence[float], weak: str,
                  first_id: int, rounds: int, runs: int, rng: random.Random,
                  mode: str) -> int:
    """(f): of `runs` new players weak in `weak`, how many the standings name weakest in it
    after `rounds` rounds each."""
    return sum(weak_player(book, people, hands, needs, skills, weak, first_id + n, rounds, rng,
                           mode)[1] == weak for n in range(runs))


def practice_ratio(book: Book, people: People, hands: Sequence[TrueHand],
                   needs: dict[str, tuple[str, ...]], skills: Sequence[float], weak: str,
                   first_id: int, runs: int, rng: random.Random) -> tuple[float, float]:
    """(g): `runs` new players weak in `weak` play THEMED_ROUNDS rounds alone, then are dealt
    PRACTICE_DEALS hands as /practice deals them (the product's own filter, `Leaving`, on the
    theme the standings name weakest: none named, a hand at their level) and as many at their
    level (the adaptive deal, the same aim): the share of each that needs `weak`."""
    practised = level = 0
    for n in range(runs):
        played, named = weak_player(book, people, hands, needs, skills, weak, first_id + n,
                                    THEMED_ROUNDS, rng, "alone")
        me = first_id + n
        for dealt, only in ((0, named), (1, None)):
            recent: deque[str] = deque(maxlen=RECENT)
            for number in range(PRACTICE_DEALS):
                leaving = Leaving(recent, (lambda key, code=only: code in needs[key])) \
                    if only is not None else recent
                key = None
                if only is not None:
                    with contextlib.suppress(ValueError):  # no hand needs it: any hand
                        key = played.choose(GAME, [me], DEADLINE, float(number), rng,
                                            exclude=leaving)
                key = key or played.choose(GAME, [me], DEADLINE, float(number), rng,
                                           exclude=recent)
                recent.append(key)
                if weak in needs[key]:
                    if dealt == 0:
                        practised += 1
                    else:
                        level += 1
    total = runs * PRACTICE_DEALS
    return practised / total, level / total


@dataclass
class Played:
    """A fresh book after a season of `learn`: the players' skills, what the season did, and
    the rng where the season left it."""

    book: Book
    skills: list[float]
    season: Season
    rng: random.Random


def season_of_play(hands: Sequence[TrueHand], people: People, players: int, rounds: int,
                   seed: int, fixed_shape: bool, censoring: str, floored: bool) -> Played:
    rng = random.Random(seed)
    book = fresh_book(hands, floored)
    if fixed_shape:
        book.scales[GAME] = dataclasses.replace(book.scale(GAME, 0.0), uncertainty=0.0)
    skills = [rng.gauss(0.0, SKILL_SPREAD) for _ in range(players)]
    return Played(book, skills, learn(book, people, hands, skills, rounds, rng, censoring), rng)


def run(data: Path, rounds: int, players: int, adaptive_rounds: int, seed: int,
        people: People = People(), fixed_shape: bool = False, censoring: str = "censored",
        repeat: int = 2000, many: int = 100_000
        ) -> tuple[list[tuple[str, float, str]], dict[str, Season]]:
    """Every measure as (what, value, goal): the table's rows; and (e), each rule's season.
    `fixed_shape`: the scale's shape kept where it starts (no uncertainty, so no update moves
    it), to see what learning it buys."""
    hands = read_hands(data)
    prior = [h.difficulty for h in fresh_book(hands).hands.values()]
    before = season_of_play(hands, people, players, rounds, seed, fixed_shape, censoring, False)
    now = season_of_play(hands, people, players, rounds, seed, fixed_shape, censoring, True)
    book, skills, rng = now.book, now.skills, now.rng
    learned = [book.hands[GAME, h.key].difficulty for h in hands]
    learned_before = [before.book.hands[GAME, h.key].difficulty for h in hands]
    truth = [true_difficulty(people, h) for h in hands]
    by_time = [h.seconds for h in hands]
    ratings = [book.player(pid, GAME, 0.0).rating for pid in range(players)]
    ratings_before = [before.book.player(pid, GAME, 0.0).rating for pid in range(players)]
    shape = book.scale(GAME, 0.0).shape
    by_key = {h.key: h for h in hands}
    weak = adaptive(book, people, by_key, WEAK, players, adaptive_rounds, rng, censoring)
    strong = adaptive(book, people, by_key, STRONG, players + len(WEAK), adaptive_rounds, rng,
                      censoring)
    update_us, choice_ms, large_ms = costs(book, rng, repeat, many)
    last = min(LAST, adaptive_rounds)
    needs = hands_themes(hands)
    shares = {code: statistics.fmean(code in codes for codes in needs.values())
              for code in THEMES}
    themed = [(f"(f) weak in {code} ({shares[code]:.0%} of hands), {mode}: named weakest",
               float(weakest_named(book, people, hands, needs, skills, code,
                                   players + 100 + 100 * n, THEMED_ROUNDS, THEMED_RUNS, rng,
                                   mode)),
               f">= {THEMED_RUNS - 1}" if mode == "alone" and shares[code] >= GOAL_SHARE
               else "")
              for n, code in enumerate(c for c in THEMES if shares[c] >= 0.05) for mode in MODES]
    practice = []
    for n, code in enumerate(c for c in THEMES if shares[c] >= 0.05):
        practised, level = practice_ratio(book, people, hands, needs, skills, code,
                                          players + 5000 + 100 * n, THEMED_RUNS, rng)
        practice += [
            (f"(g) weak in {code}: share of /practice deals that need it", practised, ""),
            (f"(g) weak in {code}: share of deals at their level that need it", level, ""),
            (f"(g) weak in {code}: /practice over level", practised / level if level else 0.0,
             ">= 3" if 3 * shares[code] <= 1 else "")]
    return [
        ("(a) hands: fixed model (prior) vs true difficulty", spearman(prior, truth), ""),
        (f"(a) hands: learned after {rounds} rounds vs true difficulty",
         spearman(learned, truth), ">= 0.9"),
        ("(a) the same, slow wins rated as before (they could lower)",
         spearman(learned_before, truth), ""),
        ("(a) hands: fixed model (prior) vs 4nums ranking by time", spearman(prior, by_time), ""),
        ("(a) hands: learned vs 4nums ranking by time", spearman(learned, by_time), ""),
        ("(a) the scale's shape" + (" (fixed)" if fixed_shape else " learned (starts at 1.0)"),
         shape, ""),
        (f"(b) players: learned vs true skill ({players})", spearman(ratings, skills), ">= 0.9"),
        ("(b) the same, slow wins rated as before (they could lower)",
         spearman(ratings_before, skills), ""),
        (f"(c) weak group {WEAK}: solve rate, last {last} of {adaptive_rounds}",
         statistics.fmean(weak[-last:]), "0.65-0.85"),
        (f"(c) strong group {STRONG}: solve rate, last {last} of {adaptive_rounds}",
         statistics.fmean(strong[-last:]), "0.65-0.85"),
        ("(c) weak group: solve rate, all rounds", statistics.fmean(weak), ""),
        ("(c) strong group: solve rate, all rounds", statistics.fmean(strong), ""),
        ("(d) one update, 3 players (median µs)", update_us, ""),
        (f"(d) adaptive choice among {len(book.hands)} hands (median ms)", choice_ms, "<= 5"),
        (f"(d) adaptive choice among {many:,} hands (median ms)", large_ms, "<= 5"),
        *themed,
        *practice,
    ], {"wins floored (now)": now.season, "slow wins could lower (before)": before.season}


def met(value: float, goal: str) -> str:
    if not goal:
        return ""
    if goal.startswith(">="):
        return "yes" if value >= float(goal[2:]) else "NO"
    if goal.startswith("<="):
        return "yes" if value <= float(goal[2:]) else "NO"
    low, high = map(float, goal.split("-"))
    return "yes" if low <= value <= high else "NO"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="4nums-human-difficulty.csv (default: ../shared/data/)")
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--adaptive", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow", type=float, default=People.slow,
                        help="the simulated players' times, in the site's mean times")
    parser.add_argument("--spread", type=float, default=People.spread,
                        help="standard deviation of a simulated player's log solve time")
    parser.add_argument("--stuck", type=float, default=People.stuck,
                        help="how much skill keeps a simulated player from getting stuck")
    parser.add_argument("--fixed-shape", action="store_true",
                        help="keep the scale's shape where it starts (to compare)")
    parser.add_argument("--censoring", choices=("censored", "failed", "ignored"),
                        default="censored", help="what the rating code is told of a race's "
                        "losers (censored: still trying when it was won; to compare)")
    args = parser.parse_args()
    people = People(args.slow, args.spread, args.stuck)
    if not args.data.exists():
        sys.exit(f"no human data at {args.data}: give --data")
    started = time.perf_counter()
    rows, seasons = run(args.data, args.rounds, args.players, args.adaptive, args.seed, people,
                        args.fixed_shape, args.censoring)
    print(f"Learned ratings (bot.play.ratings), simulated play, seed {args.seed}, {people}, "
          f"losers {args.censoring}, "
          f"{time.perf_counter() - started:.0f} s (load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"| {'measure':<62} | {'value':>8} | {'goal':>9} | met |")
    print(f"| {'-' * 62} | {'-' * 8}: | {'-' * 9}: | --- |")
    for what, value, goal in rows:
        print(f"| {what:<62} | {value:>8.3f} | {goal:>9} | {met(value, goal):<3} |")
    print(f"\n(e) the season of (a) and (b), {args.rounds} rounds: the players' mean rating as "
          f"/top shows it (a new player {SHOWN_MEAN}) after each quarter, and the wins that "
          f"lowered their winner")
    print("| rated | ¼ | ½ | ¾ | end | wins that lowered their winner |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for rule, season in seasons.items():
        means = " | ".join(f"{mean:.0f}" for mean in season.means)
        print(f"| {rule} | {means} | {season.lowered} of {season.wins} |")


if __name__ == "__main__":
    main()
