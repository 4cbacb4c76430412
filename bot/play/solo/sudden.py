"""The rounds a first wrong answer ends, among every solo mode's (a streak's hands, a storm's):
the answering unit asks one port at each miss, and each mode's book knows its own hands."""

from __future__ import annotations

from typing import Protocol

from bot.store.records import Round


class Book(Protocol):
    def ends_at_miss(self, record: Round) -> bool: ...


class SoloHands:
    def __init__(self, *books: Book) -> None:
        self.books = books

    def ends_at_miss(self, record: Round) -> bool:
        return any(book.ends_at_miss(record) for book in self.books)
