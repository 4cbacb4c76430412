"""`python -m bot` that cannot work stops at once, with one line saying why and a non-zero exit
status, so that its supervisor (systemd's Restart=on-failure, Docker's restart policy) sees it.

Each case starts the real process against the Bot API emulator and waits (generously) for it to
exit; a process that hangs fails the test at the timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store.sqlite.database import BUSY_SECONDS
from demo.emulator import BotApiEmulator
from tests.conftest import ROOT

EXIT_WITHIN = 60.0  # seconds: a hang, not slowness, is what this catches


async def run_bot(env: dict[str, str], prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    """Run `python -m bot` with `env` (over a clean environment) and no terminal, behind the
    command `prefix`; its exit status and what it wrote."""
    base = {key: value for key, value in os.environ.items()
            if not key.startswith(("TELEGRAM_", "DATABASE_", "WEBHOOK_"))}
    process = await asyncio.create_subprocess_exec(
        *prefix, sys.executable, "-m", "bot", cwd=ROOT,
        env={**base, "SOLVER_WORKERS": "1", **env}, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), EXIT_WITHIN)
    except TimeoutError:
        process.kill()
        output, _ = await process.communicate()
        raise AssertionError("the bot did not exit:\n" + output.decode()) from None
    assert process.returncode is not None
    return process.returncode, output.decode()


def bot_env(telegram: BotApiEmulator, database: Path, **settings: str) -> dict[str, str]:
    return {"TELEGRAM_BOT_TOKEN": telegram.token, "TELEGRAM_BASE_URL": telegram.base_url,
            "DATABASE_PATH": str(database), "RATE_LIMIT": "off", **settings}


def assert_one_clear_line(output: str, *words: str) -> None:
    """A line names the problem (all of `words`), and no traceback is shown."""
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if all(w in line for w in words)]
    assert lines, f"no line with {words}:\n{output}"


async def test_a_file_that_is_not_sqlite(telegram: BotApiEmulator, tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    database.write_text("these are notes, not a database\n" * 200, encoding="utf-8")
    status, output = await run_bot(bot_env(telegram, database))
    assert status == 1
    assert_one_clear_line(output, "cannot open the database", str(database), "not a database")


async def test_a_locked_database(telegram: BotApiEmulator, tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as holder:
        holder.execute("CREATE TABLE t (x)")
        holder.execute("BEGIN EXCLUSIVE")  # held for the whole run of the bot
        status, output = await run_bot(bot_env(telegram, database))
        holder.execute("ROLLBACK")
    assert status == 1
    assert_one_clear_line(output, "cannot open the database", str(database), "locked")


async def test_a_folder_that_cannot_be_made(telegram: BotApiEmulator, tmp_path: Path):
    (tmp_path / "data").write_text("a file where the folder should be", encoding="utf-8")
    database = tmp_path / "data" / "bot.sqlite3"
    status, output = await run_bot(bot_env(telegram, database))
    assert status == 1
    assert_one_clear_line(output, "cannot open the database", str(database))


async def test_a_read_only_folder(telegram: BotApiEmulator, tmp_path: Path):
    """The database exists but nothing in its folder may be written (WAL needs to): a read-only
    mount for root, who writes anywhere else, and file modes for anyone else."""
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "bot.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as made:
        made.execute("CREATE TABLE t (x)")
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        if not _can_mount_read_only(folder):
            pytest.skip("root, and no read-only bind mount here (unshare -m)")
        prefix = ("unshare", "-m", "sh", "-c",
                  f'mount --bind -o ro "{folder}" "{folder}" && exec "$0" "$@"')
    else:
        database.chmod(0o444)
        folder.chmod(0o555)
    status, output = await run_bot(bot_env(telegram, database), prefix)
    folder.chmod(0o755)
    assert status == 1
    assert_one_clear_line(output, "cannot open the database", str(database), "read")


def _can_mount_read_only(folder: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    tried = subprocess.run(["unshare", "-m", "sh", "-c",
                            f'mount --bind -o ro "{folder}" "{folder}" && ! touch "{folder}/x"'],
                           capture_output=True, check=False)
    return tried.returncode == 0 and not (folder / "x").exists()


async def test_postgres_out_of_reach(telegram: BotApiEmulator, tmp_path: Path):
    url = "postgresql://bot:secret-password@127.0.0.1:9/twentyfour"  # port 9: nothing listens
    status, output = await run_bot(bot_env(telegram, tmp_path / "beat.sqlite3",
                                           DATABASE_URL=url))
    assert status == 1
    assert_one_clear_line(output, "cannot open the database", "127.0.0.1:9")
    assert "secret-password" not in output


async def test_no_token_and_no_terminal_is_an_error(tmp_path: Path):
    status, output = await run_bot({"DATABASE_PATH": str(tmp_path / "bot.sqlite3")})
    assert status == 2
    assert_one_clear_line(output, "TELEGRAM_BOT_TOKEN", "--demo")
    assert not (tmp_path / "bot.sqlite3").exists()  # the demo did not run


@pytest.mark.parametrize(("name", "value", "said"), [
    ("LOG_LEVEL", "verbose", "LOG_LEVEL"),
    ("RATE_LIMIT", "maybe", "RATE_LIMIT"),
    ("WEBHOOK_PORT", "70000", "WEBHOOK_PORT"),
    ("WEBHOOK_URL", "http://bot.example/telegram", "https"),
    ("WEBAPP_URL", "http://bot.example/webapp/", "https"),
    ("COUNTDOWN_SECONDS", "soon", "COUNTDOWN_SECONDS"),  # a game's own setting, read by play
])
async def test_a_bad_setting_is_one_line_and_exit_2(telegram: BotApiEmulator, tmp_path: Path,
                                                    name: str, value: str, said: str):
    status, output = await run_bot(bot_env(telegram, tmp_path / "bot.sqlite3", **{name: value}))
    assert status == 2
    assert_one_clear_line(output, said, value)
    assert len(output.strip().splitlines()) == 1, output
    assert not telegram.calls  # nothing was started


def test_no_token_at_a_terminal_is_still_the_demo(tmp_path: Path):
    """The other side of the exit 2 above: someone trying the bot at a terminal gets the demo."""
    leader, follower = pty.openpty()
    env = {key: value for key, value in os.environ.items() if not key.startswith("TELEGRAM_")}
    env.update(DATABASE_PATH=str(tmp_path / "demo.sqlite3"), SOLVER_WORKERS="1",
               PYTHONPATH=str(ROOT))
    with subprocess.Popen([sys.executable, "-m", "bot"], stdin=follower, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=tmp_path, env=env) as process:
        os.close(follower)
        os.write(leader, b"/solve 3 8 3 8\n\x04")  # a line, then end of input (Ctrl-D)
        out, err = process.communicate(timeout=EXIT_WITHIN)
    os.close(leader)
    assert process.returncode == 0, err.decode()
    assert "so this is the demo" in err.decode()
    assert "8÷(3−8÷3) = 24" in out.decode()  # /solve's one solution, as the demo prints it


@pytest.mark.slow
async def test_a_lock_held_past_the_busy_timeout_costs_no_move(telegram: BotApiEmulator, make_bot):
    """Another process holds the database's write lock longer than SQLite's 5 s wait while a
    player deals: the player hears "hold on" within seconds, and the bot claims the update and
    deals once the lock is gone, without the "something went wrong" it said before."""
    group, ann = -2001, {"id": 21, "is_bot": False, "first_name": "Ann"}
    bot = make_bot()
    await bot.start()
    telegram.chat(group)
    with contextlib.closing(sqlite3.connect(bot.database, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        await telegram.say(group, ann, "/play")
        await asyncio.sleep(BUSY_SECONDS + 2)  # past the bot's wait, within its retries
        other.execute("ROLLBACK")
    held = await telegram.reply(group, timeout=30)
    assert "hold on" in held.text
    deal = await telegram.reply(group, timeout=30)
    assert "24" in deal.text
    await asyncio.sleep(1)
    assert not any("went wrong" in sent.text for sent in telegram.sent)
    with contextlib.closing(sqlite3.connect(bot.database)) as database:
        assert database.execute("SELECT COUNT(*) FROM handled_updates").fetchone()[0] == 1
    assert "Traceback" not in bot.log.read_text()
