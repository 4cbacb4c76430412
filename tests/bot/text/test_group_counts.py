"""A tournament's count of groups passes through CLDR plurals (issue 73: "🏆 Friday Cup (code
FQY6L5): 1 groups"): each language where the count's noun agrees with it says `{groups:groups}`,
and the rest word it so that no form is needed ("групп: 1")."""

from __future__ import annotations

import pytest

from bot.text.i18n import LANGUAGES, texts_for

KEYS = ("tournament_joined", "tournament_starting", "tournament_status", "tournament_round_line")
FIELDS = {"name": "Cup", "code": "ABC123", "terms": "10 rounds", "when": "now", "state": "",
          "number": 1, "count": 10}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("groups", [1, 2, 3, 5, 21])
def test_a_count_of_groups_is_worded_by_its_plural(language: str, groups: int):
    texts = texts_for(language)
    for key in KEYS:
        filled = texts(key, groups=groups, **FIELDS)
        if "{groups:groups}" in texts.messages[key]:
            assert texts.plural("groups", groups) in filled, (language, key)


def test_one_group_is_one_group():
    en, de = texts_for("en"), texts_for("de")
    assert "(1 group so far)" in en("tournament_joined", groups=1, **FIELDS)
    assert en("tournament_starting", name="Cup", groups=1).endswith("with 1 group.")
    assert "ABC123</code>): 1 group;" in en("tournament_status", groups=1, **FIELDS)
    assert "the same hand in 2 groups." in en("tournament_round_line", groups=2, **FIELDS)
    assert de("tournament_starting", name="Cup", groups=1).endswith("mit 1 Gruppe.")
