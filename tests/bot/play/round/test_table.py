"""The round table's answers to what is asked of the open rounds (a round by id, how many a
starter and a chat have) are kept as rounds come and go, never a scan of every open round:
checked against a scan after any mix of deals, closes, moves, forgets, releases and loads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.guards.stand_ins import counted_as
from bot.play.round.open_round import OpenRound
from bot.play.round.table import RoundTable
from bot.store.records import Round
from tests.bot.conftest import Clock, FakeScheduler

ANONYMOUS = 1087968824
STARTERS = st.sampled_from([None, 1, 2, 3, ANONYMOUS])
CHATS = st.sampled_from([-1, -2, -3, 5])
STEPS = st.lists(st.tuples(st.sampled_from(["deal", "close", "move", "forget", "release",
                                            "load"]), CHATS, st.integers(0, 2), STARTERS),
                 max_size=40)


def record(round_id: int, chat: int, topic: int, starter: int | None) -> Round:
    return Round(round_id, chat, "24", (1, 2, 3, 4), 24, "easy", 10, "en", None, 0.0, 60.0,
                 "open", False, starter, topic)


def scanned(table: RoundTable) -> tuple[dict, dict, dict]:
    """What a scan of every open round answers."""
    by_id = {r.id: r for r in table.rounds()}
    starters: dict[int, int] = {}
    chats: dict[int, int] = {}
    for r in table.rounds():
        chats[r.record.chat_id] = chats.get(r.record.chat_id, 0) + 1
        if r.record.started_by is not None:
            who = counted_as(r.record.chat_id, r.record.started_by)
            starters[who] = starters.get(who, 0) + 1
    return by_id, starters, chats


@settings(max_examples=200)
@given(STEPS)
def test_the_tables_counts_agree_with_a_scan(steps):
    clock = Clock()
    table = RoundTable(None, clock, FakeScheduler(clock))  # type: ignore[arg-type]
    ids = iter(range(1, 10_000))
    for step, chat, topic, starter in steps:
        if step == "deal":
            table.add(OpenRound(record(next(ids), chat, topic if chat < 0 else 0, starter)))
        elif step == "close" and (current := table.of(chat, topic)) is not None:
            table.drop(current)
        elif step == "move":
            table.move(chat, chat - 100)
        elif step == "forget" and starter is not None:
            table.forget(starter)
        elif step == "release":
            table.release(lambda c, chat=chat: c == chat)
        elif step == "load":
            table.load([r.record for r in table.rounds()][::2])
        by_id, starters, chats = scanned(table)
        for round_id, current in by_id.items():
            assert table.find(round_id) is current
        assert table.find(99_999) is None
        for who in (1, 2, 3, ANONYMOUS, -1, -2, -3, -101, 5):
            assert table.started_by(who) == starters.get(who, 0)
            assert table.in_chat(who) == chats.get(who, 0)
