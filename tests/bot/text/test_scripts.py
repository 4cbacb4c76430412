"""Numbers, hands, expressions and commands as each language writes them (bot.text.scripts): the
digits of its CLDR numbering system, and left-to-right isolates in right-to-left languages."""

from __future__ import annotations

import re

import pytest
from babel import Locale

from bot.text.scripts import LRI, PDI, digits_of, script_of
from solver import parse

PERSIAN = script_of(Locale.parse("fa"))
ARABIC = script_of(Locale.parse("ar"))
ISOLATED = re.compile(f"{LRI}(.*?){PDI}", re.S)


def test_each_language_gets_the_digits_and_direction_cldr_gives_it():
    assert PERSIAN.digits == "۰۱۲۳۴۵۶۷۸۹" and PERSIAN.right_to_left
    assert ARABIC.digits == "0123456789" and ARABIC.right_to_left  # CLDR: ar is latn
    for tag in ("en", "hi", "de", "ru", "zh", "uk", "tr"):
        assert script_of(Locale.parse(tag)).plain, tag
    assert digits_of("deva") == "०१२३४५६७८९" and digits_of("arab") == "٠١٢٣٤٥٦٧٨٩"


def test_a_plain_language_is_left_exactly_as_it_was():
    message = "<b>5</b> <code>8÷(3−8÷3)</code> /play 4 = 24 @Bot24 <pre>1 2</pre>"
    assert script_of(Locale.parse("en")).written(message) == message


def test_persian_writes_numbers_hands_and_expressions_in_persian_digits():
    written = PERSIAN.written("امتیاز <b>15</b>: <code>8÷(3−8÷3)</code> و <code>3</code>")
    assert "<b>۱۵</b>" in written and "<code>۸÷(۳−۸÷۳)</code>" in written
    assert not re.search("[0-9]", written)
    shown = re.search("<code>(.*?)</code>", written).group(1)
    assert parse(shown) == parse("8/(3-8/3)")  # what the bot shows, the bot reads back


@pytest.mark.parametrize("kept", ["@Bot24", "Game24Bot", "user_12", "&#39;", "&#x27;",
                                  '<a href="https://t.me/b?start=g_5">', "<pre>12  34\n5 6</pre>"])
def test_names_links_entities_and_tables_keep_their_digits(kept):
    assert kept in PERSIAN.written(f"عدد 7 {kept} عدد 8")


@pytest.mark.parametrize("script", [PERSIAN, ARABIC], ids=["fa", "ar"])
def test_right_to_left_keeps_every_hand_expression_and_command_left_to_right(script):
    written = script.written("جواب <code>8÷(3−8÷3)</code> را با /answer یا /a@Bot24 بفرستید؛ "
                             "8 ÷ (3 − 8 ÷ 3) = 24 و (10+2)×2 و 7")
    isolated = [script.number_digits(piece) for piece in ISOLATED.findall(written)]
    assert isolated == [script.number_digits(piece) for piece in
                        ["<code>8÷(3−8÷3)</code>", "/answer", "/a@Bot24",
                         "8 ÷ (3 − 8 ÷ 3) = 24", "(10+2)×2"]]
    assert written.count(LRI) == written.count(PDI) == 5  # a lone number needs none


def test_tags_and_links_are_never_split_by_an_isolate():
    written = PERSIAN.written('<a href="tg://user?id=12">علی 12</a> <b>/top</b> </b>')
    assert '<a href="tg://user?id=12">' in written and "</b>" in written
    assert f"<b>{LRI}/top{PDI}</b>" in written


@pytest.mark.parametrize("script", [PERSIAN, ARABIC], ids=["fa", "ar"])
def test_a_command_keeps_its_arguments_and_an_arrow_points_the_way_the_sentence_reads(script):
    written = script.written("با /match 10 یا (/lang pt-BR) و /solve 1 2 8 45 = 100؛ "
                             "<code>3</code> <code>8</code> → <b>24</b>")
    assert [script.number_digits(piece) for piece in ISOLATED.findall(written)][:3] == \
        [script.number_digits(piece) for piece in
         ["/match 10", "/lang pt-BR", "/solve 1 2 8 45 = 100"]]
    assert "←" in written and "→" not in written
    assert script_of(Locale.parse("en")).written("3 8 → 24") == "3 8 → 24"


@pytest.mark.parametrize("script", [PERSIAN, ARABIC], ids=["fa", "ar"])
def test_the_rule_applied_twice_changes_nothing_more(script):
    """A message inside a message (a language list in /help) is written twice."""
    message = ("با /match 10 و (/lang en) <code>3</code> → <b>24</b> و 8÷(3−8÷3) = 24 "
               "<pre>1 2</pre> @Bot24")
    once = script.written(message)
    assert script.written(once) == once
    assert once.count(LRI) == once.count(PDI) == 4


def test_a_label_s_colon_is_not_math():
    written = PERSIAN.written("⏱ مدت دور 24: 2 دقیقه")
    assert LRI not in written and "۲۴: ۲" in written
