"""A request the Mini App refuses: its HTTP status, why (for the log), and the page's word for
it (`webapp_<said>`, said in the asker's language). Apart so that each endpoint's module raises
it without importing the server that answers with it."""

from __future__ import annotations


class Refusal(Exception):
    """A request refused: its status, why (for the log), the page's word for it, and for a
    request past a budget the seconds until one would be let in (its Retry-After)."""

    def __init__(self, status: int, why: str, said: str = "forbidden",
                 retry_after: int | None = None, after: str = "", by: str = "") -> None:
        super().__init__(why)
        self.status = status
        self.why = why
        self.said = said
        self.retry_after = retry_after
        self.after = after  # a line the page shows under its words (a round's themes, once over)
        self.by = by  # past a budget: whose ("person", "chat", ...; bot.runtime.doors)
