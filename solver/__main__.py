"""`python -m solver`: the command-line front end; each game keeps its own CLI module.

`python -m solver 3 8 3 8` is `python -m solver solve 3 8 3 8`; with no arguments, the console.
"""

from __future__ import annotations

import importlib
import sys

from solver.cli_numbers import WHOLE

# name: (module, what it does in one line)
COMMANDS = {
    "solve": ("solver.cli", "every distinct solution of one hand (the default: python -m solver "
                            "3 8 3 8)"),
    "batch": ("solver.cli", "one hand per stdin line, one JSON object per line"),
    "console": ("solver.cli", "ask for a target, then solve hands as they are typed (the default "
                              "without arguments)"),
    "countdown": ("solver.countdown_cli", "Countdown numbers games: the nearest to a target"),
    "yahtzee": ("solver.yahtzee_cli", "the best scoring of Yahtzee games (UVa 10149)"),
    "rate": ("solver.rating_cli", "how hard hands feel to people, one JSON object per line"),
}
SOLVE_FLAGS = ("--target", "--integer-only", "--json")


def usage() -> str:
    """The top-level help: every subcommand with one line."""
    width = max(map(len, COMMANDS))
    lines = ["usage: python -m solver [COMMAND] [ARGS...]   (python -m solver COMMAND --help)",
             "       python -m solver NUMBERS...            (solve one hand)",
             "       python -m solver --version", "", "commands:"]
    lines += [f"  {name:<{width}}  {line}" for name, (_, line) in COMMANDS.items()]
    return "\n".join(lines)


def version() -> str:
    """The package's version and whether the compiled core answers."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from solver import native

    try:
        number = installed("twentyfour")
    except PackageNotFoundError:
        number = "(not installed)"
    return f"twentyfour {number}\nnative core: {native.STATUS}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["console"]
    name = args[0]
    if name in ("-h", "--help"):
        print(usage())
        return 0
    if name == "--version":
        print(version())
        return 0
    if WHOLE.fullmatch(name) or name in SOLVE_FLAGS:
        args, name = ["solve", *args], "solve"
    if name not in COMMANDS:
        print(f"unknown command {name!r}\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(args))


if __name__ == "__main__":
    sys.exit(main())
