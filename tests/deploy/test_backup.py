"""The restore drill: a SQLite database backed up while the bot's stores are open and writing
(rounds open, scores kept, WAL commits not yet checkpointed), restored into a fresh place, and
opened again with the stores: every score and every open round is there. Also retention, the
command line the compose service and the systemd timer run, and the refusals.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.runtime.backup import (
    DUMP_SUFFIX,
    HOLD_LOCK,
    IN_USE_SUFFIX,
    PREFIX,
    SQLITE_SUFFIX,
    BackupError,
    backup_sqlite,
    held_alone,
    prune,
    restore_sqlite,
    without_password,
)
from bot.store import Stores, open_stores
from bot.store.postgres import connection as postgres_connection
from bot.store.sqlite import hold as sqlite_hold
from bot.store.unavailable import DatabaseUnavailable
from demo.emulator import BotApiEmulator
from demo.freezing import freeze
from solver import solve
from tests.deploy.test_deploy import ROOT, subprocess_env
from tests.e2e.conftest import BotProcess
from tests.e2e.test_bot_process import ANN, GROUP, hand_of
from tests.fake_telegram import telegram as telegram

CHATS = (-1001, -1002, -1003)
PLAYERS = {11: "Ann", 12: "Bob", 13: "Cy"}

NOW = 1_800_000_000.0  # when the rounds are played: any fixed time does


async def play(stores: Stores, now: float) -> None:
    """Rounds won in every chat (scores), and one round left open in each."""
    for user_id, name in PLAYERS.items():
        await stores.people.remember_user(user_id, name)
    for chat in CHATS:
        await stores.people.remember_chat(chat, "supergroup", f"chat {chat}")
        for number, winner in enumerate((11, 12, 11, 13)):
            opened = await stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "easy", 3,
                                                    "en", now + number, now + number + 60,
                                                    started_by=winner)
            assert opened is not None
            await stores.rounds.record_answer(opened.id, winner, "(1+2+3)*4", True, now + number)
            assert await stores.rounds.close_round(opened.id, "won", now + number + 1, winner,
                                                   "(1+2+3)*4", awarded=3, win_seconds=1.0)
        still = await stores.rounds.open_round(chat, "24", (3, 3, 8, 8), 24, "hard", 5, "en",
                                               now + 10, now + 100, started_by=12)
        assert still is not None
        await stores.rounds.set_message(still.id, 500 + still.id)


async def deal_late(stores: Stores) -> None:
    await stores.people.remember_chat(-1009, "group", "late")
    assert await stores.rounds.open_round(-1009, "24", (1, 1, 1, 8), 24, "easy", 1, "en",
                                          NOW + 200, NOW + 260) is not None


async def snapshot(stores: Stores) -> tuple[list, dict]:
    """What a restore must keep: the open rounds, and each chat's standings."""
    standings = {chat: await stores.scores.top(chat) for chat in CHATS}
    return sorted(await stores.rounds.open_rounds(), key=lambda r: r.id), standings


async def test_backup_of_a_live_database_restores_every_score_and_open_round(tmp_path: Path):
    live = tmp_path / "data" / "twentyfour.sqlite3"
    live.parent.mkdir()
    stores = await open_stores(live)
    try:
        await play(stores, NOW)
        before = await snapshot(stores)
        assert os.path.getsize(live.with_name(live.name + "-wal")) > 0, "commits still in WAL"
        made = backup_sqlite(live, tmp_path / "backups")
        await deal_late(stores)  # after the backup: not in it
    finally:
        await stores.close()
    assert made.parent == tmp_path / "backups" and made.name.startswith(PREFIX)
    assert not made.with_name(made.name + "-wal").exists(), "a backup is one file"
    fresh = tmp_path / "elsewhere" / "twentyfour.sqlite3"
    fresh.parent.mkdir()
    assert restore_sqlite(made, fresh) is None
    restored = await open_stores(fresh)
    try:
        after = await snapshot(restored)
    finally:
        await restored.close()
    assert after == before
    assert len(after[0]) == len(CHATS) and all(after[1].values())


async def test_restore_keeps_the_replaced_database(tmp_path: Path):
    database = tmp_path / "twentyfour.sqlite3"
    stores = await open_stores(database)
    await play(stores, NOW)
    await stores.close()
    made = backup_sqlite(database, tmp_path / "backups")
    stores = await open_stores(database)
    await deal_late(stores)
    await stores.close()
    kept = restore_sqlite(made, database)
    assert kept == database.with_name("twentyfour.sqlite3.before-restore")
    with closing(sqlite3.connect(kept)) as old:
        assert old.execute("SELECT COUNT(*) FROM rounds WHERE chat_id = -1009").fetchone() == (1,)
    with closing(sqlite3.connect(database)) as now:
        assert now.execute("SELECT COUNT(*) FROM rounds WHERE chat_id = -1009").fetchone() == (0,)


async def test_restore_refuses_while_the_stores_hold_the_database(tmp_path: Path):
    """Open stores are a bot's hold: the restore needs the lock alone, and waits for no
    heartbeat once they are closed."""
    database = tmp_path / "twentyfour.sqlite3"
    stores = await open_stores(database)
    await play(stores, NOW)
    made = backup_sqlite(database, tmp_path / "backups")
    await deal_late(stores)
    try:
        with pytest.raises(BackupError, match=r"holds .* stop every bot"):
            restore_sqlite(made, database)
        assert not database.with_name(database.name + ".before-restore").exists()
    finally:
        await stores.close()
    assert restore_sqlite(made, database) is not None  # closed: at once


async def test_no_bot_starts_while_a_restore_holds_the_database(tmp_path: Path):
    database = tmp_path / "twentyfour.sqlite3"
    with held_alone(database), pytest.raises(DatabaseUnavailable,
                                             match="a restore of it is under way"):
        await open_stores(database)
    stores = await open_stores(database)  # the restore over: it opens
    await stores.close()


@pytest.mark.slow
async def test_a_frozen_bot_keeps_its_database_from_a_restore(telegram: BotApiEmulator,
                                                             tmp_path: Path):
    """Issue 35's attack: `python -m bot` frozen with SIGSTOP (its heartbeat growing old) still
    holds its database, so the restore is refused and the bot, woken, goes on in the same file;
    killed with SIGKILL, it holds nothing, and the restore goes ahead at once."""
    database = tmp_path / "bot.sqlite3"
    bot = BotProcess(telegram, database, 60.0)
    await bot.start()
    try:
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/play")
        hand = hand_of((await telegram.reply(GROUP)).text)
        made = await asyncio.to_thread(backup_sqlite, database, tmp_path / "backups")
        assert bot.process is not None
        freeze(bot.process.pid)
        try:
            inode = database.stat().st_ino
            done = await asyncio.to_thread(run_backup, "restore", str(made),
                                           DATABASE_PATH=str(database))
            assert done.returncode == 2, done.stdout + done.stderr
            assert "holds" in done.stderr and "stop every bot" in done.stderr
            assert database.stat().st_ino == inode
            assert not database.with_name(database.name + ".before-restore").exists()
        finally:
            bot.process.send_signal(signal.SIGCONT)
        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")  # woken: it plays on
        assert "Ann wins" in (await telegram.reply(GROUP)).text
        assert await bot.all_announced()
        assert won_rounds(database) == 1  # in the file it holds, not a file moved aside
        await bot.kill()
        done = await asyncio.to_thread(run_backup, "restore", str(made),
                                       DATABASE_PATH=str(database))
        assert done.returncode == 0, done.stderr
        assert won_rounds(database) == 0  # the backup's state: the round still open
    finally:
        await bot.stop()


def won_rounds(database: Path) -> int:
    with closing(sqlite3.connect(database)) as db:
        return int(db.execute("SELECT COUNT(*) FROM rounds WHERE status = 'won'").fetchone()[0])


def test_the_bot_and_the_restore_name_the_same_hold():
    """The runtime imports no store, so the restore repeats what the stores hold."""
    assert IN_USE_SUFFIX == sqlite_hold.IN_USE_SUFFIX
    assert HOLD_LOCK == postgres_connection.HOLD_LOCK


def test_a_missing_or_broken_database_is_no_backup(tmp_path: Path):
    with pytest.raises(BackupError, match="does not exist"):
        backup_sqlite(tmp_path / "none.sqlite3", tmp_path / "backups")
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"not a database" * 1000)
    with pytest.raises(BackupError, match="cannot back up"):
        backup_sqlite(broken, tmp_path / "backups")
    assert not list((tmp_path / "backups").iterdir()), "no partial file is left behind"


def test_retention_keeps_the_newest_of_each_kind(tmp_path: Path):
    names = [f"{PREFIX}2026010{day}T000000Z{suffix}" for day in range(1, 8)
             for suffix in (SQLITE_SUFFIX, DUMP_SUFFIX)]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("kept", encoding="utf-8")
    removed = prune(tmp_path, 3)
    left = sorted(path.name for path in tmp_path.iterdir())
    assert len(removed) == 8
    assert left == sorted([*(f"{PREFIX}2026010{day}T000000Z{suffix}" for day in (5, 6, 7)
                             for suffix in (SQLITE_SUFFIX, DUMP_SUFFIX)), "notes.txt"])


def test_the_postgres_password_stays_out_of_argv():
    url = "postgresql://twentyfour:p%40ss@postgres:5432/twentyfour"
    assert without_password(url) == ("postgresql://twentyfour@postgres:5432/twentyfour", "p@ss")
    assert without_password("postgresql://db/x") == ("postgresql://db/x", None)


def run_backup(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.runtime.backup", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=subprocess_env(**env))


def test_the_command_backs_up_prunes_and_restores(tmp_path: Path):
    """What the compose service and the systemd timer run, then the documented restore."""
    database = tmp_path / "twentyfour.sqlite3"

    async def fill() -> None:
        stores = await open_stores(database)
        await play(stores, NOW)
        await stores.close()

    asyncio.run(fill())
    backups = tmp_path / "backups"
    for old in range(3):
        (backups / f"{PREFIX}2020010{old}T000000Z{SQLITE_SUFFIX}").parent.mkdir(exist_ok=True)
        (backups / f"{PREFIX}2020010{old}T000000Z{SQLITE_SUFFIX}").write_bytes(b"old")
    done = run_backup(DATABASE_PATH=str(database), BACKUP_DIR=str(backups), BACKUP_KEEP="2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("backup ") and done.stdout.count("\n") == 1
    assert re.search(r"bytes, schema [1-9]\d*\)$", done.stdout.strip()), done.stdout
    made = sorted(backups.iterdir())
    assert len(made) == 2 and made[-1].name > f"{PREFIX}2021"
    target = tmp_path / "restored.sqlite3"
    done = run_backup("restore", str(made[-1]), DATABASE_PATH=str(target))
    assert done.returncode == 0, done.stderr
    with closing(sqlite3.connect(target)) as restored:
        assert restored.execute("SELECT COUNT(*) FROM rounds WHERE status = 'open'"
                                ).fetchone() == (len(CHATS),)


@pytest.mark.parametrize(("env", "said", "status"), [
    ({"BACKUP_KEEP": "none"}, "BACKUP_KEEP", 2),
    ({"DATABASE_PATH": "/nonexistent/twentyfour.sqlite3"}, "does not exist", 1),
])
def test_the_command_fails_in_one_line(tmp_path: Path, env: dict[str, str], said: str,
                                       status: int):
    done = run_backup(**{"BACKUP_DIR": str(tmp_path / "b"),
                         "DATABASE_PATH": str(tmp_path / "x.sqlite3"), **env})
    assert done.returncode == status
    assert said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_backup_stays_light():
    probe = ("import sys, bot.runtime.backup; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'telegram', 'aiosqlite'}))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, env=subprocess_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
