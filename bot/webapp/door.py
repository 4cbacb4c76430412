"""The Mini App's door: each API request draws on its asker's budget (bot.runtime.doors) — the
same budget their typed answers, presses and inline queries draw on — before any of its work.

In order, each step cheaper than the next: whether the person the data claims to be is past
their budget already (no signature checked: 429 and Retry-After); the signature (what fails is
left to the endpoint, which refuses it in its words, having spent nothing of anyone's); then the
person's budget and the door's own, everyone's requests in hand together (past the person's:
429; past the door's: 503, and Retry-After). A chat's budget is drawn on only once the person is
known to be in it (`Face.in_chat`): a start parameter may name any group, and a stranger's
requests must not spend a group's budget.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from bot.runtime import metrics
from bot.runtime.doors import (
    ANSWER,
    CARD,
    PAGE,
    VIEW,
    WEBAPP_DOOR,
    Doors,
    Pass,
    Refused,
    person_key,
)
from bot.webapp.init_data import Unsigned, verify
from bot.webapp.refusal import Refusal

KINDS = {"round": VIEW, "answer": ANSWER, "page": PAGE, "card": CARD}  # each endpoint's weight


def enter(doors: Doors, endpoint: str, body: dict[str, Any], token: str, now: float,
          user: dict[str, Any] | None) -> Pass | None:
    """The request's pass (to be given back when it is answered), or None for one that is not
    signed (its endpoint refuses it); Refusal past a budget. `user`: whom the request claims
    to be from (bot.webapp.init_data.claimed), read once by the caller."""
    claimed = user.get("id") if user is not None else None
    if type(claimed) is not int:
        return None
    wait = doors.waiting(person_key(claimed))
    if wait is not None:
        raise refused(Refused(wait, False))
    try:
        signed = verify(body.get("init_data"), token, now)
    except Unsigned:
        return None
    admitted = doors.enter(KINDS.get(endpoint, VIEW), person_key(signed.user_id), WEBAPP_DOOR)
    if isinstance(admitted, Refused):
        raise refused(admitted)
    return admitted


def refused(refusal: Refused) -> Refusal:
    """A request past a budget, as the page hears it: too many of the asker's own (429), or of
    everyone's (503); either way when to try again."""
    metrics.record_webapp_refused(refusal.by)
    if refusal.by == "door":
        return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "busy", "try_again", refusal.retry_after)
    return Refusal(HTTPStatus.TOO_MANY_REQUESTS, f"past the {refusal.by}'s budget", "held",
                   refusal.retry_after, by=refusal.by)
