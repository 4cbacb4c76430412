"""Memory that does not grow with chats (issue 38, item 4): every in-process cache has a bound and
drops what it no longer needs (bench/bench_memory.py measures the whole process)."""

from __future__ import annotations

import pytest

from bot.play.chats import people as people_module
from bot.play.chats.people import Chat, People, Player
from bot.play.daily import daily as daily_module
from bot.play.dealing import adaptive as adaptive_module
from bot.play.round.table import LATE_WITHIN
from bot.play.services import Services
from solver import solve
from tests.bot.conftest import Clock


class CountingPeopleStore:
    """A people store that only counts what is written."""

    def __init__(self) -> None:
        self.chats: list[int] = []
        self.users: list[int] = []

    async def remember_chat(self, chat_id: int, kind: str, title: str | None) -> None:
        self.chats.append(chat_id)

    async def remember_user(self, user_id: int, first_name: str, username: str | None) -> None:
        self.users.append(user_id)


async def test_names_are_a_bounded_cache_least_lately_seen_dropped_first(
        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(people_module, "KEPT", 3)
    store = CountingPeopleStore()
    people = People(store)  # type: ignore[arg-type]
    for n in range(1, 6):
        await people.remember(Chat(-n, "group", f"G{n}"), Player(n, f"P{n}"))
    assert len(people._chats) == 3 and len(people._users) == 3  # the bound holds
    assert store.chats == [-1, -2, -3, -4, -5]
    await people.remember(Chat(-5, "group", "G5"), Player(5, "P5"))  # still known: no write
    await people.remember(Chat(-3, "group", "G3"), Player(3, "P3"))  # known, now the latest
    assert store.chats == [-1, -2, -3, -4, -5]
    await people.remember(Chat(-1, "group", "G1"), Player(1, "P1"))  # dropped: written again
    assert store.chats[-1] == -1 and store.users[-1] == 1
    assert set(people._chats) == {-5, -3, -1}  # -4 was seen least lately


async def test_rounds_won_are_forgotten_once_too_old_to_be_answered_late(
        services: Services, clock: Clock):
    for n in range(1, 21):  # twenty chats win a round each, a minute and more apart
        chat, player = Chat(-400 - n, "group", "G"), Player(n, f"P{n}")
        dealt = await services.rounds.play(chat, player, "24")
        await services.rounds.answer(chat, player, solve(dealt.round.hand)[0], True)
        clock.now += LATE_WITHIN / 2
    assert len(services.table._won) <= 3  # only those won in the last minute
    assert services.table.get(-420) is not None  # the latest still hears a late answer
    assert services.table.get(-401) is None


async def test_a_chats_recent_adaptive_hands_are_kept_for_the_chats_dealt_lately(
        services: Services, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(adaptive_module, "CHATS_KEPT", 3)
    adaptive = services.rounds.adaptive
    assert adaptive is not None
    for chat in range(1, 6):
        for n in range(adaptive_module.RECENT_HANDS + 5):  # more hands than a chat keeps
            adaptive._remember(-chat, f"hand{n}")
    adaptive._remember(-3, "again")  # dealt again: now the latest
    assert list(adaptive._recent) == [-4, -5, -3]  # -1 and -2 were dealt least lately
    assert all(len(hands) == adaptive_module.RECENT_HANDS
               for hands in adaptive._recent.values())


async def test_when_the_daily_hand_was_shown_is_kept_for_the_latest_people(
        services: Services, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(daily_module, "SHOWN_KEPT", 3)
    daily = services.community.daily
    for user in range(1, 6):
        daily._seen("2026-11-24", user, 100.0 + user)
    daily._seen("2026-11-24", 5, 999.0)  # shown again: the first showing counts
    assert dict(daily._shown) == {("2026-11-24", 3): 103.0, ("2026-11-24", 4): 104.0,
                                  ("2026-11-24", 5): 105.0}
