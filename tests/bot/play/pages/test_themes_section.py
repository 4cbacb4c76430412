"""The themes table of a player's page (bot/play/pages/themes.py), from rows as the store gives
them: what it leaves out (another game's round, a table of rolls, a hand of five, a hand no longer
solvable, a game it does not know) and how it orders and words what it keeps."""

from __future__ import annotations

from bot.play.pages.player import hand_text, numbers_of
from bot.play.pages.themes import standings, themes_section
from bot.store.sql.pages import TriedHand
from bot.text.i18n import texts_for

EN = texts_for("en")


def test_what_has_no_themes_is_left_out():
    rows = [TriedHand("countdown", "[1, 2, 3, 4, 5, 6]", 500, False),
            TriedHand("yahtzee", "[[1, 2, 3, 4, 5]]", 0, False),
            TriedHand("24", "[1, 2, 3, 4, 6]", 24, False),  # five numbers: left out for now
            TriedHand("24", "[1, 1, 1, 1]", 24, False),  # no solution: no themes
            TriedHand("chess", "[3, 3, 8, 8]", 24, False),  # a game this bot no longer has
            TriedHand("24", "not a hand", 24, False)]
    assert standings(rows, numbers_of) == {}
    assert themes_section(EN, rows, numbers_of, hand_text) is None


def test_weakest_first_with_the_latest_miss_and_each_target_apart():
    rows = [TriedHand("24", "[3, 3, 8, 8]", 24, True),  # latest first
            TriedHand("24", "[1, 2, 7, 7]", 24, False),
            TriedHand("24", "[1, 2, 7, 7]", 24, False),  # an older miss of the same hand
            TriedHand("make10", "[9, 9, 9, 9]", 10, True)]
    section = themes_section(EN, rows, numbers_of, hand_text)
    assert section is not None and section["kind"] == "themes"
    rows_shown = [(r["name"], r["rounds"], r["share"], r["median"]) for r in section["rows"]]
    assert rows_shown[0] == ("a step past 24", 2, 0, "1 2 7 7 → 24")
    assert ("a fraction on the way", 1, 100, "") in rows_shown
    assert ("a division last", 4, 50, "1 2 7 7 → 24") in rows_shown  # 24's and Make 10's
    assert ("a step past 10", 1, 100, "") in rows_shown  # a target's own row
    names = [name for name, *_ in rows_shown]
    assert len(names) == len(set(names))
    shares = [r["share"] for r in section["rows"]]
    assert shares == sorted(shares)  # the weakest first
    assert all(r["share_text"] == f"{r['share']}%" for r in section["rows"])
