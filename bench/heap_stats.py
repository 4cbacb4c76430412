"""Where a process's resident memory is: what Python's objects use, what its allocators hold
free, and the rest. A bench reads it to tell memory kept by objects (it grows with them) from
memory an allocator keeps after a burst (free inside arenas and heaps: fragmentation).

`stats()` in the process itself; bench/run_bot.py writes it to BENCH_HEAP on SIGUSR1.
"""

from __future__ import annotations

import ctypes
import gc
import os
import re
import sys
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _pymalloc() -> dict[str, int]:
    """pymalloc's arenas (1 MiB each) and the bytes of the blocks in use in them."""
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode()

    def number(label: str) -> int:
        found = re.search(re.escape(label) + r"\s*=\s*([\d,]+)", text)
        return int(found.group(1).replace(",", "")) if found else -1

    return {"arenas": number("# arenas allocated current"),
            "arenas_highest": number("# arenas highwater mark"),
            "blocks_used": number("# bytes in allocated blocks")}


def _malloc() -> dict[str, int]:
    """glibc's heaps: bytes handed out, bytes free inside them (what `malloc_trim` may give
    back), and the large blocks mapped on their own."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return {}
    return {"malloc_used": info.uordblks, "malloc_free": info.fordblks,
            "malloc_mapped": info.hblkhd}


def _status() -> dict[str, int]:
    """RSS, anonymous (the heap) and file-backed (code, the database's mapped pages), in KB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssAnon", "RssFile"):
            found[name] = int(value.split()[0])
    return found


SKIPPED = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType, str, bytes, bytearray, memoryview, range, int,
           float, bool, type(None))


def _children(obj: object) -> Iterator[tuple[str, object]]:
    """An object's attributes (its __dict__ and slots) by name; a small container's items."""
    attributes = getattr(obj, "__dict__", None)
    if isinstance(attributes, dict):
        yield from list(attributes.items())
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name) and name != "__dict__":
                yield name, getattr(obj, name)
    if isinstance(obj, dict):
        yield from (("[]", value) for value in list(obj.values()))
    elif isinstance(obj, list | tuple | set | frozenset):
        yield from (("[]", value) for value in list(obj))


def _deep_size(container: object, excluded: set[int]) -> int:
    """Bytes of a container and of what only it reaches (its entries, theirs, ...): never what
    `excluded` names (the objects the application reaches otherwise), nor code and types. The
    ids it counts join `excluded`, so two maps never count one object twice."""
    size, level = 0, [container]
    while level:
        following = []
        for obj in level:
            if id(obj) in excluded or isinstance(obj, SKIPPED[:5]):
                continue
            excluded.add(id(obj))
            size += sys.getsizeof(obj)
            following.extend(gc.get_referents(obj))
        level = following
    return size


def big_maps(root: object, least: int = 500, depth: int = 14) -> dict[str, list[int]]:
    """Every container of `least` entries or more reachable from `root` through attributes and
    small containers, named `Owner.attribute`: [its entries, its bytes with what only it holds]
    — what holds per chat, player or update, whether or not a bench knows its name."""
    big: list[tuple[str, object]] = []
    seen = {id(root)}
    level = [root]
    for _ in range(depth):
        following = []
        for obj in level:
            owner = type(obj).__qualname__
            for name, value in _children(obj):
                if isinstance(value, SKIPPED) or id(value) in seen:
                    continue
                seen.add(id(value))
                try:
                    size = len(value)  # type: ignore[arg-type]
                except Exception:  # anything may define __len__
                    size = 0
                if size >= least:
                    big.append((f"{owner}.{name}", value))
                else:
                    following.append(value)
        level = following
    found: dict[str, list[int]] = {}
    for key, value in big:
        seen.discard(id(value))
        entries, held = found.setdefault(key, [0, 0])
        found[key] = [entries + len(value), held + _deep_size(value, seen)]  # type: ignore
    return found


def module_maps(prefix: str = "bot.", least: int = 500) -> dict[str, list[int]]:
    """The bot's modules' own: globals of `least` entries or more, and every functools cache
    (`module.function()`: its entries), which no walk of the application reaches."""
    found: dict[str, list[int]] = {}
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith(prefix):
            continue
        for name, value in list(vars(module).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == module_name:
                key, size = f"{module_name}.{name}()", info().currsize
            elif isinstance(value, SKIPPED):
                continue
            else:
                try:
                    key, size = f"{module_name}.{name}", len(value)
                except Exception:  # anything may define __len__
                    continue
            if size >= least:
                found[key] = [size, -1]  # bytes not counted: shared with the rest
    return found


def stats(root: object = None) -> dict[str, object]:
    """One reading; sizes in bytes except the /proc ones (KB); `maps`: what big_maps(root)
    and module_maps() find."""
    reading: dict[str, object] = {"blocks": sys.getallocatedblocks(), **_pymalloc(),
                                  **_malloc(), **_status()}
    if root is not None:
        reading["maps"] = {**big_maps(root), **module_maps()}
    return reading
