"""The cluster's parts, past one process (docs/scaling.md, "Past one process"): updates keyed by
chat onto partitions of one NATS JetStream stream (`partitions`, `stream`), the ingress that
publishes them (`ingress`) and the worker's consumers that feed them to the bot in order
(`consumers`). Nothing here knows the game or python-telegram-bot: the composition root hands
the worker what to do with an update's body."""
