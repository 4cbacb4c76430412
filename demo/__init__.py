"""The demo: the real bot against a local Bot API emulator, played from a terminal. Only
`bot.__main__` imports it, and only when the demo runs. `main` loads the bot when called, so the
servers beside it (postgres_server, broker_server: standard library only) import nothing else."""

from __future__ import annotations


def main(speaker: str | None = None) -> int:
    """`python -m bot --demo`: demo.terminal's main."""
    from demo.terminal import main as run

    return run(speaker)


__all__ = ["main"]
