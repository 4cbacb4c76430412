"""The chat face's features, one module (or folder) each: its handlers and, at its end, the
`FEATURE` that declares what it takes (bot.telegram.routes). A feature imports the helpers
below it (bot.telegram.replies, .presses, .speakers, .sending) and never another feature; the
root (bot.telegram.app) lists them."""
