"""`make run` shows the Mini App (issue 27, item 5; issue 34, item 6): after a deal of every game
the demo prints a local URL of the round's page, signed for the demo's speaker; the page's API
there shows that round, and a solution posted as taps wins it in the terminal like a typed
one."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, unquote, urlsplit

import httpx
import pytest

from solver import parse, solve
from solver.expr import BinOp, Expr, Num
from tests.demo.test_demo import DEAL, read_until, start, type_line

pytestmark = pytest.mark.slow
LINK = re.compile(r"tap to solve in a browser: (http://127\.0\.0\.1:\d+/webapp/\S+)")


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
        link = LINK.search(said).group(1)  # type: ignore[union-attr]
        parts = urlsplit(link)
        ticket = parse_qs(parts.query)["round"][0]
        init_data = unquote(parts.fragment.removeprefix("tgWebAppData="))
        base = link.split("?")[0]
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
                link = found.group(1)
                parts = urlsplit(link)
                shown = (await client.post(link.split("?")[0] + "api/round", content=json.dumps(
                    {"init_data": unquote(parts.fragment.removeprefix("tgWebAppData=")),
                     "round": parse_qs(parts.query)["round"][0]}))).json()
                assert shown["answer"]["kind"] == kind, shown
                await type_line(process, "/reveal")
        await type_line(process, "/quit")
        assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
