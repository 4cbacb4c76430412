"""Run every benchmark script in this folder (bench_*.py), one after another.

`--quick` runs each in a short form, a smoke run that the wiring holds; `--eight` adds the
eight-number row of bench_references.py (minutes, and GBs for inrust); `--only TEXT` runs the
scripts whose name holds TEXT. Any other option is handed to every script, as before.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

# The short form of each script for --quick; a script not listed runs as it is.
QUICK = {
    "bench_bot_load.py": ["--quick"],
    "bench_crash.py": ["--trials", "2", "--races", "5"],
    "bench_failover.py": ["--trials", "2", "--chats", "2"],
    "bench_games.py": ["--games", "30"],
    "bench_levels.py": ["--hands", "200", "--solved", "10", "--timed", "20"],
    "bench_pool_isolation.py": ["--quick"],
    "bench_references.py": ["--quick"],
    "bench_solver.py": ["--repeat", "1"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each benchmark in a short form")
    parser.add_argument("--eight", action="store_true",
                        help="bench_references.py also solves 1..8 -> 24")
    parser.add_argument("--only", default="", help="run the scripts whose name holds this")
    args, rest = parser.parse_known_args()
    here = pathlib.Path(__file__).parent
    status = 0
    for script in sorted(here.glob("bench_*.py")):
        if args.only not in script.name:
            continue
        options = [*(QUICK.get(script.name, []) if args.quick else []), *rest]
        if args.eight and script.name == "bench_references.py":
            options.append("--eight")
        print(f"== {script.name} {' '.join(options)}".rstrip(), flush=True)
        status |= subprocess.call([sys.executable, str(script), *options])
    return status


if __name__ == "__main__":
    sys.exit(main())
