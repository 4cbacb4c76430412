"""The demo shows the bot's reactions: a wrong typed attempt is marked, not answered in words."""

from __future__ import annotations

from pathlib import Path

from tests.demo.test_demo import demo, finish, play, read_until, type_line


async def test_a_wrong_typed_attempt_shows_as_a_reaction(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        hand = await play(process)
        sign = "+" if sum(hand) != 24 else "*"
        await type_line(process, "/user Ben")
        await type_line(process, sign.join(map(str, hand)))
        shown = await read_until(process, r"^\(Twenty-Four reacts ")
        assert f"reacts 👎 to Ben's \"{sign.join(map(str, hand))}\")" in shown
        assert "Twenty-Four to Ben" not in shown
        await type_line(process, "/quit")
        returncode, _, err = await finish(process)
    assert returncode == 0, err
