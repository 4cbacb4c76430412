"""The status a deal carries under its puzzle, instead of a message per answer: the closest
answers so far, the attempts that did not win and why ("skips 13", "= 22, not 24", "illegal: 7−9
is negative", "23 away") — each one that came since the status was last written, so a burst of
misses inside one interval all show in the next edit — and who passed. It is written into the deal
at most once every STATUS_EVERY seconds per round; what comes in between waits for the STATUS
alarm, which writes the status as it then stands (so a burst of answers costs one edit, not one
each).
"""

from __future__ import annotations

from bot.play.games import GAMES
from bot.play.round.open_round import OpenRound
from bot.text import markup
from bot.text.i18n import Texts

STATUS_EVERY = 1.0  # seconds between two writes of one round's status


def status_line(current: OpenRound, texts: Texts, answered: int) -> str:
    """The status as it stands (empty: nothing to say yet), in the round's language (the
    deal's); `answered`: how many players answered, of whom those in `current.passed`
    passed."""
    rules, words = current.rules, GAMES[current.record.game].words
    lines = []
    leaders = [(a, rules.points_for(a.distance)) for a in current.leaders()
               if a.distance is not None]
    if scoring := [(a, points) for a, points in leaders if points > 0]:
        lines.append(texts("status_closest", standings=" · ".join(
            texts("status_standing", name=markup.name(a.name), distance=a.distance,
                  points=points) for a, points in scoring)))
    for missed in current.misses:
        lines.append(texts("status_latest" if missed.distance is None else "status_latest_valid",
                           name=markup.name(missed.name),
                           expression=markup.code(missed.verdict.expression),
                           why=words.why_text(missed.verdict, current.record, texts)))
    if current.passed:
        lines.append(texts("status_passed", names=texts.listing(
            [markup.name(n) for n in current.passed]), count=len(current.passed),
            answered=max(answered, len(current.passed))))
    return "\n".join(lines)
