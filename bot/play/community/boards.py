"""What /top is asked for: which board (all time, the last 7 days, today's daily puzzle), of
this chat or of every chat, in one game or all. Read once, in the words of both languages."""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.arguments import GAME_WORDS, UsageError, _word, fold_width

EVERYWHERE_WORDS = frozenset({"all", "全部", "所有"})
PERIOD_WORDS = {"week": "week", "weekly": "week", "本周": "week", "周": "week", "周榜": "week",
                "daily": "daily", "today": "daily", "每日": "daily", "今日": "daily"}


@dataclass(frozen=True)
class BoardAsk:
    """period: "all" (all time), "week" (rounds won in the last 7 days) or "daily" (today's
    daily puzzle, every chat's, 24 only)."""

    period: str = "all"
    everywhere: bool = False
    game: str | None = None


def read_board(arguments: str) -> BoardAsk:
    """'/top', '/top week', '/top all countdown', '/top daily': each word at most once, in any
    order; what is not understood is named."""
    period, everywhere, game = "all", False, None
    for word in fold_width(arguments).lower().split():
        if word in EVERYWHERE_WORDS and not everywhere:
            everywhere = True
        elif word in PERIOD_WORDS and period == "all":
            period = PERIOD_WORDS[word]
        elif word in GAME_WORDS and game is None:
            game = GAME_WORDS[word]
        else:
            raise UsageError("unknown_word", word=_word(word))
    if period == "daily" and game not in (None, "24"):  # the daily puzzle is a hand of 24
        raise UsageError("unknown_word", word=_word(game))
    return BoardAsk(period, everywhere or period == "daily", game)


assert read_board("") == BoardAsk()
assert read_board("countdown WEEK all") == BoardAsk("week", True, "countdown")
assert read_board("daily") == BoardAsk("daily", True)
