"""The Mini App face: a page in Telegram where a round of any game is answered on the screen,
beside the chat face (bot.telegram) and calling the same play services. `server.py` serves the
page and its small JSON API (what the page draws is play's description of the round:
bot.play.round.page), `init_data.py` checks who Telegram says is asking, `steps.py` turns what
the page sends into the text a typed answer would be, `settings.py` reads WEBAPP_*.
"""
