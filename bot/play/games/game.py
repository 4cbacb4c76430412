"""What a game is, in the one place every other part of play reads it: its rules (which decide),
its words (which say it), and the facts the rest of the bot asks of it — the command that deals
it and the reader of its arguments, how long its rounds last, whether a tournament can deal it
to every group alike, whether an answer may use part of its hand. A new game is a folder beside
this one whose package makes its `Game` (as `GAME`): the registry (bot.play.games.registry) finds
it, and no other file names it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.play.asking.requests import Asked
from bot.play.asking.usage import Usage
from bot.play.rules import Rules
from bot.play.rules.feats import RoundAchievement
from bot.play.rules.scale import GameScale
from bot.play.words import GameWords
from bot.text.i18n import Texts


@dataclass(frozen=True)
class Given:
    """How a puzzle given after the game's command is solved, where that is not its every
    solution (/solve's pages, the same for every game of the exact kind): a top-level function
    the solver pool runs on the request's puzzle, and the words for what it found."""

    solve: Callable[..., Any]  # top-level, so the pool can run it: (*request.puzzle) -> found
    text: Callable[[Texts, Any, Any], str]  # (texts, the request, what was found) -> the reply


@dataclass(frozen=True)
class DailyDeck:
    """The puzzles a game's daily deals (bot.play.daily), in the order the days take them, made
    ahead by the game (the event loop never rates hands): each hand, and the target of them all
    or, where each hand has its own (a card dealt as the target), `targets` beside `hands`.
    Every game that declares one has a daily of its own, its results kept by game
    (daily_results); `draws` sets its days' order apart from the other games' (the first game's
    is "", as it always was, so that no day it has dealt changes)."""

    hands: tuple[tuple[int, ...], ...]
    target: int | None  # every hand's (None: `targets` gives each its own)
    level: str
    targets: tuple[int, ...] = ()  # each hand's own target, in the order of `hands`
    draws: str = ""

    def __post_init__(self) -> None:
        each = len(self.targets) == len(self.hands) and self.target is None
        if not self.hands or not (each or (self.target is not None and not self.targets)):
            raise ValueError("a daily deck has hands, and a target for all or one for each")

    def puzzle(self, index: int) -> tuple[tuple[int, ...], int]:
        """The deck's `index`th hand and its target."""
        target = self.targets[index] if self.targets else self.target
        assert target is not None
        return self.hands[index], target


@dataclass(frozen=True)
class RatedHands:
    """The hands a game's adaptive deals choose among (bot.play.dealing.adaptive): every solvable
    one of `size` numbers 1..`highest` for `target`, each at the solver's modelled difficulty
    until play teaches better, and what a deal at each level is worth."""

    size: int
    highest: int
    target: int
    points: Mapping[str, int]


@dataclass(frozen=True)
class Game:
    """One game, as every part of play asks about it."""

    rules: Rules
    words: GameWords
    place: int  # where it stands in every list of games (menus, /help, /settings): lowest first
    command: str  # the command that deals a round of it (without the slash)
    read: Callable[[str], Asked]  # its arguments read: a round, or a puzzle of it to solve
    usage: Usage  # what the command takes, for a refusal of its arguments
    seconds: float  # a round's length unless the environment or the chat says otherwise
    seconds_choices: tuple[int, ...]  # the lengths /settings offers a chat
    seconds_setting: str  # the environment's name for its round length (deploy/README.md)
    tournaments: bool = False  # one hand dealt to every group alike means a fair contest
    part_answers: bool = False  # an answer may use part of the hand (the live-hand guard)
    help_topics: tuple[str, ...] = ()  # words after /help that ask for its rules (words.help_text)
    levels: tuple[str, ...] = ()  # the levels a deal may ask for, easiest first
    scale: GameScale | None = None  # its ratings' scale (bot.play.ratings); None: not rated
    given: Given | None = None  # a puzzle given after its command, solved its own way
    achievements: tuple[RoundAchievement, ...] = ()  # earned by a close of its own rounds
    daily: DailyDeck | None = None  # its daily puzzle's deck (None: it has no daily)
    adaptive: RatedHands | None = None  # its level "adaptive" deals for a group's skill (one game)

    def __post_init__(self) -> None:
        if self.rules.name != self.words.name:
            raise ValueError(f"a game's rules ({self.rules.name}) and words ({self.words.name}) "
                             "must name the same game")

    @property
    def name(self) -> str:
        """The key a round, a score and a setting of this game are stored under."""
        return self.rules.name

    @property
    def rated(self) -> bool:
        """Whether its players and hands are rated (bot.play.ratings)."""
        return self.scale is not None

    @property
    def start(self) -> str:
        """The command a reply names for playing it."""
        return f"/{self.command}"
