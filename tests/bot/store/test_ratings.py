"""The ratings' store on both backends (a SQLite file and the session's PostgreSQL): a rating is
written with the close of its round, once; rows are written as steps, so two closes sharing a
player both count; the boards; a daily answer rated with its result; /forget takes a person's
ratings."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from bot.play.ratings.model import SHAPES
from bot.play.ratings.records import PLAYER_PROVISIONAL
from bot.store import schema
from bot.store.records import HandRow, RatingRow, RatingWrite, ScaleRow
from bot.store.sql.ratings import QMARK, SETTLED
from bot.store.stores import Stores

CHAT = -500
SEASON = "2026-11"


def write(at: float, *players: tuple[int, float, float] | tuple[int, float, float, int],
          hand: float = -2.0, hand_step: float = 0.0) -> RatingWrite:
    """A rating that puts each (player, rating after, step[, responses of a new row: 1]) and
    the hand at `hand`."""
    return RatingWrite(
        at=at,
        players=tuple((RatingRow(user, "24", SEASON, rating, 1.0,
                                 (*rest, 1)[0], at), step)
                      for user, rating, step, *rest in players),
        hand=(HandRow("24", "1 2 3 4=24", 4, 24, hand, 0.5, len(players), at), hand_step),
        hand_responses=len(players),
        scale=(ScaleRow("24", 1.1, 0.4, 1, at), 0.1))


async def people(stores: Stores) -> Stores:
    await stores.people.remember_chat(CHAT, "group", "G")
    for user, name in ((1, "Ann"), (2, "Ben"), (3, "Cy")):
        await stores.people.remember_user(user, name)
    return stores


async def dealt(stores: Stores, start: float = 100.0) -> int:
    made = await stores.rounds.open_round(CHAT, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                          start, start + 60)
    assert made is not None
    return made.id


async def test_a_rating_is_written_with_its_close_once(stores: Stores):
    await people(stores)
    round_id = await dealt(stores)
    await stores.rounds.record_answer(round_id, 1, "1*2*3*4", True, 105.0)
    rating = write(105.0, (1, 0.4, 0.4), (2, -0.2, -0.2), hand=-2.3, hand_step=-0.3)
    assert await stores.rounds.close_round(round_id, "won", 105.0, 1, "1*2*3*4", 10, 5.0,
                                           rating)
    # a second close (a retry, a restart's) neither closes nor rates
    assert not await stores.rounds.close_round(round_id, "won", 105.0, 1, "1*2*3*4", 10, 5.0,
                                               rating)
    assert await stores.ratings.is_rated(round_id)
    [ann] = await stores.ratings.player_ratings(1, "24")
    assert (ann.season, ann.rating, ann.responses) == (SEASON, 0.4, 1)
    assert [r.rating for r in await stores.ratings.player_ratings(2, "24")] == [-0.2]
    hand = await stores.ratings.hand_rating("24", "1 2 3 4=24")
    assert hand is not None and (hand.difficulty, hand.responses) == (-2.3, 2)
    scale = await stores.ratings.scale("24")
    assert scale is not None and (scale.shape, scale.rounds) == (1.1, 1)
    assert [h.hand for h in await stores.ratings.hand_ratings("24", 4, 24)] == ["1 2 3 4=24"]
    # and the scores the close writes are as without a rating
    assert [s.wins for s in await stores.scores.stats(CHAT, 1)] == [1]


async def test_two_closes_that_share_a_player_both_count(stores: Stores):
    """Each computed from the same row (two chats closing at once): the second adds its step."""
    await people(stores)
    first = await dealt(stores)
    assert await stores.rounds.close_round(first, "expired", 160.0,
                                           rating=write(160.0, (1, -0.3, -0.3), hand_step=0.2))
    second = await dealt(stores, 200.0)
    assert await stores.rounds.close_round(second, "expired", 260.0,
                                           rating=write(260.0, (1, -0.25, -0.25), hand_step=0.2))
    [ann] = await stores.ratings.player_ratings(1, "24")
    assert round(ann.rating, 9) == -0.55 and ann.responses == 2
    hand = await stores.ratings.hand_rating("24", "1 2 3 4=24")
    assert hand is not None and round(hand.difficulty, 9) == -1.8 and hand.responses == 2
    scale = await stores.ratings.scale("24")
    assert scale is not None and round(scale.shape, 9) == 1.2 and scale.rounds == 2


async def test_closes_at_once_keep_the_shape_within_its_bounds(stores: Stores):
    """Many closes computed from the same shape at once (a burst of rounds ending): their steps
    add up, but never past the model's bounds — below them lies zero, which the model divides
    by; above them, the other bound."""
    await people(stores)
    for number, step in enumerate([-0.6] * 4 + [3.0] * 4):
        shape = 0.3 if step < 0 else 4.9
        made = await dealt(stores, 100.0 + 100 * number)
        rating = dataclasses.replace(write(160.0 + 100 * number, (1, 0.1, 0.1)),
                                     scale=(ScaleRow("24", shape, 0.4, 1, 160.0), step),
                                     shape_bounds=SHAPES)
        assert await stores.rounds.close_round(made, "expired", 160.0 + 100 * number,
                                               rating=rating)
        scale = await stores.ratings.scale("24")
        assert scale is not None and SHAPES[0] <= scale.shape <= SHAPES[1], scale
    assert scale.shape == SHAPES[1] and scale.rounds == 8


async def test_a_player_forgotten_before_the_close_is_not_rated(stores: Stores):
    await people(stores)
    round_id = await dealt(stores)
    await stores.forgetting.forget_user(3)
    assert await stores.rounds.close_round(round_id, "expired", 160.0,
                                           rating=write(160.0, (1, 0.1, 0.1), (3, 0.2, 0.2)))
    assert await stores.ratings.player_ratings(3, "24") == []
    assert len(await stores.ratings.player_ratings(1, "24")) == 1


async def test_forget_takes_a_persons_ratings(stores: Stores):
    await people(stores)
    round_id = await dealt(stores)
    assert await stores.rounds.close_round(
        round_id, "expired", 160.0, rating=write(160.0, (1, 0.1, 0.1), (2, 0.2, 0.2)))
    await stores.forgetting.forget_user(1)
    assert await stores.ratings.player_ratings(1, "24") == []
    assert len(await stores.ratings.player_ratings(2, "24")) == 1
    assert await stores.ratings.hand_rating("24", "1 2 3 4=24") is not None  # names nobody


async def test_the_boards(stores: Stores):
    await people(stores)
    await stores.people.remember_chat(-600, "group", "H")
    first = await dealt(stores)
    await stores.rounds.record_answer(first, 1, "1+2", False, 101.0)
    await stores.rounds.record_answer(first, 2, "1+2", False, 101.0)
    assert await stores.rounds.close_round(  # Ann and Ben settled (10 rounds, 11), Cy not
        first, "expired", 160.0,
        rating=write(160.0, (1, 0.5, 0.5, 10), (2, 0.9, 0.9, 11), (3, 1.5, 1.5)))
    other = await stores.rounds.open_round(-600, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                           300.0, 360.0)
    assert other is not None
    await stores.rounds.record_answer(other.id, 3, "1+2", False, 301.0)
    assert await stores.rounds.close_round(other.id, "expired", 360.0,
                                           rating=write(360.0, (3, 1.6, 0.1)))
    # the settled alone are ranked: Cy's 1.6 on two rounds is shown apart, never first
    board = await stores.ratings.board("24", SEASON, 10)
    assert [(p.rank, p.name, p.responses) for p in board] == [(1, "Ben", 11), (2, "Ann", 10)]
    assert [(p.name, p.responses) for p in await stores.ratings.provisional("24", SEASON, 10)] \
        == [("Cy", 2)]
    # a chat's board: those with scores in it (Cy answered only in the other chat)
    chat = await stores.ratings.board("24", SEASON, 10, chat_id=CHAT)
    assert [p.name for p in chat] == ["Ben", "Ann"]
    assert await stores.ratings.provisional("24", SEASON, 10, chat_id=CHAT) == []
    assert [p.name for p in await stores.ratings.provisional("24", SEASON, 10, -600)] == ["Cy"]
    assert await stores.ratings.board("24", SEASON, 10, chat_id=-600) == []
    [ann] = await stores.ratings.player_ratings(1, "24")
    assert await stores.ratings.place("24", SEASON, ann) == 2  # Cy, rated higher, not counted
    assert await stores.ratings.place("24", SEASON, ann, chat_id=CHAT) == 2
    [ben] = await stores.ratings.player_ratings(2, "24")
    assert await stores.ratings.place("24", SEASON, ben) == 1
    assert await stores.ratings.board("24", "2026-10", 10) == []


def test_the_settled_threshold_is_one_number_in_the_model_the_statements_and_the_index():
    """The rule's number (the model's PLAYER_PROVISIONAL) is what the statements write and what
    schema steps 29's and 32's partial indexes say: were they to differ, an engine would read
    the whole season for a place, or rank a player the model calls provisional."""
    deltas = Path(schema.__file__).parent / "delta"
    step = (deltas / "29" / "1_settled_ratings.sql").read_text()
    assert f"WHERE responses >= {SETTLED};" in step
    chats = (deltas / "32" / "3_filled.sql").read_text()  # a chat's board's two indexes
    assert f"WHERE responses >= {SETTLED};" in chats and f"WHERE responses < {SETTLED};" in chats
    assert SETTLED == PLAYER_PROVISIONAL
    for statement in (QMARK.board, QMARK.chat_boards, QMARK.looked_boards, QMARK.place,
                      QMARK.chat_place):
        assert f"responses >= {SETTLED} " in statement
    for statement in (QMARK.provisional, QMARK.chat_boards, QMARK.looked_boards):
        assert f"responses < {SETTLED} " in statement


async def test_what_a_rating_reads_of_a_round(stores: Stores):
    await people(stores)
    round_id = await dealt(stores)
    await stores.rounds.record_answer(round_id, 2, "1+2", False, 103.0)
    await stores.rounds.record_answer(round_id, 1, "1*2*3*4", True, 105.0)
    await stores.rounds.record_pass(round_id, 3, 104.0)
    answers = await stores.ratings.responses(round_id)
    assert [(a.user_id, a.correct, a.at) for a in answers] == [(2, False, 103.0),
                                                               (1, True, 105.0)]
    assert await stores.ratings.passes(round_id) == [(3, 104.0)]
    assert not await stores.ratings.is_rated(round_id)
    assert await stores.ratings.rounds_played(CHAT, "24", 5) == 0
    assert await stores.rounds.close_round(round_id, "won", 105.0, 1, "1*2*3*4", 10, 5.0)
    assert await stores.ratings.rounds_played(CHAT, "24", 5) == 1
    assert await stores.ratings.recent_ratings(CHAT, "24", 10, 0.0) == {1: [], 2: []}
    assert await stores.ratings.recent_ratings(CHAT, "24", 10, 104.0) == {1: []}


async def test_the_recent_players_come_with_their_ratings_in_one_read(stores: Stores):
    """What an adaptive deal aims at: each recent player's latest season's row, as
    player_ratings has it first; a player never rated, none."""
    await people(stores)
    for at, rated in ((100.0, write(105.0, (1, 0.4, 0.4))),
                      (200.0, dataclasses.replace(write(205.0, (1, 0.9, 0.5)), players=(
                          (RatingRow(1, "24", "2026-12", 0.9, 1.0, 1, 205.0), 0.5),)))):
        round_id = await dealt(stores, at)
        await stores.rounds.record_answer(round_id, 1, "1*2*3*4", True, at + 5)
        await stores.rounds.record_answer(round_id, 2, "1+2", False, at + 4)
        assert await stores.rounds.close_round(round_id, "won", at + 5, 1, "1*2*3*4", 10, 5.0,
                                               rated)
    found = await stores.ratings.recent_ratings(CHAT, "24", 10, 0.0)
    assert found == {1: (await stores.ratings.player_ratings(1, "24"))[:1], 2: []}
    assert [row.season for row in found[1]] == ["2026-12"]


async def test_a_daily_answer_is_rated_with_its_result_once(stores: Stores):
    await people(stores)
    rating = write(500.0, (1, 0.3, 0.3))
    assert await stores.ratings.record_daily("2026-11-24", "24", 1, 1, "1*2*3*4", 40.0, 500.0,
                                             rating)
    assert not await stores.ratings.record_daily("2026-11-24", "24", 1, 1, "1*2*3*4", 41.0, 501.0,
                                                 write(501.0, (1, 0.6, 0.3)))
    [ann] = await stores.ratings.player_ratings(1, "24")
    assert (ann.rating, ann.responses) == (0.3, 1)
    done = await stores.daily.daily_result("2026-11-24", "24", 1)
    assert done is not None and done.seconds == 40.0


async def test_closes_of_one_round_at_once_close_and_rate_it_once(stores: Stores):
    """The same round closed several times at once (a right answer, its retry, the timer's
    time-out, each rated or not, in any order): one of them closes it, its rating is written
    if it had one, and the others write nothing, neither a second rating nor a second score.
    On PostgreSQL a rated close's guard is its rating's key, which locks the round's row: a
    close arriving meanwhile waits for it, then finds the round closed."""
    await people(stores)
    for number in range(4):
        round_id = await dealt(stores, 1000.0 * (number + 1))
        at = 1000.0 * (number + 1) + 5
        await stores.rounds.record_answer(round_id, 1, "1*2*3*4", True, at)
        rated = [stores.rounds.close_round(round_id, "won", at, 1, "1*2*3*4", 10, 5.0,
                                           write(at, (1, 0.1, 0.1))) for _ in range(3)]
        plain = [stores.rounds.close_round(round_id, "expired", at + 55)]
        tries = rated + plain if number % 2 == 0 else plain + rated
        results = await asyncio.gather(*tries)
        assert results.count(True) == 1
        status = (await stores.rounds.get_round(round_id)).status
        assert await stores.ratings.is_rated(round_id) == (status == "won")
    [ann] = await stores.ratings.player_ratings(1, "24")
    wins = [s.wins for s in await stores.scores.stats(CHAT, 1)]
    assert ann.responses == wins[0] and wins[0] >= 1 and len(wins) == 1
    scale = await stores.ratings.scale("24")
    assert scale is not None and scale.rounds == wins[0]
