"""The share cards (bot/play/cards): both cards in every language, Arabic script shaped and
ordered, every word of a card in an installed font, a live daily hand never drawn, no solution
ever drawn, hostile names drawn without error, and a card without any font still drawn.

SCREENSHOTS=docs/screenshots keeps three example cards for docs/cards.md.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import fields
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, features

from bot.play.cards import (
    DailyCard,
    SeasonCard,
    daily_card,
    fonts,
    is_live,
    season_card,
    writing,
)
from bot.play.cards.canvas import HEIGHT, WIDTH
from bot.play.cards.cards import ROOM
from bot.play.daily.puzzle import DAY, day_start
from bot.text.i18n import LANGUAGES, catalog, texts_for

DAY_SHOWN = "2026-11-24"
DURING = day_start(DAY_SHOWN) + 6 * 3600  # the day's puzzle is live
AFTER = day_start(DAY_SHOWN) + DAY  # midnight UTC: the day is over everywhere
SEASON = SeasonCard("Ann Lee", "24", "2026-11", 1634, 47, 212, 131, 9, 3.4)
DAILY = DailyCard("Ann Lee", DAY_SHOWN, 6 * 3600 + 12 * 60 + 5, 12, (3, 8, 3, 8), 24, "24")
OPERATORS = re.compile(r"[+−×÷*/=]")  # as the bot writes an expression (a date has "-")
HOSTILE = [
    "A" * 500,  # longer than any place on the card
    "\u202eevil\u202c \u2067name\u2069 \u200f",  # direction overrides, isolates and marks
    "😀🎉 Ann 👍🏽 \u2764\ufe0f",  # emoji, a skin tone, a variation selector
    "\u200b\u200c\u200d\ufeff",  # zero-width characters only
    "\x00\x07\n\t\r",  # control characters only
    "x\u0301\u0301\u0301" * 40,  # a pile of combining marks
    "Ann علی 王 ราม ქართ שלום",  # six scripts in one name
    "\ud800",  # half a surrogate pair
    "𝕬𝖓𝖓 \U0010fffd \ue000",  # mathematical letters, private use
    "",
]


@pytest.fixture(scope="module", autouse=True)
def _fonts_installed() -> None:
    missing = fonts.missing()
    assert not missing, (f"no font for {', '.join(missing)}: install Debian's fonts-noto-core "
                         "and fonts-noto-cjk (docs/cards.md)")


def picture(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    return image


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_draws_both_cards(language: str) -> None:
    picture(season_card(SEASON, language))
    picture(daily_card(DAILY, language, DURING))
    picture(daily_card(DAILY, language, AFTER))
    picture(season_card(SeasonCard("Bo", "yahtzee", "2026-12", 1480, -20, 1, 0, 0, None),
                        language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_of_a_card_has_a_font(language: str) -> None:
    """No letter of a card's words is left out for want of a font: every script the bot speaks
    is covered, digits as the language writes them included."""
    texts = texts_for(language)
    words = [texts(key) for key in catalog(language) if key.startswith("card_")
             and "{" not in catalog(language)[key]]
    words += [texts("card_season", game=texts.game(game), season="2026-11")
              for game in ("24", "countdown", "yahtzee")]
    words += [texts("card_daily", number="328", day=DAY_SHOWN, game=texts.game(game))
              for game in ("24", "make10", "krypto")]
    words += [texts.number(1634), texts.seconds(3.4), texts.script.number_digits("0123456789")]
    for text in words:
        cleaned = writing.clean(text)
        for weight in ("Regular", "Bold"):
            drawn = "".join(run.text for run in writing.runs(cleaned, language, weight, False))
            assert drawn == cleaned, (language, weight, text)


def test_cards_write_the_language_digits() -> None:
    """Persian cards count in Persian digits, the others in Latin ones (scripts.py's rule)."""
    drawn = drawn_texts(lambda: season_card(SEASON, "fa"))
    assert "۱۶۳۴" in "".join(drawn).replace("٬", "") and not re.search("[0-9]", "".join(drawn))
    assert "1,634" in drawn_texts(lambda: season_card(SEASON, "en"))


def test_a_season_card_says_its_tiles_are_of_all_chats_and_all_time() -> None:
    """Its rounds, wins, best streak and fastest win are the player's page's, not the season's
    the rating beside them is of: a line over the tiles says so (docs/counts.md)."""
    drawn = " ".join(drawn_texts(lambda: season_card(SEASON, "en")))
    assert "All chats, all time" in drawn and "24 · season 2026-11" in drawn


def test_libraqm_shapes_the_text() -> None:
    assert features.check("raqm"), ("Pillow has no libraqm: Arabic script would be drawn "
                                     "unjoined; install Debian's libfribidi0 (docs/cards.md)")
    assert writing.SHAPING


@pytest.mark.parametrize(("language", "word"), [("fa", "بیست‌وچهار"), ("ar", "الجولات")])
def test_arabic_script_is_shaped(language: str, word: str) -> None:
    """A word drawn joined is narrower than its letters drawn one by one (each in its isolated
    form, as a layout without shaping draws them), and looks different."""
    whole = writing.line(word, language, 60, True)
    letters = [writing.line(letter, language, 60, True) for letter in word.replace("\u200c", "")]
    assert whole.width < 0.9 * sum(letter.width for letter in letters)
    apart = Image.new("L", (max(whole.width, sum(letter.width for letter in letters)), 120), 0)
    x = apart.width
    for letter in letters:  # right to left, each letter alone
        x -= letter.width
        apart.paste(ink(letter), (x, 0), ink(letter))
    drawn = Image.new("L", apart.size, 0)
    drawn.paste(ink(whole), (apart.width - whole.width, 0))
    assert drawn.tobytes() != apart.tobytes()


@pytest.mark.parametrize("language", ["fa", "ar"])
def test_arabic_script_reads_from_the_right(language: str) -> None:
    """Alef then beh: the alef, the one tall letter, is drawn on the right; beh then alef: on
    the left."""
    for word, alef_on_the_right in (("اب", True), ("با", False)):
        image = ink(writing.line(word, language, 80, True))
        tall = image.crop((0, 0, image.width, image.height // 2))  # the upper half: alef only
        left, _, right, _ = tall.getbbox()
        assert ((left + right) / 2 > image.width / 2) == alef_on_the_right, word


def test_runs_are_ordered_as_read() -> None:
    """A line in fonts of several scripts is ordered run by run: an Arabic word inside a Latin
    line stays in place, a Latin word inside a Persian line goes left of what precedes it."""
    latin = writing.line("Ann علی Lee", "en", 40, False)
    assert [run.text for run, _ in latin.pieces] == ["Ann", " ", "علی", " ", "Lee"]
    persian = writing.line("علی Ann رضا", "fa", 40, True)
    assert [run.text for run, _ in persian.pieces] == ["رضا", " ", "Ann", " ", "علی"]
    assert persian.pieces[0][0].direction == "rtl"
    # the line's own first letter decides its direction, not the card's
    assert [run.text for run, _ in writing.line("Ann علی", "fa", 40, True).pieces] == \
        ["Ann", " ", "علی"]
    # numbers in a right-to-left line: each read as a number, the line from the right
    title = writing.line("معمای روز شمارهٔ ۳۲۸، ۲۰۲۶-۱۱-۲۴", "fa", 30, True)
    assert [run.text for run, _ in title.pieces][:4] == ["۲۰۲۶-۱۱-۲۴", " ", "،", "۳۲۸"]


def test_a_live_daily_card_never_shows_the_hand() -> None:
    """Until midnight UTC the card is the same whatever the hand (only its count shows); from
    then on the numbers are drawn."""
    other = DailyCard(DAILY.name, DAILY.day, DAILY.seconds, DAILY.streak, (1, 5, 5, 5), 24, "24")
    for language in ("en", "fa", "zh"):
        live = daily_card(DAILY, language, DURING)
        assert live == daily_card(other, language, DURING)
        assert live == daily_card(DAILY, language, AFTER - 1)
        after = daily_card(DAILY, language, AFTER)
        assert after != live and after != daily_card(other, language, AFTER)


def test_the_day_is_live_until_midnight_utc() -> None:
    start = day_start(DAY_SHOWN)
    assert is_live(DAY_SHOWN, start - 1) and is_live(DAY_SHOWN, start)
    assert is_live(DAY_SHOWN, start + DAY - 0.001)
    assert not is_live(DAY_SHOWN, start + DAY) and not is_live(DAY_SHOWN, start + 5 * DAY)


def drawn_texts(draw) -> list[str]:
    """Every text a card draws, as handed to Pillow."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, *args, **kwargs):
        seen.append(text)
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = record  # type: ignore[method-assign]
    try:
        draw()
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_card_draws_a_solution(language: str) -> None:
    """A daily card has nowhere to hold an answer, and draws no operator in any language (a
    solution is numbers and operators); its live card draws none of the hand's numbers."""
    assert {field.name for field in fields(DailyCard)} == {"name", "day", "seconds", "streak",
                                                           "hand", "target", "game"}
    hand = (13, 17, 19, 23)  # numbers no other part of the card shows
    card = DailyCard("Ann", DAY_SHOWN, 100.0, 3, hand, 24, "24")
    for now in (DURING, AFTER):
        drawn = drawn_texts(lambda now=now: daily_card(card, language, now))
        assert not [text for text in drawn if OPERATORS.search(text)]
        digits = texts_for(language).script.number_digits
        shown = {digits(str(number)) for number in hand} & set(drawn)
        assert shown == (set() if now == DURING else {digits(str(n)) for n in hand})


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_draw(name: str) -> None:
    for language in ("en", "fa", "zh"):
        picture(season_card(SeasonCard(name, "countdown", "2026-11", 1500, 0, 0, 0, 0, None),
                            language))
        picture(daily_card(DailyCard(name, DAY_SHOWN, 0.0, 1, (1, 2, 3, 4), 24, "24"), language,
                           AFTER))


def test_names_are_cleaned_and_cut() -> None:
    assert writing.clean("\u202eevil\u202c \u2067na\u200bme\u2069\u200f") == "evil name"
    assert writing.clean("a\u200cb  \n c") == "a\u200cb c"  # the joiner stays: Persian needs it
    long = writing.name_text("Ann " * 100)
    assert len(long) <= writing.NAME_LIMIT + 1 and long.endswith(writing.ELLIPSIS)
    cut = writing.fitted(writing.name_text("王" * 60), "zh", 64, False, ROOM, "Bold")
    assert cut.width <= ROOM and cut.text.endswith(writing.ELLIPSIS) and len(cut.text) > 20
    marks = writing.fitted("x\u0301" * 80, "en", 64, False, 300)  # x́ has no precomposed form
    assert re.fullmatch("(x\u0301)+…", marks.text)


def test_fonts_read_their_cmaps() -> None:
    latin = fonts.faces("en", "Regular")[0]
    chinese = next(face for face in fonts.faces("zh", "Regular"))
    assert latin.path.name == "NotoSans-Regular.ttf" and "A" in fonts.coverage(latin)
    assert "王" not in fonts.coverage(latin) and "王" in fonts.coverage(chinese)
    assert fonts.faces("zh-Hant", "Bold")[0].font(20).getname() == ("Noto Sans CJK TC", "Bold")
    assert fonts.face_for("\U0010fffd", "en", "Regular") is None  # private use: no font


def test_a_card_without_fonts_still_draws(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    """On a machine without the fonts the card draws its tiles and leaves the letters out."""
    monkeypatch.setattr(fonts, "FONT_ROOTS", (tmp_path,))
    cached = (fonts._face, fonts.faces, fonts.others, writing._face_of)
    for function in cached:
        function.cache_clear()
    try:
        assert fonts.missing()
        picture(season_card(SEASON, "en"))
        picture(daily_card(DAILY, "fa", AFTER))
    finally:
        for function in cached:
            function.cache_clear()


def test_example_cards(tmp_path: Path) -> None:
    """The cards docs/cards.md shows: SCREENSHOTS=docs/screenshots keeps them there."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    examples = {
        "card-season-en.png": season_card(SEASON, "en"),
        "card-daily-fa.png": daily_card(
            DailyCard("سارا رضایی", DAY_SHOWN, 6 * 3600 + 12 * 60 + 5, 12, (3, 8, 3, 8),
                      24, "24"),
            "fa", AFTER),
        "card-daily-zh.png": daily_card(DailyCard("王小明", DAY_SHOWN, 2 * 3600 + 5, 30,
                                                  (3, 8, 3, 8), 24, "24"), "zh", DURING),
    }
    for file, png in examples.items():
        picture(png)
        (folder / file).write_bytes(png)


def ink(line: writing.Line) -> Image.Image:
    """A line drawn alone, white on black, as wide as it measures."""
    image = Image.new("L", (max(1, line.width), line.size * 2), 0)
    line.draw(ImageDraw.Draw(image), 0, line.size * 3 // 2, "white")
    return image
