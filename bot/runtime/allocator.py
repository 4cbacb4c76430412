"""The C allocator set for a process that lives for weeks and takes bursts (issue 54).

glibc's malloc moves its own threshold for giving a large block a mapping of its own: each time
such a block is freed, the threshold rises to its size (up to 32 MiB), and the free memory the
heap's top may keep before it is given back rises to twice that. A bot that once freed a block
of a few MiB (a burst's batch of updates, a bounded map's table made anew as it grows) carves
every smaller one from the heap from then on, among a burst's short-lived objects, and keeps
the holes they leave: free memory it cannot give back. The soak bench (`bench/bench_soak.py`)
saw the heap's free chunks go from 2 to 25 MB over a simulated day, each burst raising the
floor. Fixed thresholds stop the drift: a block of MMAP_THRESHOLD or more that the heap's top
cannot hold is mapped on its own and unmapped when freed, and free memory at the top past
TRIM_THRESHOLD goes back to the system at once. The same day then kept about 2 MB of free
chunks and was flat from its eighth hour (docs/benchmarks.md: measured with both at 128 KiB).

An operator's own MALLOC_MMAP_THRESHOLD_ or MALLOC_TRIM_THRESHOLD_ (glibc's environment
settings) wins; elsewhere than glibc (musl, macOS) nothing is set.
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (glibc's malloc.h)
# Above the 256 KiB a plain-TCP socket read asks for (asyncio's receive buffer, cut down to what
# came): at glibc's own 128 KiB each read was a mapping made, shrunk and unmapped (3 of the ~150
# system calls an update in a burst, and half its page faults), about 8 % of the bot's CPU. The Bot
# API connections no longer read that way (bot.telegram.read_into: carved from the heap, those
# blocks were what fragmented it over a day); the webhook's and the Mini App's server still do
MMAP_THRESHOLD = 512 * 1024
TRIM_THRESHOLD = 128 * 1024  # free memory at the heap's top past this goes back at once
OVERRIDES = {M_MMAP_THRESHOLD: "MALLOC_MMAP_THRESHOLD_", M_TRIM_THRESHOLD: "MALLOC_TRIM_THRESHOLD_"}


def settle_allocator() -> dict[str, int]:
    """Fix glibc's thresholds, before the process starts its threads (each thread's arena
    reads them too): what was set, by glibc's name; empty where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return {}
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError):
        return {}
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = {}
    for parameter, value in ((M_MMAP_THRESHOLD, MMAP_THRESHOLD),
                             (M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
        name = OVERRIDES[parameter]
        if name not in os.environ and mallopt(parameter, value) == 1:  # 1: taken (glibc)
            done[name] = value
    return done
