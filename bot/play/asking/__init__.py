"""What a player asks for by typing, read into play's requests: a round of a game, a puzzle to
solve, dice to score. The parts every game's reader of its command is made of (each game's own
reader is bot.play.games.<game>.asking); pure reading, checked before anything reaches the pool,
so a giant or malformed request costs nothing."""
