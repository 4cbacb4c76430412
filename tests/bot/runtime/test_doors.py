"""The budget every door shares (bot.runtime.doors): a person's and a chat's buckets, per
second and at once; refused work costs nothing and frees nothing; anonymous admins of two
groups are two senders; a private chat is its person's; buckets are bounded and go when full."""

from __future__ import annotations

import pytest

from bot.runtime.doors import (
    BUCKETS_KEPT,
    CARD,
    NOTICE_SECONDS,
    PAGE,
    UPDATE,
    WEBAPP,
    Doors,
    Limits,
    Pass,
    Refused,
    chat_key,
    person_key,
)
from tests.bot.conftest import Clock

ANN, BEN = person_key(1), person_key(2)
GROUP = chat_key(-100)
ANONYMOUS_ADMIN = 1087968824  # Telegram's GroupAnonymousBot: every group's anonymous admins


PERSON = Limits(5, 20, 12)
CHAT = Limits(30, 120, 64)


def doors(clock: Clock) -> Doors:
    return Doors(PERSON, CHAT, clock=clock)


def done(budget: Doors, admitted: Pass | Refused) -> Pass | Refused:
    """Work admitted and done at once (as a quick update is)."""
    if isinstance(admitted, Pass):
        budget.leave(admitted)
    return admitted


def test_a_burst_then_the_rate():
    clock = Clock()
    budget = doors(clock)
    taken = [done(budget, budget.enter(UPDATE, ANN, GROUP)) for _ in range(25)]
    assert sum(isinstance(a, Pass) for a in taken) == 20
    refusals = [a for a in taken if isinstance(a, Refused)]
    assert [r.first for r in refusals] == [True, False, False, False, False]  # one notice
    assert all(r.retry_after == 1 and r.by == "person" for r in refusals)
    clock.now += 1.0  # five more a second
    again = [done(budget, budget.enter(UPDATE, ANN, GROUP)) for _ in range(6)]
    assert [isinstance(a, Pass) for a in again] == [True] * 5 + [False]
    assert isinstance(again[-1], Refused) and not again[-1].first  # told a second ago
    clock.now += NOTICE_SECONDS
    again = [done(budget, budget.enter(UPDATE, ANN, GROUP)) for _ in range(21)]
    assert isinstance(again[-1], Refused) and again[-1].first  # a new burst: a new notice


def test_a_group_pressing_together_hears_a_notice_a_person_a_while():
    """Fifty members press 20 times a second each for ten seconds: the group's bucket lets
    one more in now and then, each of them in turn, and each of those used to re-arm a notice
    (a notice for nearly every press let in); now each person hears one at most every
    NOTICE_SECONDS."""
    clock = Clock()
    budget = doors(clock)
    members = [person_key(700 + n) for n in range(50)]
    said = let_in = 0
    for tick in range(200):
        clock.now = 1000.0 + tick * 0.05
        for member in members:
            admitted = done(budget, budget.enter(UPDATE, member, GROUP))
            let_in += isinstance(admitted, Pass)
            said += isinstance(admitted, Refused) and admitted.first
    assert let_in >= 300  # the group's 120, then 30 a second
    assert said <= len(members) * (10 / NOTICE_SECONDS + 1)


def test_refused_work_spends_nothing_of_the_chat():
    """Ann's flood is refused at her own bucket; the group's stays full for Ben."""
    clock = Clock()
    budget = doors(clock)
    for _ in range(1000):
        admitted = budget.enter(UPDATE, ANN, GROUP)
        if isinstance(admitted, Pass):
            budget.leave(admitted)
    assert budget.refusals == 980
    ben = [done(budget, budget.enter(UPDATE, BEN, GROUP)) for _ in range(20)]
    assert all(isinstance(a, Pass) for a in ben)


def test_at_once_counts_what_is_not_done():
    clock = Clock()
    budget = doors(clock)
    held = [budget.enter(UPDATE, ANN, GROUP) for _ in range(12)]
    assert all(isinstance(a, Pass) for a in held)
    thirteenth = budget.enter(UPDATE, ANN, GROUP)
    assert isinstance(thirteenth, Refused) and thirteenth.by == "person"
    assert budget.waiting(ANN) == 1  # the look before a signature's check says so too
    first = held[0]
    assert isinstance(first, Pass)
    budget.leave(first)
    assert isinstance(budget.enter(UPDATE, ANN, GROUP), Pass)
    assert budget.held(GROUP) == 12


def test_a_chat_of_many_together():
    """Fifty members at once: each within their own budget, the group past its own."""
    clock = Clock()
    budget = doors(clock)
    taken = [done(budget, budget.enter(UPDATE, person_key(user), GROUP))
             for _ in range(5) for user in range(50)]
    assert sum(isinstance(a, Pass) for a in taken) == 120
    assert {a.by for a in taken if isinstance(a, Refused)} == {"chat"}
    other = chat_key(-200)
    assert isinstance(budget.enter(UPDATE, person_key(7), other), Pass)  # another group's


def test_heavy_work_weighs_more():
    clock = Clock()
    budget = doors(clock)
    cards = [done(budget, budget.enter(CARD, ANN)) for _ in range(6)]
    assert [isinstance(a, Pass) for a in cards] == [True] * 5 + [False]
    refused = cards[-1]
    assert isinstance(refused, Refused) and refused.retry_after == 1  # four units at five a s
    assert isinstance(budget.enter(PAGE, BEN), Pass)


def test_anonymous_admins_of_two_groups_are_two_senders():
    """Telegram sends every group's anonymous admins as one account: each group's draw on
    their group's own budget, never on another's."""
    clock = Clock()
    budget = doors(clock)
    red, blue = person_key(ANONYMOUS_ADMIN, -1), person_key(ANONYMOUS_ADMIN, -2)
    assert red != blue
    for _ in range(30):
        done(budget, budget.enter(UPDATE, red, chat_key(-1)))
    assert isinstance(budget.enter(UPDATE, blue, chat_key(-2)), Pass)


def test_a_private_chat_is_its_person_s():
    assert chat_key(42, 42) is None
    assert chat_key(None) is None
    assert chat_key(-5, 42) == ("chat", -5)


def test_a_full_bucket_goes_and_the_map_is_bounded():
    clock = Clock()
    budget = doors(clock)
    for user in range(BUCKETS_KEPT + 500):
        admitted = budget.enter(UPDATE, person_key(user))
        assert isinstance(admitted, Pass)
        budget.leave(admitted)
    assert len(budget._buckets) <= BUCKETS_KEPT
    assert not budget._held  # nothing done is held
    clock.now += 5.0  # a bucket refilled is the same as none
    budget.enter(UPDATE, ANN)
    assert len(budget._buckets) == 1


@pytest.mark.parametrize("raw", ["5,20,8", " 0.5 , 3 , 1 "])
def test_the_settings(raw):
    from bot.runtime.config import Config

    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:a", "PERSON_BUDGET": raw,
                              "CHAT_BUDGET": raw, "INLINE_BUDGET": raw, "PRESS_BUDGET": raw},
                             env_file=None)
    assert config.person_budget == config.chat_budget == config.inline_budget == \
        config.press_budget
    person, chat = config.person_budget, config.chat_budget
    assert config.doors().limits == {"person": person, "sender": person, "chat": chat,
                                     "news": chat, "door": WEBAPP,
                                     "inline": config.inline_budget,
                                     "presses": config.press_budget}
    assert config.person_budget.at_once >= 1


@pytest.mark.parametrize("raw", ["5,20", "a,b,c", "0,1,1", "5,20,0", "5,20,8,1"])
def test_a_malformed_setting_is_said(raw):
    from bot.runtime.config import Config, ConfigError

    with pytest.raises(ConfigError, match="PERSON_BUDGET must be three numbers"):
        Config.from_env({"TELEGRAM_BOT_TOKEN": "1:a", "PERSON_BUDGET": raw}, env_file=None)


def test_a_join_raid_spends_the_groups_news_not_its_members_budget():
    """Telegram's chat_member updates (someone joined, left) are news, nobody's request: two
    hundred of them are refused past the group's news budget, and the group's members still
    have all of theirs."""
    from telegram import Update

    from bot.telegram.over_budget import keys_of

    clock = Clock()
    budget = doors(clock)
    group = {"id": -100, "type": "supergroup", "title": "G"}

    def member(user_id: int, status: str) -> dict:
        return {"user": {"id": user_id, "is_bot": False, "first_name": "U"}, "status": status}

    raid = [Update.de_json({"update_id": n, "chat_member": {
        "chat": group, "from": {"id": 9000 + n, "is_bot": False, "first_name": "R"},
        "date": 0, "old_chat_member": member(9000 + n, "left"),
        "new_chat_member": member(9000 + n, "member")}}, None) for n in range(200)]
    assert keys_of(raid[0]) == (("news", -100), None)
    admitted = [done(budget, budget.enter(UPDATE, *keys_of(update))) for update in raid]
    assert sum(isinstance(a, Pass) for a in admitted) == CHAT.burst
    message = Update.de_json({"update_id": 999, "message": {
        "message_id": 1, "date": 0, "chat": group, "text": "/play",
        "from": {"id": 5, "is_bot": False, "first_name": "Ann"}}}, None)
    assert keys_of(message) == (("person", 5), ("chat", -100))
    assert isinstance(budget.enter(UPDATE, *keys_of(message)), Pass)
