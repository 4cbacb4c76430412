"""`together` (bot/runtime/together.py): side by side, results in order, one awaited as it is,
an error raised once every other ended."""

from __future__ import annotations

import asyncio

import pytest

from bot.runtime.together import together


async def test_side_by_side_and_in_their_order():
    began: list[int] = []

    async def after(n: int, seconds: float) -> int:
        began.append(n)
        await asyncio.sleep(seconds)
        return n

    assert await together([after(1, 0.03), after(2, 0.0), after(3, 0.01)]) == [1, 2, 3]
    assert began == [1, 2, 3]


async def test_one_is_awaited_in_its_caller_s_task_and_none_is_nothing():
    caller = asyncio.current_task()

    async def which() -> asyncio.Task | None:
        return asyncio.current_task()

    assert await together([which()]) == [caller]  # no task made for it
    assert await together([]) == []


async def test_an_error_is_raised_once_the_others_ended():
    ended: list[str] = []

    async def slow() -> str:
        await asyncio.sleep(0.03)
        ended.append("slow")
        return "slow"

    async def failing() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await together([failing(), slow()])
    assert ended == ["slow"]
