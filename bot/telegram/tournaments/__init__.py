"""Tournaments between groups, the chat face's feature: its command and its deep links
(bot.telegram.tournaments.handlers), its arguments (.grammar); the root lists it."""

from bot.telegram.tournaments.handlers import COMMANDS, LINKS

__all__ = ["COMMANDS", "LINKS"]
