"""A busy year of play, generated as rows of the bot's own tables and written in bulk into a fresh
database of either backend whose schema the project's migrations made (bench/bench_year.py
measures the bot on it).

The year: group chats whose activity falls off like a power law (the busiest plays thousands of
rounds, most a few dozen), players who each belong to one or two of them, rounds of the three
games spread over the year with about four answers each, private rounds, a year of daily
results, matches, passes, settings and the last two days' update ids, the ratings (each
player's rating day by day per game, each season's row, the hands of 24's difficulties, the
rated games' scales), tournaments between the busiest groups (one a fiftieth of the matches,
all over but one, running in the busiest group: its deals are rounds the groups played), plus
`heavy` players with `heavy_answers` answers each (for /forget).
Scores are not generated: they are what the database's own definition (the view
`scores_from_rounds`) says, inserted with the triggers on, so every summary the schema keeps is
kept as the bot would; each player's answered rounds, where the schema has the table, are what
its step fills it with from the answers.

Fast because it is bulk: numpy draws every column at once, secondary indexes and triggers are
dropped during the load and made again from their own definitions (SQLite's sqlite_master,
PostgreSQL's pg_indexes), and PostgreSQL takes the rows by COPY.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

DAY = 86400.0
LENGTH = {"24": 120.0, "countdown": 60.0, "yahtzee": 300.0}
GAMES = ("24", "countdown", "yahtzee")
GAME_SHARE = (0.75, 0.15, 0.10)
PRIVATE_SHARE = 0.03  # of rounds, played in players' private chats
WON_SHARE, REVEALED_SHARE = 0.70, 0.05  # the rest expire
MATCH_ROUNDS = 10
TOURNAMENT_ROUNDS, TOURNAMENT_GROUPS, TOURNAMENT_CHATS = 10, 10, 200
CHUNK = 200_000


@dataclass(frozen=True)
class Scale:
    chats: int = 20_000
    players: int = 200_000
    rounds: int = 2_000_000
    answers_per_round: float = 4.0
    daily_per_day: int = 2_000
    private_players: int = 20_000
    heavy: int = 20
    heavy_answers: int = 5_000
    matches: int = 10_000
    days: int = 365

    def shrunk(self, factor: float) -> Scale:
        """The same year `factor` times as big; the heavy players keep their number and their
        answers (what /forget deletes of theirs is the same in any file)."""
        def part(n: int, least: int) -> int:
            return max(least, round(n * factor))
        return dataclasses.replace(
            self, chats=part(self.chats, 10), players=part(self.players, 100),
            rounds=part(self.rounds, 500), daily_per_day=part(self.daily_per_day, 20),
            private_players=part(self.private_players, 40), matches=part(self.matches, 2))


@dataclass
class Year:
    """Every generated row, column by column (numpy arrays) where there are many."""

    now: float
    scale: Scale
    users: list[tuple[int, str, str | None]]
    chats: list[tuple[int, str, str | None, str | None]]
    group_ids: np.ndarray  # by chat index, busiest first
    members: list[np.ndarray]  # player ids per group chat
    user_ids: np.ndarray  # by player index
    heavy_ids: np.ndarray
    rounds: dict[str, Any]
    answers: dict[str, Any]
    matches: list[tuple]
    match_rounds: list[tuple[int, int, int]]
    passes: list[tuple[int, int, float]]
    daily: list[tuple]
    settings: list[tuple[int, str, float]]
    updates: list[tuple[int, float]]
    ratings: dict[str, Any]  # rate_days's
    tournaments: dict[str, list[tuple]]  # play_tournaments's rows, by table

    @property
    def round_count(self) -> int:
        return len(self.rounds["id"])

    @property
    def answer_count(self) -> int:
        return len(self.answers["round_id"])


def pools(rng: np.random.Generator) -> dict[str, list[str]]:
    """Stored texts: hands of each game and answers, drawn from small pools (what they say
    does not matter to any query; their size does)."""
    def hand(game: str) -> str:
        if game == "24":
            return json.dumps(rng.integers(1, 14, 4).tolist())
        if game == "countdown":
            return json.dumps([25, 50, *rng.integers(1, 11, 4).tolist()])
        return json.dumps(rng.integers(1, 7, (13, 5)).tolist())

    ops = "+-*/"
    answers = [f"({a}{ops[i % 4]}{b})*{c}{ops[(i + 1) % 4]}{d}"
               for i, (a, b, c, d) in enumerate(rng.integers(1, 14, (500, 4)).tolist())]
    return {"hand:" + game: [hand(game) for _ in range(300)] for game in GAMES} | {
        "answer": answers, "guess": [str(n) for n in range(150, 350)]}


def generate(scale: Scale, now: float | None = None, seed: int = 24,
             expired_before: float | None = None) -> Year:
    """The year up to `now`; `expired_before`: answers of rounds ended before it are as the
    retention leaves them (one per player and round, no text)."""
    now = time.time() if now is None else now
    rng = np.random.default_rng(seed)
    texts = pools(rng)

    user_ids = np.unique(rng.integers(100_000_000, 8_000_000_000, int(scale.players * 1.1)))
    user_ids = rng.permutation(user_ids)[:scale.players]
    users = [(int(uid), f"Player{i}", f"player_{i}" if i % 3 else None)
             for i, uid in enumerate(user_ids.tolist())]
    group_ids = -1_001_000_000_000 - np.arange(scale.chats, dtype=np.int64)
    activity = 1.0 / (np.arange(scale.chats) + 10.0) ** 0.8
    activity /= activity.sum()
    members = memberships(rng, scale, activity, user_ids)
    private_ids = user_ids[:scale.private_players]
    heavy_ids = user_ids[:scale.heavy]
    for h in range(scale.heavy):  # each heavy player is in ten of the busiest chats
        for chat in rng.choice(min(50, scale.chats), size=min(10, scale.chats), replace=False):
            members[chat] = np.append(members[chat], heavy_ids[h])
    chats = [(int(cid), "group", f"Group {i}", "zh" if i % 10 == 3 else None)
             for i, cid in enumerate(group_ids.tolist())]
    chats += [(int(uid), "private", None, None) for uid in private_ids.tolist()]

    rounds, answers = play_rounds(rng, scale, now, activity, group_ids, members, private_ids,
                                  heavy_ids, texts)
    if expired_before is not None:
        answers = expire(answers, rounds, expired_before)
    matches, match_rounds = play_matches(rng, scale, rounds)
    passes = pass_rounds(rng, rounds, answers)
    daily = daily_results(rng, scale, now, private_ids, heavy_ids, texts)
    settings = [(int(group_ids[i]), json.dumps({"hints": False}), now - DAY)
                for i in range(20, scale.chats, 20)]  # not the busiest: they play as dealt
    first_update = 900_000_000
    updates = [(first_update + i, now - 2 * DAY + i * (2 * DAY / 60_000))
               for i in range(max(100, int(60_000 * scale.rounds / 2_000_000)))]
    ratings = rate_days(rng, now, rounds, answers)
    tournaments = play_tournaments(np.random.default_rng(seed + 1), scale, now, rounds,
                                   group_ids, members, match_rounds)
    return Year(now, scale, users, chats, group_ids, members, user_ids, heavy_ids, rounds,
                answers, matches, match_rounds, passes, daily, settings, updates, ratings,
                tournaments)


def memberships(rng: np.random.Generator, scale: Scale, activity: np.ndarray,
                user_ids: np.ndarray) -> list[np.ndarray]:
    """Each player's home chat (busier chats have more players), a second one for a third
    of them; every chat has at least three."""
    weight = activity ** 0.7
    weight /= weight.sum()
    home = rng.choice(scale.chats, size=scale.players, p=weight)
    second = rng.choice(scale.chats, size=scale.players // 3, p=weight)
    chat_of = np.concatenate([home, second])
    player_of = np.concatenate([np.arange(scale.players), rng.choice(scale.players,
                                                                     scale.players // 3)])
    order = np.argsort(chat_of, kind="stable")
    bounds = np.searchsorted(chat_of[order], np.arange(scale.chats + 1))
    found = []
    for chat in range(scale.chats):
        players = np.unique(player_of[order[bounds[chat]:bounds[chat + 1]]])
        if len(players) < 3:
            players = np.unique(np.concatenate([players, rng.choice(scale.players, 3)]))
        found.append(user_ids[players])
    return found


def play_rounds(rng: np.random.Generator, scale: Scale, now: float, activity: np.ndarray,
                group_ids: np.ndarray, members: list[np.ndarray], private_ids: np.ndarray,
                heavy_ids: np.ndarray, texts: dict[str, list[str]]
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    n = scale.rounds
    started = np.sort(rng.uniform(now - scale.days * DAY, now - 3600.0, n))
    private = rng.random(n) < PRIVATE_SHARE
    chat_index = rng.choice(scale.chats, size=n, p=activity)
    owner_weight = np.ones(len(private_ids))
    owner_weight[:len(heavy_ids)] = 30.0  # heavy players also play alone, often
    owner = rng.choice(len(private_ids), size=n, p=owner_weight / owner_weight.sum())
    chat_id = np.where(private, private_ids[owner], group_ids[chat_index])
    game_index = rng.choice(3, size=n, p=GAME_SHARE)
    length = np.array([LENGTH[g] for g in GAMES])[game_index]
    count = 1 + rng.poisson(scale.answers_per_round - 1, n)

    # answers: who (a member of the chat, or the private chat's owner) and when
    round_of = np.repeat(np.arange(n), count)
    sizes = np.array([len(m) for m in members])
    flat = np.concatenate(members)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    pick = (rng.random(len(round_of)) * sizes[chat_index[round_of]]).astype(np.int64)
    user = np.where(private[round_of], private_ids[owner[round_of]],
                    flat[offsets[chat_index[round_of]] + pick])
    first_of = np.concatenate([[0], np.cumsum(count)[:-1]])
    place = np.arange(len(round_of)) - first_of[round_of]
    at = started[round_of] + length[round_of] * (place + rng.random(len(round_of))) / \
        (count[round_of] + 1)

    # the heavy players' answers, early in rounds of their chats
    heavy_chats = {int(h): set() for h in heavy_ids.tolist()}
    for chat, players in enumerate(members):
        for h in np.intersect1d(players, heavy_ids).tolist():
            heavy_chats[int(h)].add(chat)
    group_round = np.flatnonzero(~private)
    extra_round, extra_user, heavy_wins, heavy_starts = [], [], {}, {}
    for h, chats in heavy_chats.items():
        theirs = group_round[np.isin(chat_index[group_round], list(chats))]
        chosen = rng.choice(theirs, size=scale.heavy_answers,  # several a round if need be
                            replace=len(theirs) < scale.heavy_answers)
        extra_round.append(chosen)
        extra_user.append(np.full(len(chosen), h))
        heavy_wins[h] = chosen[: len(chosen) // 5]
        heavy_starts[h] = chosen[len(chosen) // 5: len(chosen) // 5 + len(chosen) // 10]
    extra = np.concatenate(extra_round) if extra_round else np.zeros(0, np.int64)
    round_of = np.concatenate([round_of, extra])
    user = np.concatenate([user, *extra_user]) if extra_user else user
    at = np.concatenate([at, started[extra] + 0.5])
    order = np.lexsort((at, round_of))
    round_of, user, at = round_of[order], user[order], at[order]
    count = np.bincount(round_of, minlength=n)
    last = np.cumsum(count) - 1

    roll = rng.random(n)
    status = np.where(roll < WON_SHARE, 0, np.where(roll < WON_SHARE + REVEALED_SHARE, 1, 2))
    for h, won in heavy_wins.items():
        won = won[status[won] == 0]
        user[last[won]] = h
    won = status == 0
    winner = np.where(won, user[last], 0)
    correct = np.zeros(len(round_of), np.int8)
    correct[last[won]] = 1
    answer_text = rng.integers(0, len(texts["answer"]), len(round_of))
    distance = np.where(game_index[round_of] > 0, rng.integers(1, 40, len(round_of)), -1)
    distance[last[won]] = np.where(game_index[won] > 0, 0, -1)

    level_roll = rng.random(n)
    level = np.where(level_roll < 0.3, 0, np.where(level_roll < 0.8, 1, 2))
    hint = (game_index == 0) & (rng.random(n) < 0.1)
    base = np.select([game_index == 0, game_index == 1], [(level + 1) * 10, 10], 20)
    points = np.where(hint, base // 2, base)
    ended = np.where(won, at[last], np.where(status == 1, np.minimum(at[last] + 5.0,
                                                                     started + length),
                                             started + length))
    starter = user[np.concatenate([[0], np.cumsum(count)[:-1]])]
    starter = np.where(rng.random(n) < 0.5, starter,
                       np.where(private, private_ids[owner],
                                flat[offsets[chat_index] +
                                     (rng.random(n) * sizes[chat_index]).astype(np.int64)]))
    for h, started_them in heavy_starts.items():
        starter[started_them] = h
    hands = rng.integers(0, 300, n)
    target = np.select([game_index == 0, game_index == 1], [24, rng.integers(101, 1000, n)],
                       rng.integers(150, 350, n))
    rounds = {"id": np.arange(1, n + 1), "chat_id": chat_id, "game": game_index, "hand": hands,
              "target": target, "level": level, "points": points, "started_at": started,
              "deadline": started + length, "ended_at": ended, "status": status,
              "winner_id": winner, "winning_answer": np.where(won, answer_text[last], -1),
              "hint_used": hint.astype(np.int8), "awarded": np.where(won, points, 0),
              "win_seconds": np.where(won, at[last] - started, np.nan),
              "started_by": starter, "message_id": rng.integers(1000, 10**6, n),
              "zh": rng.random(n) < 0.1, "texts": texts}
    answers = {"round_id": round_of + 1, "user_id": user, "text": answer_text,
               "correct": correct, "at": at, "distance": distance,
               "guess": game_index[round_of] == 2}
    return rounds, answers


def expire(answers: dict[str, Any], rounds: dict[str, Any], before: float) -> dict[str, Any]:
    """What the answers' retention leaves of rounds ended before `before`: each player's first
    answer of the round, without its text (-2: the empty text)."""
    old = rounds["ended_at"][answers["round_id"] - 1] < before
    key = answers["round_id"].astype(np.int64) * 10**10 + answers["user_id"]
    _, first = np.unique(key, return_index=True)
    is_first = np.zeros(len(key), bool)
    is_first[first] = True
    keep = ~old | is_first
    kept = {name: values[keep] for name, values in answers.items()}
    kept["text"] = np.where(old[keep], -2, kept["text"])
    return kept


def play_matches(rng: np.random.Generator, scale: Scale, rounds: dict[str, Any]
                 ) -> tuple[list[tuple], list[tuple[int, int, int]]]:
    """Matches of MATCH_ROUNDS rounds of 24 in a row in one group chat, in that chat's order."""
    of24 = np.flatnonzero((rounds["game"] == 0) & (rounds["chat_id"] < 0))
    by_chat = np.argsort(rounds["chat_id"][of24], kind="stable")
    ordered = of24[by_chat]
    chats = rounds["chat_id"][ordered]
    runs = len(ordered) // MATCH_ROUNDS
    starts = rng.choice(runs, size=min(scale.matches, runs), replace=False) * MATCH_ROUNDS
    matches, links = [], []
    for match_id, start in enumerate(np.sort(starts).tolist(), 1):
        picked = ordered[start:start + MATCH_ROUNDS]
        if chats[start] != chats[start + MATCH_ROUNDS - 1]:
            continue  # the run spans two chats
        first, final = int(picked[0]), int(picked[-1])
        matches.append((match_id, int(chats[start]), MATCH_ROUNDS,
                        int(rounds["started_by"][first]), "en",
                        float(rounds["started_at"][first]), float(rounds["ended_at"][final]),
                        "done", 0))
        links += [(match_id, number, int(r) + 1) for number, r in enumerate(picked.tolist(), 1)]
    return matches, links


def play_tournaments(rng: np.random.Generator, scale: Scale, now: float, rounds: dict[str, Any],
                     group_ids: np.ndarray, members: list[np.ndarray],
                     match_rounds: list[tuple[int, int, int]]) -> dict[str, list[tuple]]:
    """Tournaments of TOURNAMENT_ROUNDS rounds of 24 between the TOURNAMENT_CHATS busiest
    groups, their deals rounds those groups played (none a match's): the first running in the
    TOURNAMENT_GROUPS busiest (half its rounds played, the next a day away: nothing of it is
    dealt while the bench runs), the others over, two to ten groups
    each, latest first back through the year. Rows by table, keyed by the columns of
    TOURNAMENT_COLUMNS."""
    in_matches = np.array([r - 1 for _, _, r in match_rounds], dtype=np.int64)
    of24 = np.flatnonzero((rounds["game"] == 0) & (rounds["chat_id"] < 0))
    of24 = np.setdiff1d(of24, in_matches)
    chats = group_ids[:min(TOURNAMENT_CHATS, len(group_ids))]
    pool = {int(c): of24[rounds["chat_id"][of24] == c].tolist()[::-1] for c in chats.tolist()}
    rows: dict[str, list[tuple]] = {table: [] for table in TOURNAMENT_COLUMNS}
    count = max(2, scale.matches // 50)
    for tid in range(1, count + 1):
        running = tid == 1
        size = min(TOURNAMENT_GROUPS, len(chats)) if running else int(rng.integers(2, 11))
        groups = chats[:size] if running else rng.choice(chats, min(size, len(chats)),
                                                        replace=False)
        played = TOURNAMENT_ROUNDS // 2 if running else TOURNAMENT_ROUNDS
        taken = {int(c): pool[int(c)][:played][::-1] for c in groups.tolist()
                 if len(pool[int(c)]) >= played}
        if len(taken) < 2:
            continue
        for chat in taken:
            del pool[chat][:played]
        tournament_rows(rows, tid, running, taken, rounds, members, group_ids, now)
    return rows


def tournament_rows(rows: dict[str, list[tuple]], tid: int, running: bool,
                    taken: dict[int, list[int]], rounds: dict[str, Any],
                    members: list[np.ndarray], group_ids: np.ndarray, now: float) -> None:
    """One tournament's rows: its own, its groups', its rounds', their deals and who played
    for which group (the winners, bound where they first won)."""
    first = float(min(rounds["started_at"][r[0]] for r in taken.values()))
    maker = next(iter(taken))
    made_by = int(members[int(np.flatnonzero(group_ids == maker)[0])][0])
    status, ended = ("running", None) if running else \
        ("done", max(float(rounds["ended_at"][r[-1]]) for r in taken.values()))
    code = f"Y{tid:05d}"
    rows["tournaments"].append((tid, code, f"Cup {tid}", "24", "mix", TOURNAMENT_ROUNDS, 120.0,
                                first, maker, made_by, "en", first - 3600.0, status, ended,
                                now + DAY if running else ended))
    rows["tournament_groups"] += [(tid, chat, 0, made_by if chat == maker else None,
                                   first - 3600.0 + n, "en", 1, int(running))
                                  for n, chat in enumerate(taken)]
    bound: set[int] = set()
    for number in range(len(next(iter(taken.values())))):
        dealt = [(chat, r[number]) for chat, r in taken.items()]
        opened = min(float(rounds["started_at"][r]) for _, r in dealt)
        closed = max(float(rounds["ended_at"][r]) for _, r in dealt)
        hand = rounds["texts"]["hand:24"][int(rounds["hand"][dealt[0][1]])]
        rows["tournament_rounds"].append((tid, number + 1, "24", hand, 24, "easy", 10,
                                          "closed", opened, closed))
        for chat, r in dealt:
            started, ended = float(rounds["started_at"][r]), float(rounds["ended_at"][r])
            rows["tournament_deals"].append((tid, number + 1, chat, r + 1, "dealt",
                                             started - 1.0, started, ended + 1.0))
            winner = int(rounds["winner_id"][r])
            if winner and winner not in bound:
                bound.add(winner)
                rows["tournament_players"].append((tid, winner, chat))


def pass_rounds(rng: np.random.Generator, rounds: dict[str, Any], answers: dict[str, Any]
                ) -> list[tuple[int, int, float]]:
    """Who passed: the first answerer of one expired round in fifty."""
    expired = np.flatnonzero(rounds["status"] == 2)
    chosen = rng.choice(expired, size=len(expired) // 50, replace=False) + 1
    first = np.searchsorted(answers["round_id"], chosen)
    return [(int(r), int(answers["user_id"][i]), float(rounds["ended_at"][r - 1]) - 1.0)
            for r, i in zip(chosen.tolist(), first.tolist(), strict=True)]


def rate_days(rng: np.random.Generator, now: float, rounds: dict[str, Any],
              answers: dict[str, Any]) -> dict[str, Any]:
    """The ratings the year wrote: each player's rating on each day they answered a round of a
    game (rating_days, a slow walk from a level of their own), the last of each season as
    their row of that season (player_ratings), and a learned difficulty for each hand of 24
    (hand_ratings)."""
    user, inverse = np.unique(answers["user_id"], return_inverse=True)
    game = rounds["game"][answers["round_id"] - 1].astype(np.int64)
    day = (answers["at"] // DAY).astype(np.int64)
    first = int(day.min()) if len(day) else 0
    key = (inverse.astype(np.int64) * 3 + game) * 1000 + (day - first)
    key = np.unique(key)
    pair, offset = key // 1000, key % 1000
    start = np.flatnonzero(np.concatenate([[True], pair[1:] != pair[:-1]]))
    walk = np.cumsum(rng.normal(0.0, 0.06, len(key)))
    group = np.cumsum(np.concatenate([[True], pair[1:] != pair[:-1]])) - 1
    level = rng.normal(0.0, 0.8, len(start))
    rating = level[group] + walk - walk[start][group]
    days = (offset + first).astype("datetime64[D]")
    months = days.astype("datetime64[M]")
    season_key = pair * 10_000 + (months.astype(np.int64))
    last = np.flatnonzero(np.concatenate([season_key[1:] != season_key[:-1], [True]]))
    counts = np.diff(np.concatenate([[-1], last]))
    hands = sorted({" ".join(map(str, sorted(json.loads(h)))) + "=24"
                    for h in rounds["texts"]["hand:24"]})
    return {"user_id": user[pair // 3], "game": pair % 3, "day": days.astype(str),
            "season": months.astype(str), "rating": rating, "last": last,
            "responses": counts * 3, "hands": hands,
            "difficulty": rng.normal(0.0, 1.2, len(hands)), "updated_at": now - DAY}


def rating_rows(year: Year) -> Iterator[list[tuple]]:
    r = year.ratings
    for start in range(0, len(r["day"]), CHUNK):
        part = slice(start, start + CHUNK)
        yield list(zip(r["user_id"][part].tolist(), [GAMES[g] for g in r["game"][part]],
                       r["day"][part].tolist(), r["season"][part].tolist(),
                       r["rating"][part].tolist(), strict=True))


def player_rating_rows(year: Year) -> Iterator[list[tuple]]:
    r, at = year.ratings, year.ratings["updated_at"]
    last = r["last"]
    for start in range(0, len(last), CHUNK):
        rows = last[start:start + CHUNK]
        yield list(zip(r["user_id"][rows].tolist(), [GAMES[g] for g in r["game"][rows]],
                       r["season"][rows].tolist(), r["rating"][rows].tolist(),
                       [0.4] * len(rows), r["responses"][start:start + CHUNK].tolist(),
                       [at] * len(rows), strict=True))


def scale_rows(year: Year) -> Iterator[list[tuple]]:
    """The rated games' scales (24's and Countdown's), learned over their rounds of the year
    from the shape every game starts at (bot/play/ratings/model.py)."""
    counts = np.bincount(year.rounds["game"].astype(np.int64), minlength=len(GAMES))
    yield [(GAMES[g], 1.0 + 0.05 * g, 0.05, int(counts[g]), year.ratings["updated_at"])
           for g in (0, 1)]


def hand_rating_rows(year: Year) -> Iterator[list[tuple]]:
    r = year.ratings
    yield [("24", hand, 4, 24, float(d), 0.3, 20, r["updated_at"])
           for hand, d in zip(r["hands"], r["difficulty"].tolist(), strict=True)]


def daily_results(rng: np.random.Generator, scale: Scale, now: float, private_ids: np.ndarray,
                  heavy_ids: np.ndarray, texts: dict[str, list[str]]) -> list[tuple]:
    """Every day of the year: the faithful (a twentieth of those with a private chat, the heavy
    players among them) and others drawn that day, each once, with a time and an answer."""
    today = int(now // DAY)
    faithful = private_ids[:max(len(heavy_ids), len(private_ids) // 20)]
    others = private_ids[len(faithful):]
    rows = []
    for back in range(scale.days):
        day = today - back
        start = day * DAY
        drawn = rng.choice(others, size=min(len(others),
                                            max(0, scale.daily_per_day - len(faithful))),
                           replace=False)
        players = np.concatenate([faithful, drawn])
        seconds = np.round(rng.lognormal(4.0, 0.8, len(players)), 1)
        latest = min(now, start + DAY) - start
        at = start + rng.uniform(0, latest, len(players))
        name = time.strftime("%Y-%m-%d", time.gmtime(start))
        answer = rng.integers(0, len(texts["answer"]), len(players))
        rows += [(name, int(u), int(u), texts["answer"][a], float(s), float(t))
                 for u, s, t, a in zip(players.tolist(), seconds.tolist(), at.tolist(),
                                       answer.tolist(), strict=True)]
    return rows


# --- rows ----------------------------------------------------------------------------------

ROUND_COLUMNS = ("id", "chat_id", "game", "hand", "target", "level", "points", "lang",
                 "message_id", "started_at", "deadline", "ended_at", "status", "winner_id",
                 "winning_answer", "hint_used", "awarded", "win_seconds", "started_by",
                 "announced", "topic")
ANSWER_COLUMNS = ("id", "round_id", "user_id", "text", "correct", "at", "distance")
# the tournaments' tables (schema step 23; `ongoing`, step 27's, where the schema has it)
TOURNAMENT_COLUMNS = {
    "tournaments": ("id", "code", "name", "game", "level", "rounds", "seconds", "starts_at",
                    "chat_id", "created_by", "lang", "created_at", "status", "ended_at",
                    "next_at"),
    "tournament_groups": ("tournament_id", "chat_id", "topic", "joined_by", "joined_at", "lang",
                          "playing", "ongoing"),
    "tournament_rounds": ("tournament_id", "number", "game", "hand", "target", "level",
                          "points", "status", "opened_at", "closed_at"),
    "tournament_deals": ("tournament_id", "number", "chat_id", "round_id", "status",
                         "claimed_at", "dealt_at", "shown_at"),
    "tournament_players": ("tournament_id", "user_id", "chat_id"),
}
STATUS = ("won", "revealed", "expired")
LEVELS = {0: ("easy", "medium", "hard"), 1: ("2",), 2: ("",)}


def round_rows(year: Year) -> Iterator[list[tuple]]:
    r, texts = year.rounds, year.rounds["texts"]
    hands = [texts["hand:" + g] for g in GAMES]
    for start in range(0, year.round_count, CHUNK):
        part = slice(start, start + CHUNK)
        columns = [r[name][part].tolist() for name in (
            "id", "chat_id", "game", "hand", "target", "level", "points", "zh", "message_id",
            "started_at", "deadline", "ended_at", "status", "winner_id", "winning_answer",
            "hint_used", "awarded", "win_seconds", "started_by")]
        rows = []
        for (rid, chat, game, hand, target, level, points, zh, message, started, deadline,
             ended, status, winner, winning, hint, awarded, seconds,
             starter) in zip(*columns, strict=True):
            levels = LEVELS[game]
            rows.append((rid, chat, GAMES[game], hands[game][hand], target,
                         levels[level % len(levels)], points, "zh" if zh else "en", message,
                         started, deadline, ended, STATUS[status], winner or None,
                         texts["answer"][winning] if winning >= 0 else None, hint, awarded,
                         None if seconds != seconds else seconds, starter, 1, 0))
        yield rows


def answer_rows(year: Year) -> Iterator[list[tuple]]:
    a, texts = year.answers, year.rounds["texts"]
    for start in range(0, year.answer_count, CHUNK):
        part = slice(start, start + CHUNK)
        columns = [a[name][part].tolist() for name in ("round_id", "user_id", "text",
                                                       "correct", "at", "distance", "guess")]
        rows = []
        for offset, (rid, uid, text, correct, at, distance, guess) in enumerate(
                zip(*columns, strict=True)):
            shown = "" if text == -2 else (texts["guess"][text % 200] if guess
                                           else texts["answer"][text])
            rows.append((start + offset + 1, rid, uid, shown, correct, at,
                         None if distance < 0 else distance))
        yield rows


def tables(year: Year) -> list[tuple[str, Sequence[str], Iterator[list[tuple]]]]:
    """(table, columns, chunks of rows), parents first."""
    def once(rows: list[tuple]) -> Iterator[list[tuple]]:
        for start in range(0, len(rows), CHUNK):
            yield rows[start:start + CHUNK]

    return [
        ("users", ("id", "first_name", "username"), once(year.users)),
        ("chats", ("id", "type", "title", "lang"), once(year.chats)),
        ("rounds", ROUND_COLUMNS, (rows for rows in round_rows(year))),
        ("answers", ANSWER_COLUMNS, answer_rows(year)),
        ("matches", ("id", "chat_id", "rounds", "started_by", "lang", "started_at", "ended_at",
                     "status", "topic"), once(year.matches)),
        ("match_rounds", ("match_id", "number", "round_id"), once(year.match_rounds)),
        ("round_passes", ("round_id", "user_id", "at"), once(year.passes)),
        ("daily_results", ("day", "user_id", "chat_id", "answer", "seconds", "at"),
         once(year.daily)),
        ("chat_settings", ("chat_id", "body", "updated_at"), once(year.settings)),
        ("handled_updates", ("update_id", "at"), once(year.updates)),
        # the ratings (where the schema has them: a year written at an old schema has not)
        ("player_ratings", ("user_id", "game", "season", "rating", "uncertainty", "responses",
                            "updated_at"), player_rating_rows(year)),
        ("hand_ratings", ("game", "hand", "numbers", "target", "difficulty", "uncertainty",
                          "responses", "updated_at"), hand_rating_rows(year)),
        ("rating_days", ("user_id", "game", "day", "season", "rating"), rating_rows(year)),
        ("rating_scales", ("game", "shape", "uncertainty", "rounds", "updated_at"),
         scale_rows(year)),
    ]


# --- loading -------------------------------------------------------------------------------

# every table whose rows the year writes (the rest of the schema is filled by the database)
SCORES_FROM_ROUNDS = (
    "INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win, "
    "current_streak, best_streak) SELECT chat_id, user_id, game, points, wins, rounds_played, "
    "fastest_win, current_streak, best_streak FROM scores_from_rounds")


def answered_from_answers(engine: str) -> str:
    """How step 19 fills each player's answered rounds from the answers of the closed rounds
    (bot/store/schema/delta/19), for a year written where the table is: the triggers that keep
    it are off while the rows go in."""
    from bot.store.schema import DELTAS, sqlite_words

    text = (DELTAS / "19" / "3_filled.sql").read_text(encoding="utf-8")
    return sqlite_words(text) if engine == "sqlite" else text


def load_sqlite(path: Path, year: Year) -> dict[str, float]:
    """The year into the SQLite file at `path`, migrated already; seconds per step."""
    took: dict[str, float] = {}
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=OFF")
        connection.execute("PRAGMA synchronous=OFF")
        connection.execute("PRAGMA cache_size=-1000000")
        kept = connection.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') "
            "AND sql IS NOT NULL").fetchall()
        for kind, name, _ in kept:
            connection.execute(f"DROP {kind.upper()} {name}")
        started = time.perf_counter()
        present = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, columns, chunks in tables(year):
            if table not in present:
                continue
            marks = ", ".join("?" * len(columns))
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            connection.execute("BEGIN")
            for rows in chunks:
                connection.executemany(sql, rows)
            connection.execute("COMMIT")
        took["rows"] = time.perf_counter() - started
        started = time.perf_counter()
        for kind in ("index", "trigger"):
            for found, _, sql in kept:
                if found == kind:
                    connection.execute(sql)
        took["indexes"] = time.perf_counter() - started
        started = time.perf_counter()
        connection.execute("BEGIN")
        connection.execute(SCORES_FROM_ROUNDS)
        if "answered_rounds" in present:
            connection.execute(answered_from_answers("sqlite"))
        connection.execute("COMMIT")
        took["scores"] = time.perf_counter() - started
        connection.execute("PRAGMA journal_mode=WAL")
    finally:
        connection.close()
    return took


async def load_postgres(url: str, year: Year) -> dict[str, float]:
    """The year into the PostgreSQL database at `url`, migrated already; seconds per step.
    Without the triggers (session_replication_role = replica) while the rows go in by COPY;
    the secondary indexes are made again after, the scores inserted with the triggers on, and
    the tables analysed as autovacuum would have."""
    import asyncpg

    took: dict[str, float] = {}
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("SET session_replication_role = replica")
        kept = await connection.fetch(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = 'public' "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)")
        for row in kept:
            await connection.execute(f"DROP INDEX {row['indexname']}")
        started = time.perf_counter()
        present = {row["tablename"] for row in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        for table, columns, chunks in tables(year):
            if table not in present:
                continue
            for rows in chunks:
                await connection.copy_records_to_table(table, records=rows,
                                                       columns=list(columns))
        for table in ("rounds", "answers", "matches"):
            await connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")
        took["rows"] = time.perf_counter() - started
        started = time.perf_counter()
        for row in kept:
            await connection.execute(row["indexdef"])
        took["indexes"] = time.perf_counter() - started
        await connection.execute("SET session_replication_role = origin")
        started = time.perf_counter()
        await connection.execute(SCORES_FROM_ROUNDS)
        if "answered_rounds" in present:
            await connection.execute(answered_from_answers("postgres"))
        took["scores"] = time.perf_counter() - started
        started = time.perf_counter()
        await connection.execute("VACUUM ANALYZE")
        took["analyse"] = time.perf_counter() - started
    finally:
        await connection.close()
    return took


# what is written after the migrations: the tournaments (step 23), each rated hand's themes
# (step 35: the bot writes them once a hand is rated, so a year's hands all have theirs), a
# year of streaks (step 36) and of storms (step 37), and the solo modes' bests they leave
STORM_COLUMNS = ("user_id", "chat_id", "solved", "missed", "lang", "started_at", "ends_at",
                 "ended_at", "status")
STREAK_COLUMNS = ("user_id", "chat_id", "solved", "lang", "started_at", "ended_at", "status")
LATER_COLUMNS = {**TOURNAMENT_COLUMNS, "hand_themes": ("game", "hand", "themes"),
                 "streaks": STREAK_COLUMNS, "storms": STORM_COLUMNS,
                 "solo_bests": ("mode", "period", "user_id", "best", "at"),
                 "achievements": ("user_id", "code", "earned_at", "chat_id", "round_id")}
STORMS_A_ROUND = 0.1  # storms played, for each round of the year
STREAKS_A_ROUND = 0.1  # streaks played, for each round of the year


def hand_theme_rows(year: Year) -> list[tuple]:
    """Each rated hand's themes, as bot.play.dealing.themes writes them."""
    from bot.play.dealing.themes import hand_of, themes_bits

    keys = list(year.ratings["hands"])
    found = themes_bits([hand for hand in map(hand_of, keys) if hand is not None])
    return [("24", key, bits) for key, bits in zip(keys, found, strict=True)
            if bits is not None]


def achievement_rows(year: Year) -> list[tuple]:
    """The achievements a year of group play leaves (bot.play.achievements): each winner's
    first win and tenth, at the round that earned it — a row or two for most players, so the
    planners see the table a year fills, not an empty one (schema step 17 awarded the history
    before the year's rows were written)."""
    rounds = year.rounds
    won = np.flatnonzero((rounds["winner_id"] > 0) & (rounds["chat_id"] < 0))
    wins: dict[int, int] = {}
    found = []
    for winner, at, chat, round_id in zip(rounds["winner_id"][won].tolist(),
                                          rounds["ended_at"][won].tolist(),
                                          rounds["chat_id"][won].tolist(),
                                          rounds["id"][won].tolist(), strict=True):
        count = wins[winner] = wins.get(winner, 0) + 1
        code = {1: "first_win", 10: "ten_wins"}.get(count)
        if code is not None:
            found.append((int(winner), code, float(at), int(chat), int(round_id)))
    return found


def storm_rows(year: Year, seed: int = 26) -> list[tuple]:
    """A year of storms, over: each by one of the players who play in private, begun any time
    in the year, solving some and missing a few (bot.play.solo.storm_book's clock)."""
    rng = np.random.default_rng(seed)
    count = int(year.round_count * STORMS_A_ROUND)
    players = year.user_ids[:year.scale.private_players]
    who = rng.choice(players, size=count)
    started = year.now - rng.uniform(60.0, 365 * DAY, size=count)
    solved, missed = rng.poisson(8, size=count), rng.poisson(3, size=count)
    ends = started + 180.0 + 5.0 * solved - 10.0 * missed
    return [(int(user), int(user), int(s), int(m), "en", float(at), float(end), float(end),
             "over")
            for user, s, m, at, end in zip(who.tolist(), solved.tolist(), missed.tolist(),
                                           started.tolist(), ends.tolist(), strict=True)]


def streak_rows(year: Year, seed: int = 36) -> list[tuple]:
    """A year of streaks, ended: each by one of the players who play in private, begun any
    time in the year, solving a few hands before the first miss (bot.play.solo.streak_book)."""
    rng = np.random.default_rng(seed)
    count = int(year.round_count * STREAKS_A_ROUND)
    players = year.user_ids[:year.scale.private_players]
    who = rng.choice(players, size=count)
    started = year.now - rng.uniform(60.0, 365 * DAY, size=count)
    solved = rng.geometric(0.2, size=count) - 1
    return [(int(user), int(user), int(n), "en", float(at), float(at + 60.0 * (n + 1)),
             "missed")
            for user, n, at in zip(who.tolist(), solved.tolist(), started.tolist(),
                                   strict=True)]


def best_rows(mode: str, runs: list[tuple[int, int, float]],
              periods: Callable[[float], Sequence[str]]) -> list[tuple]:
    """Each person's best run of a mode in each of its periods, as the bot keeps them at each
    end; `runs`: (user, solved, started at)."""
    best: dict[tuple[str, int], tuple[int, float]] = {}
    for user, solved, at in runs:
        for period in periods(at) if solved > 0 else ():
            kept = best.get((period, user))
            if kept is None or (solved, -at) > (kept[0], -kept[1]):
                best[(period, user)] = (solved, at)
    return [(mode, period, user, solved, at) for (period, user), (solved, at) in best.items()]


def solo_best_rows(streaks: list[tuple], storms: list[tuple]) -> list[tuple]:
    """The bests both modes leave: a streak's season and all time, a storm's day and season."""
    from bot.play.community.periods import ALL_TIME, season_key
    from bot.play.solo.storm_book import periods_of

    return [*best_rows("streak", [(row[0], row[2], row[4]) for row in streaks],
                       lambda at: (season_key(at), ALL_TIME)),
            *best_rows("storm", [(row[0], row[2], row[5]) for row in storms], periods_of)]


def later_chunks(year: Year, has: dict[str, set[str]]
                 ) -> Iterator[tuple[str, list[str], list[tuple]]]:
    """(table, columns, rows) of what is written after the migrations, parents first, each
    row cut to the columns the schema has (`has`: a table's columns; a table it lacks is left
    out)."""
    streaks, storms = streak_rows(year), storm_rows(year)
    rows = {**year.tournaments, "hand_themes": hand_theme_rows(year), "streaks": streaks,
            "storms": storms, "solo_bests": solo_best_rows(streaks, storms),
            "achievements": achievement_rows(year)}
    for table, columns in LATER_COLUMNS.items():
        kept = [n for n, column in enumerate(columns) if column in has.get(table, set())]
        if kept and rows[table]:
            yield (table, [columns[n] for n in kept],
                   [tuple(row[n] for n in kept) for row in rows[table]])


def load_later_sqlite(path: Path, year: Year) -> float:
    """The tournaments, the hands' themes, the solo modes and the achievements into the SQLite
    file at `path`, migrated to where it has them (steps 17 to 37, after the year's other
    rows: bench/bench_year.py writes those at an older schema); seconds."""
    started = time.perf_counter()
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        has = {table: {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
               for table in LATER_COLUMNS}
        connection.execute("BEGIN")
        for table, columns, rows in later_chunks(year, has):
            marks = ", ".join("?" * len(columns))
            connection.executemany(f"INSERT INTO {table} ({', '.join(columns)}) "
                                   f"VALUES ({marks})", rows)
        connection.execute("COMMIT")
    finally:
        connection.close()
    return time.perf_counter() - started


async def load_later_postgres(url: str, year: Year) -> float:
    """The tournaments, the hands' themes, the solo modes and the achievements into the
    PostgreSQL database at `url`, as load_later_sqlite;
    the tables analysed after, as autovacuum would."""
    import asyncpg

    started = time.perf_counter()
    connection = await asyncpg.connect(url)
    try:
        has: dict[str, set[str]] = {}
        for row in await connection.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND table_name = ANY($1::text[])",
                list(LATER_COLUMNS)):
            has.setdefault(row["table_name"], set()).add(row["column_name"])
        await connection.execute("SET session_replication_role = replica")
        for table, columns, rows in later_chunks(year, has):
            await connection.copy_records_to_table(table, records=rows, columns=columns)
        await connection.execute("SET session_replication_role = origin")
        if "tournaments" in has:
            await connection.execute(
                "SELECT setval(pg_get_serial_sequence('tournaments', 'id'), "
                "(SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments), false)")
        for table in has:
            await connection.execute(f"ANALYZE {table}")
    finally:
        await connection.close()
    return time.perf_counter() - started
