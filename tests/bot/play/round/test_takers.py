"""An open round holds what it must and no more (bot.play.round.takers, open_round): a burst keeps a
thousand open at once, so a round no one has touched holds no collection, a player's part is kept
only once they take part, and the deal's last view is kept as a digest that still tells any change
of text, buttons or language."""

from __future__ import annotations

import pytest

from bot.play.round.decisions import Attempt
from bot.play.round.open_round import OpenRound
from bot.play.round.takers import Takers
from bot.play.rules.records import Near, Wrong, WrongValue
from bot.store.records import Round

ANN, BOB = 11, 12


def record(game: str = "24") -> Round:
    return Round(7, -1, game, (1, 2, 3, 4), 24, "easy", 10, "en", None, 0.0, 60.0, "open",
                 False, ANN)


def collections(held: OpenRound | Takers) -> list[str]:
    """The slots of `held` that hold a mutable collection."""
    slots: tuple[str, ...] = type(held).__slots__
    return [name for name in slots
            if isinstance(getattr(held, name), list | dict | set)]


def near_by(user: int, distance: int, at: float) -> Attempt:
    return Attempt(user, str(user), Near("x", str(24 - distance), distance), distance, at)


def test_a_round_no_one_touched_holds_no_collection_and_no_dict():
    fresh = OpenRound(record(), deal_text="Make 24 from 1 2 3 4", fresh=True)
    fresh.sent(100, 1.0)
    fresh.taken()
    assert not hasattr(fresh, "__dict__")
    assert collections(fresh) == [] and collections(fresh._takers) == []


def test_a_player_who_answers_takes_only_what_they_need():
    takers = Takers()
    assert not takers
    takers.answer(ANN)
    assert takers and takers.answered == {ANN}
    takers.answer(ANN)  # once
    assert takers._answered == (ANN,) and collections(takers) == []
    assert takers.passed == () and takers.leaders(3) == [] and takers.guessed(ANN) is None


def test_the_closest_answer_of_each_player_leads_closest_first_then_earliest():
    takers = Takers()
    near = [near_by(ANN, 3, 1.0), near_by(BOB, 1, 2.0), near_by(ANN, 1, 3.0),
            near_by(ANN, 2, 4.0), Attempt(BOB, "Bob", Wrong("3+4", WrongValue("7")), None, 5.0)]
    for attempt in near:
        takers.closer(attempt)
    assert takers.leaders(3) == [near[1], near[2]]  # Ann's 2 is no closer; a wrong one is none
    assert takers.leaders(1) == [near[1]]


def test_guesses_passes_and_what_was_stored_are_counted_once():
    takers = Takers()
    assert takers.guess(ANN, 2) and takers.guess(ANN, 2) and not takers.guess(ANN, 2)
    assert takers.guessed(ANN) == 2
    takers.guesses_known(ANN, 0)  # what the store says does not undo what memory counted
    takers.guesses_known(BOB, 1)
    assert (takers.guessed(ANN), takers.guessed(BOB)) == (2, 1)
    assert takers.pass_(BOB, "Bob") and not takers.pass_(BOB, "Bob")
    takers.known([ANN, BOB], [(ANN, "Ann"), (BOB, "Robert")])
    assert takers.passed == ("Bob", "Ann")  # in order; a pass taken down here is kept
    assert takers.passer_ids == {ANN, BOB} and takers.answered == {ANN, BOB}


def test_a_forgotten_player_leaves_nothing_behind():
    takers = Takers()
    takers.answer(ANN)
    takers.answer(BOB)
    takers.closer(near_by(ANN, 1, 1.0))
    takers.guess(ANN, 3)
    takers.pass_(ANN, "Ann")
    takers.forget(ANN)
    assert takers.answered == {BOB} and takers.passed == () and takers.leaders(3) == []
    assert takers.guessed(ANN) is None
    Takers().forget(ANN)  # nothing held: nothing to fail on


@pytest.mark.parametrize("changed", [
    ("Make 24 from 1 2 3 4\nAnn: 3+3", ("hint", "reveal"), "en"),
    ("Make 24 from 1 2 3 4", ("hint",), "en"),
    ("Make 24 from 1 2 3 4", ("hint", "reveal"), "de"),
    ("Make 24 from 1 2 3 4", ("hint reveal",), "en"),
])
def test_the_deal_kept_as_a_digest_still_tells_every_change(changed: tuple):
    dealt = OpenRound(record(), deal_text="Make 24 from 1 2 3 4", fresh=True)
    view = ("Make 24 from 1 2 3 4", ("hint", "reveal"), "en")
    assert not dealt.shows(view)
    dealt.rewritten(view)
    assert dealt.shows(("Make 24 from 1 2 3 4", ("hint", "reveal"), "en"))
    assert not dealt.shows(changed)
    dealt.move(-2)  # left behind in the old group: nothing is shown in the new one
    assert not dealt.shows(view)
