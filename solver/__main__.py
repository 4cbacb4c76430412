"""`python -m solver`: the command-line front end; each game keeps its own CLI module."""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "solve": "solver.cli",
    "batch": "solver.cli",
    "console": "solver.cli",
    "countdown": "solver.countdown_cli",
    "yahtzee": "solver.yahtzee_cli",
    "rate": "solver.rating_cli",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["console"]
    name = args[0]
    if name in ("-h", "--help"):
        print("usage: python -m solver [" + "|".join(COMMANDS) + "] ...")
        return 0
    if name not in COMMANDS:
        print(f"unknown command {name!r}; use one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name])
    return int(module.main(args))


if __name__ == "__main__":
    sys.exit(main())
