"""The bot's Prometheus metrics, and the small functions that record them.

Every metric lives in this module's own registry (`REGISTRY`, with the process and Python
collectors beside them), served at `/metrics` by the webhook server, or in polling mode by a
small server of its own when METRICS_PORT is set (`serve`). Names follow Prometheus' rules: the
`twentyfour_` prefix, `_total` on counters, base units (`_seconds`) in the name, and labels of a
few values each (a Bot API method, a game, a reason, one of the stream's partitions: 64 by
default) — never a user, a chat or a text.

Recording never fails and never blocks: a counter or a histogram is a lock and an addition, safe
from any thread (the solver lanes record from the executor's callbacks).
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)

__all__ = ["BUILD", "CONTENT_TYPE_LATEST", "HANDLED_BEFORE", "REGISTRY", "WRONG_SECRET",
           "exposition", "observe_answer_latency", "observe_api_time", "observe_gc_pause",
           "observe_intake_wait", "observe_lane_wait", "observe_partition_update",
           "record_api_call", "record_api_error", "record_partition_consumed",
           "record_redelivery", "record_round_dealt", "record_round_ended", "record_takeover",
           "record_update_dropped", "record_update_handled", "record_webapp_refused", "serve",
           "set_leader", "set_partition_lag", "stage_timer", "versions", "watch_fair_queue",
           "watch_intake", "watch_lane_queue", "watch_stock"]

# No `_created` series beside each counter and histogram: in the text format each is a gauge
# family of its own, which doubles the series and tells an alert nothing.
disable_created_metrics()
REGISTRY = CollectorRegistry(auto_describe=True)
for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_collector)  # process_*, python_info, python_gc_*: memory, CPU, files

PREFIX = "twentyfour"
BUSY = "database_busy"  # the database stayed locked through every retry: not claimed
OVER_BUDGET = "over_budget"  # its sender or its chat was past their budget (bot.runtime.doors)
# a press past the budget after its sender's first refusal: left unanswered, by design (one
# notice a burst, bot.telegram.over_budget), so counted apart from the presses answered
OVER_BUDGET_UNANSWERED = "over_budget_unanswered"
STALE = "stale"  # a message older than a round when it arrived (the bot was down)
HANDLED_BEFORE = "handled_before"  # Telegram sent an update again that was handled already
SUPERSEDED = "superseded"  # an inline query still waiting when its sender's next one came
WRONG_SECRET = "wrong_secret"  # a POST to the webhook without its secret header (webhook.py)
METHOD_FORM = re.compile(r"[A-Za-z]{1,40}")  # a Bot API method name; anything else is "other"

# A verdict is a millisecond of solver work and a reply: the buckets reach from 5 ms to 10 s.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A lane wait is nothing when a worker is free, and seconds when a heavy lane is full.
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# Room in the intake is there at once, or after the updates in hand are worked through: a
# second or so for a full intake, more when the handlers are slow.
INTAKE_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# An update in a worker is a few milliseconds, or seconds with the solver; few buckets, since
# each is a series for every one of the partitions.
HANDLING_BUCKETS = (0.005, 0.025, 0.1, 0.5, 2.5, 10.0)

# Where an update's time goes, and the process's pauses: from half a millisecond to seconds.
STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

UPDATES_HANDLED = Counter(
    f"{PREFIX}_updates_handled", "Updates that went through the bot's handlers, by kind.",
    ["kind"], registry=REGISTRY)
LAST_UPDATE_HANDLED = Gauge(
    f"{PREFIX}_last_update_handled_timestamp_seconds",
    "Unix time the last update went through the handlers (0: none since start).",
    registry=REGISTRY)
UPDATES_DROPPED = Counter(
    f"{PREFIX}_updates_dropped", "Updates not acted on, by reason.", ["reason"],
    registry=REGISTRY)
UPDATE_STAGE = Histogram(
    f"{PREFIX}_update_stage_seconds",
    "Where an update's time goes: `waiting` for its turn in the fair queues, `handling` from "
    "its turn to its handlers' end (its store's trips and its replies included); `loop`, how "
    "late the event loop ran a timer due ten times a second (every update's wait for the "
    "loop).", ["stage"],
    buckets=STAGE_BUCKETS, registry=REGISTRY)
GC_PAUSE = Histogram(
    f"{PREFIX}_gc_pause_seconds",
    "The garbage collector's pauses (the event loop stands still meanwhile), by generation.",
    ["generation"], buckets=STAGE_BUCKETS, registry=REGISTRY)
JOB_RUNS_SKIPPED = Counter(
    f"{PREFIX}_job_runs_skipped",
    "Runs of a repeating job not made because its last run was still going, by job.", ["job"],
    registry=REGISTRY)
API_TIME = Histogram(
    f"{PREFIX}_bot_api_request_seconds",
    "A Bot API request's round trip, by method (getUpdates' long polls included: they wait "
    "for updates).", ["method"], buckets=STAGE_BUCKETS, registry=REGISTRY)
WEBAPP_REFUSED = Counter(
    f"{PREFIX}_webapp_requests_refused",
    "Mini App API requests refused before their work, by whose budget ran out (`person`, "
    "`sender`, `chat`, `door`: bot.runtime.doors).", ["budget"], registry=REGISTRY)
API_REQUESTS = Counter(
    f"{PREFIX}_bot_api_requests", "Bot API requests made (replies, edits, polls), by method.",
    ["method"], registry=REGISTRY)
API_ERRORS = Counter(
    f"{PREFIX}_bot_api_errors",
    "Bot API requests that failed, by method and error (an HTTP status, `timeout`, `network`).",
    ["method", "error"], registry=REGISTRY)
ROUNDS_DEALT = Counter(
    f"{PREFIX}_rounds_dealt", "Rounds dealt, by game.", ["game"], registry=REGISTRY)
ROUNDS_ENDED = Counter(
    f"{PREFIX}_rounds_ended", "Rounds ended, by game and outcome.", ["game", "outcome"],
    registry=REGISTRY)
ANSWER_LATENCY = Histogram(
    f"{PREFIX}_answer_verdict_seconds",
    "From an answer's update reaching a handler to its verdict sent, by game.", ["game"],
    buckets=LATENCY_BUCKETS, registry=REGISTRY)
FAIR_QUEUE = Gauge(
    f"{PREFIX}_fair_queue_updates", "Updates waiting in the fair queues for their turn.",
    registry=REGISTRY)
IN_HAND = Gauge(
    f"{PREFIX}_updates_in_hand",
    "Updates taken from Telegram and not yet handled to their end (at most "
    "MAX_UPDATES_IN_FLIGHT).", registry=REGISTRY)
MOST_IN_HAND = Gauge(
    f"{PREFIX}_updates_in_hand_max", "The most updates held at once since the process began.",
    registry=REGISTRY)
INTAKE_WAIT = Histogram(
    f"{PREFIX}_intake_wait_seconds",
    "How long the intake waited for room before taking more updates (a long poll held back, a "
    "webhook request held); 0 when there was room.", buckets=INTAKE_BUCKETS, registry=REGISTRY)
LANE_QUEUE = Gauge(
    f"{PREFIX}_solver_lane_waiting_jobs", "Solver jobs waiting for a worker, by lane.",
    ["lane"], registry=REGISTRY)
LANE_WAIT = Histogram(
    f"{PREFIX}_solver_lane_wait_seconds",
    "How long a solver job waited for a worker of its lane, by lane.", ["lane"],
    buckets=WAIT_BUCKETS, registry=REGISTRY)
STOCK_SHELVES = Gauge(
    f"{PREFIX}_stock_shelves", "Kinds of deal the stock keeps ready hands for.",
    registry=REGISTRY)
STOCK_HANDS = Gauge(
    f"{PREFIX}_stock_hands", "Ready hands on all the stock's shelves.", registry=REGISTRY)
BUILD = Info(
    f"{PREFIX}_build", "The versions running, and whether the solver's native core is in use.",
    registry=REGISTRY)
LEADER = Gauge(
    f"{PREFIX}_leader",
    "1 while this process leads (takes the updates), 0 while it stands by or starts.",
    registry=REGISTRY)
# The cluster's worker (bot/cluster/consumers.py); the one process leaves them at 0 or empty.
PARTITIONS_CONSUMED = Gauge(
    f"{PREFIX}_worker_partitions",
    "Partitions of the update stream this worker consumes now (0 while it stands by).",
    registry=REGISTRY)
TAKEOVERS = Counter(
    f"{PREFIX}_worker_takeovers",
    "Times this worker began consuming its partitions after consuming none (it took the lead; "
    "its first start counts too).", registry=REGISTRY)
PARTITION_LAG = Gauge(
    f"{PREFIX}_partition_lag_updates",
    "Updates in the broker not yet delivered to a partition's consumer (its num_pending), read "
    "every few seconds by the worker consuming it, by partition.", ["partition"],
    registry=REGISTRY)
PARTITION_HANDLED = Counter(
    f"{PREFIX}_partition_updates_handled",
    "Updates a worker handled and acknowledged, by partition and outcome (`ok`, or `failed`: "
    "the handler raised and the update was dropped).", ["partition", "outcome"],
    registry=REGISTRY)
PARTITION_HANDLING = Histogram(
    f"{PREFIX}_partition_handling_seconds",
    "From an update taken from the broker to its handling done, by partition.", ["partition"],
    buckets=HANDLING_BUCKETS, registry=REGISTRY)
REDELIVERIES = Counter(
    f"{PREFIX}_partition_redeliveries",
    "Updates the broker delivered again (taken before and never acknowledged: a worker died, "
    "lost its lease or was too slow), by partition.", ["partition"], registry=REGISTRY)


def versions() -> dict[str, str]:
    """This project's version, python-telegram-bot's, and the native core's state in words
    (`in use`, or why not): what `python -m bot --version` prints and the build info says."""
    from solver import native

    def of(name: str) -> str:
        try:
            return installed(name)
        except PackageNotFoundError:
            return "(not installed)"

    return {"version": of("twentyfour"), "python_telegram_bot": of("python-telegram-bot"),
            "native_core": native.STATUS}


@functools.cache
def _record_build() -> None:
    """Fill the build info once, when metrics are first served (not at import: the solver's
    worker processes import this module too, and never serve it)."""
    found = versions()
    BUILD.info({**found, "native_core": "true" if found["native_core"] == "in use" else "false"})


# A metric's child for some label values, found once: prometheus_client's `labels` takes a lock
# and builds its key afresh at each call, a few percent of an update's own CPU where an update
# records four of them. Its children live as long as the metric, so this holds no more than it.
_CHILDREN: dict[tuple[int, tuple[str, ...]], Any] = {}


def _labeled(metric: Any, *values: str) -> Any:
    key = (id(metric), values)
    child = _CHILDREN.get(key)
    if child is None:
        child = _CHILDREN[key] = metric.labels(*values)
    return child


# --- what the Telegram face records ----------------------------------------------------------

def record_update_handled(kind: str) -> None:
    """An update went through the handlers; `kind` is its type (`message`, `callback_query`)."""
    _labeled(UPDATES_HANDLED, kind).inc()
    LAST_UPDATE_HANDLED.set(time.time())


def record_webapp_refused(budget: str, count: int = 1) -> None:
    """A Mini App request refused past a budget (bot.runtime.doors), before its work (`count`
    of them: the page's own process tallies its refusals, bot.webapp.page_process)."""
    WEBAPP_REFUSED.labels(budget).inc(count)


def record_update_dropped(reason: str) -> None:
    """An update the bot did not act on: HANDLED_BEFORE, STALE, or another short word."""
    UPDATES_DROPPED.labels(reason).inc()


def api_method(url: str) -> str:
    """The Bot API method a request URL names (its last path segment), or `other`."""
    method = url.rsplit("/", 1)[-1].split("?", 1)[0]
    return method if METHOD_FORM.fullmatch(method) else "other"


def record_api_call(method: str) -> None:
    """A Bot API request was sent (`sendMessage`, `getUpdates`...)."""
    _labeled(API_REQUESTS, method).inc()


def observe_api_time(method: str, seconds: float) -> None:
    """A Bot API request of `method` took `seconds`, sent to answered (or failed)."""
    _labeled(API_TIME, method).observe(seconds)


def record_job_run_skipped(job: str) -> None:
    """A repeating job's run was skipped: its last run outlasted the interval."""
    _labeled(JOB_RUNS_SKIPPED, job).inc()


def observe_gc_pause(generation: int, seconds: float) -> None:
    """A collection of `generation` held the process `seconds`."""
    GC_PAUSE.labels(str(generation)).observe(seconds)


def stage_timer(stage: str) -> Callable[[float], None]:
    """The observer of one stage of an update's handling (its label bound once: it is asked
    twice an update)."""
    return UPDATE_STAGE.labels(stage).observe


def record_api_error(method: str, error: str) -> None:
    """A Bot API request failed: `error` is the HTTP status (`400`, `429`), `timeout` or
    `network`."""
    API_ERRORS.labels(method, error).inc()


# --- what the game services record -----------------------------------------------------------

def record_round_dealt(game: str) -> None:
    """A round of `game` (the name it is stored under: bot.play.games) was dealt."""
    _labeled(ROUNDS_DEALT, game).inc()


def record_round_ended(game: str, outcome: str) -> None:
    """A round of `game` ended; `outcome` is a short word (`solved`, `timeout`, `revealed`)."""
    _labeled(ROUNDS_ENDED, game, outcome).inc()


def observe_answer_latency(game: str, seconds: float) -> None:
    """An answer's verdict was sent `seconds` after its update reached the handler."""
    _labeled(ANSWER_LATENCY, game).observe(seconds)


def set_leader(leading: bool) -> None:
    """This process took the lead (True) or stands by (False)."""
    LEADER.set(1 if leading else 0)


# --- what the cluster's worker records -------------------------------------------------------

def record_takeover() -> None:
    """This worker began consuming its partitions (it leads now)."""
    TAKEOVERS.inc()


def record_partition_consumed(partition: int, consuming: bool) -> None:
    """This worker began (True) or stopped (False) consuming `partition`; a partition it no
    longer consumes loses its lag, which the next owner reports."""
    PARTITIONS_CONSUMED.inc(1 if consuming else -1)
    if not consuming:
        with contextlib.suppress(KeyError):  # never read
            PARTITION_LAG.remove(str(partition))


def set_partition_lag(partition: int, waiting: int) -> None:
    """`waiting` updates of `partition` are in the broker, not yet delivered."""
    PARTITION_LAG.labels(str(partition)).set(waiting)


def observe_partition_update(partition: int, seconds: float, failed: bool) -> None:
    """An update of `partition` was handled in `seconds` (`failed`: its handler raised)."""
    label = str(partition)
    PARTITION_HANDLED.labels(label, "failed" if failed else "ok").inc()
    PARTITION_HANDLING.labels(label).observe(seconds)


def record_redelivery(partition: int) -> None:
    """An update of `partition` came a second time or more."""
    REDELIVERIES.labels(str(partition)).inc()


# --- gauges read when scraped ----------------------------------------------------------------

def watch_fair_queue(waiting: Callable[[], int]) -> None:
    """The fair queues' depth is `waiting()` at each scrape (the last processor set wins)."""
    FAIR_QUEUE.set_function(waiting)


def watch_intake(in_hand: Callable[[], int], most: Callable[[], int]) -> None:
    """The updates in hand, and the most held at once, are read at each scrape (the last
    intake made wins)."""
    IN_HAND.set_function(in_hand)
    MOST_IN_HAND.set_function(most)


def observe_intake_wait(seconds: float) -> None:
    """The intake waited `seconds` for room (0: there was room)."""
    INTAKE_WAIT.observe(seconds)


def watch_lane_queue(lane: str, waiting: Callable[[], int]) -> None:
    """The jobs waiting in `lane` are `waiting()` at each scrape."""
    LANE_QUEUE.labels(lane).set_function(waiting)


def observe_lane_wait(lane: str, seconds: float) -> None:
    """A job of `lane` waited `seconds` for a worker."""
    LANE_WAIT.labels(lane).observe(seconds)


def watch_stock(shelves: Callable[[], int], hands: Callable[[], int]) -> None:
    """The stock's shelves and ready hands are read at each scrape."""
    STOCK_SHELVES.set_function(shelves)
    STOCK_HANDS.set_function(hands)


# --- serving ---------------------------------------------------------------------------------

def exposition() -> bytes:
    """Every metric in Prometheus' text format (served with CONTENT_TYPE_LATEST)."""
    _record_build()
    return generate_latest(REGISTRY)


def serve(port: int, address: str) -> Callable[[], None]:
    """Serve /metrics on `address`:`port` in a thread of its own (polling mode); the function
    returned stops it."""
    _record_build()
    server, thread = start_http_server(port, address, registry=REGISTRY)

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return stop
