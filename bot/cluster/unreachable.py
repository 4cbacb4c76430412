"""What a role of the cluster raises when its broker cannot be used at start-up: kept apart from
the broker's client, so that `python -m bot` (one process, no broker) imports none of it."""


class BrokerUnreachable(RuntimeError):
    """The broker did not answer at start-up, or answered without JetStream; one line."""
