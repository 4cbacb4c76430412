"""A new player's answer and someone else's commit at the same instant (both backends): the
commit that carries the new player's answer waits until their row is stored. With PostgreSQL's
pool of connections the answer could otherwise reach the database first and fail its foreign
key (found by bench/bench_envelope.py's bursts: 54 lost answers in three runs)."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt
from bot.play.services import Services
from bot.store.stores import Stores
from solver import solve

GROUP = Chat(-4401, "group", "G")
ANN = Player(4401, "Ann", language_code="en")
NEW = Player(4402, "Newcomer", language_code="en")


@pytest.mark.parametrize("newcomer_wins", [False, True])
async def test_a_commit_carrying_a_new_players_answer_waits_for_their_name(
        services: Services, stores: Stores, monkeypatch, newcomer_wins: bool) -> None:
    """The newcomer's wrong answer rides on Ann's winning commit; or their win (its answer and
    the close naming them) on Ann's wrong answer's commit."""
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt)
    current = services.rounds.open_round(GROUP.id)
    assert current is not None
    entered, release = asyncio.Event(), asyncio.Event()
    remember_user = stores.people.remember_user

    async def slow(user_id: int, first_name: str, username: str | None = None) -> None:
        if user_id == NEW.id:  # the newcomer's row is on its way (a slow connection)
            entered.set()
            await release.wait()
        await remember_user(user_id, first_name, username)

    monkeypatch.setattr(stores.people, "remember_user", slow)
    right, wrong = solve(current.hand)[0], "1+1+1+1"
    first = asyncio.create_task(services.rounds.answer(
        GROUP, NEW, right if newcomer_wins else wrong, explicit=True))
    await entered.wait()  # the newcomer's answer is taken, their name not yet stored
    second = asyncio.create_task(services.rounds.answer(
        GROUP, ANN, wrong if newcomer_wins else right, explicit=True))
    for _ in range(50):  # Ann's commit goes as far as it can
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, second)  # neither fails
    # Ann's answer after the newcomer's win is too late: it is not an answer of the round
    assert sorted(await stores.rounds.answerers(current.id)) == \
        ([NEW.id] if newcomer_wins else [ANN.id, NEW.id])
    winner = (NEW if newcomer_wins else ANN).id
    assert (await stores.rounds.first_right_answer(current.id)).user_id == winner
    assert await stores.people.user_name(NEW.id) == "Newcomer"
