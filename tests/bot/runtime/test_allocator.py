"""glibc's thresholds fixed (bot/runtime/allocator.py): a large block freed no longer moves the
mapping threshold, so blocks like a bounded map's table keep their own mappings instead of
being carved from the heap, where their holes stayed after a burst. Each check runs in a fresh
interpreter: the thresholds are the process's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.runtime import allocator

ROOT = Path(__file__).resolve().parents[3]
glibc = pytest.mark.skipif(not sys.platform.startswith("linux") or
                           os.confstr("CS_GNU_LIBC_VERSION") is None, reason="glibc's malloc")

# Frees a 4 MiB block (mapped on its own), then asks for 1 MiB: glibc's sliding threshold, now
# 4 MiB, carves it from the heap; fixed, it is mapped on its own (more than the heap's top
# holds). Prints the rise of the mapped bytes.
PROBE = """
import ctypes, json, sys
sys.path.insert(0, sys.argv[1])
from bot.runtime.allocator import settle_allocator
settled = settle_allocator() if sys.argv[2] == "settle" else {}
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = (ctypes.c_void_p,)
libc.free(libc.malloc(4 << 20))
before = libc.mallinfo2().hblkhd
block = libc.malloc(1 << 20)
mapped = libc.mallinfo2().hblkhd - before
read = libc.malloc(256 << 10)  # a socket read's buffer, as asyncio asks for it
print(json.dumps({"settled": settled, "mapped": mapped,
                  "read_mapped": libc.mallinfo2().hblkhd - before - mapped}))
libc.free(read)
libc.free(block)
"""


def probe(mode: str, **env: str) -> dict[str, object]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), mode], capture_output=True,
                          text=True, check=True, env={**environment, **env}, timeout=60)
    return dict(json.loads(done.stdout))


@glibc
def test_a_large_block_freed_no_longer_sends_the_next_ones_to_the_heap() -> None:
    assert probe("as glibc has it")["mapped"] == 0  # the sliding threshold, unfixed
    fixed = probe("settle")
    assert fixed["settled"] == {"MALLOC_MMAP_THRESHOLD_": allocator.MMAP_THRESHOLD,
                                "MALLOC_TRIM_THRESHOLD_": allocator.TRIM_THRESHOLD}
    assert isinstance(fixed["mapped"], int) and fixed["mapped"] >= 1 << 20


@glibc
def test_a_socket_reads_buffer_comes_from_the_heap_not_a_mapping_of_its_own() -> None:
    """asyncio reads a socket into a 256 KiB buffer cut down to what came: mapped on its own,
    each read would cost a mapping, its shrinking and its unmapping, and page faults."""
    assert probe("settle")["read_mapped"] == 0


@glibc
def test_an_operators_own_setting_wins() -> None:
    mine = probe("settle", MALLOC_MMAP_THRESHOLD_="4194304")
    assert mine["settled"] == {"MALLOC_TRIM_THRESHOLD_": allocator.TRIM_THRESHOLD}
    assert mine["mapped"] == 0  # 1 MiB is under the operator's 4 MiB: from the heap


def test_the_bot_settles_its_allocator_before_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def settle() -> dict[str, int]:
        calls.append("settled")
        return {}

    monkeypatch.setattr(entry, "settle_allocator", settle)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert entry.main(["worker"]) == entry.BAD_SETTINGS  # no token: stops before any thread
    assert calls == ["settled"]
    calls.clear()
    assert entry.main(["--version"]) == 0  # a version asks for nothing of the allocator
    assert calls == []


def test_elsewhere_than_glibc_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator.sys, "platform", "darwin")
    assert allocator.settle_allocator() == {}
    monkeypatch.setattr(allocator.sys, "platform", "linux")  # musl: no mallopt to call
    monkeypatch.setattr(allocator.ctypes, "CDLL", lambda name: object())
    assert allocator.settle_allocator() == {}
