"""The SQLite backend: every store over one aiosqlite connection."""
