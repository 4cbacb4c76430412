"""Tournaments between groups, the chat face's feature: its command and its deep links
(.handlers, whose `FEATURE` declares them), its arguments (.grammar)."""

from bot.telegram.features.tournaments.handlers import FEATURE

__all__ = ["FEATURE"]
