"""Who is asking, as Telegram signs it: a Mini App's `initData` checked as Telegram documents
(core.telegram.org/bots/webapps, "Validating data received via the Mini App").

The data is a query string; its `hash` is HMAC-SHA-256 over the other fields sorted by key, one
`key=value` a line, under the secret key HMAC-SHA-256("WebAppData", bot token). So only Telegram
(or whoever holds the token) can sign it, and another bot's data fails. The hash is compared in
constant time; the user is taken only from the signed `user` field, never from the request.
`sign` makes such data for the tests and the demo, which hold the token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote_plus, urlencode

MAX_LENGTH = 8192  # characters of initData (Telegram's are well under 2 kB)
FUTURE_SLACK = 60  # seconds an auth_date may run ahead of this clock


class Unsigned(ValueError):
    """The data is not Telegram's for this bot (or is no longer good): the request gets 403."""


@dataclass(frozen=True)
class Signed:
    """What Telegram vouches for: the user, when the page was opened, and the start parameter
    of a Direct Link (None from a web_app button)."""

    user_id: int
    first_name: str
    username: str | None
    language_code: str | None
    auth_date: int
    start_param: str | None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def check_string(fields: dict[str, str]) -> bytes:
    """The data-check-string: every field but the hash, sorted by key, one a line."""
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash").encode()


def sign(fields: dict[str, str], token: str) -> str:
    """initData as Telegram would send it to this bot's Mini App (the tests', the demo's)."""
    digest = hmac.new(secret_key(token), check_string(fields), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def user_fields(user_id: int, first_name: str, auth_date: int, language_code: str = "en",
                start_param: str | None = None, username: str | None = None
                ) -> dict[str, str]:
    """The fields of initData for a user (what `sign` signs)."""
    user: dict[str, object] = {"id": user_id, "first_name": first_name,
                               "language_code": language_code}
    if username:
        user["username"] = username
    fields = {"user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
              "auth_date": str(auth_date)}
    if start_param is not None:
        fields["start_param"] = start_param
    return fields


USER_FIELD = re.compile(r"(?:^|&)user=([^&]*)")


def claimed(init_data: object) -> dict[str, Any] | None:
    """The user the data says it is from, unchecked (None: it names none): only for what spends
    nothing of theirs and grants nothing — whether that person is past their budget already,
    so a flood is refused before its signature is checked (bot.webapp.door), and the language
    a refusal is worded in. Only the `user` field is read, as cheaply as it can be."""
    if not isinstance(init_data, str) or not 0 < len(init_data) <= MAX_LENGTH:
        return None
    found = USER_FIELD.search(init_data)
    if found is None:
        return None
    try:
        user = json.loads(unquote_plus(found.group(1)))
    except ValueError:
        return None
    return user if isinstance(user, dict) else None


def claimed_user(init_data: object) -> int | None:
    """The id of the user the data claims (`claimed`), unchecked."""
    user = claimed(init_data)
    user_id = user.get("id") if user is not None else None
    return user_id if type(user_id) is int else None


def verify(init_data: object, token: str, now: float) -> Signed:
    """The signed fields of initData, or Unsigned: not a string, not signed for this bot's
    token, no user, or dated in the future."""
    if not isinstance(init_data, str) or not 0 < len(init_data) <= MAX_LENGTH:
        raise Unsigned("no initData")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Unsigned("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Unsigned("a field is given twice")
    given = fields.get("hash", "")
    expected = hmac.new(secret_key(token), check_string(fields), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Unsigned("the hash does not match")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError):
        raise Unsigned("no user or no auth_date") from None
    if type(user_id) is not int or not isinstance(user.get("first_name", ""), str):
        raise Unsigned("the user is malformed")
    if auth_date > now + FUTURE_SLACK:
        raise Unsigned("auth_date is in the future")
    username, language = user.get("username"), user.get("language_code")
    return Signed(user_id, user.get("first_name") or "",
                  username if isinstance(username, str) else None,
                  language if isinstance(language, str) else None,
                  auth_date, fields.get("start_param"))
