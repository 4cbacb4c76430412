"""The Mini App face: a page in Telegram where a round is answered by tapping tiles, beside the
chat face (bot.telegram) and calling the same play services. `server.py` serves the page and
its small JSON API, `init_data.py` checks who Telegram says is asking, `steps.py` turns the taps
into the expression a typed answer would be, `settings.py` reads WEBAPP_*.
"""
