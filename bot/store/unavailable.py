"""The one error a backend raises when its database cannot be opened, migrated or written at
start-up; its message is the line the operator reads (what, where, and what to check)."""

from __future__ import annotations


class DatabaseUnavailable(Exception):
    """The database cannot be used; `python -m bot` logs the message and exits with status 1
    (what it holds: `cannot open the database <where>: <why> (<what to check>)`)."""
