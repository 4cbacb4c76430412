"""Message length as Telegram counts it (text after entity parsing, UTF-16 code units), and
clipping to whole lines without leaving a tag open."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.text import markup
from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from bot.text.markup import LIMIT, MORE, clip, visible_length

EMOJI = "😀"  # U+1F600: two UTF-16 code units


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def shown(html: str) -> str:
    """What the chat shows; the strict reader raises on a tag left open or a broken entity."""
    return visible_text(html)


def test_visible_length_counts_what_telegram_counts():
    assert visible_length("<b>24</b>") == 2
    assert visible_length("&lt;&amp;&gt;&quot;") == 4
    assert visible_length(EMOJI) == 2 and visible_length("&#128512;") == 2
    assert visible_length("&#x1F600; 张") == 4
    assert visible_length('<span class="tg-spoiler">x</span>\n<pre>a b</pre>') == 5


def test_top_all_with_long_names_is_not_cut():
    """Issue 9: 64 '"' per name make 4,149 characters of HTML but under 1,000 visible."""
    texts = Texts("en")
    lines = [texts("top_title", title=texts("top_all"))]
    lines += [texts("top_line", rank=i, name=markup.name('"' * 64), points=123456, wins=999)
              for i in range(1, 11)]
    message = "\n".join(lines)
    assert len(message) > LIMIT and visible_length(message) < 1000
    assert clip(message) == message


def test_emoji_count_double_and_whole_lines_are_kept():
    lines = [f"{i:03} " + EMOJI * 30 for i in range(100)]  # 64 units a line, 65 with its break
    message = "\n".join(lines)
    assert len(message) < LIMIT < utf16(message)  # fits in code points, not in UTF-16
    clipped = clip(message)
    kept = clipped.split("\n")
    assert kept[-1] == MORE and kept[:-1] == lines[:len(kept) - 1]  # whole lines only
    assert utf16(shown(clipped)) <= LIMIT
    assert utf16(shown(clipped)) + 65 > LIMIT  # and as many as fit


def test_a_cut_inside_a_block_closes_its_tags():
    rows = [f"{i:4}  " + "x" * 40 for i in range(200)]
    message = "<b>Table</b>\n<pre>" + "\n".join(rows) + "</pre>\nafter"
    clipped = clip(message)
    assert clipped.endswith("</pre>\n" + MORE)
    text = shown(clipped)  # parses: nothing left open
    assert utf16(text) <= LIMIT and text.startswith("Table\n   0  ")
    nested = "<b><i>" + "\n".join(["word " * 20] * 100) + "</i></b>"
    assert clip(nested).endswith("</i></b>\n" + MORE)
    shown(clip(nested))


def test_entities_are_one_character_and_never_split():
    line = "&lt;&amp;&gt;" * 100  # 1,300 characters of HTML, 300 shown
    message = "\n".join([line] * 12)
    assert len(message) > LIMIT and visible_length(message) == 12 * 300 + 11
    assert clip(message) == message
    one_line = "&amp;" * 5000  # no line break to cut at: cut between entities
    clipped = clip(one_line)
    assert clipped.endswith("\n" + MORE) and utf16(shown(clipped)) <= LIMIT
    assert set(clipped[:-2]) <= set("&amp;")
    assert clipped[:-2].endswith("&amp;")


def test_short_messages_are_returned_as_they_are():
    assert clip("<b>24</b>") == "<b>24</b>"
    assert clip("x" * LIMIT) == "x" * LIMIT
    assert clip(EMOJI * (LIMIT // 2)) == EMOJI * (LIMIT // 2)
    assert utf16(shown(clip(EMOJI * (LIMIT // 2 + 1)))) <= LIMIT


pieces = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="<>&\n"),
            max_size=40),
    st.sampled_from([EMOJI * 7, "&lt;", "&amp;", "&quot;", "&#215;", "张三", "\n", "\n\n"]),
    st.builds(lambda tag, text: f"<{tag}>{text}</{tag}>", st.sampled_from(["b", "i", "code"]),
              st.sampled_from(["24", "8÷(3−8÷3)", "a\nb", EMOJI, "&gt;"])),
)
messages = st.builds(
    lambda parts, wrap, repeat: (("<pre>" + "".join(parts) + "</pre>") if wrap
                                 else "".join(parts)) * repeat,
    st.lists(pieces, min_size=1, max_size=30), st.booleans(), st.integers(1, 400))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(messages)
def test_clip_properties(message):
    if not message.strip() or (message.startswith("<pre>") and message.count("<pre>") > 1):
        message = message.replace("<pre>", "").replace("</pre>", "")  # <pre> does not nest
    assert visible_length(message) == utf16(shown(message))
    clipped = clip(message)
    assert utf16(shown(clipped)) <= LIMIT  # valid HTML, within the limit
    if visible_length(message) <= LIMIT:
        assert clipped == message
    else:
        assert clipped.endswith("\n" + MORE)
        kept = shown(clipped)[:-len("\n" + MORE)]
        full = shown(message)
        assert full.startswith(kept)
        if "\n" in full[:len(kept) + 1]:  # a line that fits: only whole lines are kept
            assert full[len(kept)] == "\n" or kept == ""


def test_clip_keeps_a_message_that_fits_only_after_entity_parsing():
    # 4,095 UTF-16 units shown, more in HTML: the scan's reserve for "…" must not cut it.
    message = ("\U00010000" * 7 + "&lt;") * 273
    assert utf16(message) > LIMIT and visible_length(message) == 4095
    assert clip(message) == message
