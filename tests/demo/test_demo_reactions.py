"""The demo shows how the bot marks a wrong typed attempt: in the deal's own status line,
edited in place, never answered with a message of its own."""

from __future__ import annotations

from pathlib import Path

from tests.demo.test_demo import demo, finish, play, read_until, type_line


async def test_a_wrong_typed_attempt_shows_in_the_deals_status(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        hand = await play(process)
        sign = "+" if sum(hand) != 24 else "*"
        await type_line(process, "/user Ben")
        await type_line(process, sign.join(map(str, hand)))
        shown = await read_until(process, r"^  👎 Ben: ")
        written = sign.join(map(str, hand)).replace("*", "×")
        assert "Twenty-Four (edited): " in shown and f"👎 Ben: {written} = " in shown
        assert "Twenty-Four to Ben" not in shown
        await type_line(process, "/quit")
        returncode, _, err = await finish(process)
    assert returncode == 0, err
