"""The stores written once for both databases: each module holds one store's statements (in
SQLite's `?` style, numbered `$1..$n` for PostgreSQL when imported) and its methods over a small
`Connection` that each backend adapts. Only what the dialects really do differently stays in
bot.store.sqlite and bot.store.postgres."""
