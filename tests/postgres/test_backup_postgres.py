"""Backups and restores of PostgreSQL on a real server (bot.runtime.backup): `pg_dump -Fc` of a
database a running bot plays in, put back with every score and the open round; the password
only in the tools' environment, never on their command lines; no `.partial` file left behind;
and no restore while a bot process holds the database, running or frozen with SIGSTOP, while
one killed with SIGKILL holds nothing.

The database belongs to a role that must give its password (scram-sha-256 over TCP), so a
password that does not reach the tools fails the test. The tools on PATH are recorders that
write down their command line and environment, then run the server's own binaries."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from bench.bench_failover import Replica, score_mismatches
from bot.__main__ import LOST_LEAD
from bot.runtime.backup import (
    DUMP_SUFFIX,
    PREFIX,
    RESTORE_BEGIN,
    RESTORE_END,
    BackupError,
    backup_postgres,
    restore_postgres,
)
from bot.store.postgres import PostgresLeader
from demo.emulator import BotApiEmulator
from solver import solve
from tests.conftest import ROOT
from tests.e2e.test_bot_process import ANN, GROUP, hand_of
from tests.fake_telegram import telegram as telegram
from tests.postgres import PostgresServer, admin
from tests.postgres import postgres_server as postgres_server

PASSWORD = "pw-Never-In-Argv-7f3a"
_owners = itertools.count(1)
RECORDER = """#!{python}
import json, os, sys
tool = os.path.basename(sys.argv[0])
with open(os.environ["TOOL_RECORD"], "a", encoding="utf-8") as record:
    with open("/proc/self/cmdline", "rb") as cmdline:
        line = cmdline.read().decode(errors="replace")
    record.write(json.dumps({{"tool": tool, "argv": sys.argv[1:], "cmdline": line,
                              "password": os.environ.get("PGPASSWORD")}}) + "\\n")
if os.environ.get("TOOL_FAILS") == tool:  # half a file written, then the connection lost
    for argument in sys.argv[1:]:
        if argument.startswith("--file="):
            with open(argument[len("--file="):], "wb") as half:
                half.write(b"PGDMP half a dump")
    sys.stderr.write(tool + ": error: the connection to the server was lost\\n")
    sys.exit(1)
os.execv({real!r}, [{real!r}, *sys.argv[1:]])
"""


async def guarded_database(server: PostgresServer) -> str:
    """The URL (with its password) of a new database owned by a new role that must give its
    password over TCP."""
    number = next(_owners)
    owner, name = f"keeper_{number}", f"kept_{number}"
    await admin(server, f"CREATE ROLE {owner} LOGIN PASSWORD '{PASSWORD}'",
                f"CREATE DATABASE {name} OWNER {owner}")
    rules = server.folder / "data" / "pg_hba.conf"
    rules.write_text(f"host {name} {owner} 127.0.0.1/32 scram-sha-256\n" + rules.read_text())
    await admin(server, "SELECT pg_reload_conf()")
    without = f"postgresql://{owner}@127.0.0.1:{server.port}/{name}"
    deadline = time.monotonic() + 30
    while True:  # the server reads its rules again in a moment: wait until they hold
        try:
            connection = await asyncpg.connect(without)
        except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError):
            break
        await connection.close()
        assert time.monotonic() < deadline, "the password rule never took hold"
        await asyncio.sleep(0.05)
    return f"postgresql://{owner}:{PASSWORD}@127.0.0.1:{server.port}/{name}"


@pytest.fixture
def tools(postgres_server: PostgresServer, tmp_path: Path) -> Path:
    """A folder of recorders standing for pg_dump, pg_restore and psql, first on PATH."""
    folder = tmp_path / "tools"
    folder.mkdir()
    for tool in ("pg_dump", "pg_restore", "psql"):
        recorder = folder / tool
        recorder.write_text(RECORDER.format(python=sys.executable,
                                            real=str(postgres_server.binaries / tool)))
        recorder.chmod(0o755)
    return folder


def tool_env(tools: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}",
            "TOOL_RECORD": str(tools / "record.jsonl"),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                        os.environ.get("PYTHONPATH")])),
            **extra}


def recorded(tools: Path) -> list[dict]:
    path = tools / "record.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def command(tools: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot.runtime.backup ARGS` as the timer and the operator run it."""
    return subprocess.run([sys.executable, "-m", "bot.runtime.backup", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env=tool_env(tools, **env))


async def fetch(url: str, sql: str) -> list[tuple]:
    connection = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await connection.fetch(sql)]
    finally:
        await connection.close()


async def scores(url: str) -> list[tuple]:
    return await fetch(url, "SELECT * FROM scores ORDER BY chat_id, user_id, game")


async def sessions_of(url: str, pid: int) -> int:
    [(count,)] = await fetch(url, "SELECT COUNT(*) FROM pg_stat_activity "
                                  f"WHERE application_name LIKE 'twentyfour/{pid}%'")
    return int(count)


async def until_gone(url: str, pid: int) -> None:
    """Wait until the server has ended every session of the process (it notices a closed
    socket at once, but not within the same instant)."""
    deadline = time.monotonic() + 30
    while await sessions_of(url, pid):
        assert time.monotonic() < deadline, f"process {pid}'s sessions stayed"
        await asyncio.sleep(0.05)


async def win_a_round(telegram: BotApiEmulator) -> None:
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
    await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
    assert "Ann wins" in (await telegram.reply(GROUP, timeout=30)).text


def no_password_anywhere(calls: list[dict]) -> None:
    assert calls
    for call in calls:
        assert PASSWORD not in " ".join(call["argv"]) and PASSWORD not in call["cmdline"], call
        assert call["password"] == PASSWORD, call  # given in the environment instead


@pytest.mark.slow
async def test_a_backup_mid_play_restores_every_score(telegram, postgres_server, tools,
                                                     tmp_path):
    url = await guarded_database(postgres_server)
    bot = Replica(telegram, tmp_path, "a", url, 120.0)
    try:
        await bot.start()
        telegram.chat(GROUP)
        for _ in range(2):
            await win_a_round(telegram)
        await telegram.say(GROUP, ANN, "/play")  # and one round left on: mid-play
        hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
        kept = await scores(url)
        assert kept and kept[0][3] > 0  # points
        backups = tmp_path / "backups"
        done = await asyncio.to_thread(command, tools, DATABASE_URL=url,
                                       BACKUP_DIR=str(backups))
        assert done.returncode == 0, done.stderr
        [made] = list(backups.iterdir())  # the dump alone: no .partial left
        assert made.name.startswith(PREFIX) and made.name.endswith(DUMP_SUFFIX)
        [dump] = recorded(tools)
        assert dump["tool"] == "pg_dump" and "--format=custom" in dump["argv"]
        no_password_anywhere([dump])

        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")  # play goes on after it
        assert "Ann wins" in (await telegram.reply(GROUP, timeout=30)).text
        later = await scores(url)
        assert later != kept
        done = await asyncio.to_thread(command, tools, "restore", str(made), DATABASE_URL=url)
        assert done.returncode == 2 and "stop every bot" in done.stderr, done.stderr
        assert bot.process is not None and f"twentyfour/{bot.process.pid}" in done.stderr
        assert await scores(url) == later  # refused: nothing changed

        await bot.stop()
        await asyncpg_execute(url, "CREATE TABLE made_after_the_backup (x integer)")
        [(epoch_before,)] = await fetch(url, "SELECT epoch FROM leader_lease")
        done = await asyncio.to_thread(command, tools, "restore", str(made), DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
        no_password_anywhere(recorded(tools)[1:])
        assert {call["tool"] for call in recorded(tools)[1:]} == {"pg_restore", "psql"}
        assert await scores(url) == kept
        assert await fetch(url, "SELECT COUNT(*) FROM rounds WHERE status = 'open'") == [(1,)]
        assert await fetch(url, "SELECT to_regclass('made_after_the_backup')") == [(None,)]
        connection = await asyncpg.connect(url)
        try:
            assert await score_mismatches(connection) == []
            lease = await connection.fetchrow("SELECT epoch, expires_at < now() AS ended "
                                              "FROM leader_lease")
        finally:
            await connection.close()
        assert lease["epoch"] > epoch_before and lease["ended"]  # a new epoch, ended

        await bot.start()  # the bot comes back to the restored round
        await telegram.say(GROUP, ANN, "/play")
        assert "A round of 24 is on" in (await telegram.reply(GROUP, timeout=30)).text
    finally:
        await bot.stop()


async def asyncpg_execute(url: str, sql: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.mark.slow
async def test_a_frozen_bot_keeps_its_database_from_a_restore(telegram, postgres_server, tools,
                                                             tmp_path, monkeypatch):
    """Issue 35's attack on PostgreSQL: a leader frozen past its lease has no lease left, but
    its session still holds the database, so the restore is refused; woken, it exits 3 and
    the restore goes ahead. A process killed with SIGKILL holds nothing."""
    url = await guarded_database(postgres_server)
    monkeypatch.setenv("PATH", tool_env(tools)["PATH"])
    monkeypatch.setenv("TOOL_RECORD", str(tools / "record.jsonl"))
    bot = Replica(telegram, tmp_path, "a", url, 120.0)
    try:
        await bot.start()
        telegram.chat(GROUP)
        await win_a_round(telegram)
        made = await asyncio.to_thread(backup_postgres, url, tmp_path / "backups")
        await win_a_round(telegram)
        assert bot.process is not None
        frozen = bot.process.pid
        bot.signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 30
            while await fetch(url, "SELECT expires_at > now() FROM leader_lease") != [(False,)]:
                assert time.monotonic() < deadline, "the frozen leader's lease never ran out"
                await asyncio.sleep(0.1)
            done = await asyncio.to_thread(command, tools, "restore", str(made),
                                           DATABASE_URL=url)
            assert done.returncode == 2, done.stdout + done.stderr
            assert f"twentyfour/{frozen} lease" in done.stderr and "stop every bot" in done.stderr
            assert await fetch(url, "SELECT COUNT(*) FROM rounds WHERE status = 'won'") == [(2,)]
        finally:
            bot.signal(signal.SIGCONT)
        assert await asyncio.wait_for(bot.process.wait(), 30) == LOST_LEAD
        await until_gone(url, frozen)
        done = await asyncio.to_thread(command, tools, "restore", str(made), DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
        assert await fetch(url, "SELECT COUNT(*) FROM rounds WHERE status = 'won'") == [(1,)]

        await bot.start()
        killed = bot.process.pid
        await bot.kill()
        await until_gone(url, killed)
        done = await asyncio.to_thread(command, tools, "restore", str(made), DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
    finally:
        await bot.stop()


async def test_a_failed_backup_or_restore_leaves_nothing_behind(postgres_server, tools,
                                                               tmp_path, monkeypatch):
    url = await guarded_database(postgres_server)
    await asyncpg_execute(url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    for name, value in tool_env(tools).items():
        monkeypatch.setenv(name, value)
    backups = tmp_path / "backups"
    monkeypatch.setenv("TOOL_FAILS", "pg_dump")  # half written, then lost
    with pytest.raises(BackupError, match=r"pg_dump failed: .*connection to the server was lost"):
        backup_postgres(url, backups)
    assert list(backups.iterdir()) == []
    monkeypatch.delenv("TOOL_FAILS")
    with pytest.raises(BackupError, match="pg_dump failed"):  # the real one, refused
        backup_postgres(url.replace(PASSWORD, "wrong"), backups)
    assert list(backups.iterdir()) == []
    made = backup_postgres(url, backups)
    assert list(backups.iterdir()) == [made]

    broken = tmp_path / "broken.dump"
    broken.write_bytes(made.read_bytes()[: made.stat().st_size // 2])  # cut short
    await asyncpg_execute(url, "INSERT INTO kept VALUES (2)")
    with pytest.raises(BackupError, match="changed nothing"):
        restore_postgres(url, broken)
    assert await fetch(url, "SELECT x FROM kept ORDER BY x") == [(1,), (2,)]
    restore_postgres(url, made)
    assert await fetch(url, "SELECT x FROM kept ORDER BY x") == [(1,)]
    calls = recorded(tools)
    [refused] = [call for call in calls if call["password"] == "wrong"]
    assert "wrong" not in refused["cmdline"]
    no_password_anywhere([call for call in calls if call is not refused])


SHELL_RESTORE = ROOT / "deploy" / "restore-postgres.sh"


def test_the_shell_restore_is_the_python_one_word_for_word():
    """Compose's backup container has psql and pg_restore but no Python: the same SQL in sh."""
    script = SHELL_RESTORE.read_text(encoding="utf-8")
    assert f"<<'BEGIN_SQL'{RESTORE_BEGIN}BEGIN_SQL" in script
    assert f"<<'END_SQL'{RESTORE_END}END_SQL" in script


def shell_restore(tools: Path, url: str, dump: Path) -> subprocess.CompletedProcess[str]:
    """deploy/restore-postgres.sh as compose's backup service runs it: libpq's variables."""
    parts = urlsplit(url)
    return subprocess.run(["sh", str(SHELL_RESTORE), str(dump)], capture_output=True,
                          text=True, timeout=120, env=tool_env(
                              tools, PGHOST=parts.hostname or "", PGPORT=str(parts.port),
                              PGUSER=parts.username or "", PGPASSWORD=parts.password or "",
                              PGDATABASE=parts.path.lstrip("/")))


async def test_the_shell_restore_restores_and_refuses_while_a_bot_holds_the_database(
        postgres_server, tools, tmp_path, monkeypatch):
    url = await guarded_database(postgres_server)
    await asyncpg_execute(url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    monkeypatch.setenv("PATH", tool_env(tools)["PATH"])
    monkeypatch.setenv("TOOL_RECORD", str(tools / "record.jsonl"))
    made = backup_postgres(url, tmp_path / "backups")
    await asyncpg_execute(url, "INSERT INTO kept VALUES (2)")
    bot = PostgresLeader(url, on_lost=lambda why: None)
    await bot.hold()  # what every bot process's lease session holds from its start
    try:
        done = await asyncio.to_thread(shell_restore, tools, url, made)
        assert done.returncode != 0 and "bot processes hold" in done.stderr, done.stderr
        assert await fetch(url, "SELECT x FROM kept ORDER BY x") == [(1,), (2,)]
    finally:
        await bot.close()
    broken = tmp_path / "broken.dump"
    broken.write_bytes(made.read_bytes()[: made.stat().st_size // 2])
    done = await asyncio.to_thread(shell_restore, tools, url, broken)
    assert done.returncode != 0 and "changed nothing" in done.stderr
    assert await fetch(url, "SELECT x FROM kept ORDER BY x") == [(1,), (2,)]
    done = await asyncio.to_thread(shell_restore, tools, url, made)
    assert done.returncode == 0, done.stderr
    assert await fetch(url, "SELECT x FROM kept ORDER BY x") == [(1,)]
    no_password_anywhere(recorded(tools))
