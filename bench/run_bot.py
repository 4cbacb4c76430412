"""The bot as `python -m bot` runs it (with its fair update processor; BENCH_FAIR=off: PTB's
first-come queue instead, for comparison; BENCH_TRANSPORT=aiohttp: its requests through aiohttp,
bench/aiohttp_request.py, instead of its own transport) and,
with BENCH_PROFILE=<file>, under cProfile (the profile is written when the bot stops; with
BENCH_PROFILE_CPU=1 timed by its CPU, with BENCH_PROFILE_WINDOW=1 only between two SIGUSR2); with
BENCH_HEAP=<file>, SIGUSR1 writes where its memory is (bench/heap_stats.py) to that file. The
benchmarks start the bot through this file.

The bot is imported in `main` alone: the solver's workers are spawned, and a spawned process
runs its parent's main script again (as `__mp_main__`), where `python -m bot`'s is skipped. At
the top, the whole bot would be imported once more in every worker, as `python -m bot` never
does: 1.2 s more to the first poll on two cores, and the bot's modules in each worker's
memory."""

from __future__ import annotations

import cProfile
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Compiled modules kept (__pycache__), whatever the shell says (PYTHONDONTWRITEBYTECODE=1 is
# common in containers), as the deployed bot has them (deploy/Dockerfile's pip install compiles
# them, deploy/README's service runs compileall): otherwise every bot a bench starts compiles
# its three hundred modules again, and so do its solver workers, about a second on two cores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

if TYPE_CHECKING:
    from telegram.ext import Application, BaseUpdateProcessor

    from bot.runtime.config import Config
    from bot.runtime.doors import Doors

FAIR = os.environ.get("BENCH_FAIR", "on") != "off"
TRANSPORT = os.environ.get("BENCH_TRANSPORT", "lean")
BUILT: list[Application] = []  # the application, for BENCH_HEAP's walk of its maps


def processor(config: Config, doors: Doors) -> BaseUpdateProcessor:
    """The update processor the composition root builds the bot with: its fair one, or
    (BENCH_FAIR=off) PTB's own first-come queue, for comparison."""
    from telegram.ext import SimpleUpdateProcessor

    from bot.telegram import app as app_module

    if FAIR:
        return app_module.fair_updates(config, doors)
    return SimpleUpdateProcessor(app_module.CONCURRENT_UPDATES)


def build(*args: Any, **kwargs: Any) -> Application:
    """The root's application, kept for BENCH_HEAP's walk of its maps."""
    from bot.telegram import app as app_module

    application = app_module.build_application(*args, **kwargs)
    BUILT.append(application)
    return application


def report_heap_to(path: str) -> None:
    """On SIGUSR1, the heap's figures and the application's big maps into `path` (written
    whole, then renamed)."""
    from bench.heap_stats import stats

    def write(*_: object) -> None:
        Path(path + ".part").write_text(json.dumps(stats(BUILT[-1] if BUILT else None)))
        os.replace(path + ".part", path)

    signal.signal(signal.SIGUSR1, write)


def main() -> int:
    import bot.__main__ as entry
    from bot import wiring
    from bot.telegram import app as app_module

    if os.environ.get("BENCH_HEAP"):
        report_heap_to(os.environ["BENCH_HEAP"])
    wiring.fair_updates = processor  # type: ignore[assignment]
    wiring.build_application = build
    if TRANSPORT == "aiohttp":
        from bench.aiohttp_request import AiohttpRequest
        app_module.LeanRequest = AiohttpRequest  # type: ignore[assignment]
    elif TRANSPORT != "lean":
        raise SystemExit(f"BENCH_TRANSPORT={TRANSPORT}: lean or aiohttp")
    profile_to = os.environ.get("BENCH_PROFILE")
    if not profile_to:
        return entry.main()
    # BENCH_PROFILE_CPU=1: the process's CPU time (what an update costs, whatever else runs on
    # the machine) instead of the wall clock's; BENCH_PROFILE_WINDOW=1: profiling only between
    # two SIGUSR2 (the bench sends one before what it measures and one after)
    timer = time.process_time if os.environ.get("BENCH_PROFILE_CPU") == "1" else None
    profiler = cProfile.Profile(timer) if timer else cProfile.Profile()
    if os.environ.get("BENCH_PROFILE_WINDOW") == "1":
        window = {"on": False}

        def toggle(*_: object) -> None:
            window["on"] = not window["on"]
            (profiler.enable if window["on"] else profiler.disable)()

        signal.signal(signal.SIGUSR2, toggle)
    else:
        profiler.enable()
    try:
        return entry.main()
    finally:
        profiler.disable()
        profiler.dump_stats(profile_to)


if __name__ == "__main__":
    sys.exit(main())
