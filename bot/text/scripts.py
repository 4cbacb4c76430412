"""How a language writes numbers and math inside its sentences.

One rule for every language (docs/translating.md): numbers, hands, expressions and commands are
written with the digits of the language's CLDR numbering system (Persian digits in `fa`; Latin in
`ar` and `hi`, as CLDR has it), which the bot reads back (solver.digits); `<pre>` tables keep
Latin digits, since a phone's fixed-width font may lack the others and the columns would drift.
In a right-to-left language every hand, expression and command is kept left to right inside the
sentence with Unicode's directional isolates (LRI … PDI), so that `8÷(3−8÷3)` does not show
reordered; an arrow there is mirrored (catalogs write "→" as English does, "leads to"), since
Unicode does not mirror arrows by itself. Digits glued to a Latin letter, `_` or `@` belong to a
name (@Bot24), never changed. Applying the rule twice changes nothing more.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from babel import Locale

LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate, pop directional isolate
# a stretch already isolated, a <pre> block, a <code> span, any other tag, or an entity: each
# taken whole
PIECE = re.compile(f"{LRI}.*?{PDI}|<pre>.*?</pre>|<code>.*?</code>|<[^>]*>|&#?\\w+;", re.S)
LATIN_DIGITS = re.compile(r"(?<![A-Za-z0-9_@])[0-9]+(?![A-Za-z0-9_])")
# a command with what follows it in Latin letters or digits (/match 10, /lang pt-BR, /solve 1 4
# 12 14 = 100): a right-to-left sentence has no other Latin words
COMMAND = r"(?<![\w/<@])/[A-Za-z]\w*(?:@\w+)?(?:[ \t]+(?:\d+|[A-Za-z][\w-]*))*" \
    r"(?:[ \t]*=[ \t]*\d+)?"
MIRRORED = str.maketrans({"→": "←"})  # once: a message inside a message is not turned back
NUMBER = r"[(]*[-−]?\d+(?:[.,٫٬]\d+)*[)]*"
OPERATOR = r"\s*[-−+×÷*/=]\s*"  # not ":", which ends a label ("24: 2 minutes")
MATH = f"{NUMBER}(?:{OPERATOR}{NUMBER})+"  # two numbers and a sign at least
LEFT_TO_RIGHT = re.compile(f"{COMMAND}|{MATH}")
# CLDR names a locale's numbering system (Babel has the name, not the digits); most names are a
# script's code, whose digits Unicode names after the script ("DEVANAGARI DIGIT ZERO"). These
# are the ones that are not.
ZERO_NAMES = {"latn": "DIGIT ZERO", "arab": "ARABIC-INDIC DIGIT ZERO",
              "arabext": "EXTENDED ARABIC-INDIC DIGIT ZERO", "fullwide": "FULLWIDTH DIGIT ZERO"}


@dataclass(frozen=True)
class Script:
    """A language's way with numbers: its digits and its direction."""

    digits: str  # its zero to nine
    right_to_left: bool

    @property
    def plain(self) -> bool:
        """Latin digits, left to right: nothing to do."""
        return self.digits == "0123456789" and not self.right_to_left

    def number_digits(self, text: str) -> str:
        """Latin digits as the language's, but for those of a name."""
        if self.digits == "0123456789":
            return text
        table = str.maketrans("0123456789", self.digits)
        return LATIN_DIGITS.sub(lambda found: found.group().translate(table), text)

    def isolated(self, text: str) -> str:
        """Commands and math in a run of text kept left to right."""
        return LEFT_TO_RIGHT.sub(lambda found: LRI + found.group() + PDI, text)

    def written(self, message: str) -> str:
        """A message of Telegram HTML as the language writes it (the module's rule)."""
        if self.plain:
            return message
        out, at = [], 0
        for piece in PIECE.finditer(message):
            out.append(self._text(message[at:piece.start()]))
            out.append(self._piece(piece.group()))
            at = piece.end()
        out.append(self._text(message[at:]))
        return "".join(out)

    def _text(self, text: str) -> str:
        text = self.number_digits(text)
        return self.isolated(text.translate(MIRRORED)) if self.right_to_left else text

    def _piece(self, piece: str) -> str:
        if not piece.startswith("<code>"):
            return piece  # isolated already, a tag, an entity, a <pre> table
        code = self.number_digits(piece)
        return LRI + code + PDI if self.right_to_left else code


def digits_of(system: str) -> str:
    """The ten digits of a CLDR numbering system ("arabext": ۰۱۲۳۴۵۶۷۸۹); Latin ones for a system
    whose digits Unicode does not name so (none of the bot's languages has one)."""
    name = ZERO_NAMES.get(system)
    if name is None:
        script = Locale("en").scripts.get(system.title(), system)
        name = f"{script.upper()} DIGIT ZERO"
    try:
        zero = ord(unicodedata.lookup(name))
    except KeyError:
        return "0123456789"
    return "".join(chr(zero + n) for n in range(10))


@cache
def script_of(locale: Locale) -> Script:
    """The digits of the locale's CLDR default numbering system, and its direction."""
    return Script(digits_of(locale.default_numbering_system),
                  locale.character_order == "right-to-left")
