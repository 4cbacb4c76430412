"""One count of rounds a player can read everywhere, each saying what it counts where two differ
(issue 55, item 3): /stats's rounds are this chat's, its rating's this season's in all chats
(the daily puzzle too), and /top rating's title says what its counts count."""

from __future__ import annotations

from bot.play.chats.people import Chat, Player
from bot.play.community.boards import BoardAsk
from bot.play.services import Services
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-71, "group", "G")
OTHER = Chat(-72, "group", "H")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")


async def round_in(services: Services, clock: Clock, chat: Chat, wins: bool) -> None:
    """Ben deals, Ann answers: right (a win) or wrong (then the time runs out)."""
    dealt = (await services.rounds.play(chat, BEN, "24")).round
    assert dealt is not None
    clock.now += 5
    if wins:
        await services.rounds.answer(chat, ANN, solve(dealt.hand)[0], explicit=True)
    else:
        await services.rounds.answer(chat, ANN, "1+2", explicit=True)
        await services.rounds.expire(dealt.id)


async def test_stats_says_what_each_count_counts(services: Services, stores: Stores,
                                                 clock: Clock):
    """The issue's /stats: "2 wins in 3 rounds", then a rating "(6 rounds)" — now the first
    is this chat's and the second says it is this season's, in all chats."""
    clock.now = 1_795_000_000.0  # 2026-11-18
    for chat, wins in ((GROUP, True), (GROUP, True), (GROUP, False), (OTHER, True),
                       (OTHER, True)):
        await round_in(services, clock, chat, wins)
    [row] = await stores.ratings.player_ratings(ANN.id, "24")
    stats = (await services.community.standings.stats(GROUP, ANN)).splitlines()
    assert stats[0] == "<b>Ann</b> in this chat:"
    assert "2 wins in 3 rounds" in stats[1]
    assert row.responses == 5 and f"from {row.responses} rounds you dealt, answered or passed " \
        "in, in all chats (the daily puzzle counts too)" in stats[-1]
    # Ben dealt the five and answered none: rated on them all, and his line says why (issue 73:
    # a count of rounds the player "played" that no line said included the ones they dealt)
    [dealer] = await stores.ratings.player_ratings(BEN.id, "24")
    dealt = (await services.community.standings.stats(GROUP, BEN)).splitlines()
    assert dealer.responses == 5 and "from 5 rounds you dealt, answered or passed in" in dealt[-1]
    board = await services.community.standings.board(GROUP, BEN, BoardAsk("rating"))
    assert board.splitlines()[1] == "(in brackets: rounds rated this season, in all chats)"
    assert "Ann — " in board and f"({row.responses} rounds)" in board
