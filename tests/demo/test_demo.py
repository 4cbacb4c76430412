"""The demo (`python -m bot --demo`, or no token): a subprocess fed on standard input, as a person
or a script would; loopback only, every wait bounded."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from solver import solve
from tests.conftest import ROOT

TIMEOUT = 60.0
DEAL = re.compile(r"^Twenty-Four: (\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)


def demo_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TELEGRAM_") and k not in ("LOG_LEVEL", "ROUND_SECONDS")}
    env.update(DATABASE_PATH=str(tmp_path / "demo.sqlite3"), SOLVER_WORKERS="1",
               PYTHONPATH=str(ROOT), **extra)
    return env


def run(tmp_path: Path, script: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m bot ARGS` with the script piped in; run in tmp_path, so no .env is read."""
    return subprocess.run([sys.executable, "-m", "bot", *args], input=script, text=True,
                          capture_output=True, cwd=tmp_path, env=demo_env(tmp_path, **env),
                          timeout=TIMEOUT)


async def start(tmp_path: Path, *args: str, **env: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--demo", *args, cwd=tmp_path, env=demo_env(tmp_path, **env),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def type_line(process: asyncio.subprocess.Process, line: str) -> None:
    assert process.stdin is not None
    process.stdin.write(f"{line}\n".encode())
    await process.stdin.drain()


async def read_until(process: asyncio.subprocess.Process, pattern: str) -> str:
    """Output up to the first line matching `pattern`, or fail after TIMEOUT seconds."""
    assert process.stdout is not None
    seen: list[str] = []

    async def read() -> str:
        while True:
            line = (await process.stdout.readline()).decode()  # type: ignore[union-attr]
            assert line, "the demo ended early:\n" + "".join(seen)
            seen.append(line)
            if re.search(pattern, line):
                return "".join(seen)

    return await asyncio.wait_for(read(), TIMEOUT)


async def finish(process: asyncio.subprocess.Process) -> tuple[int, str, str]:
    out, err = await asyncio.wait_for(process.communicate(), TIMEOUT)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@contextlib.asynccontextmanager
async def demo(tmp_path: Path, *args: str,
               **env: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """The demo as a process typed into (`env`: settings added); killed at the end if the
    test did not end it."""
    process = await start(tmp_path, *args, **env)
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def play(process: asyncio.subprocess.Process) -> list[int]:
    """Type /play; the hand dealt."""
    await type_line(process, "/play")
    match = DEAL.search(await read_until(process, DEAL.pattern))
    assert match is not None
    return [int(n) for n in match.groups()]


def test_piped_script_plays_solves_and_ends_at_end_of_input(tmp_path: Path):
    done = run(tmp_path, "/play\n/solve 3 8 3 8\n/user Bob\n/stats\n", "--demo", "--user", "Ann")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Ann: /play\n")
    assert DEAL.search(out) and "Make 24" in out  # the deal: four numbers, then the rules
    # in a group, seen by the asker alone; the one solution, sent as a mathematical block, on
    # its own indented line as a person writes it (no LaTeX, no backslash: issue 73)
    assert "Ann: /solve 3 8 3 8\nTwenty-Four to Ann (only Ann sees this): 3 8 3 8 → 24" in out
    assert "\n    8÷(3−8÷3) = 24\n" in out and "\\" not in out
    assert "(Bob speaks now)\nBob: /stats\nTwenty-Four to Bob (only Bob sees this): " in out
    assert not re.search(r"</?(b|i|code)>|&(lt|gt|amp);|\x1b", out)  # rendered, no colours
    assert "Traceback" not in done.stderr
    assert (tmp_path / "demo.sqlite3").is_file()


def test_without_a_token_and_a_terminal_it_says_how_to_start(tmp_path: Path):
    """Under a supervisor (no terminal) a missing token is a mistake, not a wish for the demo:
    exit 2 and say how to set it, never a silent demo that exits 0 and restarts forever."""
    done = run(tmp_path, "/solve 3 8 3 8\n")
    assert done.returncode == 2
    assert "TELEGRAM_BOT_TOKEN" in done.stderr and "make run ARGS=--demo" in done.stderr
    # the exact command that runs the demo with this very interpreter (issue 73: a bare
    # `python -m bot --demo` failed outside the project's environment)
    assert f"`{sys.executable} -m bot --demo`" in done.stderr
    assert "8÷(3−8÷3)" not in done.stdout and "\\frac" not in done.stdout


def test_piped_input_with_the_demo_flag_plays(tmp_path: Path):
    done = run(tmp_path, "/solve 3 8 3 8\n/lang fa\n/solve 3 8 3 8\n", "--demo")
    assert done.returncode == 0, done.stderr
    assert "8÷(3−8÷3) = 24" in done.stdout and "\\frac" not in done.stdout
    assert "۸÷(۳−۸÷۳) = ۲۴" in done.stdout  # in Persian, Persian digits, as the line above


def test_user_flag_needs_the_demo_when_a_token_is_set(tmp_path: Path):
    done = run(tmp_path, "", "--user", "Bob", TELEGRAM_BOT_TOKEN="123:abc")
    assert done.returncode == 2 and "--demo" in done.stderr and "123:abc" not in done.stderr


async def test_two_players_race_and_quit_ends_without_end_of_input(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        hand = await play(process)
        await type_line(process, "/user Ben & Co")
        wrong_sign = "+" if sum(hand) != 24 else "*"  # no hand makes 24 both ways
        await type_line(process, f"/a {wrong_sign.join(map(str, hand))}")
        wrong = await read_until(process, r"^  👎 Ben & Co: ")  # the deal's status, edited
        shown = wrong_sign.join(map(str, hand)).replace("*", "×")
        assert "Twenty-Four (edited): " in wrong and f"👎 Ben & Co: {shown} = " in wrong
        await type_line(process, "/user Ann")
        await type_line(process, solve(hand)[0])  # just typed, as the deal says
        assert "Ann wins" in await read_until(process, "^Twenty-Four to Ann: ")
        await type_line(process, "/quit")
        await type_line(process, "/solve 1 2 3 4")  # after /quit: never sent
        returncode, out, err = await finish(process)  # stdin still open
    assert returncode == 0, err
    assert "1 2 3 4" not in out and "Traceback" not in err


@pytest.mark.slow
async def test_round_timeout_is_shown_while_nobody_types(tmp_path: Path):
    process = await start(tmp_path, ROUND_SECONDS="1")
    try:
        await type_line(process, "/play")
        shown = await read_until(process, "Time is up")
        assert DEAL.search(shown)
        assert process.stdin is not None
        process.stdin.close()
        returncode, _, err = await finish(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert returncode == 0, err


def test_an_installation_without_the_demo_says_so(tmp_path: Path):
    """The demo lives beside the package, not in it: where it is not (an image installs bot/ and
    solver/ alone), `--demo` says where it is, in one line, and exits 2 without a traceback."""
    env = demo_env(tmp_path)
    env.pop("PYTHONPATH")
    done = subprocess.run([sys.executable, "-m", "bot", "--demo"], input="/quit\n", text=True,
                          capture_output=True, cwd=tmp_path, env=env, timeout=TIMEOUT)
    assert done.returncode == 2, done.stderr
    assert "the demo is not installed here" in done.stderr and "make run" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
