"""The Prometheus metrics: names by Prometheus' conventions, what each part of the bot records
(read from the running process's own /metrics before and after, counted exactly), the /metrics
of the webhook server and of polling mode's METRICS_PORT, and their settings."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tornado.netutil
from prometheus_client.parser import text_string_to_metric_families
from telegram import Bot
from telegram.error import BadRequest

from bench.bench_failover import Replica
from bot.__main__ import BAD_SETTINGS
from bot.runtime import metrics
from bot.runtime.health import LEADER
from bot.runtime.pool import Slots
from bot.telegram.fairness import FairUpdates
from bot.telegram.metered_request import MeteredRequest
from bot.telegram.webhook import METRICS_PATH, make_server
from demo.emulator import BotApiEmulator
from demo.ports import free_port
from solver import solve
from tests.e2e.test_bot_process import hand_of
from tests.e2e.test_failover import replicas as replicas
from tests.e2e.test_failover import url as url
from tests.e2e.test_startup_failures import assert_short, env_for, run_bot, start_and_stop
from tests.postgres import postgres_server as postgres_server
from tests.waiting import BOUND, until

# Every metric the bot defines, with its type: the list deploy/README.md's alerts rely on.
EXPECTED = {
    "twentyfour_updates_handled": "counter",
    "twentyfour_last_update_handled_timestamp_seconds": "gauge",
    "twentyfour_updates_dropped": "counter",
    "twentyfour_bot_api_requests": "counter",
    "twentyfour_bot_api_errors": "counter",
    "twentyfour_rounds_dealt": "counter",
    "twentyfour_rounds_ended": "counter",
    "twentyfour_answer_verdict_seconds": "histogram",
    "twentyfour_fair_queue_updates": "gauge",
    "twentyfour_updates_in_hand": "gauge",
    "twentyfour_updates_in_hand_max": "gauge",
    "twentyfour_intake_wait_seconds": "histogram",
    "twentyfour_solver_lane_waiting_jobs": "gauge",
    "twentyfour_solver_lane_wait_seconds": "histogram",
    "twentyfour_stock_shelves": "gauge",
    "twentyfour_stock_hands": "gauge",
    "twentyfour_leader": "gauge",
    "twentyfour_build_info": "gauge",  # an Info: a gauge of 1 whose labels say it
    # the cluster's worker (bot/cluster/consumers.py)
    "twentyfour_worker_partitions": "gauge",
    "twentyfour_worker_takeovers": "counter",
    "twentyfour_partition_lag_updates": "gauge",
    "twentyfour_partition_updates_handled": "counter",
    "twentyfour_partition_handling_seconds": "histogram",
    "twentyfour_partition_redeliveries": "counter",
    # where an update's time goes, and what held the process (issue 71)
    "twentyfour_update_stage_seconds": "histogram",
    "twentyfour_gc_pause_seconds": "histogram",
    "twentyfour_bot_api_request_seconds": "histogram",
    "twentyfour_job_runs_skipped": "counter",
    # the budgets every door draws on (issue 70)
    "twentyfour_webapp_requests_refused": "counter",
}
NAME = re.compile(r"[a-z][a-z0-9_]*")
README = Path(__file__).resolve().parents[2] / "deploy" / "README.md"


def families(text: str) -> dict[str, object]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


def test_every_metric_is_named_by_the_conventions():
    found = families(metrics.exposition().decode())
    ours = {name: family for name, family in found.items() if name.startswith("twentyfour_")}
    assert {name: family.type for name, family in ours.items()} == EXPECTED  # type: ignore[attr-defined]
    for name, family in ours.items():
        assert NAME.fullmatch(name), name
        assert family.documentation, f"{name} has no help text"  # type: ignore[attr-defined]
        if family.type == "counter":  # type: ignore[attr-defined]
            assert not name.endswith("_total"), "the client adds _total to a counter's samples"
        if "seconds" in name:
            assert name.endswith("_seconds"), f"{name}: the unit goes last"
    assert "process_resident_memory_bytes" in found or "process_cpu_seconds" in found
    build = found["twentyfour_build_info"].samples[0].labels  # type: ignore[attr-defined]
    assert set(build) == {"version", "python_telegram_bot", "native_core"}
    assert build["native_core"] in {"true", "false"}


def test_the_readme_names_only_real_metrics():
    """Each metric the operator's alerts and dashboards name exists."""
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"\btwentyfour_(?:updates|last|bot_api|rounds|answer|fair|solver|"
                           r"stock|leader|build|worker|partition|intake)[a-z0-9_]*", text))
    assert named, "deploy/README.md names no metric"
    samples = {name + suffix for name in EXPECTED
               for suffix in ("", "_total", "_bucket", "_sum", "_count", "_info")}
    assert named <= samples, named - samples
    for alert_metric in ("twentyfour_last_update_handled_timestamp_seconds",
                         "twentyfour_solver_lane_wait_seconds_bucket",
                         "twentyfour_worker_partitions", "twentyfour_partition_lag_updates"):
        assert alert_metric in named


def test_recorders_move_their_metrics():
    """Each recorder moves its own metric by one (the running bot's calls of them are
    test_the_running_bot_counts_its_rounds_answers_and_lead's)."""
    dealt = value("twentyfour_rounds_dealt_total", game="24")
    ended = value("twentyfour_rounds_ended_total", game="24", outcome="solved")
    fast = value("twentyfour_answer_verdict_seconds_bucket", game="24", le="0.05")
    faster = value("twentyfour_answer_verdict_seconds_bucket", game="24", le="0.025")
    metrics.record_round_dealt("24")
    metrics.record_round_ended("24", "solved")
    metrics.observe_answer_latency("24", 0.03)
    metrics.set_leader(True)
    metrics.watch_stock(lambda: 3, lambda: 40)
    assert value("twentyfour_rounds_dealt_total", game="24") == dealt + 1
    assert value("twentyfour_rounds_ended_total", game="24", outcome="solved") == ended + 1
    assert value("twentyfour_answer_verdict_seconds_bucket", game="24", le="0.05") == fast + 1
    assert value("twentyfour_answer_verdict_seconds_bucket", game="24", le="0.025") == faster
    assert value("twentyfour_leader") == 1
    assert (value("twentyfour_stock_shelves"), value("twentyfour_stock_hands")) == (3, 40)
    metrics.set_leader(False)
    assert value("twentyfour_leader") == 0
    metrics.record_round_dealt("24")  # its child found once, then kept: it still counts
    metrics.record_round_ended("24", "revealed")  # other labels, their own child
    assert value("twentyfour_rounds_dealt_total", game="24") == dealt + 2
    assert value("twentyfour_rounds_ended_total", game="24", outcome="solved") == ended + 1
    assert metrics.api_method("https://api.telegram.org/bot1:x/sendMessage") == "sendMessage"
    assert metrics.api_method("http://h/bot1:x/send-message%0A") == "other"


class Update:
    """Just what the fair queue reads of an update."""

    def __init__(self, user_id: int) -> None:
        self.effective_user = type("User", (), {"id": user_id})()
        self.message = object()


async def test_fair_queue_depth_and_handled():
    """Past its bound the processor drops nothing: the update waits for room, and is handled."""
    fair = FairUpdates(concurrent=1, per_chat_running=1, bound=2)
    release = asyncio.Event()
    handled_before = value("twentyfour_updates_handled_total", kind="message")

    running = asyncio.Event()

    async def work() -> None:
        running.set()
        await release.wait()

    tasks = [asyncio.create_task(fair.process_update(Update(7), work())) for _ in range(4)]
    await asyncio.wait_for(running.wait(), BOUND)  # the first runs
    await asyncio.sleep(0.05)
    assert not any(task.done() for task in tasks)  # none dropped: two wait for room
    assert value("twentyfour_fair_queue_updates") == 1  # the second waits for its turn
    release.set()
    await asyncio.gather(*tasks)
    assert value("twentyfour_fair_queue_updates") == 0
    assert value("twentyfour_updates_handled_total", kind="message") == handled_before + 4


async def test_the_intake_counts_its_updates_and_waits():
    from bot.telegram.intake import Intake

    intake = Intake(2)
    waits = value("twentyfour_intake_wait_seconds_count")
    assert await intake.room(5) == 2
    intake.take("a")
    intake.take("b")
    assert value("twentyfour_updates_in_hand") == 2
    later = asyncio.create_task(intake.room(1))
    await asyncio.sleep(0.05)
    assert not later.done()
    intake.get_nowait()
    intake.task_done()
    assert await asyncio.wait_for(later, BOUND) == 1
    assert value("twentyfour_updates_in_hand") == 1
    assert value("twentyfour_updates_in_hand_max") == 2
    assert value("twentyfour_intake_wait_seconds_count") == waits + 2


def test_lane_waits_and_queue():
    gate = threading.Event()
    with ThreadPoolExecutor(1) as executor:
        slots = Slots(1, lambda: executor, "test-lane")  # type: ignore[arg-type, return-value]
        metrics.watch_lane_queue("test-lane", slots.waiting)
        count = value("twentyfour_solver_lane_wait_seconds_count", lane="test-lane")
        jobs = [slots.submit(gate.wait, (5,)) for _ in range(3)]
        assert value("twentyfour_solver_lane_waiting_jobs", lane="test-lane") == 2
        gate.set()
        for job in jobs:
            job.result(timeout=5)
    assert value("twentyfour_solver_lane_wait_seconds_count", lane="test-lane") == count + 3
    assert value("twentyfour_solver_lane_waiting_jobs", lane="test-lane") == 0


async def test_bot_api_requests_and_errors_by_method(telegram: BotApiEmulator):
    bot = Bot(telegram.token, base_url=telegram.base_url, request=MeteredRequest())
    calls = value("twentyfour_bot_api_requests_total", method="getMe")
    errors = value("twentyfour_bot_api_errors_total", method="sendMessage", error="400")
    async with bot:
        await bot.get_me()
        with pytest.raises(BadRequest):
            await bot.send_message(-404, "")  # an empty text is refused, as Telegram does
    assert value("twentyfour_bot_api_requests_total", method="getMe") >= calls + 1
    assert value("twentyfour_bot_api_errors_total", method="sendMessage", error="400") \
        == errors + 1


async def test_bot_api_network_errors_are_counted():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = Bot("1:x", base_url=f"http://127.0.0.1:{port}/bot", request=MeteredRequest())
    errors = value("twentyfour_bot_api_errors_total", method="getMe", error="network")
    with pytest.raises(Exception, match="onnect"):
        await bot.get_me()
    assert value("twentyfour_bot_api_errors_total", method="getMe", error="network") \
        == errors + 1


async def test_the_webhook_server_serves_metrics():
    server = make_server(object(), "secret")  # type: ignore[arg-type]
    sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
    server.add_sockets(sockets)
    port = sockets[0].getsockname()[1]
    try:
        status, kind, body = await asyncio.to_thread(scrape, port)
    finally:
        server.stop()
    assert status == 200 and kind.startswith("text/plain")
    assert set(EXPECTED) <= set(families(body))


def scrape(port: int) -> tuple[int, str, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{METRICS_PATH}", timeout=10) as answer:
        return answer.status, answer.headers["Content-Type"], answer.read().decode()


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
DEALT, ENDED = "twentyfour_rounds_dealt_total", "twentyfour_rounds_ended_total"
ANSWERS, LEADING = "twentyfour_answer_verdict_seconds_count", "twentyfour_leader"
HANDLED = "twentyfour_updates_handled_total"
GROUP, OTHER = -3001, -3002
ANN = {"id": 31, "is_bot": False, "first_name": "Ann"}


def samples(text: str) -> Samples:
    """Every sample of a scrape, by name and labels."""
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def of(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def rounds(found: Samples) -> dict[str, float]:
    """What a round of 24 moves: dealt, won, abandoned (its group left), answers judged."""
    return {"dealt": of(found, DEALT, game="24"),
            "won": of(found, ENDED, game="24", outcome="won"),
            "abandoned": of(found, ENDED, game="24", outcome="abandoned"),
            "answers": of(found, ANSWERS, game="24")}


def plus(before: dict[str, float], **more: float) -> dict[str, float]:
    return {name: count + more.get(name, 0) for name, count in before.items()}


async def scraped(port: int) -> Samples:
    """The process's own /metrics, now."""
    return samples((await asyncio.to_thread(scrape, port))[2])


async def once_moved(port: int, before: Samples, name: str, **labels: str) -> Samples:
    """The process's /metrics once `name` has moved from `before` (a counter the process
    records just after the reply the test saw, or after a step it takes by itself)."""
    found = before

    async def moved() -> bool:
        nonlocal found
        found = await scraped(port)
        return of(found, name, **labels) != of(before, name, **labels)

    await until(moved, f"{name}{labels} moved from {of(before, name, **labels)}")
    return found


async def test_the_running_bot_counts_its_rounds_answers_and_lead(telegram: BotApiEmulator,
                                                                 make_bot):
    """`python -m bot`, read from its own /metrics before and after each step: a dealt round
    is exactly one more dealt, a right answer one more answer judged and one more round won,
    a round in a group that removed the bot one more abandoned; and the process leads."""
    port = free_port()
    bot = make_bot()
    bot.env["METRICS_PORT"] = str(port)
    await bot.start()
    start = await scraped(port)
    assert of(start, LEADING) == 1  # on SQLite the process leads from the start
    counted = rounds(start)
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    now = await once_moved(port, start, DEALT, game="24")
    assert rounds(now) == plus(counted, dealt=1)
    await telegram.say(GROUP, ANN, f"/a {solve(hand_of(deal.text))[0]}")
    assert "Ann wins" in (await telegram.reply(GROUP)).text
    now = await once_moved(port, now, ENDED, game="24", outcome="won")
    assert rounds(now) == plus(counted, dealt=1, won=1, answers=1)
    telegram.chat(OTHER)
    await telegram.say(OTHER, ANN, "/play")
    await telegram.reply(OTHER)
    await telegram.remove_bot(OTHER, ANN)
    now = await once_moved(port, now, ENDED, game="24", outcome="abandoned")
    assert rounds(now) == plus(counted, dealt=2, won=1, answers=1, abandoned=1)
    assert of(now, LEADING) == 1


@pytest.mark.slow
async def test_a_standby_counts_its_lead_once_it_takes_over(replicas: list[Replica]):
    """Two processes on one PostgreSQL: the standby's /metrics says 0 while the other leads,
    and exactly 1 once it has taken over from the leader killed."""
    ports = [free_port(), free_port()]
    for replica, port in zip(replicas, ports, strict=True):
        replica.env["METRICS_PORT"] = str(port)
    first, second = replicas
    await first.start()
    await second.stand_by()
    standing = of(await scraped(ports[1]), LEADING)
    assert (of(await scraped(ports[0]), LEADING), standing) == (1, 0)
    await first.kill()
    await second.until_role(LEADER)  # its heartbeat says so just after the gauge
    assert of(await scraped(ports[1]), LEADING) == standing + 1


async def test_polling_serves_metrics_on_metrics_port(telegram: BotApiEmulator, tmp_path: Path):
    """The real process: a player's message is counted once, and /metrics answers while it
    polls."""
    port = free_port()
    env = env_for(telegram.base_url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token,
                  METRICS_PORT=str(port))
    scraped_text: list[str] = []

    async def player() -> None:
        await until(lambda: "getUpdates" in [call[0] for call in telegram.calls],
                    "the bot polls")
        before = await scraped(port)
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/help")
        await telegram.reply(GROUP, timeout=30)
        after = await once_moved(port, before, HANDLED, kind="message")
        assert of(after, HANDLED, kind="message") == of(before, HANDLED, kind="message") + 1
        scraped_text.append((await asyncio.to_thread(scrape, port))[2])

    playing = asyncio.create_task(player())
    status, err = await start_and_stop(env, telegram, until=playing)
    assert status == 0, err
    assert set(EXPECTED) <= set(families(scraped_text[0]))
    assert f"metrics on http://127.0.0.1:{port}/metrics" in err


@pytest.mark.parametrize(("settings", "said"), [
    ({"METRICS_PORT": "70000"}, "METRICS_PORT must be from 1 to 65535"),
    ({"METRICS_PORT": "8443", "WEBHOOK_URL": "https://bot.example/telegram"},
     "METRICS_PORT must differ from WEBHOOK_PORT"),
])
async def test_metrics_settings_are_checked(tmp_path: Path, settings: dict[str, str], said: str):
    status, err, _ = await run_bot(env_for("http://127.0.0.1:9/bot", tmp_path, **settings))
    assert status == BAD_SETTINGS
    assert_short(err, said)


async def test_a_metrics_port_in_use_is_one_line(telegram: BotApiEmulator, tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = env_for(telegram.base_url, tmp_path, TELEGRAM_BOT_TOKEN=telegram.token,
                      METRICS_PORT=str(port))
        status, err, _ = await run_bot(env)
    assert status == BAD_SETTINGS
    assert_short(err, f"METRICS_PORT {port}")
    assert not telegram.calls, "nothing starts before the metrics server is up"
