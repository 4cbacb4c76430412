"""The catalogue of every statement the stores run, and what their plans may do (issue 40): no
statement reads a whole table that grows with play, unless the catalogue says why it may; the
boards named ORDERED read their rows in order (no sort of everything that matched).

tests/bot/store/sqlite/test_plans.py checks it on SQLite (EXPLAIN QUERY PLAN, and the statements
inside the triggers), tests/postgres/test_plans.py on PostgreSQL (EXPLAIN of the generic plan,
sequential scans priced out so that one shows only where no index can serve). Both fail on a
statement that is not in the catalogue, and on a string of SQL anywhere in bot/store that no
catalogued statement contains, so a new one cannot slip by."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.store.postgres import (
    CHAT_LOCK,
    USER_CHATS,
    USER_LOCKS,
    live_rounds,
    partition_owners,
    worker_lease,
)
from bot.store.postgres import leader as postgres_leader
from bot.store.postgres.connection import WRITTEN
from bot.store.postgres.people import MET_ROUNDS, SCORING_LOCKS
from bot.store.postgres.rounds import ANNOUNCED as POSTGRES_ANNOUNCED
from bot.store.postgres.rounds import GUESS_LOCK, RATE_OPEN, SCALED_CLOSE, WEEK_LOCK
from bot.store.sql import (
    achievements,
    daily,
    forgetting,
    matches,
    menus,
    pages,
    people,
    ratings,
    rounds,
    scores,
    storms,
    streaks,
    tournaments,
    updates,
)
from bot.store.sqlite.rounds import ANNOUNCED as SQLITE_ANNOUNCED
from bot.store.sqlite.rounds import GUESS
from bot.store.sqlite.updates import CLAIM_MANY

STORE = Path(__file__).resolve().parents[2] / "bot" / "store"
SHARED = {"rounds": rounds, "people": people, "scores": scores, "matches": matches,
          "updates": updates, "daily": daily, "forgetting": forgetting, "ratings": ratings,
          "achievements": achievements, "pages": pages, "tournaments": tournaments,
          "streaks": streaks, "storms": storms, "menus": menus}

# Tables that grow with play (chats and players, rounds, answers, days): a statement may read
# all of one only where WHOLE says why.
LARGE = frozenset({"users", "chats", "rounds", "answers", "scores", "matches", "match_rounds",
                   "round_passes", "daily_results", "chat_settings", "handled_updates",
                   "player_totals", "board_steps", "board_ties", "player_ratings",
                   "hand_ratings", "rated_rounds", "achievements", "rating_days",
                   "answered_rounds", "tournaments", "tournament_groups", "tournament_followers",
                   "tournament_rounds", "tournament_deals", "tournament_players",
                   "week_totals", "week_steps", "chat_ratings", "hand_themes", "streaks",
                   "storms", "solo_bests", "chat_weeks"})

# Statement -> the large tables it reads whole, and why that is bounded.
WHOLE: dict[str, tuple[frozenset[str], str]] = {
    "updates.forget_updates": (frozenset({"handled_updates"}),
                               "hourly: the table holds two days of update ids"),
    "ratings.themed": (frozenset({"hand_themes"}),
                       "once a process, before its first write of hands' themes: the hands "
                       "written, 16,384 at most (bot.play.dealing.themes.KNOWN)"),
    "people.move_daily": (frozenset({"daily_results"}),
                          "a group's move, once in its life: nothing reads daily results by "
                          "chat (the board is every chat's), so no index keeps them by chat"),
}

# Partial indexes that hold few rows whatever the history: a statement may read one whole.
SMALL_INDEXES = {
    "one_open_round_per_topic": "the rounds open now",
    "one_match_per_topic": "the matches on now",
    "rounds_unannounced": "the results not yet sent",
    "answers_unexpired": "the answers of the last 30 days, once the retention has caught up",
    "tournaments_due": "the tournaments not over",
    "tournament_rounds_live": "the tournament rounds being played now",
    "tournament_groups_one_at_a_time": "the groups in a tournament not over",
    "one_streak_a_person": "the streaks on now",
    "one_storm_a_person": "the storms on now",
}

# Statements that must read a window of time, not all a chat (or every chat) ever did: the
# columns one index search of theirs must bound (a chat's week: that chat's, by time).
WINDOWED = {**{f"scores.{kind}[{index}]": ("ended_at",) if index < 6 else ("chat_id", "ended_at")
               for kind in ("board", "placing") for index in range(4, 8)},
            # a group's page's weeks: that group's year of them in their kept table's key
            # (schema step 39), not a year of its wins counted
            "pages.group_weeks": ("chat_id", "week")}

# PostgreSQL plans by its statistics: on the tests' small year a chat's week is as cheap read
# from every chat's week (rounds_won_by_time) as from the chat's own (rounds_won_in_chat, which
# it takes on a real year: bench/bench_year.py). Either is a window of time.
POSTGRES_WINDOWED = {name: columns[-1:] for name, columns in WINDOWED.items()}

# Indexes that lead with a person (their leading column): a search by that column alone reads
# all the person ever did. Only the statements in WHOLE_PERSON may; the others must bound it.
PERSON_INDEXES = {"answers_by_user": "user_id", "rounds_by_winner": "winner_id",
                  "rounds_by_starter": "started_by", "round_passes_by_user": "user_id",
                  "matches_by_starter": "started_by", "scores_by_user": "user_id",
                  "daily_results_by_user": "user_id",
                  "sqlite_autoindex_player_ratings_1": "user_id",
                  "player_ratings_pkey": "user_id",
                  "sqlite_autoindex_rating_days_1": "user_id", "rating_days_pkey": "user_id",
                  "answered_rounds_pkey": "user_id", "streaks_by_length": "user_id",
                  "storms_by_person": "user_id", "solo_bests_by_person": "user_id"}
# ... and SQLite's tables WITHOUT ROWID whose key leads with a person (a plan names no index
# for them: "SEARCH t USING PRIMARY KEY (user_id=?)")
PERSON_KEYS = {"answered_rounds": "user_id"}
WHOLE_PERSON = {
    **{f"forgetting.{kind}[{n}]": "/forget: everything of the person's"
       for kind in ("forget_parts", "forget_rounds", "forget_scores")
       for n in range(len(getattr(forgetting.QMARK, kind)))},
    "daily.days": "a person's daily streaks: one row a day they solved",
    "streaks.best_streak": "a person's best streak: the last entry of theirs in the index by "
                           "length (a MAX the index answers)",
    "postgres.USER_LOCKS": "/forget: the chats where the person has scores or answers",
    "postgres.USER_CHATS": "/forget: the chats where the person answered, read first",
    "answer_after_close[2]": "a late answer recounts the person's streaks in that chat's game",
    **{f"achievements.{name}": "a close's award of an achievement the person has not yet, "
       "if their count reaches it: their wins or answers until it is earned, once a person "
       "and code, each count stopped at the rule's reach"
       for name in ("award_wins_in_chat", "award_run_in_chat", "award_played")},
    "achievements.latest_days": "a daily result's check: the person's latest days, newest "
                                "first by the index, a week of them",
    "pages.player_games": "the player's page: their totals, a row for each chat and game",
    **{name: "a player's rating in a new season, or their ratings gone (schema step 32): the "
       "chats where they play the game (their rows of scores, one a chat and game)"
       for name in ("chat_rated_written[0]", "chat_rated_gone[1]")},
    **{f"pages.{name}": "the player's page: the rounds they answered (answered_rounds, a "
                         "few pages of its key, summed where they lie: the key keeps no time, "
                         "as /forget reads them)"
       for name in ("player_levels", "player_medians", "player_round_days", "player_solved")},
    **{f"pages.{name}": "the player's page: their latest rounds answered, and dealt (the key, "
                         "and the starter's index by starter and round, read backwards from the "
                         "latest and stopped at the page's hundred)"
       for name in ("player_tried",)},
}

# Boards whose first rows are read in the board's order: no sort of all that matched.
ORDERED = frozenset({*(f"scores.{kind}[{n}]" for kind in ("top", "board") for n in range(4)),
                     "daily.board", "ratings.board", "ratings.provisional", "storms.board",
                     "streaks.board"})

# Boards read in an index kept in the board's order (migrations 31 and 32), not from a week of
# every chat's rounds summed, nor a chat's players looked up one by one: the index each must
# read.
THROUGH = {"scores.board[4]": ("week_totals_board",), "scores.board[5]": ("week_totals_board",),
           # and the chat's latest season at the end of its own index (never the chat's rows)
           "ratings.chat_boards": ("chat_ratings_settled", "chat_ratings_provisional",
                                   "chat_ratings_seasons"),
           "ratings.chat_place": ("chat_ratings_settled", "chat_ratings_seasons"),
           # a group's records at the head of their indexes (step 33), not the chat's rows;
           # its season's won rounds in the index that holds their columns (step 33)
           "pages.group_records": ("scores_fastest", "scores_longest_run", "scores_most_wins"),
           "pages.group_hands": ("rounds_won_in_chat",)}

# A player's place on an all-time board: their own row (alias m) found by their id, not among
# the board's rows (a chat's players, or every player).
OWN_ROW = frozenset(f"scores.placing[{n}]" for n in range(4))


def shared(style: str) -> Iterator[tuple[str, str]]:
    """(name, statement) of every table in bot/store/sql, "qmark" or "numbered"."""
    for module_name, module in SHARED.items():
        table = module.QMARK if style == "qmark" else module.NUMBERED
        for field in dataclasses.fields(table):
            value = getattr(table, field.name)
            if isinstance(value, tuple):
                for index, sql in enumerate(value):
                    yield f"{module_name}.{field.name}[{index}]", sql
            else:
                yield f"{module_name}.{field.name}", value


def sqlite_statements() -> dict[str, str]:
    """Every statement the SQLite stores run (the templates filled for two ids)."""
    found = dict(shared("qmark"))
    found.update({"sqlite.GUESS": GUESS, "sqlite.ANNOUNCED": SQLITE_ANNOUNCED.format("?, ?"),
                  "sqlite.CLAIM_MANY": CLAIM_MANY.format("(?, ?, ?), (?, ?, ?)")})
    return found


# What the PostgreSQL backend runs beside the migrations, inside its own functions.
POSTGRES_INLINE = {
    "postgres.migration_lock": "SELECT pg_advisory_xact_lock($1, $2)",
    "postgres.migration_count": "SELECT COALESCE(MAX(number), 0) FROM schema_migrations",
    "postgres.migration_done": "INSERT INTO schema_migrations (number) VALUES ($1)",
    "postgres.migrations_table": "SELECT to_regclass('schema_migrations') IS NOT NULL",
    "postgres.migration_written": WRITTEN,  # the tables a step wrote, analysed after it
}


def postgres_statements() -> dict[str, str]:
    """Every statement the PostgreSQL stores run: the shared ones numbered, the backend's own,
    and the leases' (bot/store/postgres/leader.py: each on its one-row table; a worker's and
    the partitions' owners: a row a worker, a row a partition)."""
    found = dict(shared("numbered"))
    found.update({"postgres.GUESS_LOCK": GUESS_LOCK, "postgres.ANNOUNCED": POSTGRES_ANNOUNCED,
                  "postgres.SCORING_LOCKS": SCORING_LOCKS, "postgres.MET_ROUNDS": MET_ROUNDS,
                  "postgres.CHAT_LOCK": CHAT_LOCK,
                  "postgres.RATE_OPEN": RATE_OPEN, "postgres.SCALED_CLOSE": SCALED_CLOSE,
                  "postgres.WEEK_LOCK": WEEK_LOCK,
                  "postgres.USER_LOCKS": USER_LOCKS, "postgres.USER_CHATS": USER_CHATS,
                  **POSTGRES_INLINE,
                  "live.REACHING": live_rounds.REACHING,
                  # the count schema step 26's open_round_within makes under the starter's lock
                  "live.STARTED_OPEN": "SELECT COUNT(*) FROM rounds WHERE started_by = $1 "
                                       "AND status = 'open'",
                  "live.LIVE_TOURNAMENTS": live_rounds.LIVE_TOURNAMENTS,
                  "live.OPEN_WITHIN": live_rounds.OPEN_WITHIN,
                  "tournaments.WORKER_DUE": tournaments.WORKER_DUE,
                  "tournaments.HOLD_CHAT": tournaments.HOLD_CHAT})
    for prefix, module in (("leader", postgres_leader), ("worker", worker_lease),
                           ("owners", partition_owners)):
        found.update({f"{prefix}.{name}": value for name, value in vars(module).items()
                      if name.isupper() and isinstance(value, str) and is_sql(value)})
    return found


SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b")


def is_sql(text: str) -> bool:
    return bool(SQL_START.match(text))


def sql_literals(root: Path = STORE) -> Iterator[tuple[str, str]]:
    """(file:line, text) of every string under `root` that begins like a statement (and every
    such piece of an f-string), but docstrings and asserted examples (the schema's steps are
    .sql files; their triggers' statements: test_plans.py)."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        skipped = {id(node.body[0].value) for node in ast.walk(tree)
                   if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef |
                                 ast.AsyncFunctionDef)
                   and node.body and isinstance(node.body[0], ast.Expr)
                   and isinstance(node.body[0].value, ast.Constant)}
        skipped |= {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Assert)
                    for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in skipped and is_sql(node.value):
                yield f"{path.relative_to(root.parent)}:{node.lineno}", node.value


def unknown_literals(catalogued: dict[str, str], root: Path = STORE) -> list[str]:
    """The SQL strings under `root` that no catalogued statement contains (either style)."""
    texts = [re.sub(r"\$\d+", "?", sql) for sql in catalogued.values()]
    return [where for where, text in sql_literals(root)
            if not any(re.sub(r"\$\d+", "?", text).split("{")[0] in sql for sql in texts)]


# --- reading SQLite's plans ----------------------------------------------------------------

WORDS = frozenset({"WHERE", "ON", "JOIN", "SET", "GROUP", "ORDER", "LIMIT", "USING", "LEFT",
                   "INNER", "VALUES", "SELECT", "AS", "UNION", "HAVING", "AND", "OR", "WHEN"})
SOURCE = re.compile(r"\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?", re.I)


def aliases(sql: str) -> dict[str, str]:
    """The names a statement's plan may give its tables: each table, and its alias."""
    found: dict[str, str] = {}
    for table, alias in SOURCE.findall(sql):
        found[table] = table
        if alias and alias.upper() not in WORDS:
            found[alias] = table
    return found


def sqlite_plan(connection: Any, sql: str) -> list[str]:
    return [row[3] for row in connection.execute("EXPLAIN QUERY PLAN " + sql,
                                                 [None] * sql.count("?"))]


def sqlite_faults(connection: Any, name: str, sql: str) -> list[str]:
    """What the statement's plan does that the catalogue does not allow (empty: nothing)."""
    plan = sqlite_plan(connection, sql)
    names = aliases(sql)
    allowed = WHOLE.get(name, (frozenset(), ""))[0]
    faults = []
    for line in plan:
        scan = re.match(r"SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?", line)
        if scan and names.get(scan.group(1)) in LARGE - allowed \
                and scan.group(2) not in SMALL_INDEXES:
            faults.append(f"reads all of {names[scan.group(1)]}: {line}")
    for line in plan:
        person = re.match(r"SEARCH (\w+) USING (?:COVERING )?INDEX (\w+) \((\w+)=\?\)$", line)
        if person and PERSON_INDEXES.get(person.group(2)) == person.group(3) \
                and name not in WHOLE_PERSON:
            faults.append(f"reads a person's whole history: {line}")
        keyed = re.match(r"SEARCH (\w+) USING PRIMARY KEY \((\w+)=\?\)$", line)
        if keyed and PERSON_KEYS.get(names.get(keyed.group(1), "")) == keyed.group(2) \
                and name not in WHOLE_PERSON:
            faults.append(f"reads a person's whole history: {line}")
    if name in WINDOWED and not any(line.startswith("SEARCH") and all(
            re.search(rf"\b{column}[=<>]", line) for column in WINDOWED[name]) for line in plan):
        faults.append(f"reads more than a window of {WINDOWED[name]}: " + "; ".join(plan))
    if name in ORDERED and any("FOR ORDER BY" in line for line in plan):
        faults.append("sorts every row that matched: " + "; ".join(plan))
    if name in OWN_ROW and not any(re.match(r"SEARCH m USING .*\buser_id=\?", line)
                                   for line in plan):
        faults.append("finds the player among the board's rows: " + "; ".join(plan))
    faults += [f"does not read {index}: " + "; ".join(plan) for index in THROUGH.get(name, ())
               if not any(re.search(rf"\b{index}\b", line) for line in plan)]
    return faults


TRIGGER_BODY = re.compile(r"\bBEGIN\b(.*)\bEND\b\s*$", re.S | re.I)


def trigger_statements(connection: Any) -> Iterator[tuple[str, str]]:
    """(trigger[i], statement) of each trigger's body, NEW.x and OLD.x made parameters."""
    for name, sql in connection.execute("SELECT name, sql FROM sqlite_master "
                                        "WHERE type = 'trigger' ORDER BY name"):
        body = TRIGGER_BODY.search(sql)
        assert body is not None, name
        parts = [part.strip() for part in body.group(1).split(";") if part.strip()]
        for index, part in enumerate(parts):
            yield f"{name}[{index}]", re.sub(r"\b(?:NEW|OLD)\.\w+", "?", part)


def sqlite_foreign_keys_unindexed(connection: Any) -> list[str]:
    """Foreign keys whose child columns lead no index of the child table: deleting or
    changing a parent row would read the whole child table to check them."""
    missing = []
    tables = [row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    for table in tables:
        keys: dict[int, list[str]] = {}
        for row in connection.execute(f"PRAGMA foreign_key_list({table})"):
            keys.setdefault(row[0], []).append(row[3])
        leading = [[row[2] for row in connection.execute(f"PRAGMA index_info({index[1]})")]
                   for index in connection.execute(f"PRAGMA index_list({table})")]
        rowid = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")
                 if row[5] == 1 and row[2].upper() == "INTEGER"]
        for columns in keys.values():
            if columns != rowid and not any(index[:len(columns)] == columns
                                            for index in leading):
                missing.append(f"{table}({', '.join(columns)})")
    return missing


# --- reading PostgreSQL's plans ------------------------------------------------------------

def postgres_faults(name: str, plan: dict, leading: dict[str, str]) -> list[str]:
    """What a plan (EXPLAIN (FORMAT JSON)'s) does that the catalogue does not allow: a
    sequential scan of a large table, or an index of one read from end to end (no condition
    on its `leading` column) unless it is one of SMALL_INDEXES."""
    allowed = WHOLE.get(name, (frozenset(), ""))[0]
    faults, windows, own, indexes = [], [], [], set()

    def visit(node: dict, above: str | None = None) -> None:
        kind, table = node.get("Node Type", ""), node.get("Relation Name")
        index, condition = node.get("Index Name"), node.get("Index Cond", "")
        indexes.add(index)
        alias = node.get("Alias", above)  # a bitmap's index scan reads for its heap scan
        windows.append(condition)
        if alias == "m" and re.search(r"\buser_id = ", condition):
            own.append(index)
        if kind == "Seq Scan" and table in LARGE - allowed:
            faults.append(f"reads all of {table}")
        searched = set(re.findall(r"\b(\w+) (?:=|<|>|<=|>=) ", condition))
        if index in PERSON_INDEXES and searched == {PERSON_INDEXES[index]} \
                and name not in WHOLE_PERSON:
            faults.append(f"reads a person's whole history through {index} ({condition})")
        if index is not None and index not in SMALL_INDEXES and index in leading \
                and not re.search(rf"\b{leading[index]}\b", condition) \
                and (table in LARGE - allowed or kind == "Bitmap Index Scan"):
            faults.append(f"reads all of {index} ({condition or 'no condition'})")
        if name in ORDERED and kind in ("Sort", "Incremental Sort"):
            faults.append("sorts every row that matched")
        for child in node.get("Plans", []):
            visit(child, alias if kind in ("Bitmap Heap Scan", "BitmapAnd", "BitmapOr")
                  else None)

    visit(plan["Plan"])
    faults += [f"does not read {index}" for index in THROUGH.get(name, ())
               if index not in indexes]
    if name in OWN_ROW and not own:
        faults.append("finds the player among the board's rows")
    if name in POSTGRES_WINDOWED and not any(all(re.search(rf"\b{column}\b", c) for column in
                                                 POSTGRES_WINDOWED[name]) for c in windows):
        faults.append(f"reads more than a window of {POSTGRES_WINDOWED[name]}")
    return faults
