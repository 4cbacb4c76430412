"""Ratings move when a round closes (a right answer, a time-out, a pass), in the transaction
that closes it, once: a restart's recovery neither counts a round twice nor loses one, through
the services and through the real Application stopped and started again."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.play.chats.people import Chat, Player
from bot.play.ratings import hand_key, new_hand
from bot.play.ratings.rater import fixed_difficulty
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.store.stores import Stores
from demo.emulator import BotApiEmulator
from solver import rating as rating_module
from solver import solve
from solver.rating import CUTS
from tests.bot.conftest import Clock, FakeScheduler, make_config, new_services, ring_due, running
from tests.bot.play.community.test_rating_boards import settle

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
CY = Player(3, "Cy", language_code="en")


async def rating(stores: Stores, player: Player) -> tuple[float, int] | None:
    """The player's (rating, responses) this season, None when never rated."""
    rows = await stores.ratings.player_ratings(player.id, "24")
    return (rows[0].rating, rows[0].responses) if rows else None


def prior(dealt: Round) -> float:
    """The hand's difficulty before any play: the fixed model's."""
    return new_hand("24", hand_key(dealt.hand, dealt.target), 0.0, len(dealt.hand),
                    dealt.target, fixed_difficulty(dealt.hand, dealt.target,
                                                   dealt.level)).difficulty


async def difficulty(stores: Stores, dealt: Round) -> tuple[float, int]:
    found = await stores.ratings.hand_rating("24", hand_key(dealt.hand, dealt.target))
    assert found is not None
    return found.difficulty, found.responses


def test_a_prior_comes_from_the_table_where_it_holds_the_hand(monkeypatch):
    """A close's prior for the usual four, five or six cards is read, not walked; any other
    four numbers are walked (a fraction of a millisecond); other hands take their level's
    middle."""
    walked: list[tuple] = []
    model = rating_module.modelled_difficulty
    monkeypatch.setattr(rating_module, "modelled_difficulty",
                        lambda *hand: walked.append(hand) or model(*hand))
    assert fixed_difficulty((8, 3, 8, 3), 24, "hard") == model((3, 3, 8, 8), 24)
    assert fixed_difficulty((1, 2, 3, 4, 5, 6), 24, "easy") is not None
    assert walked == []
    assert fixed_difficulty((1, 2, 3, 14), 24, "easy") == model((1, 2, 3, 14), 24)
    assert walked == [((1, 2, 3, 14), 24)]
    assert fixed_difficulty((1, 2, 3, 4, 5, 14), 24, "hard") == CUTS[6][1] + 1.0


async def test_a_fast_win_lifts_the_winner_the_losers_lose(
        services: Services, stores: Stores, clock: Clock):
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    clock.now += 0.5
    await services.rounds.answer(GROUP, BEN, "1+1", explicit=True)
    clock.now += 0.5  # an easy hand: half the players would have it in about 4 s
    await services.rounds.answer(GROUP, CY, solve(dealt.hand)[0], explicit=True)
    won, wrong, dealer = (await rating(stores, CY), await rating(stores, BEN),
                          await rating(stores, ANN))
    assert won is not None and won[0] > 0 and won[1] == 1
    assert wrong is not None and wrong[0] < 0  # answered wrong, then lost the race
    assert dealer is not None and dealer[0] < 0 < won[0]  # still trying when it was won
    assert dealer[0] > wrong[0]  # stopped early, no wrong answer: the smaller loss
    assert (await difficulty(stores, dealt))[1] == 3
    assert await stores.ratings.is_rated(dealt.id)
    # a hand its one player solves at once is easier than the model thought
    alone = (await services.rounds.play(GROUP, CY, "24")).round
    assert alone is not None
    clock.now += 1
    await services.rounds.answer(GROUP, CY, solve(alone.hand)[0], explicit=True)
    if hand_key(alone.hand, 24) != hand_key(dealt.hand, 24):
        assert (await difficulty(stores, alone))[0] < prior(alone)
    cy = await rating(stores, CY)
    assert cy is not None and cy[0] > won[0] and cy[1] == 2


async def test_a_time_out_makes_the_hand_harder_and_a_pass_costs(
        wired: tuple[Services, FakeScheduler], stores: Stores, clock: Clock):
    services, scheduler = wired
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    await services.rounds.answer(GROUP, BEN, "1+1", explicit=True)
    await services.rounds.answer(GROUP, CY, "1+1", explicit=True)
    clock.now += 5
    await services.rounds.pass_round(GROUP, CY)
    clock.now += 120
    await ring_due(services, scheduler)
    assert services.rounds.open_round(GROUP.id) is None
    for player in (ANN, BEN, CY):
        found = await rating(stores, player)
        assert found is not None and found[0] < 0 and found[1] == 1, player
    assert (await difficulty(stores, dealt))[0] > prior(dealt)
    # the next round starts from these rows: each player's second response
    again = (await services.rounds.play(GROUP, ANN, "24")).round
    assert again is not None
    await services.rounds.reveal(GROUP, ANN)
    assert (await rating(stores, ANN) or (0.0, 0))[1] == 2


async def test_a_round_of_a_game_unrated_is_not_rated(services: Services, stores: Stores):
    dealt = (await services.rounds.play(GROUP, ANN, "yahtzee")).round
    assert dealt is not None
    await services.rounds.reveal(GROUP, ANN)
    assert await rating(stores, ANN) is None and not await stores.ratings.is_rated(dealt.id)


async def test_a_restart_neither_counts_a_round_twice_nor_loses_one(
        services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    await stores.people.remember_user(BEN.id, BEN.first_name)
    # the bot stored a right answer, then died before the close's transaction
    await stores.rounds.record_answer(dealt.id, BEN.id, solve(dealt.hand)[0], True, 1001.0)
    assert await rating(stores, BEN) is None
    clock.now += 120
    again, _ = new_services(stores, pool, clock, seed=2)
    [result] = await again.recovery.resume()
    assert "<b>Ben</b> wins" in result.text
    ben = await rating(stores, BEN)
    assert ben is not None and ben[0] > 0 and ben[1] == 1
    hand = await difficulty(stores, dealt)
    # the close committed, its result never sent: the next start sends it, rates nothing
    second = (await again.rounds.play(GROUP, ANN, "24")).round
    assert second is not None
    again.outbox.publisher.fails = True  # type: ignore[attr-defined]
    with contextlib.suppress(ConnectionError):
        await again.rounds.answer(GROUP, BEN, solve(second.hand)[0], explicit=True)
    after_win = await rating(stores, BEN)
    assert after_win is not None and after_win[1] == 2
    third, _ = new_services(stores, pool, clock, seed=3)
    assert [r.round.id for r in await third.recovery.resume()] == [second.id]
    assert await rating(stores, BEN) == after_win
    assert (await new_services(stores, pool, clock, seed=4)[0].recovery.resume()) == []
    assert await rating(stores, BEN) == after_win
    if hand_key(second.hand, 24) != hand_key(dealt.hand, 24):
        assert await difficulty(stores, dealt) == hand


GROUP_ID = -1001
ALICE = {"id": 11, "is_bot": False, "first_name": "Alice"}
BOB = {"id": 12, "is_bot": False, "first_name": "Bob"}


def responses(path: Path, user_id: int) -> list[tuple[float, int]]:
    with sqlite3.connect(path) as database:
        return database.execute("SELECT rating, responses FROM player_ratings "
                                "WHERE user_id = ?", (user_id,)).fetchall()


async def test_killed_between_the_answer_and_the_close_the_bot_rates_it_once_on_restart(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config) as bot:
        await bot.send(GROUP_ID, ALICE, "/play")
        await telegram.reply(GROUP_ID)
        current = bot.services.rounds.open_round(GROUP_ID)
        assert current is not None
        await bot.send(GROUP_ID, BOB, "/a 1+1")
        # the answer is stored, the close never written: the bot is killed here
        await bot.stores.rounds.record_answer(current.id, ALICE["id"], solve(current.hand)[0],
                                              True, current.started_at + 1)
        assert bot.app.job_queue is not None
        for job in bot.app.job_queue.jobs():
            job.schedule_removal()
        bot.services.table.scheduler.cancel_chats(lambda chat: True)  # and the alarms
    assert responses(config.database_path, ALICE["id"]) == []
    async with running(telegram, pool, config) as bot:  # recovery closes it: Alice won
        assert bot.services.rounds.open_round(GROUP_ID) is None
    [(alice, count)] = responses(config.database_path, ALICE["id"])
    [(bob, bob_count)] = responses(config.database_path, BOB["id"])
    assert alice > 0 > bob and count == bob_count == 1
    async with running(telegram, pool, config):  # and again: nothing more
        pass
    assert responses(config.database_path, ALICE["id"]) == [(alice, 1)]
    assert responses(config.database_path, BOB["id"]) == [(bob, 1)]


async def test_a_daily_answer_is_a_response_of_its_own(services: Services, stores: Stores,
                                                       clock: Clock):
    """Rated once, with its result: faster after the hand was shown counts for more."""
    me = Chat(ANN.id, "private", None)
    daily = services.community.daily
    await daily.show(me, ANN)
    clock.now += 3
    await daily.answer(me, ANN, "1+1")  # wrong: no result, no rating
    assert await rating(stores, ANN) is None
    right = solve(daily.hand_now())[0]
    await daily.answer(me, ANN, right)
    first = await rating(stores, ANN)
    assert first is not None and first[1] == 1
    await daily.answer(me, ANN, right)  # solved already: nothing more
    assert await rating(stores, ANN) == first
    # Ben never asked here (shown in a group, say): a solve taken as the usual round's length
    them = Chat(BEN.id, "private", None)
    clock.now += 20
    await daily.answer(them, BEN, right)
    ben = await rating(stores, BEN)
    assert ben is not None and ben[1] == 1 and 0 <= ben[0] < first[0]  # a solve never lowers
    found = await stores.ratings.hand_rating("24", hand_key(daily.hand_now(), 24))
    assert found is not None and found.responses == 2


async def test_countdown_counts_the_best_the_hand_can_do_as_solved(
        services: Services, stores: Stores, clock: Clock):
    """831 cannot be made from 1 3 7 10 25 50: 830, the nearest, solves it."""
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    hand = (1, 3, 7, 10, 25, 50)
    made = await stores.rounds.open_round(GROUP.id, "countdown", hand, 831, "", 10, "en",
                                          clock.now, clock.now + 60)
    assert made is not None
    await services.people.load()
    services.table.load(await stores.rounds.open_rounds())
    assert (await services.rounds.analyses.of("countdown", hand, 831)).best[0] == 830
    clock.now += 1
    await services.rounds.answer(GROUP, BEN, "10*(3*25+1+7)", explicit=True)  # 830
    await services.rounds.answer(GROUP, CY, "50*10+25*7", explicit=True)  # 675
    await services.rounds.expire(made.id)
    ben, cy = await stores.ratings.player_ratings(BEN.id, "countdown"), \
        await stores.ratings.player_ratings(CY.id, "countdown")
    assert ben[0].rating > 0 > cy[0].rating


async def test_killed_after_the_close_committed_the_restart_rates_nothing_again(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config) as bot:
        await bot.send(GROUP_ID, ALICE, "/play")
        await telegram.reply(GROUP_ID)
        current = bot.services.rounds.open_round(GROUP_ID)
        assert current is not None
        await bot.send(GROUP_ID, BOB, "/a 1+1")
        # the close's transaction commits, as the table's commit writes it; the bot is killed
        # before the result is sent
        at, answer = current.started_at + 1, solve(current.hand)[0]
        await bot.stores.rounds.record_answer(current.id, ALICE["id"], answer, True, at)
        rater = bot.services.table.rater
        assert rater is not None
        rating = await rater.of_round(current, at)
        assert await bot.stores.rounds.close_round(current.id, "won", at, ALICE["id"], answer,
                                                   current.points, 1.0, rating)
        assert bot.app.job_queue is not None
        for job in bot.app.job_queue.jobs():
            job.schedule_removal()
        bot.services.table.scheduler.cancel_chats(lambda chat: True)  # and the alarms
    [(alice, count)] = responses(config.database_path, ALICE["id"])
    [(bob, _)] = responses(config.database_path, BOB["id"])
    assert count == 1
    async with running(telegram, pool, config):  # the result owed is sent; nothing is rated
        assert "Alice" in (await telegram.reply(GROUP_ID)).text
    assert responses(config.database_path, ALICE["id"]) == [(alice, 1)]
    assert responses(config.database_path, BOB["id"]) == [(bob, 1)]


async def test_a_slow_win_never_lowers_the_winner(services: Services, stores: Stores,
                                                   clock: Clock):
    """Ben, rated far above this hand, wins it a second before the time is up: the likelihood
    alone would lower him (he was expected much sooner); a win keeps what he had at least."""
    await settle(stores, clock, BEN, 4.0, 30)
    [before] = await stores.ratings.player_ratings(BEN.id, "24")
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    await services.rounds.answer(GROUP, ANN, "1+1", explicit=True)
    clock.now += 59  # the round lasts 60 s
    won = await services.rounds.answer(GROUP, BEN, solve(dealt.hand)[0], explicit=True)
    assert won is not None and "<b>Ben</b> wins" in won.text
    [after] = await stores.ratings.player_ratings(BEN.id, "24")
    assert after.responses == before.responses + 1 and after.rating >= before.rating
    ann = await rating(stores, ANN)
    assert ann is not None and ann[0] < 0  # the loser still loses


async def test_a_countdown_winner_short_of_the_best_is_not_lowered(
        services: Services, stores: Stores, clock: Clock):
    """830 can be made from 1 3 7 10 25 50: Ben's 820 wins the round (the closest at the end)
    but falls short of the hand's best, which to the model is a miss; a win never lowers its
    winner, so the round rates him not at all, and rates Cy, further off, as it did."""
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    hand = (1, 3, 7, 10, 25, 50)
    made = await stores.rounds.open_round(GROUP.id, "countdown", hand, 830, "", 10, "en",
                                          clock.now, clock.now + 60)
    assert made is not None
    await services.people.load()
    services.table.load(await stores.rounds.open_rounds())
    assert (await services.rounds.analyses.of("countdown", hand, 830)).best[0] == 830
    clock.now += 1
    await services.rounds.answer(GROUP, BEN, "10*(3*25+7)", explicit=True)  # 820
    await services.rounds.answer(GROUP, CY, "50*10+25*7", explicit=True)  # 675
    closed = await services.rounds.expire(made.id)
    assert closed is not None and "<b>Ben</b> was closest" in closed.text
    assert await stores.ratings.player_ratings(BEN.id, "countdown") == []
    [cy] = await stores.ratings.player_ratings(CY.id, "countdown")
    assert cy.rating < 0
