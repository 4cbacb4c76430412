"""Achievements (docs/achievements.md): the rules, and the service that checks a close or a
daily result against them, awards what they earned and words it for the result message."""
