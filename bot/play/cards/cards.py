"""The two share cards, a season's and a daily result's, drawn as PNG bytes in the player's
language: plain dataclasses in, bytes out. No Telegram here: a face sends the bytes.

A daily card gives nothing of a live puzzle away: it holds no answer at all, and the day's hand
only once the day is over everywhere (see `daily_card`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.cards.canvas import (
    BAD,
    BLUE,
    FACE_DOWN,
    GOOD,
    HINT,
    MARGIN,
    TEXT,
    TILE,
    WHITE,
    WIDTH,
    Canvas,
)
from bot.play.cards.writing import Line, clean, fitted, line, name_text
from bot.play.daily.daily import daily_number, day_clock
from bot.play.daily.puzzle import DAY, day_start
from bot.text.i18n import Texts, texts_for
from bot.text.markup import signed

ROOM = WIDTH - 2 * MARGIN
BOLD = "Bold"


MARK = "24"  # the bot's mark on every card: its name, Twenty-Four (no game's target)


@dataclass(frozen=True)
class SeasonCard:
    """A player's season in one game."""

    name: str  # as Telegram gives it: any text
    game: str  # the name a round of it is stored under (bot.play.games)
    season: str  # its month, "2026-11"
    rating: int
    change: int  # since the season began
    # the player's page's figures of the game: every chat's, all time (docs/counts.md)
    rounds: int  # rounds played: answered, or won
    wins: int
    best_streak: int  # wins in a row, the longest in one chat
    fastest: float | None  # seconds of the fastest win; None: no win yet



@dataclass(frozen=True)
class DailyCard:
    """A player's daily puzzle solved: when, and the streak; the hand, drawn once the day is
    over. There is no field for the answer: a card cannot show one."""

    name: str
    day: str  # the UTC day, "2026-11-24"
    seconds: float  # how long after that day's UTC midnight the right answer arrived
    streak: int  # days in a row solved
    hand: tuple[int, ...]
    target: int  # what the hand makes (each day its own, where its game's deck says so)
    game: str  # whose daily it is


def _texts(language: str) -> Texts:
    return texts_for(language)


def _word(texts: Texts, size: int, room: int, text: str, weight: str = "Regular") -> Line:
    """A message's text as a line that fits its room."""
    return fitted(clean(text), texts.language, size, texts.script.right_to_left, room, weight)


def _figure(texts: Texts, text: str, size: int, room: int) -> Line:
    """A large figure, written with the language's digits; left to right ("+47", "−12") unless
    a letter in it says otherwise ("۳٫۴ ثانیه")."""
    return fitted(texts.script.number_digits(text), texts.language, size, False, room, BOLD)


def _header(canvas: Canvas, texts: Texts, name: str, title: str) -> None:
    """The bot's mark and name, what the card is about, and the player's name."""
    language, rtl = texts.language, texts.script.right_to_left
    canvas.band(0, 12, BLUE)
    canvas.tile(MARGIN, 44, 72, 72, BLUE, 18)
    canvas.write(line(texts.script.number_digits(MARK), language, 36, rtl, BOLD),
                 MARGIN, 93, WHITE, centred=72)
    brand = _word(texts, 36, 420, texts("card_brand"), BOLD)
    canvas.write(brand, MARGIN + 96, 93, TEXT)
    room = ROOM - 96 - brand.width - 40
    about = _word(texts, 30, room, title)
    canvas.write(about, WIDTH - MARGIN - about.width, 93, HINT)
    canvas.write(fitted(name_text(name), language, 64, rtl, ROOM, BOLD), MARGIN, 218, TEXT)


def _stat(canvas: Canvas, texts: Texts, x: int, y: int, width: int, label: str,
          value: str) -> None:
    """A tile with a label and a large number."""
    canvas.tile(x, y, width, 150, TILE)
    canvas.write(_word(texts, 28, width - 48, texts(label)), x + 24, y + 46, HINT)
    canvas.write(_figure(texts, value, 64, width - 48), x + 24, y + 122, TEXT)


def season_card(card: SeasonCard, language: str) -> bytes:
    """The season card (PNG, 1200×630): the name, the game and season, the rating large with
    its change since the season began; rounds, wins, the best streak and the fastest win, of
    every chat and all time (a line over them says so)."""
    texts = _texts(language)
    rtl = texts.script.right_to_left
    canvas = Canvas(rtl)
    _header(canvas, texts, card.name, texts("card_season", game=texts.game(card.game),
                                           season=card.season))
    canvas.write(_word(texts, 32, 480, texts("card_rating")), MARGIN, 300, HINT)
    canvas.write(_figure(texts, texts.number(card.rating), 160, 480), MARGIN, 450, BLUE)
    change = signed(texts.number(card.change))
    change = "+" + change if card.change > 0 else change
    colour = GOOD if card.change > 0 else BAD if card.change < 0 else HINT
    canvas.write(_figure(texts, change, 52, 480), MARGIN, 530, colour)
    fastest = texts.seconds(card.fastest) if card.fastest is not None else "—"
    # the tiles are the player's page's figures, every chat's since the first round, not the
    # season's as the rating is: said over them (docs/counts.md)
    canvas.write(_word(texts, 26, 560, texts("card_totals")), 580, 262, HINT)
    stats = (("card_rounds", texts.number(card.rounds)), ("card_wins", texts.number(card.wins)),
             ("card_best_streak", texts.number(card.best_streak)), ("card_fastest", fastest))
    for at, (label, value) in enumerate(stats):
        column, row = at % 2, at // 2
        _stat(canvas, texts, 580 + column * 290, 280 + row * 166, 270, label, value)
    return canvas.png()


def is_live(day: str, now: float) -> bool:
    """Whether the day's puzzle is still live for someone: until that day's midnight UTC."""
    return now < day_start(day) + DAY


def daily_card(card: DailyCard, language: str, now: float) -> bytes:
    """The daily card (PNG, 1200×630): the name, the puzzle's number and day, when it was solved
    (a UTC time of day, what the board ranks by) and the streak.

    The rule: the daily is live for everyone until midnight UTC ends its day, so a card drawn
    before then (`now`, Unix seconds) shows the hand's tiles face down, as many as it has and
    nothing else of it; from then on the numbers. No card ever shows a solution: it is not
    among what a card is given."""
    texts = _texts(language)
    rtl = texts.script.right_to_left
    canvas = Canvas(rtl)
    _header(canvas, texts, card.name, texts("card_daily", number=str(daily_number(card.day)),
                                           day=card.day, game=texts.game(card.game)))
    _hand(canvas, texts, card.hand, card.target, is_live(card.day, now))
    _stat(canvas, texts, 800, 256, 340, "card_solved_at", day_clock(card.seconds))
    _stat(canvas, texts, 800, 426, 340, "card_streak", texts.number(card.streak))
    return canvas.png()


def _hand(canvas: Canvas, texts: Texts, hand: tuple[int, ...], target: int, live: bool) -> None:
    """The hand as tiles and the target's tile after them; face down while the day is live."""
    rtl, gap, room = texts.script.right_to_left, 16, 700
    side = min(140, (room - gap * len(hand)) // (len(hand) + 1))
    y = 300
    for at, number in enumerate(hand):
        x = MARGIN + at * (side + gap)
        canvas.tile(x, y, side, side, FACE_DOWN if live else TILE)
        shown = "?" if live else texts.script.number_digits(str(number))
        canvas.write(fitted(shown, texts.language, side * 2 // 5, rtl, side - 16, BOLD),
                     x, y + side * 5 // 8, BLUE if live else TEXT, centred=side)
    goal = MARGIN + len(hand) * (side + gap)
    canvas.tile(goal, y, side, side, BLUE)
    canvas.write(line(texts.script.number_digits(str(target)), texts.language, side * 2 // 5,
                      rtl, BOLD), goal, y + side * 5 // 8, WHITE, centred=side)
    if live:
        canvas.write(_word(texts, 28, room, texts("card_hidden")), MARGIN, y + side + 56, HINT)
