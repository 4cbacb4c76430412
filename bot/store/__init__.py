"""Storage: the records the stores return, one protocol per store (rounds and answers, scores,
chats and users, matches, update claims), and the backends that implement them.

SQLite (bot.store.sqlite) is the embedded default; nothing above this package knows which
database it talks to.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.protocols import MatchStore, PeopleStore, RoundStore, ScoreStore, UpdateStore
from bot.store.stores import Stores


async def open_stores(database_path: Path | str) -> Stores:
    """Every store over the SQLite database at `database_path`, migrated to the latest
    schema."""
    from bot.store.sqlite import open_sqlite  # aiosqlite only where it is used

    return await open_sqlite(database_path)


__all__ = ["MatchStore", "PeopleStore", "RoundStore", "ScoreStore", "Stores", "UpdateStore",
           "open_stores"]
