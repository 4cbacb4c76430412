"""Tournaments between groups: the same hands dealt to many groups at once, one board across
them (bot.play.tournaments.service)."""
