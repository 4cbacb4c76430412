"""Flood benchmark (issue 70): one person — or a group of fifty together — floods every door at
once while 200 other groups play, and those groups must not notice.

The real bot (`python -m bot` through bench/run_bot.py, the Mini App on, RATE_LIMIT=off as in
the load bench's capacity runs) against the Bot API emulator. Its capacity is measured first
(the load bench's burst), then three runs of 200 new groups each playing at half that capacity
(each group's /play, and its three answers once the deal is out: bench_bot_load's steady load):

  quiet  nothing else happens;
  one    one signed member of a flood group sends, all at once: 6,000 answers to
         /webapp/api/answer (wrong ones, so the round stays on), 2,000 page and card requests
         (/webapp/api/page, /webapp/api/card), 2,000 presses under the group's deal and 2,000
         inline queries;
  fifty  the same, spread over fifty members of the flood group.

Each flooding member has a season before the flood (a round of the flood group they answered
wrong, revealed: a rated close), as a real player has, so each card they ask for is drawn, not
refused for want of one.

The HTTP flood comes from a process of its own (this file with --client, at the lowest CPU
priority, SCHED_IDLE: an attacker's machine is not the bot's; at `nice` 19 it still slowed the
rounds by holding a core as the bot woke) over 64 kept-alive connections, each sending
its next request as soon as the last was answered; it reports each request's status and time.
The presses and inline queries are queued at the emulator ahead of the groups' own updates, as
Telegram would deliver them.

Then the same three runs again (`--paced`, the default) at half the capacity the steady play
shows: the burst's updates share polls and trips, so half its rate kept the bot's core 87 to 93 %
busy in the steady play (printed with the quiet run); this second load is the rate that keeps it
half busy. It is shown beside the first, never instead of it.

Printed: the other groups' p50 and p99 delivery -> reply in each run against the quiet one
(goal: within 1.5x and under 1 s), whether every reply came; the flood's requests by answer
(judged, 429, 503) and the refusals' p50 and p99 time (goal p99 < 50 ms); the updates the bot
dropped past a budget (its /metrics) against the flood's, and how long after the flood's start
its last update was handed to the bot (Telegram gives a bot its updates in order: the groups'
updates sent meanwhile wait behind the flood's at Telegram, uncounted, then come at once, and
about how long the last of them then waits for the others at the burst's measured rate: what
the order alone costs, which no budget of the bot's moves); the bot's CPU in each run, and the
flood's cost per request. The load average at the start and the end.

`--repeat N` runs the quiet run and the floods N times in turn and prints, over the turns, each
flood's p99 against its own turn's quiet run and the median: a p99 of a few hundred updates is
a moment, and the quiet run's moved from 6 to 65 ms between turns here.

    .venv/bin/python bench/bench_flood.py [--chats 200] [--quick] [--only one|fifty]
        [--kinds answers,pages,presses,inline] [--press reveal|coach] [--profile FILE] [--no-paced]
        [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_bot_load import (  # noqa: E402
    Run,
    burst,
    chats,
    cpu_seconds,
    free_port,
    idle,
    percentile,
    start,
    steady,
    stop,
)
from bot.webapp.init_data import sign, user_fields  # noqa: E402
from bot.webapp.page_process import lowest_priority  # noqa: E402
from demo.emulator.records import Sent  # noqa: E402

FLOOD_GROUPS = -990_000  # the flood groups: -990_001, -990_002...
CONNECTIONS = 64
SHORT_NAME = "flood"
KINDS = ("answers", "pages", "presses", "inline")  # the flood's parts


@dataclass
class Flood:
    """What one run's flood sends, and from whom."""

    members: int
    answers: int = 6000
    pages: int = 2000
    presses: int = 2000
    inline: int = 2000
    press: str = "reveal"  # the button pressed: Reveal under the deal, or the coach's line


@dataclass
class Phase:
    """One run of the groups' steady play, with or without a flood."""

    steady: dict
    cpu: float
    flood: dict = field(default_factory=dict)
    dropped: float = 0.0
    refused_http: float = 0.0
    presses_answered: int = 0
    inline_answered: int = 0
    others: dict = field(default_factory=dict)  # CPU s of the other processes on the machine
    timed: str = ""  # where the bot's time went (where_time_went)
    drained: float = 0.0  # s from the flood's start to its last update handed to the bot


def machine_cpu(bot: int) -> dict[str, float]:
    """CPU seconds so far of what shares the machine with the bot: its page's process, its
    solver workers, and this process (the emulator — Telegram — and the groups' drivers)."""
    spent = {"page process": 0.0, "solver workers": 0.0}
    for child in Path(f"/proc/{bot}/task/{bot}/children").read_text().split():
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = "page process" if b"page_process" in command else "solver workers"
        spent[name] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    times = os.times()
    spent["emulator and drivers"] = times.user + times.system
    return spent


def scrape(port: int) -> dict[str, float]:
    """The bot's /metrics: each counter of refusals and drops, by its labels; and where its
    updates' time went (the stages' and the Bot API's sums and counts)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith(("twentyfour_updates_dropped_total",
                            "twentyfour_webapp_requests_refused_total")) or \
                (line.startswith(TIMED) and line.split("{")[0].endswith(("_sum", "_count"))):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


TIMED = ("twentyfour_update_stage_seconds", "twentyfour_bot_api_request_seconds",
         "twentyfour_gc_pause_seconds")


def where_time_went(before: dict[str, float], after: dict[str, float]) -> str:
    """Each stage's and each Bot API method's mean time in a run, and how many (from the
    differences of the bot's histograms)."""
    said = []
    for key in sorted(after):
        if not key.startswith(TIMED) or "_count{" not in key or "getUpdates" in key:
            continue
        count = after[key] - before.get(key, 0.0)
        total_key = key.replace("_count{", "_sum{")
        total = after.get(total_key, 0.0) - before.get(total_key, 0.0)
        if count >= 1:
            label = key.split('"')[1]
            if key.startswith("twentyfour_gc_pause"):
                label = f"gc pause (generation {label})"
            said.append(f"{label} {total / count * 1000:.1f} ms x {count:.0f}")
    return ", ".join(said)


def over_budget(metrics: dict[str, float]) -> float:
    return sum(v for k, v in metrics.items() if 'reason="over_budget' in k)


def refused_http(metrics: dict[str, float]) -> float:
    return sum(v for k, v in metrics.items() if k.startswith("twentyfour_webapp"))


async def flood_group(run: Run, group: int, members: int
                      ) -> tuple[list[dict], str, Sent, str, dict]:
    """The flood group's flooding members, and a round dealt there by another of its members
    (so the floods' presses of Reveal cannot end it): (members, its ticket, the deal, the
    Reveal button's data, the dealer)."""
    people = [run.emulator.user(5_000_000 + 100 * abs(group % 1000) + n, f"F{n}")
              for n in range(members + 1)]
    dealer, people = people[0], people[1:]
    run.emulator.chat(group)
    await seasoned(run, group, dealer, people)
    deal = await dealt(run, group, dealer)
    ticket = reveal = ""
    for button in run.emulator.keyboard(group, deal.message_id):
        url = button.get("url") or ""
        if SHORT_NAME in url:
            ticket = parse_qs(urlsplit(url).query)["startapp"][0]
        if button.get("text") == "Reveal":
            reveal = button["callback_data"]
    assert ticket and reveal, "the deal has a Direct Link and a Reveal button"
    return people, ticket, deal, reveal, dealer


async def dealt(run: Run, group: int, dealer: dict) -> Sent:
    """The dealer's /play in the group: its deal, once sent."""
    since = len(run.emulator.sent)
    await run.emulator.say(group, dealer, "/play")

    def deal() -> Sent | None:
        return next((s for s in run.emulator.sent[since:] if s.chat_id == group and any(
            button.get("text") == "Reveal"
            for button in run.emulator.keyboard(group, s.message_id))), None)
    assert await run.emulator.wait_for(lambda: deal() is not None, 30), "a deal"
    found = deal()
    assert found is not None
    return found


def wrong_op(deal: Sent) -> str:
    """How to join every tile of the deal's hand so that it does not make 24: added, or
    multiplied where the sum is 24 (no hand of 1 to 13 has both 24)."""
    return "+" if sum(map(int, deal.text.splitlines()[0].split())) != 24 else "*"


def wrong_for(deal: Sent) -> str:
    """A typed answer to the deal's hand that does not make 24."""
    return wrong_op(deal).join(deal.text.splitlines()[0].split())


def wrong_steps(deal: Sent) -> list[list]:
    """The page's steps for the same: the first tile joined with the next, three times."""
    return [[0, wrong_op(deal), 1]] * 3


async def seasoned(run: Run, group: int, dealer: dict, people: list[dict]) -> None:
    """Each flooding member has a season, as a player who floods has: a round of the group
    they and the dealer answered wrong, then all passed (a rated close). Their share card is
    then drawn when they ask for it (without one it is refused, at the cost of a read)."""
    deal = await dealt(run, group, dealer)
    everyone = [dealer, *people]
    for person in everyone:
        await run.emulator.say(group, person, f"/a {wrong_for(deal)}")
    await asyncio.sleep(1.0)  # the answers taken before the passes (each is handled apart)
    since = len(run.emulator.sent)
    for person in everyone:
        await run.emulator.say(group, person, "/pass")

    def closed() -> bool:
        return any(s.chat_id == group and deal.text.splitlines()[0] in s.text
                   for s in run.emulator.sent[since:])
    assert await run.emulator.wait_for(closed, 60), "the round closed by everyone's pass"
    await idle(run.process)  # every pass handled before the next deal: none lands on it


async def coached(run: Run, group: int, deal_id: int, dealer: dict, misser: dict
                  ) -> tuple[int, str]:
    """The flood group's round ended with a result that offers the coach's line to `misser`:
    the dealer and they answer it wrong and pass. (The result's message id, the button's
    data.)"""
    deal = next(s for s in run.emulator.sent if s.chat_id == group and s.message_id == deal_id)
    wrong = wrong_for(deal)
    sent = len(run.emulator.sent)
    for person in (dealer, misser):
        await run.emulator.say(group, person, f"/a {wrong}")
    await asyncio.sleep(1.0)  # both answers taken before either pass (they are handled apart)
    for person in (dealer, misser):
        await run.emulator.say(group, person, "/pass")

    def result() -> tuple[int, str] | None:
        for message in run.emulator.sent[sent:]:
            if message.chat_id == group:
                for button in run.emulator.keyboard(group, message.message_id):
                    if str(button.get("callback_data", "")).startswith("c:"):
                        return message.message_id, button["callback_data"]
        return None

    assert await run.emulator.wait_for(lambda: result() is not None, 30), "a coach's button"
    found = result()
    assert found is not None
    return found


def requests_of(flood: Flood, people: list[dict], ticket: str, token: str,
                steps: list[list]) -> list[dict]:
    """The flood's HTTP requests, the members taking turns: (path, body) of each."""
    now = int(time.time())
    signed = [sign(user_fields(p["id"], p["first_name"], now, "en", ticket), token)
              for p in people]
    pages = [sign(user_fields(p["id"], p["first_name"], now, "en"), token) for p in people]
    asked = [{"path": "answer", "body": {"init_data": signed[n % len(people)], "round": ticket,
                                         "steps": steps}} for n in range(flood.answers)]
    for n in range(flood.pages):
        person = people[n % len(people)]
        body = {"init_data": pages[n % len(people)], "page": f"u{person['id']}"}
        asked.append({"path": "page", "body": body} if n % 2 else
                     {"path": "card", "body": {**body, "card": "season", "game": "24"}})
    return asked


async def flooded(run: Run, ids: list[int], rate: float, flood: Flood, group: int,
                  ports: tuple[int, int]) -> Phase:
    """The groups' steady play with the flood sent at its start, from `group`."""
    web_port, metrics_port = ports
    people, ticket, deal, reveal, dealer = await flood_group(run, group, flood.members)
    members = {person["id"] for person in people}
    deal_id = deal.message_id
    pressed, data = deal_id, reveal
    if flood.press == "coach":  # the first member missed; the rest never answered
        pressed, data = await coached(run, group, deal_id, dealer, people[0])
    await idle(run.process)
    before = scrape(metrics_port)
    cpu = cpu_seconds(run.process)
    others = machine_cpu(run.process.pid)
    presses = len(run.emulator.callback_answers)
    inline = len(run.emulator.inline_answers)
    spec = {"port": web_port, "connections": CONNECTIONS,
            "requests": requests_of(flood, people, ticket, run.emulator.token,
                                     wrong_steps(deal))}
    began = time.perf_counter()
    client = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--client", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, preexec_fn=lowest_priority)
    assert client.stdin is not None
    client.stdin.write(json.dumps(spec).encode())
    client.stdin.close()
    for n in range(max(flood.presses, flood.inline)):  # ahead of the groups' own updates
        person = people[n % len(people)]
        if n < flood.presses:
            await run.emulator.press(group, pressed, person, data)
        if n < flood.inline:
            await run.emulator.inline_query(person, "8 3 8 3")
    played = await steady(run, ids, rate, 120)
    out, _ = await client.communicate()  # (its CPU: in its report)
    handed = [update["_delivered_at"] - began for update in run.emulator.updates_log
              if update.get("_delivered_at", 0) >= began and any(
                  isinstance(update.get(kind), dict) and update[kind]["from"]["id"] in members
                  for kind in ("callback_query", "inline_query"))]
    await idle(run.process)
    after = scrape(metrics_port)
    spent = {name: cpu_now - others[name]
             for name, cpu_now in machine_cpu(run.process.pid).items()}
    return Phase(played, cpu_seconds(run.process) - cpu, json.loads(out),
                 over_budget(after) - over_budget(before),
                 refused_http(after) - refused_http(before),
                 len(run.emulator.callback_answers) - presses,
                 len(run.emulator.inline_answers) - inline, spent,
                 where_time_went(before, after), max(handed, default=0.0))


async def quiet(run: Run, ids: list[int], rate: float, metrics_port: int) -> Phase:
    await idle(run.process)
    before = scrape(metrics_port)
    cpu = cpu_seconds(run.process)
    others = machine_cpu(run.process.pid)
    played = await steady(run, ids, rate, 120)
    await idle(run.process)
    spent = {name: cpu_now - others[name]
             for name, cpu_now in machine_cpu(run.process.pid).items()}
    return Phase(played, cpu_seconds(run.process) - cpu, others=spent,
                 timed=where_time_went(before, scrape(metrics_port)))


async def bench(args: argparse.Namespace) -> list[Load]:
    web_port, metrics_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as folder:
        profiled = {"BENCH_PROFILE": str(args.profile.resolve())} if args.profile else {}
        run = await start(False, args.workers, Path(folder), None,
                          WEBAPP_URL="https://flood.example/webapp/",
                          WEBAPP_SHORT_NAME=SHORT_NAME, WEBAPP_PORT=str(web_port),
                          METRICS_PORT=str(metrics_port), **profiled)
        try:
            assert (await burst(run, chats(0, 20), 60))["complete"]
            capacity = await burst(run, chats(100, args.chats), 120)
            loads = [await load(run, args, "half the burst's capacity", capacity["rate"] / 2, 0,
                                (web_port, metrics_port), capacity["rate"])]
            if args.paced:
                # the capacity the steady play itself shows: the rate that would keep the bot's
                # core busy all the time, at the quiet run's CPU a second of play
                quiet_run = loads[0].phases[0][1]
                share = quiet_run.cpu / quiet_run.steady["seconds"]
                loads.append(await load(run, args, "half the steady play's capacity",
                                        loads[0].rate / share / 2, 1, (web_port, metrics_port),
                                        capacity["rate"]))
        finally:
            if args.profile:  # the profile is written as the bot stops on SIGINT
                run.process.send_signal(signal.SIGINT)
                await run.process.wait()
                await run.emulator.stop()
            else:
                await stop(run)
    return loads


@dataclass
class Load:
    """A quiet run and the floods, all at one offered rate."""

    name: str
    rate: float
    phases: list[tuple[str, Phase, Flood | None]]
    capacity: float  # updates a second the bot's burst was measured to take


async def load(run: Run, args: argparse.Namespace, name: str, rate: float, number: int,
               ports: tuple[int, int], capacity: float) -> Load:
    """The quiet run, then each flood, each with groups (and a flood group) of its own; all of
    it `args.repeat` times in turn (a p99 of a few hundred updates is one slow moment: the
    quiet run's moved 7-32 ms from run to run here)."""
    phases: list[tuple[str, Phase, Flood | None]] = []
    runs = tuple(run_ for run_ in (("one", 1, 2000), ("fifty", 50, 3000))
                 if args.only in (None, run_[0]))
    for turn in range(args.repeat):
        base = 100_000 * number + 5_000 * turn
        phases.append(("quiet", await quiet(run, chats(base + 1000, args.chats), rate,
                                            ports[1]), None))
        for index, (label, members, first) in enumerate(runs, start=1):
            flood = Flood(members, *(round(n * args.scale) if kind in args.kinds else 0
                                     for kind, n in zip(KINDS, (6000, 2000, 2000, 2000),
                                                        strict=True)), press=args.press)
            group = FLOOD_GROUPS - 100 * number - 3 * turn - index
            phases.append((label, await flooded(run, chats(base + first, args.chats), rate,
                                                flood, group, ports), flood))
    return Load(name, rate, phases, capacity)


def turns(phases: list[tuple[str, Phase, Flood | None]]
          ) -> list[list[tuple[str, Phase, Flood | None]]]:
    """The phases cut into their turns, each starting with its quiet run."""
    found: list[list[tuple[str, Phase, Flood | None]]] = []
    for phase in phases:
        if phase[0] == "quiet":
            found.append([])
        found[-1].append(phase)
    return found


def summary(loaded: Load) -> None:
    """Over the turns: each flood's p99 against its own turn's quiet run, the median and the
    spread, and the refusals' p99 of each."""
    every = turns(loaded.phases)
    if len(every) < 2:
        return
    print(f"over {len(every)} turns (quiet, then each flood):")
    quiet_p99 = [turn[0][1].steady["p99"] * 1000 for turn in every]
    print(f"  quiet p99 ms: {', '.join(f'{p:.1f}' for p in quiet_p99)}")
    for label in [label for label, _, _ in every[0][1:]]:
        ratios, p99s, refusals, waits = [], [], [], []
        for turn in every:
            quiet_phase = turn[0][1]
            phase = next(p for name, p, _ in turn if name == label)
            p99s.append(phase.steady["p99"] * 1000)
            waits.append(backlog(loaded.rate, loaded.capacity, phase.drained)[1] * 1000)
            ratios.append(phase.steady["p99"] / quiet_phase.steady["p99"])
            if phase.flood["refusal_ms"]:
                refusals.append(percentile(phase.flood["refusal_ms"], 0.99))
        print(f"  {label}: p99 ms {', '.join(f'{p:.1f}' for p in p99s)}; against its turn's "
              f"quiet run {', '.join(f'{r:.2f}' for r in ratios)}x, median "
              f"{statistics.median(ratios):.2f}x (goal <= 1.5x, under 1 s); refusals' p99 ms "
              + (", ".join(f"{r:.1f}" for r in refusals) or "none")
              + f"; behind the flood at Telegram about {', '.join(f'{w:.0f}' for w in waits)} ms")


def report(loaded: Load, chats_count: int) -> None:
    every = turns(loaded.phases)
    for number, phases in enumerate(every, start=1):
        turn = f", turn {number} of {len(every)}" if len(every) > 1 else ""
        print(f"\n== {chats_count} groups at {loaded.name} ({loaded.rate:.0f} updates/s "
              f"offered{turn})")
        report_turn(phases, loaded.rate, loaded.capacity)
    summary(loaded)


def backlog(rate: float, capacity: float, drained: float) -> tuple[float, float]:
    """What Telegram's order alone costs the groups: the updates they sent while the flood's
    were being handed over (the offered rate times that read-through) reach the bot together
    after the flood's last, a burst, and the last of them waits for the others at the rate the
    bot's burst was measured to take them: (those updates, that wait in s). No budget moves it
    while the flood's updates come first; only a shorter read-through does."""
    behind = rate * drained
    return behind, behind / capacity


def report_turn(phases: list[tuple[str, Phase, Flood | None]], rate: float,
                capacity: float) -> None:
    quiet_phase = phases[0][1]
    print(f"{'run':<8}{'p50 ms':>9}{'p99 ms':>9}{'p99/quiet':>11}{'replies':>9}"
          f"{'bot CPU s':>11}")
    for label, phase, _ in phases:
        ratio = phase.steady["p99"] / quiet_phase.steady["p99"]
        print(f"{label:<8}{phase.steady['p50'] * 1000:>9.1f}{phase.steady['p99'] * 1000:>9.1f}"
              f"{ratio:>10.2f}x{'all' if phase.steady['complete'] else 'LOST':>9}"
              f"{phase.cpu:>11.2f}")
    # what "half the capacity" costs the bot when paced: the capacity is a burst's, whose
    # updates share trips and polls, so the steady play may keep the core busier than half
    print(f"the bot's core in the quiet run: {quiet_phase.cpu:.2f} s of CPU over "
          f"{quiet_phase.steady['seconds']:.2f} s of play "
          f"({100 * quiet_phase.cpu / quiet_phase.steady['seconds']:.0f} % of one core)")
    print("CPU s of the rest of the machine in each run (the flood's client apart): " + "; ".join(
        f"{label} " + ", ".join(f"{name} {cpu:.2f}" for name, cpu in phase.others.items())
        for label, phase, _ in phases))
    for label, phase, _ in phases:
        print(f"where the bot's time went, {label}: {phase.timed}")
    for label, phase, flood in phases[1:]:
        assert flood is not None
        statuses = phase.flood["statuses"]
        refusals = phase.flood["refusal_ms"]
        sent = flood.answers + flood.pages + flood.presses + flood.inline
        print(f"\nflood '{label}' ({flood.members} member{'s' if flood.members > 1 else ''}): "
              f"{flood.answers} answers, {flood.pages} pages and cards, {flood.presses} "
              f"presses, {flood.inline} inline queries, all at once")
        print(f"  HTTP: {', '.join(f'{n} x {s}' for s, n in sorted(statuses.items()))} "
              f"in {phase.flood['seconds']:.2f} s; refusals p50 "
              f"{percentile(refusals, 0.5):.1f} ms, p99 {percentile(refusals, 0.99):.1f} ms "
              f"(goal < 50); refused by the bot's count: {phase.refused_http:.0f}; the client's "
              f"CPU {phase.flood['cpu']:.2f} s")
        print(f"  served (200) by endpoint: "
              f"{', '.join(f'{n} {path}' for path, n in sorted(phase.flood['served'].items()))}")
        print(f"  updates dropped past a budget: {phase.dropped:.0f} of "
              f"{flood.presses + flood.inline} flood updates; presses answered "
              f"{phase.presses_answered}, inline queries answered {phase.inline_answered}")
        print(f"  the flood's updates handed to the bot within {phase.drained:.2f} s of its "
              "start: Telegram gives updates in order, so the groups' updates sent meanwhile "
              "wait behind them, then come at once")
        behind, wait = backlog(rate, capacity, phase.drained)
        print(f"  behind them: about {behind:.0f} of the groups' updates, handed over together; "
              f"at the burst's {capacity:.0f} a second the last waits about {wait * 1000:.0f} ms "
              f"({wait / quiet_phase.steady['p99']:.1f}x the quiet p99) for those before it")
        extra = phase.cpu - quiet_phase.cpu
        print(f"  the bot's CPU beyond the quiet run: {extra:.2f} s, "
              f"{extra * 1e6 / sent:.0f} us a flood request")


# --- the flood's own process ----------------------------------------------------------------

async def client(spec: dict) -> dict:
    """Send every request over `connections` kept-alive connections, each its next as soon as
    the last was answered; each request's status and time."""
    pending = list(reversed(spec["requests"]))
    statuses: dict[str, int] = {}
    served: dict[str, int] = {}  # 200s by endpoint
    refusal_ms: list[float] = []
    began = time.perf_counter()

    async def connection() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", spec["port"])
        try:
            while pending:
                asked = pending.pop()
                body = json.dumps(asked["body"]).encode()
                sent = time.perf_counter()
                writer.write(f"POST /webapp/api/{asked['path']} HTTP/1.1\r\nHost: bot\r\n"
                             f"Content-Type: application/json\r\nContent-Length: {len(body)}"
                             "\r\n\r\n".encode() + body)
                status = int((await reader.readline()).split()[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                await reader.readexactly(length)
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                if status == 200:
                    served[asked["path"]] = served.get(asked["path"], 0) + 1
                if status in (429, 503):
                    refusal_ms.append((time.perf_counter() - sent) * 1000)
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(spec["connections"])))
    return {"statuses": statuses, "served": served, "refusal_ms": refusal_ms,
            "seconds": time.perf_counter() - began, "cpu": sum(os.times()[:2])}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="the flood's size against the issue's (6,000 answers...)")
    parser.add_argument("--quick", action="store_true", help="50 groups, a tenth of the flood")
    parser.add_argument("--profile", type=Path,
                        help="the bot under cProfile, into FILE (with --only: that flood)")
    parser.add_argument("--kinds", type=lambda text: set(text.split(",")), default=set(KINDS),
                        help="the flood's parts, of " + ",".join(KINDS) + " (default: all)")
    parser.add_argument("--press", choices=("reveal", "coach"), default="reveal",
                        help="the button the presses press: Reveal under the flood group's "
                             "deal, or the coach's line under its result (for one who missed)")
    parser.add_argument("--only", choices=("one", "fifty"),
                        help="the quiet run and this flood alone")
    parser.add_argument("--paced", action=argparse.BooleanOptionalAction, default=True,
                        help="also run at half the capacity the steady play shows (its CPU "
                             "a second), beside half the burst's")
    parser.add_argument("--repeat", type=int, default=1,
                        help="the quiet run and the floods this many times in turn: each "
                             "flood's p99 against its own turn's quiet run, and the median")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        print(json.dumps(asyncio.run(client(json.loads(sys.stdin.read())))))
        return
    if args.quick:
        args.chats, args.scale = 50, 0.1
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # the emulator's 4xx lines
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    loads = asyncio.run(bench(args))
    for loaded in loads:
        report(loaded, args.chats)
    if args.profile:
        pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(25)
    print("\nload average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for loaded in loads:
        flooded_p99 = [p.steady["p99"] for label, p, _ in loaded.phases if label != "quiet"]
        print(f"median p99 of the flooded runs at {loaded.name}: "
              f"{statistics.median(flooded_p99) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
