"""The Mini App's page in a process of its own (bot/webapp/page_process.py, issue 70): a flood of
the page's requests is refused there and never reaches the bot's event loop, attacked the ways
around it — one person's signed flood, a forged flood in another's name, a flood through
another door first (typed messages: one budget for a person), the page's process killed or
paused, the bot killed (its page's process goes with it), a port already taken."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import httpx
import pytest
from telegram import Update

from bot.runtime import metrics
from bot.runtime.doors import PERSON, Doors
from bot.webapp.page_process import Relayed, Spec, counted, page_apart
from bot.webapp.relayed import answer_request
from demo.freezing import freeze
from demo.ports import free_port
from tests.bot.conftest import Harness
from tests.bot.webapp_support import ANN, BEN, GROUP, WRONG, deal_known, signed_for
from tests.waiting import until

pytestmark = pytest.mark.slow

BUDGET = (PERSON.rate, PERSON.burst, PERSON.at_once)


def spec(token: str, port: int = 0) -> Spec:
    return Spec(token, BUDGET, (30.0, 120.0, 64), port, "127.0.0.1", socket="")


@asynccontextmanager
async def apart(h: Harness, seen: list[bytes] | None = None) -> AsyncIterator[str]:
    """The harness's face behind the page's own process; yields the page's base URL. `seen`
    collects each request that reached the bot."""
    async def answer(data: bytes) -> bytes:
        if seen is not None:
            seen.append(data)
        return await answer_request(h.bot.face, data)

    async with page_apart(answer, spec(h.telegram.token)) as port:
        yield f"http://127.0.0.1:{port}/webapp/"


async def post(client: httpx.AsyncClient, base: str, path: str, body: dict) -> httpx.Response:
    return await client.post(base + path, content=json.dumps(body),
                             headers={"Content-Type": "application/json"})


def refused(budget: str) -> float:
    return metrics.REGISTRY.get_sample_value(
        "twentyfour_webapp_requests_refused_total", {"budget": budget}) or 0.0


async def test_a_round_is_shown_and_answered_through_the_page_s_process(harness: Harness):
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    anns = signed_for(ANN, current, harness.telegram.token)
    async with apart(harness) as base, httpx.AsyncClient(timeout=30) as client:
        assert (await client.get(base)).status_code == 200
        shown = await post(client, base, "api/round", {"init_data": anns, "round": ticket})
        assert shown.status_code == 200 and shown.json()["puzzle"]["tiles"] == [8, 3, 8, 3]
        judged = await post(client, base, "api/answer",
                            {"init_data": anns, "round": ticket, "steps": WRONG})
        assert judged.status_code == 200 and not judged.json()["right"]


async def test_a_flood_is_refused_in_the_page_s_process(harness: Harness):
    """Sixty of Ann's answers at once: the page's process lets her budget's worth through to
    the bot and refuses the rest itself (429, Retry-After, her words), counted in the bot's
    metrics; Ben still answers."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    anns = signed_for(ANN, current, harness.telegram.token)
    seen: list[bytes] = []
    before = refused("person")
    async with apart(harness, seen) as base, httpx.AsyncClient(timeout=30) as client:
        responses = await asyncio.gather(*(
            post(client, base, "api/answer", {"init_data": anns, "round": ticket,
                                              "steps": WRONG}) for _ in range(60)))
        statuses = [r.status_code for r in responses]
        assert statuses.count(200) + statuses.count(429) == 60
        assert len(seen) <= PERSON.burst + PERSON.rate * 30  # the test's time refills a little
        assert statuses.count(429) >= 60 - len(seen)
        late = next(r for r in responses if r.status_code == 429)
        assert int(late.headers["Retry-After"]) >= 1
        assert late.json()["said"] == "Slow down a little."
        bens = signed_for(BEN, current, harness.telegram.token)
        ben = await post(client, base, "api/answer",
                         {"init_data": bens, "round": ticket, "steps": WRONG})
        assert ben.status_code == 200
        await until(lambda: refused("person") - before >= statuses.count(429),
                    "the page's process's refusals counted in the bot's metrics")


async def test_a_forged_flood_never_reaches_the_bot(harness: Harness):
    """Answers in Ann's name signed with another token: refused by the page's process (403),
    not one handed to the bot."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    forged = signed_for(ANN, current, "123:not-the-bot-s")
    seen: list[bytes] = []
    async with apart(harness, seen) as base, httpx.AsyncClient(timeout=30) as client:
        responses = await asyncio.gather(*(
            post(client, base, "api/answer", {"init_data": forged, "round": ticket,
                                              "steps": WRONG}) for _ in range(30)))
        assert {r.status_code for r in responses} == {403}
        assert seen == []
        real = signed_for(ANN, current, harness.telegram.token)  # her own budget is whole
        shown = await post(client, base, "api/round", {"init_data": real, "round": ticket})
        assert shown.status_code == 200


async def test_one_budget_for_a_person_through_the_page_s_process(harness: Harness):
    """Ann spends her budget on messages in another group: the page's process admits her
    request (its own budget of her is whole), the bot refuses it past the budget her messages
    spent (429 and Retry-After, through the page's process); Ben is answered."""
    shared = Doors(clock=lambda: 0.0)  # nothing refills while the test runs
    harness.bot.face.doors = shared
    harness.app.update_processor.doors = shared
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    for number in range(int(PERSON.burst) + 5):
        message = await harness.telegram.say(GROUP - 1, ANN, f"hello {number}")
        await harness.app.update_queue.put(Update.de_json(
            {"update_id": 10_000 + number, "message": message}, harness.app.bot))
        await until(lambda: harness.app.update_queue.in_hand == 0, "every update handled")
    assert shared.refusals == 5
    anns = signed_for(ANN, current, harness.telegram.token)
    async with apart(harness) as base, httpx.AsyncClient(timeout=30) as client:
        response = await post(client, base, "api/round", {"init_data": anns, "round": ticket})
        assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
        bens = signed_for(BEN, current, harness.telegram.token)
        response = await post(client, base, "api/round", {"init_data": bens, "round": ticket})
        assert response.status_code == 200


async def test_the_page_s_process_is_started_again_when_killed(harness: Harness):
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    anns = signed_for(ANN, current, harness.telegram.token)

    async def answer(data: bytes) -> bytes:
        return await answer_request(harness.bot.face, data)

    async with page_apart(answer, spec(harness.telegram.token)) as port:
        base = f"http://127.0.0.1:{port}/webapp/"
        first = child_of(os.getpid())
        os.kill(first, signal.SIGKILL)
        await until(lambda: child_of(os.getpid(), not_=first) is not None,
                    "a new page's process", timeout=60)

        async def shown() -> bool:
            try:
                async with httpx.AsyncClient(timeout=5) as client:
                    response = await post(client, base, "api/round",
                                          {"init_data": anns, "round": ticket})
                return response.status_code == 200
            except httpx.TransportError:
                return False
        await until(shown, "the round shown again on the same port", timeout=60)


async def test_a_paused_page_s_process_holds_no_round_up(harness: Harness):
    """The page's process runs only on idle cores (SCHED_IDLE), and paused (SIGSTOP: what a
    starved one looks like) it holds nothing of the bot's: a group's round is dealt meanwhile,
    and the page answers again once it runs."""
    async with apart(harness) as base, httpx.AsyncClient(timeout=30) as client:
        page = child_of(os.getpid())
        assert page is not None and os.sched_getscheduler(page) == os.SCHED_IDLE
        freeze(page)
        try:
            current = await asyncio.wait_for(deal_known(harness), 30)
        finally:
            os.kill(page, signal.SIGCONT)
        anns = signed_for(ANN, current, harness.telegram.token)
        shown = await post(client, base, "api/round",
                           {"init_data": anns, "round": f"{GROUP}_0_{current.id}"})
        assert shown.status_code == 200 and shown.json()["puzzle"]["tiles"] == [8, 3, 8, 3]


async def test_the_page_s_process_goes_with_a_killed_bot(tmp_path):
    """The bot killed (SIGKILL: nothing of it runs after): its page's process sees its stdin
    close and stops, and its port is free."""
    port = free_port()
    script = textwrap.dedent(f"""
        import asyncio
        from bot.webapp.page_process import Spec, page_apart

        async def answer(data):
            return b'{{"ok":{{}}}}'

        async def main():
            spec = Spec("1:t", (5.0, 20.0, 12), (30.0, 120.0, 64), {port}, "127.0.0.1", "")
            async with page_apart(answer, spec):
                print("up", flush=True)
                await asyncio.sleep(3600)

        asyncio.run(main())
    """)
    bot = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                           cwd=os.getcwd())
    try:
        assert bot.stdout is not None
        assert bot.stdout.readline() == b"up\n"
        page = child_of(bot.pid)
        assert page is not None
        bot.kill()
        bot.wait()
        await until(lambda: not alive(page), "the page's process gone with the bot", timeout=30)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", port))  # free again
    finally:
        bot.kill()


async def test_a_port_already_taken_is_said(harness: Harness):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError, match=f"127.0.0.1:{port}"):
            async with page_apart(partial(answer_request, harness.bot.face),
                                  spec(harness.telegram.token, port)):
                pass


async def test_the_bot_s_end_takes_nothing_but_lines_it_knows():
    """A tally that is not one is logged and counts nothing; a relayed request that fails is
    not answered (the page's process says "try again" when its wait ends)."""
    before = refused("person")
    counted(b"not json")
    counted(b'{"person": "many", "door": -3}')
    counted(b'["person"]')
    assert refused("person") == before
    counted(b'{"person": 2}')
    assert refused("person") == before + 2

    async def failing(data: bytes) -> bytes:
        raise RuntimeError("no")

    relayed = Relayed(failing)
    reader = asyncio.StreamReader()
    reader.feed_data(b"7 {}\n")
    reader.feed_eof()
    written: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            written.append(data)

        def is_closing(self) -> bool:
            return False

        def close(self) -> None:
            pass

    await relayed.serve(reader, Writer())  # type: ignore[arg-type]
    await asyncio.gather(*relayed.tasks, return_exceptions=True)
    assert written == []


def child_of(pid: int, not_: int | None = None) -> int | None:
    """A child process of `pid` running the page (from /proc), other than `not_`."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == not_:
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if int(fields[1]) == pid and b"bot.webapp.page_process" in command and fields[0] != "Z":
            return int(entry)
    return None


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

