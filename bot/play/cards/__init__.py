"""Share cards: a player's season or daily result as a picture to post (PNG bytes), in their
language and script, drawn with Pillow. No Telegram and no store here: a face asks for the bytes
and sends them; a daily card never shows a live hand or any answer (docs/cards.md).
"""

from bot.play.cards.cards import DailyCard, SeasonCard, daily_card, is_live, season_card

__all__ = ["DailyCard", "SeasonCard", "daily_card", "is_live", "season_card"]
