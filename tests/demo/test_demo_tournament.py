"""A tournament through the demo (`python -m bot --demo`): made in the demo's group, joined from
a second group (`/group Blue`), four rounds of the same hand in both, a board after each and the
podium at the end. On SQLite here; tests/postgres/test_demo_on_postgres.py plays it into
PostgreSQL."""

from __future__ import annotations

import re
from pathlib import Path

from solver import solve
from tests.demo.test_demo import finish, read_until, start, type_line

ROUNDS = 4  # the first, the middle ones and the last: each round's path, at a third the time
DEALT = re.compile(r"^Twenty-Four(?: in [^:]+)?: (\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)


async def play_a_tournament(tmp_path: Path, **env: str) -> str:
    """The whole tournament typed into the demo; everything it printed."""
    process = await start(tmp_path, "--user", "Ann", TOURNAMENT_PAUSE="1", **env)
    try:
        await type_line(process, f"/tournament new Demo Cup rounds={ROUNDS} seconds=60")
        out = await read_until(process, r"Code: ")
        code = re.search(r"Code: ([A-Z0-9]{6})", out)
        assert code is not None, out
        out += await read_until(process, r"\[.*Join with another group")
        await type_line(process, "/user Ben")
        await type_line(process, "/group Blue")  # a new group: Ben its creator
        await type_line(process, f"/tournament join {code.group(1)}")
        out += await read_until(process, r"This group joined Demo Cup \(2 groups so far\)")
        await type_line(process, "/group Twenty-Four demo")
        await type_line(process, "/user Ann")
        await type_line(process, "/tournament start")
        out += await read_until(process, r"starts now, with 2 groups")
        for number in range(1, ROUNDS + 1):
            out += await read_until(process, rf"round {number} of {ROUNDS}, the same hand")
            out += await read_until(process, rf"round {number} of {ROUNDS}, the same hand")
            hands = DEALT.findall(out)[-2:]
            assert hands[0] == hands[1], hands  # the same hand in both groups
            answer = solve(tuple(int(n) for n in hands[0]))[0]
            await type_line(process, f"/a {answer}")
            out += await read_until(process, r"Ann solves it in")
            await type_line(process, "/group Blue")
            await type_line(process, "/user Ben")
            await type_line(process, f"/a {answer}")
            out += await read_until(process, r"Ben solves it in")
            for _ in range(2):  # the board, in each group (the last: with the podium)
                out += await read_until(process, rf"round {number} of {ROUNDS} is over in "
                                                 "every group" if number < ROUNDS else
                                        r"Demo Cup is over\. Thank you for playing!")
            await type_line(process, "/group Twenty-Four demo")
            await type_line(process, "/user Ann")
        await type_line(process, "/quit")
        returncode, rest, err = await finish(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert returncode == 0, err
    assert "Traceback" not in err
    return out + rest


def check_the_tournament(out: str) -> None:
    """Every round, a board after each in each group, and the podium: Ann first (her group's
    rounds were dealt to her first, and she answered first), Ben second."""
    assert len(re.findall(r"is over in every group", out)) == 2 * ROUNDS
    assert len(re.findall(r"Next round in 1 s\.", out)) == 2 * (ROUNDS - 1)
    assert len(re.findall(r"🏁 The podium — players:", out)) == 2
    assert re.search(r"🥇 Ann \(Twenty-Four demo\) — \d+ points", out)
    assert re.search(r"🥈 Ben \(Blue\) — \d+ points", out)
    assert "Twenty-Four in Blue: " in out  # a group's messages shown while another speaks


async def test_a_tournament_between_two_demo_groups(tmp_path: Path):
    check_the_tournament(await play_a_tournament(tmp_path))
    assert (tmp_path / "demo.sqlite3").is_file()
