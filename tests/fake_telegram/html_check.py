"""Telegram's HTML parse mode, checked as strictly as Telegram does: the tags it knows, balanced,
only its four named entities; returns the visible text (whose length is what the limit counts)."""

from __future__ import annotations

from html.parser import HTMLParser

ALLOWED = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
           "code", "pre", "blockquote", "tg-emoji"}
ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


class EntityError(ValueError):
    """What Telegram answers with "Bad Request: can't parse entities: ..."."""


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in ALLOWED:
            raise EntityError(f"Unsupported start tag \"{tag}\"")
        if tag == "span" and ("class", "tg-spoiler") not in attrs:
            raise EntityError("Unsupported span without class tg-spoiler")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise EntityError(f"Can't find end tag corresponding to start tag \"{tag}\"")
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if "<" in data or ">" in data:
            raise EntityError("Unexpected character")
        self.text.append(data)

    def handle_entityref(self, name: str) -> None:
        if name not in ENTITIES:
            raise EntityError(f"Unsupported entity \"&{name};\"")
        self.text.append(ENTITIES[name])

    def handle_charref(self, name: str) -> None:
        self.text.append(chr(int(name[1:], 16) if name.lower().startswith("x") else int(name)))


def visible_text(html_text: str) -> str:
    """The text Telegram shows, or EntityError."""
    if "&" in html_text.replace("&lt;", "").replace("&gt;", "").replace("&amp;", "") \
            .replace("&quot;", "") and "&#" not in html_text:
        raise EntityError("Unsupported entity")
    checker = _Checker()
    checker.feed(html_text)
    checker.close()
    if checker.stack:
        raise EntityError(f"Can't find end tag corresponding to start tag \"{checker.stack[-1]}\"")
    return "".join(checker.text)
