"""`make run` shows the Mini App (issue 27, item 5; issue 34, item 6; issue 55, item 5): after a
deal of every game the demo prints a local URL of the round's page, signed for the demo's speaker
as Telegram signs a Direct Link; the page's API there shows that round, and a solution posted as
taps wins it in the terminal like a typed one. After /stats and /top it prints the player's and
the group's pages the same way, and they open."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from solver import parse, solve
from solver.expr import BinOp, Expr, Num
from tests.demo.test_demo import DEAL, read_until, start, type_line

pytestmark = pytest.mark.slow
LINK = re.compile(r"Tap to solve\] in a browser: (http://127\.0\.0\.1:\d+/webapp/\S+)")
PAGE = re.compile(r"^  \[📊 [^]]+\] in a browser: (http://127\.0\.0\.1:\d+/webapp/\S+)$",
                  re.MULTILINE)


def opened(link: str) -> tuple[str, str, str]:
    """What a printed address hands the page: its base, the signed initData, the start
    parameter (a round's ticket, a page's u<id> or g<chat>)."""
    parts = urlsplit(link)
    fragment = parse_qs(parts.fragment)
    init_data = fragment["tgWebAppData"][0]
    start = fragment["tgWebAppStartParam"][0]
    assert parse_qs(init_data)["start_param"] == [start]  # signed with it, as Telegram does
    return link.split("#")[0].split("?")[0], init_data, start


def steps_of(expression: str, numbers: list[int]) -> list[list]:
    """The taps that build an expression's tree from the hand's tiles (a new tile goes last)."""
    leaves = [object() for _ in numbers]
    tiles: list[object] = list(leaves)
    free = dict(enumerate(numbers))
    steps: list[list] = []

    def build(node: Expr) -> object:
        if isinstance(node, Num):
            index = next(i for i, n in free.items() if n == node.value)
            del free[index]
            return leaves[index]
        assert isinstance(node, BinOp)
        left, right = build(node.left), build(node.right)
        i, j = tiles.index(left), tiles.index(right)
        steps.append([i, node.op, j])
        made = object()
        tiles[:] = [t for t in tiles if t is not left and t is not right] + [made]
        return made

    build(parse(expression))
    return steps


async def test_the_demo_prints_a_signed_page_that_wins(tmp_path):
    process = await start(tmp_path)
    try:
        await type_line(process, "/play")
        said = await read_until(process, LINK.pattern)
        hand = [int(n) for n in DEAL.findall(said)[-1]]
        base, init_data, ticket = opened(LINK.search(said).group(1))  # type: ignore[union-attr]
        async with httpx.AsyncClient(timeout=30) as client:
            assert (await client.get(base)).status_code == 200  # the page itself
            shown = (await client.post(base + "api/round", content=json.dumps(
                {"init_data": init_data, "round": ticket}))).json()
            numbers = shown["puzzle"]["tiles"]
            assert sorted(numbers) == sorted(hand) and shown["puzzle"]["target"] == 24
            judged = (await client.post(base + "api/answer", content=json.dumps(
                {"init_data": init_data, "round": ticket,
                 "steps": steps_of(solve(numbers)[0], numbers)}))).json()
        assert judged["right"], judged
        await read_until(process, r"✅ Ann")
        async with httpx.AsyncClient(timeout=30) as client:
            for command, kind in (("/countdown", "combine"), ("/yahtzee", "guess")):
                await type_line(process, command)
                found = LINK.search(await read_until(process, LINK.pattern))
                assert found is not None
                base, init_data, ticket = opened(found.group(1))
                response = await client.post(base + "api/round", content=json.dumps(
                    {"init_data": init_data, "round": ticket}))
                shown = response.json()  # a refusal has no "answer": its status and words said
                assert shown.get("answer", {}).get("kind") == kind, (response.status_code, shown)
                await type_line(process, "/reveal")
            for command, kind in (("/stats", "player"), ("/top", "group")):
                await type_line(process, command)
                found = PAGE.search(await read_until(process, PAGE.pattern))
                assert found is not None
                base, init_data, asked = opened(found.group(1))
                page = (await client.post(base + "api/page", content=json.dumps(
                    {"init_data": init_data, "page": asked}))).json()
                assert page["kind"] == kind and page["sections"], page
                if kind == "player":  # Ann's own page: her win above is on it
                    assert any(s["kind"] == "games" for s in page["sections"]), page
        await type_line(process, "/quit")
        assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
