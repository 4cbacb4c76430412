"""/practice without Telegram, on both databases: a player who misses the steps past 24 in a
group is dealt hands that need one, at their level, and told so; a player whose rounds say
nothing yet gets a hand at their level, told why; refused in a group and over a round."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt, Said
from solver.themes import themes
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness
from tests.bot.play.pages.test_themes_section import PAST, PRODUCT, round_of
from tests.bot.webapp_support import ANN, hand_clock

HER = Player(ANN["id"], ANN["first_name"], language_code="en")
HERS = Chat(HER.id, "private")
NEW = Player(7801, "Nia", language_code="en")


@pytest.fixture
def clock(harness: Harness) -> Clock:
    clock = hand_clock(harness)
    harness.services.pages.clock = clock
    return clock


async def practised(h: Harness, chat: Chat, player: Player) -> Dealt:
    h.telegram.chat(chat.id, kind="private")  # a chat the bot can write to
    dealt = await h.services.practice.start(chat, player)
    assert isinstance(dealt, Dealt), dealt
    return dealt


@ON_BOTH_BACKENDS
async def test_a_player_who_misses_steps_past_24_practises_them(harness: Harness,
                                                                clock: Clock):
    for past, product in zip(PAST, PRODUCT, strict=True):
        await round_of(harness, clock, past, ann_solves=False)
        await round_of(harness, clock, product, ann_solves=True)
    await harness.services.hand_themes.written()
    assert await harness.services.practice.weakest(HER.id) == "beyond"
    for _ in range(4):
        dealt = await practised(harness, HERS, HER)
        assert "beyond" in themes(dealt.round.hand).codes, dealt.round.hand
        assert "🎯 Practice: a step past 24" in dealt.text
        again = await harness.services.practice.start(HERS, HER)  # one round at a time
        assert isinstance(again, Said) and harness.services.rounds.open_round(HERS.id)
        await harness.services.rounds.reveal(HERS, HER)
        clock.now += 5


@ON_BOTH_BACKENDS
async def test_a_player_with_nothing_to_go_on_gets_a_hand_at_their_level(harness: Harness):
    assert await harness.services.practice.weakest(NEW.id) is None
    dealt = await practised(harness, Chat(NEW.id, "private"), NEW)
    assert "a hand at your level" in dealt.text and len(dealt.round.hand) == 4


@ON_BOTH_BACKENDS
async def test_practice_is_played_alone(harness: Harness):
    said = await harness.services.practice.start(Chat(-7802, "group", "G"), NEW)
    assert isinstance(said, Said) and "/practice in a private chat" in said.text
    assert harness.services.rounds.open_round(-7802) is None
