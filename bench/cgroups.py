"""CPU caps for the bench's processes, so that one machine plays several: each capped process runs
in a CPU cgroup of its own with a quota of `cores` (0.15: 15 ms of CPU in every 100 ms period),
the way a container's CPU limit or a small virtual machine holds it.

Linux's cpu controller, either version: cgroup v1 (`<mount of cpu>/<group>/cpu.cfs_quota_us`
and `cpu.cfs_period_us`), as the project's machines have it, or cgroup v2 (`<unified>/<group>/
cpu.max`, "quota period"), where the cpu controller is enabled in the unified hierarchy. Which one
was used is said (`CpuCaps.kind`). Making a group needs root (or a delegated subtree); where
neither version is usable, `CpuCaps.open()` raises CapsUnavailable saying why.

A process is moved into its group right after it was spawned, before it starts its own children
(the solver pool's workers), which then inherit the group. Its CPU time is read from /proc as
for every other process; the time the kernel held the group back (`throttled`) shows the cap
acted.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

PERIOD_US = 100_000  # the kernel's default CFS period
ROOT = Path("/sys/fs/cgroup")


class CapsUnavailable(RuntimeError):
    """No CPU cgroup can be made here (why)."""


def _mounts() -> list[tuple[str, Path, set[str]]]:
    """(filesystem type, mount point, options) of every cgroup mount."""
    found = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2] in ("cgroup", "cgroup2"):
            found.append((parts[2], Path(parts[1]), set(parts[3].split(","))))
    return found


@dataclass
class CpuCaps:
    """The groups made for one run, under `base` (removed at `close`)."""

    kind: str  # "cgroup v1 (cpu.cfs_quota_us)" or "cgroup v2 (cpu.max)"
    base: Path
    groups: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def open(cls, name: str) -> CpuCaps:
        """A folder of groups named `name` under the machine's cpu controller: v1 where the
        cpu controller is mounted on its own, else v2 where the unified hierarchy has it."""
        mounts = _mounts()
        v1 = next((point for kind, point, options in mounts
                   if kind == "cgroup" and "cpu" in options), None)
        v2 = next((point for kind, point, _ in mounts if kind == "cgroup2"), None)
        why = []
        if v1 is not None and (v1 / "cpu.cfs_quota_us").is_file():
            try:
                base = v1 / name
                base.mkdir(exist_ok=True)
                return cls("cgroup v1 (cpu.cfs_quota_us)", base)
            except OSError as error:
                why.append(f"cgroup v1 at {v1}: {error}")
        if v2 is not None:
            controllers = (v2 / "cgroup.controllers").read_text().split() \
                if (v2 / "cgroup.controllers").is_file() else []
            if "cpu" not in controllers:
                why.append(f"cgroup v2 at {v2}: no cpu controller ({' '.join(controllers)})")
            else:
                try:
                    with contextlib.suppress(OSError):  # already enabled, or not ours to
                        (v2 / "cgroup.subtree_control").write_text("+cpu")
                    base = v2 / name
                    base.mkdir(exist_ok=True)
                    (base / "cgroup.subtree_control").write_text("+cpu")
                    return cls("cgroup v2 (cpu.max)", base)
                except OSError as error:
                    why.append(f"cgroup v2 at {v2}: {error}")
        if v1 is None and v2 is None:
            why.append("no cgroup filesystem is mounted")
        raise CapsUnavailable("cannot cap a process's CPU here (needs root and Linux's cpu "
                              "controller): " + "; ".join(why))

    def cap(self, name: str, cores: float, pid: int) -> None:
        """Move process `pid` into group `name` (made with a quota of `cores`)."""
        group = self.groups.get(name)
        if group is None:
            group = self.base / name
            group.mkdir(exist_ok=True)
            quota = max(1_000, int(cores * PERIOD_US))
            if self.kind.startswith("cgroup v1"):
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            self.groups[name] = group
        (group / "cgroup.procs").write_text(str(pid))

    def cap_tree(self, name: str, cores: float, pid: int) -> None:
        """Process `pid` and every process below it (a server's children) into group `name`."""
        for each in [pid, *descendants(pid)]:
            with contextlib.suppress(OSError):  # one that ended meanwhile
                self.cap(name, cores, each)

    def release(self, name: str) -> None:
        """Every process of group `name` back to the base's parent (uncapped)."""
        group = self.groups[name]
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                (self.base.parent / "cgroup.procs").write_text(pid)

    def throttled(self, name: str) -> float:
        """Seconds the group was held back by its quota."""
        fields = dict(line.split() for line in
                      (self.groups[name] / "cpu.stat").read_text().splitlines())
        if "throttled_time" in fields:
            return int(fields["throttled_time"]) / 1e9
        return int(fields.get("throttled_usec", 0)) / 1e6

    def close(self) -> None:
        """Every process still in a group back to the base's parent; the groups removed."""
        parent = self.base.parent
        for group in [*self.groups.values(), self.base]:
            with contextlib.suppress(OSError):
                for pid in (group / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        (parent / "cgroup.procs").write_text(pid)
        for group in self.groups.values():
            with contextlib.suppress(OSError):
                group.rmdir()
        with contextlib.suppress(OSError):
            self.base.rmdir()
        self.groups.clear()


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (its children, theirs, ...)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                children = [int(c) for c in (task / "children").read_text().split()]
                found += children
                todo += children
    return found


def cores_here() -> int:
    return len(os.sched_getaffinity(0))
