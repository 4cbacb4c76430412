"""A message is in one language (docs/translating.md): a result's every line — its head, the
achievements earned under it, a match's scoreboard, the solutions — in the language of its first
line, whoever's that is. A Persian winner of an English dealer's round got a Persian head and
English 🏅 lines; no more."""

from __future__ import annotations

import re

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Edited
from bot.play.services import Services
from bot.text import markup
from bot.text.i18n import texts_for
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-51, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
DARA = Player(3, "Dara", language_code="fa")
FA = texts_for("fa")


def latin_words(text: str, names: tuple[str, ...] = ("Ann", "Ben", "Dara")) -> list[str]:
    """The Latin-script words of a message once its names and code are taken out: none in a
    Persian message."""
    bare = re.sub(r"<code>.*?</code>|<[^>]+>", " ", text)
    return [w for w in re.findall(r"[A-Za-z]+", bare) if w not in names]


async def test_a_persian_winners_result_is_persian_to_its_last_line(services: Services,
                                                                   clock: Clock):
    """Ann (English) deals, Ben (English) misses, Dara (Persian) wins: the result opens in
    Dara's words, and the 🏅 lines under it are Persian too (the round counts: two answered)."""
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    await services.rounds.answer(GROUP, BEN, "1+2", explicit=True)
    clock.now += 3
    won = await services.rounds.answer(GROUP, DARA, solve(dealt.hand)[0], explicit=True)
    assert isinstance(won, Closed) and won.texts.language == "fa"
    earned = FA("achievement_earned", name=markup.name("Dara"),
                achievement=FA("achievement_first_win"))
    assert earned in won.text.splitlines()
    assert latin_words(won.text) == [], won.text


async def test_a_matchs_scoreboard_rides_in_the_results_language(services: Services,
                                                                  clock: Clock):
    """Ann starts a match in English; Dara wins its first round: the scoreboard under the
    Persian result is Persian."""
    await services.matches.start(GROUP, ANN, 2)
    current = services.rounds.open_round(GROUP.id)
    assert current is not None
    await services.rounds.answer(GROUP, BEN, "1+2", explicit=True)
    clock.now += 2
    won = await services.rounds.answer(GROUP, DARA, solve(current.hand)[0], explicit=True)
    assert isinstance(won, Closed)
    assert FA("match_scores", number=1, count=2) in won.text.splitlines()
    assert latin_words(won.text) == [], won.text


async def test_an_english_result_has_no_persian_line(services: Services, clock: Clock):
    """The same rule the other way: Ben (English) wins after Dara (Persian) earned nothing."""
    dealt = (await services.rounds.play(GROUP, DARA, "24")).round
    assert dealt is not None
    await services.rounds.answer(GROUP, DARA, "1+2", explicit=True)
    clock.now += 3
    won = await services.rounds.answer(GROUP, BEN, solve(dealt.hand)[0], explicit=True)
    assert isinstance(won, Closed) and won.texts.language == "en"
    assert "🏅 Ben earned: First win" in won.text
    assert not re.search(r"[\u0600-\u06FF]", won.text), won.text


async def test_a_hint_goes_into_the_deal_in_the_deals_language(services: Services,
                                                               clock: Clock):
    """Ann (English) deals; Dara (Persian) asks for a hint: the line written into the English
    deal is English, its buttons stay English, and Dara's own notice is Persian."""
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    await services.outbox.deal_sent(dealt.id, 91)

    async def admin() -> bool:
        return True

    hint = await services.rounds.hint(GROUP, DARA, admin)
    assert isinstance(hint, Edited) and hint.texts.language == "en"
    [line] = [line for line in hint.text.splitlines() if line.startswith("💡")]
    assert line.startswith("💡 Hints: ") and latin_words(hint.text) != []
    assert hint.notice.startswith("💡 راهنمایی ۱:")
