"""The gettext catalogs: each complete (every message, field, markup tag and CLDR plural form of
English), every message of every language rendered as Telegram takes it, Russian plurals against
CLDR, numbers and durations as each language writes them, the header gettext's tools evaluate,
and the translator's round trip (template, init, update, check)."""

from __future__ import annotations

import fnmatch
import gettext
import re
import string
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from bot.play.games import GAMES
from bot.play.games.help import help_text
from bot.text import catalogs
from bot.text.catalogs import LIST_SPECS, ONE, Catalog, problems, read_catalog
from bot.text.html_text import visible_text
from bot.text.i18n import AMBIENT, PRIVATE, Texts, texts_for
from bot.text.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    gettext_plural_forms,
    own_name,
    plural_categories,
    plural_category,
    spoken,
)
from bot.text.markup import LIMIT, MORE, visible_length

ENGLISH = read_catalog(DEFAULT_LANGUAGE)
TRANSLATED = [language for language in LANGUAGES if language != DEFAULT_LANGUAGE]
PLAIN = re.compile(r"cmd_.*|inline_.*_title|inline_usage_description|bot_.*description|yz_.*")
LIMITS = {"bot_description": 512, "bot_short_description": 120}  # Telegram's
MENU_LIMIT = 256  # a command's description


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_is_complete(language: str):
    """Every English message, with its {fields} and markup tags; every plural in the forms CLDR
    gives the language; nothing fuzzy, nothing English lacks."""
    assert problems(read_catalog(language), ENGLISH) == []


def test_the_check_finds_what_a_catalog_gets_wrong():
    """Each thing a translator could break, broken once in the Russian catalog."""
    russian = read_catalog("ru")

    def with_message(key: str, text: str) -> Catalog:
        return replace(russian, messages={**russian.messages, key: text})

    without = {k: v for k, v in russian.messages.items() if k != "no_round"}
    assert problems(replace(russian, messages=without), ENGLISH) == ["no_round: missing"]
    assert problems(with_message("won", russian.messages["won"].replace("{elapsed}", "")),
                    ENGLISH)[0].startswith("won: fields")
    assert problems(with_message("won", russian.messages["won"].replace("<b>", "")),
                    ENGLISH)[0].startswith("won: markup")
    assert problems(with_message("won", russian.messages["won"].replace(
        "{points:points}", "{points:pointz}")), ENGLISH) == ["won: {…:pointz} names no plural noun"]
    assert problems(with_message("no_such_key", "…"), ENGLISH)[0].startswith("no_such_key: not")
    assert problems(with_message("stats_title_private", "<b>{name}</b> {seconds}"), ENGLISH) == \
        ["stats_title_private: fields beyond stats_title's"]
    three = {**russian.plurals, "points": russian.plurals["points"][:3]}
    assert problems(replace(russian, plurals=three), ENGLISH) == \
        ["points_one: 3 forms, ru needs 4 (one, few, many, other)"]
    assert problems(replace(russian, plural_forms="nplurals=3; plural=(n != 1);"),
                    ENGLISH)[0].startswith("Plural-Forms is")
    assert problems(replace(russian, untranslated=frozenset({"won"})), ENGLISH) == \
        ["won: untranslated or fuzzy"]
    assert problems(with_message("won", "{name"), ENGLISH) == ["won: a brace without its pair"]
    assert problems(with_message("points_few", "…"), ENGLISH)[0] == \
        "points_few: named as a form of the plural 'points'"  # it would hide Russian's form


def test_russian_plurals_follow_cldr():
    """1 one, 2 few, 5 many, 11 many, 21 one, 22 few, 25 many, 111 many, as CLDR says; the
    catalog's forms read as a Russian writes them."""
    counts = (1, 2, 5, 11, 21, 22, 25, 111)
    assert [plural_category("ru", n) for n in counts] == \
        ["one", "few", "many", "many", "one", "few", "many", "many"]
    ru = Texts("ru")
    assert [ru.count(n) for n in counts] == [
        "1 различное решение", "2 различных решения", "5 различных решений",
        "11 различных решений", "21 различное решение", "22 различных решения",
        "25 различных решений", "111 различных решений"]
    assert [ru.plural("points", n) for n in counts] == [
        "1 очко", "2 очка", "5 очков", "11 очков", "21 очко", "22 очка", "25 очков", "111 очков"]
    assert [ru.plural("wins", n) for n in (1, 3, 12)] == ["1 победа", "3 победы", "12 побед"]
    assert [ru.duration(s) for s in (1, 2, 5, 21, 120, 300)] == [
        "1 секунда", "2 секунды", "5 секунд", "21 секунда", "2 минуты", "5 минут"]


def test_plural_forms_per_cldr_in_every_language():
    assert {language: plural_categories(language) for language in LANGUAGES} == {
        "en": ("one", "other"), "zh": ("other",), "zh-Hant": ("other",),
        "ru": ("one", "few", "many", "other"), "es": ("one", "many", "other"),
        "pt-BR": ("one", "many", "other"), "de": ("one", "other"), "fr": ("one", "many", "other"),
        "it": ("one", "many", "other"), "tr": ("one", "other"), "id": ("other",),
        "uk": ("one", "few", "many", "other"), "uz": ("one", "other"), "hi": ("one", "other"),
        "ar": ("zero", "one", "two", "few", "many", "other"), "fa": ("one", "other")}
    assert [plural_category("ar", n) for n in (0, 1, 2, 3, 11, 100)] == \
        ["zero", "one", "two", "few", "many", "other"]
    assert [plural_category("uk", n) for n in (1, 3, 5, 21, 1.5)] == \
        ["one", "few", "many", "one", "other"]
    assert [Texts("ar").plural("points", n) for n in (0, 1, 2, 3, 11, 100)] == \
        ["0 نقطة", "1 نقطة", "2 نقطتان", "3 نقاط", "11 نقطة", "100 نقطة"]
    assert [Texts("uk").plural("points", n) for n in (1, 3, 5, 21, 1.5)] == \
        ["1 очко", "3 очки", "5 очок", "21 очко", "1,5 очка"]
    assert Texts("es").plural("points", 1_000_000) == "1.000.000 de puntos"  # CLDR's "many"
    assert Texts("pt-BR").plural("wins", 0) == "0 vitória"  # CLDR: 0 and 1 are "one" in pt
    assert Texts("zh-Hant").plural("points", 1) == "1 分"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_gettext_evaluates_picks_the_cldr_form(language: str):
    """Poedit, Weblate and msgfmt pick a plural form with the Plural-Forms expression; it gives
    the form the bot picks with CLDR's rule, for every count up to 1,000 and the millions."""
    expression = gettext_plural_forms(language).split("plural=", 1)[1].rstrip(";")
    pick = gettext.c2py(expression)
    categories = plural_categories(language)
    for n in [*range(1001), 10_000, 1_000_000, 2_000_000, 1_000_001]:
        assert pick(n) == categories.index(plural_category(language, n)), (language, n)


STARTS = [game.start for game in GAMES.values()]


def sample_values(message: str, value: object) -> dict[str, object]:
    """Each field filled with `value`, or a list's field ({starts:or}) with every game's command,
    as the bot fills it."""
    return {field: STARTS if spec in LIST_SPECS else value
            for _, field, spec, _ in string.Formatter().parse(message)
            if field and field != AMBIENT}


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_as_telegram_takes_it(language: str, private: bool):
    """Each message (and its private wording) with sample values: every field filled, no brace
    left, Telegram's HTML parse mode accepts it (only its tags, nested, its entities), within
    4096 characters; a negative number shown with "−"."""
    texts = texts_for(language, private)
    for key, message in texts.messages.items():
        for value in (1, 2, 5, 21, 1_000_000, -3):
            filled = texts(key, **sample_values(message + texts.messages.get(key + PRIVATE, ""),
                                                value))
            shown = visible_text(filled)  # raises what Telegram would refuse
            assert "{" not in shown and "}" not in shown, (language, key)
            assert "-3" not in shown, (language, key)
            assert visible_length(filled) <= LIMIT, (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_plain_text_stays_plain_and_short(language: str):
    """Menus, inline titles, the descriptions and the Yahtzee table's words are plain text
    (Telegram shows no HTML there) within Telegram's limits."""
    texts = texts_for(language)
    for key, message in texts.messages.items():
        if PLAIN.fullmatch(key):
            assert "<" not in message and "&" not in message, (language, key)
            assert len(message) <= LIMITS.get(key, MENU_LIMIT), (language, key)


def test_numbers_and_durations_as_each_language_writes_them():
    numbers = {language: Texts(language).number(1_234_567) for language in LANGUAGES}
    assert numbers == {"en": "1,234,567", "zh": "1,234,567", "zh-Hant": "1,234,567",
                       "ru": "1\xa0234\xa0567", "es": "1.234.567", "pt-BR": "1.234.567",
                       "de": "1.234.567", "fr": "1\u202f234\u202f567", "it": "1.234.567",
                       "tr": "1.234.567", "id": "1.234.567", "uk": "1\xa0234\xa0567",
                       "uz": "1\xa0234\xa0567", "hi": "12,34,567", "ar": "1,234,567",
                       "fa": "۱٬۲۳۴٬۵۶۷"}  # CLDR: Indian grouping, Persian digits
    assert Texts("ru").number(-5) == "−5" and Texts("ru").number(2.5) == "2,5"
    assert [Texts(language).seconds(7.94) for language in ("en", "ru", "es", "zh-Hant")] == \
        ["7.9 s", "7,9 с", "7,9 s", "7.9 秒"]
    assert {language: Texts(language).duration(300) for language in LANGUAGES} == {
        "en": "5 minutes", "zh": "5分钟", "zh-Hant": "5 分鐘", "ru": "5 минут", "es": "5 minutos",
        "pt-BR": "5 minutos", "de": "5 Minuten", "fr": "5 minutes", "it": "5 minuti",
        "tr": "5 dakika", "id": "5 menit", "uk": "5 хвилин", "uz": "5 daqiqa", "hi": "5 मिनट",
        "ar": "5 دقائق", "fa": "۵ دقیقه"}
    assert Texts("fa").seconds(7.94) == "۷٫۹ ثانیه" and Texts("fa").number(-5) == "−۵"
    assert Texts("ru")("forget_ask", seconds=60).endswith("(Вопрос действует ещё 60 секунд.)")
    assert "1\xa0000\xa0000" in Texts("ru")("usage_number_range", number="<code>x</code>",
                                            low=0, high=1_000_000)


def test_language_names_come_from_cldr_each_in_itself():
    assert [own_name(language) for language in LANGUAGES] == \
        ["English", "العربية", "Deutsch", "Español", "فارسی", "Français", "हिन्दी", "Indonesia",
         "Italiano", "Português", "Русский", "Türkçe", "Українська", "O‘zbek", "简体中文",
         "繁體中文"]
    assert Texts("ru")("lang_name") == "Русский"
    listed = visible_text(Texts("en")("lang_usage", current="English"))
    assert listed == ("This chat's language: English. Usage: /lang and a language: English "
                      "(/lang en), العربية (/lang ar), Deutsch (/lang de), Español (/lang es), "
                      "فارسی (/lang fa), Français (/lang fr), हिन्दी (/lang hi), Indonesia "
                      "(/lang id), Italiano (/lang it), Português (/lang pt-BR), Русский (/lang "
                      "ru), Türkçe (/lang tr), Українська (/lang uk), O‘zbek (/lang uz), 简体中文 "
                      "(/lang zh) or 繁體中文 (/lang zh-Hant).")


def test_a_language_is_its_catalog_folder(tmp_path: Path):
    """Sixteen folders, sixteen languages; a seventeenth folder is a seventeenth language."""
    assert LANGUAGES == ("en", "ar", "de", "es", "fa", "fr", "hi", "id", "it", "pt-BR", "ru",
                         "tr", "uk", "uz", "zh", "zh-Hant")
    for folder in ("en", "nl", "zh_Hant", "pt_BR"):
        (tmp_path / folder / "LC_MESSAGES").mkdir(parents=True)
        (tmp_path / folder / "LC_MESSAGES" / "messages.po").write_text("", encoding="utf-8")
    (tmp_path / "xx").mkdir()  # a folder without a catalog is no language
    assert spoken(tmp_path) == ("en", "nl", "pt-BR", "zh-Hant")


def test_the_catalogs_are_package_data():
    """An installed bot finds every catalog: each one's path matches pyproject's package data."""
    config = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot.text"]
    root = Path("bot/text")
    for language in LANGUAGES:
        path = Path(str(catalogs.path_of(language))).resolve().relative_to(root.resolve())
        assert path.exists() if path.is_absolute() else (root / path).exists()
        assert any(fnmatch.fnmatch(path.as_posix(), pattern) for pattern in patterns), path
    assert "babel" in " ".join(config["project"]["optional-dependencies"]["bot"])


# --- the translator's round trip ----------------------------------------------------------------

def test_the_template_has_every_english_message_untranslated():
    template = catalogs.from_po(DEFAULT_LANGUAGE, catalogs.template(ENGLISH))
    assert template.messages == {} and template.plurals == {}
    assert template.untranslated == set(ENGLISH.messages) | set(ENGLISH.plurals)
    assert catalogs.quoted_english(template.notes["won"]) == " ".join(
        ENGLISH.messages["won"].split())


def test_an_update_keeps_translations_and_marks_what_english_changed(tmp_path: Path):
    """A new English message arrives empty, a changed one turns fuzzy (and English stands in
    for both until they are translated), the rest is kept as it was."""
    with catalogs.path_of("ru").open("rb") as file:
        old = catalogs.read_po(file, locale="ru")
    changed = replace(ENGLISH, messages={**ENGLISH.messages, "won": "✅ <b>{name}</b> won "
                      "with {answer} in {elapsed} (+{points:points}).", "brand_new": "New!"},
                      notes={**ENGLISH.notes, "brand_new": ["A new message."]})
    target = tmp_path / "messages.po"
    catalogs.write(catalogs.updated("ru", old, changed), target)
    russian = read_catalog("ru", target)
    assert problems(russian, changed) == ["brand_new: untranslated or fuzzy",
                                          "won: untranslated or fuzzy"]
    assert russian.messages == {k: v for k, v in read_catalog("ru").messages.items()
                                if k != "won"}
    assert russian.plurals == read_catalog("ru").plurals
    catalogs.write(catalogs.updated("ru", old, ENGLISH), target)  # English as it is: no change
    assert problems(read_catalog("ru", target), ENGLISH) == []


def test_a_new_language_starts_with_every_message_to_translate(tmp_path: Path):
    target = tmp_path / "messages.po"
    catalogs.write(catalogs.updated("de", None, ENGLISH), target)
    german = read_catalog("de", target)
    assert german.plural_forms == "nplurals=2; plural=((((n == 1)) && ((0 == 0))) ? 0 : 1);"
    assert german.untranslated == set(ENGLISH.messages) | set(ENGLISH.plurals)
    assert len(problems(german, ENGLISH)) == len(german.untranslated)


def test_the_check_command_says_every_catalog_is_complete(capsys: pytest.CaptureFixture):
    assert catalogs.main(["check"]) == 0
    assert capsys.readouterr().out.count("complete") == len(LANGUAGES)


# --- every language in its own script -----------------------------------------------------------

# what stays Latin in any script: the Yahtzee table's column heads the code prints (Σ 3K 4K 5K SS
# LS FH), the Yahtzee problem's name (UVa 10149), BotFather's own name and button, and the words
# the bot reads after a command (easy, week, countdown, join CODE...), which a player types as
# they are, and UTC, a tournament's clock
KEPT_LATIN = re.compile(r"</?[a-z][^>]*>|<code>.*?</code>|\{[^}]*\}|/[A-Za-z_]+(?:@\w+)?|"
                        r"@BotFather|\bDisable\b|\b(?:3K|4K|5K|SS|LS|FH|UVa)\b|"
                        r"\b(?:easy|medium|hard|adaptive|week|daily|all|stop|end|countdown|"
                        r"rating|yahtzee|make10|krypto|closest|on|off|en|zh|ru|es|de|fr|fa|ar|hi|uk|"
                        r"new|join|follow|unfollow|leave|cancel|start|mix|rounds|seconds|in|at|CODE|top|"
                        r"UTC)\b|"
                        r"--closest", re.S)
OWN_SCRIPT = ("fa", "ar", "hi", "uk")


@pytest.mark.parametrize("language", OWN_SCRIPT)
def test_each_message_is_written_in_its_language_s_script(language: str):
    """No English left in a language of another script: outside markup, fields, commands and
    what the bot reads, not one Latin letter."""
    own = read_catalog(language)
    texts = [*own.messages.items(),
             *((f"{noun}{ONE}", form) for noun, forms in own.plurals.items() for form in forms)]
    latin = {key: found for key, message in texts
             if (found := re.findall(r"[A-Za-z]+", KEPT_LATIN.sub(" ", message)))}
    assert latin == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_arrows_are_written_as_english_writes_them(language: str):
    """"→" means "leads to" in every catalog; a right-to-left language shows it mirrored
    (bot.text.scripts), so a "←" written there would point back."""
    own = read_catalog(language)
    assert not [key for key, message in own.messages.items() if "←" in message]


def test_the_script_check_finds_english_left_in_a_translation():
    persian = read_catalog("fa").messages["no_round"]
    assert re.findall(r"[A-Za-z]+", KEPT_LATIN.sub(" ", persian + " Start a round")) == \
        ["Start", "a", "round"]


# the labels: each message whose note begins "A button" (the notices about buttons do not)
LABELS = [key for key in ENGLISH.messages
          if catalogs.description(ENGLISH.notes.get(key, []))[:1] and
          catalogs.description(ENGLISH.notes[key])[0].startswith(("A button", "The button"))]
BUTTON_WIDTH = 32  # characters a phone shows whole on a button of a row of two, value included


@pytest.mark.parametrize("language", LANGUAGES)
def test_button_labels_fit_a_phone(language: str):
    """A label, its value filled in ("⏱ 24 → 90 seconds"), no longer than a phone shows whole."""
    texts = Texts(language)
    long = {}
    assert len(LABELS) >= 20 and "button_hint" in LABELS and "button_unknown" not in LABELS
    for key in LABELS:
        values = {field: texts.duration(90) if "seconds" in field else "3"
                  for field in sample_values(texts.messages[key], None)}
        label = visible_text(texts(key, **values))
        if len(label) > BUTTON_WIDTH:
            long[key] = label
    assert long == {}


def test_a_kept_catalog_is_what_the_po_says_in_every_language(tmp_path: Path):
    """The bot's reader keeps what it read beside the .po; read back, it is the .po's catalog
    exactly, the translators' notes left out, in every language."""
    for language in LANGUAGES:
        source = tmp_path / language / "messages.po"
        source.parent.mkdir()
        source.write_bytes(catalogs.path_of(language).read_bytes())
        first = catalogs.load_catalog(language, source)
        assert list((source.parent / "__pycache__").glob("messages.*.json"))
        assert first == catalogs.load_catalog(language, source) == \
            replace(read_catalog(language), notes={})


def test_an_edited_po_is_read_afresh_and_a_broken_kept_file_is_not_trusted(tmp_path: Path):
    source = tmp_path / "messages.po"
    source.write_bytes(catalogs.path_of("ru").read_bytes())
    assert catalogs.load_catalog("ru", source) == replace(read_catalog("ru"), notes={})
    text = source.read_text(encoding="utf-8")
    won = f'msgstr "{read_catalog("ru").messages["won"]}"'
    assert won in text
    source.write_text(text.replace(won, 'msgstr "Победа: {name}"', 1), encoding="utf-8")
    edited = replace(read_catalog("ru", source), notes={})
    assert edited.messages["won"] == "Победа: {name}"
    assert catalogs.load_catalog("ru", source) == edited  # not the kept one of the old text
    kept = list((tmp_path / "__pycache__").glob("messages.*.json"))
    assert len(kept) == 1  # the old one removed
    kept[0].write_text('{"messages": ', encoding="utf-8")  # cut short
    assert catalogs.load_catalog("ru", source) == edited
    kept[0].write_text('{"messages": {}}', encoding="utf-8")  # not a catalog's fields
    assert catalogs.load_catalog("ru", source) == edited


def test_a_catalog_is_read_where_nothing_can_be_kept(tmp_path: Path):
    """A read-only install: the .po is read each time, and nothing fails."""
    source = tmp_path / "messages.po"
    source.write_bytes(catalogs.path_of("fa").read_bytes())
    (tmp_path / "__pycache__").write_text("a file where the folder would be")
    assert catalogs.load_catalog("fa", source) == replace(read_catalog("fa"), notes={})


def test_the_keep_command_keeps_every_catalog(capsys: pytest.CaptureFixture):
    """What an image's build runs (deploy/Dockerfile): after it, every language is kept."""
    assert catalogs.main(["keep"]) == 0
    assert capsys.readouterr().out.strip() == \
        f"kept {len(LANGUAGES)} catalogs and the languages' CLDR facts"


# fields that are words, not counts: a word after one of them may be a plural's ("{name} أي جولة")
WORDS = ("name", "names", "game", "answer", "expression", "title", "terms", "when", "code",
         "level", "group", "why", "current", "starter", "day", "season", "state", "puzzle")


def hand_written_counts(catalog: Catalog) -> list[str]:
    """Counts a catalog writes by hand where a plural of its own would inflect: a {field}, then
    (at most one word between, as in "{most} large numbers") one of the words of a plural noun
    whose forms differ by number in that language. A noun the language does not inflect by
    number (Chinese 局, Turkish tur after a numeral) reads the same either way."""
    found = []
    field = r"\{(?!(?:" + "|".join(WORDS) + r")\})\w+\}"
    for noun, forms in catalog.plurals.items():
        words = {form.replace("{count}", "").strip() for form in forms}
        if len(words) < 2:
            continue
        spelled = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
        counted = re.compile(field + r"\s?(?:\w+\s)?(?:" + spelled + r")(?!\w)")
        found += [f"{key}: {match.group(0)!r} (the plural {noun!r})"
                  for key, message in catalog.messages.items()
                  for match in counted.finditer(message)]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_goes_through_a_plural(language: str):
    """(issue 73) "3 rounds", "1 guesses": a number with its noun is written through the
    language's CLDR plural of that noun ({most:rounds}), never by hand beside a bare {most},
    in all sixteen catalogs."""
    assert hand_written_counts(read_catalog(language)) == []


def test_the_count_check_finds_a_count_written_by_hand():
    english = replace(ENGLISH, messages={**ENGLISH.messages,
                                         "match_over": "Match over: {played} of {count} rounds",
                                         "usage_large": "At most {most} large numbers."})
    assert sorted(hand_written_counts(english)) == [
        "match_over: '{count} rounds' (the plural 'rounds')",
        "usage_large: '{most} large numbers' (the plural 'large')",
        "usage_large: '{most} large numbers' (the plural 'numbers')"]
    russian = read_catalog("ru")
    by_hand = replace(russian, messages={**russian.messages, "deal_every_number":
                                         "Используйте каждое из {count} чисел ровно один раз."})
    assert hand_written_counts(by_hand) == [
        "deal_every_number: '{count} чисел' (the plural 'numbers')"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_message_of_help_is_whole_in_every_language(language: str):
    """/help's two messages (the commands, the rules) each fit one Telegram message with the
    longest name a bot may have and rounds of an hour: none is cut with "…" (the one message it
    was lost its rules in most languages once the solo modes were listed)."""
    parts = help_text(texts_for(language), "b" * 32, {name: 3600.0 for name in GAMES}, 3600.0)
    assert len(parts) == 2
    for part in parts:
        assert not part.endswith(MORE) and visible_length(part) <= LIMIT, language
