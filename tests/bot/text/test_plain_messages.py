"""A message asked for with nothing to fill in is filled once per language and wording
(`Texts._plain`): what comes back is what filling it afresh gives, every such message in every
language, for a group and a private chat, and a message asked with values is never kept."""

from __future__ import annotations

import string

import pytest

from bot.text.i18n import AMBIENT, LANGUAGES, PRIVATE, Texts, texts_for


def fields(message: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(message) if field}


def plain_keys(texts: Texts) -> list[str]:
    """Every message that needs nothing from its caller ({languages} it fills itself)."""
    return [key for key, message in texts.messages.items()
            if not key.endswith(PRIVATE) and fields(message) <= {AMBIENT}]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plain_message_is_what_filling_it_afresh_gives(language: str) -> None:
    for private in (False, True):
        kept, fresh = texts_for(language, private), Texts(language, private)
        keys = plain_keys(fresh)
        assert len(keys) > 100
        for key in keys:
            assert kept(key) == fresh._filled(key, {})
            assert kept(key) == fresh._filled(key, {})  # the second time: the kept one


def test_a_message_with_values_is_filled_each_time_and_never_kept() -> None:
    texts = Texts("en")
    first = texts("webapp_board_title", game=texts.game("24"))
    second = texts("webapp_board_title", game=texts.game("countdown"))
    assert first != second and "webapp_board_title" not in texts._plain
