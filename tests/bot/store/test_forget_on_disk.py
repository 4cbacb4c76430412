"""/forget through the real handlers leaves nothing of the person (issue 35, item 2): no row of
any table holds their id, first name or username on either backend (their private chat and the
rounds played there included), and neither the SQLite file nor its write-ahead log holds the
name or the username in any byte — nor, forgotten while a round of theirs was on in private
(issue 44, item 4), their id in any encoding SQLite writes it in."""

from __future__ import annotations

import struct
from pathlib import Path

from bot.store.sqlite.database import Database
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness

GROUP = -2719
ZED = {"id": 987_654_321, "is_bot": False, "first_name": "Zebulonia",
       "username": "zq_forget_me_77", "language_code": "en"}
BEN = {"id": 282, "is_bot": False, "first_name": "Ben"}
CY = {"id": 283, "is_bot": False, "first_name": "Cy"}
YES = "✅ 确定删除"  # Zed's private chat speaks Chinese (/lang zh)


async def win(h: Harness, chat: int, user: dict, kind: str = "group",
              loser: dict = CY) -> None:
    await h.send(chat, user, "/play", kind=kind)
    await h.telegram.reply(chat)
    current = h.services.rounds.open_round(chat)
    assert current is not None
    if kind == "group":
        await h.send(chat, loser, "/a 1+1")
    await h.send(chat, user, f"/a {solve(current.hand)[0]}", kind=kind)
    await h.telegram.reply(chat)


async def a_life(h: Harness) -> None:
    """Zed plays: wins and loses in a group, deals there, plays alone in private, solves the
    day's puzzle, chooses a language; many others are stored around them."""
    for number in range(300):  # the users' table spreads over pages, and splits around Zed
        await h.stores.people.remember_user(10_000 + number, f"Other{number}", f"other{number}")
    await win(h, GROUP, ZED, loser=BEN)
    await win(h, GROUP, BEN, loser=ZED)
    await h.send(GROUP, ZED, "/play")  # a round Zed dealt, nobody won
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    await h.send(GROUP, ZED, "/reveal")
    await h.telegram.reply(GROUP)
    await win(h, ZED["id"], ZED, kind="private")
    hand = h.services.community.daily.hand_now()
    await h.send(ZED["id"], ZED, "/daily", kind="private")
    await h.telegram.reply(ZED["id"])
    await h.send(ZED["id"], ZED, f"/daily {solve(list(hand))[0]}", kind="private")
    await h.telegram.reply(ZED["id"])
    await h.send(ZED["id"], ZED, "/lang zh", kind="private")
    await h.telegram.reply(ZED["id"])
    for number in range(300, 600):
        await h.stores.people.remember_user(10_000 + number, f"Other{number}", None)


async def forget(h: Harness) -> None:
    await h.send(ZED["id"], ZED, "/forget", kind="private")
    asked = await h.telegram.reply(ZED["id"])
    done = await h.press(ZED["id"], asked.message_id, ZED, YES)
    assert done.text == "已删除。"
    await h.services.community.privacy.erased()  # the rows go after the answer


async def rows_naming(h: Harness) -> list[str]:
    """Every (table, column) whose value is Zed's id, or holds their name or username."""
    db = h.stores.rounds.db  # type: ignore[attr-defined]
    names = await db.fetch("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                           "LIKE 'sqlite_%'") if isinstance(db, Database) else await db.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    found = []
    for (table,) in names:
        for row in await db.fetch(f"SELECT * FROM {table}"):
            for value in row:
                if value == ZED["id"] or (isinstance(value, str) and (
                        ZED["first_name"] in value or ZED["username"] in value)):
                    found.append(f"{table}: {row}")
    return found


@ON_BOTH_BACKENDS
async def test_no_row_holds_the_person_after_forget(harness: Harness):
    await a_life(harness)
    assert len(await rows_naming(harness)) >= 10  # the test sees them while they are there
    earned = {row.code for row in await harness.stores.achievements.earned(ZED["id"])}
    assert {"first_win", "daily_first"} <= earned  # a group's win over Ben, the daily puzzle
    await forget(harness)
    assert await rows_naming(harness) == []
    assert await harness.stores.achievements.earned(ZED["id"]) == []
    assert [row for row in await harness.stores.achievements.earned_in_chat(GROUP)
            if row.user_id == ZED["id"]] == []
    await win(harness, GROUP, BEN)  # the others play on
    assert await rows_naming(harness) == []


def varint(value: int) -> bytes:
    """SQLite's variable-length integer (a rowid, as a table's b-tree keys it): seven bits a
    byte, most significant first, the high bit set on all but the last."""
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes(reversed(groups))


assert varint(127) == b"\x7f" and varint(128) == b"\x81\x00"


def id_encodings(user_id: int) -> dict[str, bytes]:
    """The person's id as SQLite may write it: in a record (a column, an index's key) as a
    big-endian integer of 4 bytes (6 or 8 for larger ids), as a rowid key (INTEGER PRIMARY KEY:
    users, chats, forgets) as a varint; its decimal text; and 8 bytes little-endian."""
    return {"decimal": str(user_id).encode(), "varint": varint(user_id),
            "big-endian 4": struct.pack(">i", user_id), "big-endian 8": struct.pack(">q", user_id),
            "little-endian 8": struct.pack("<q", user_id)}


def holding_in(files: list[Path], words: dict[str, bytes]) -> list[str]:
    found = []
    for path in files:
        data = path.read_bytes() if path.exists() else b""
        found += [f"{path.name}: {name}" for name, word in words.items() if word in data]
    return found


def naming(tmp_path: Path) -> list[str]:
    return holding_in([tmp_path / "bot.sqlite3", tmp_path / "bot.sqlite3-wal"],
                      {word: word.encode() for word in (ZED["first_name"], ZED["username"])})


async def test_neither_the_file_nor_its_log_holds_the_name(harness: Harness, tmp_path: Path):
    await a_life(harness)
    assert naming(tmp_path)  # the grep finds them while they are kept
    await forget(harness)
    assert naming(tmp_path) == []


async def test_forgotten_mid_round_neither_file_holds_the_name_or_the_id(harness: Harness,
                                                                        tmp_path: Path):
    """A round (and a match) on in Zed's private chat, and Zed's answer in a group round still
    on, when Zed forgets: no byte of either file names them."""
    files = [tmp_path / "bot.sqlite3", tmp_path / "bot.sqlite3-wal"]
    await a_life(harness)
    await harness.send(GROUP, BEN, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ZED, "/a 1+1")
    await harness.send(ZED["id"], ZED, "/match 3", kind="private")
    await harness.telegram.reply(ZED["id"])
    await harness.send(ZED["id"], ZED, "/a 1+1", kind="private")
    assert harness.services.rounds.open_round(ZED["id"]) is not None
    assert naming(tmp_path) and holding_in(files, id_encodings(ZED["id"]))
    await forget(harness)
    assert harness.services.rounds.open_round(ZED["id"]) is None
    assert naming(tmp_path) == []
    assert holding_in(files, id_encodings(ZED["id"])) == []
    assert await rows_naming(harness) == []
