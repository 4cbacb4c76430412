"""How many CPUs this process may use: its affinity mask, capped by a cgroup CPU quota.

`os.cpu_count()` is the host's count; in a container limited to 1.5 CPUs on a 32-core host it
would start 32 solver processes that the quota then throttles. The quota is read from cgroup v2
(`cpu.max`) or v1 (`cpu.cfs_quota_us` / `cpu.cfs_period_us`) of this process's own cgroup and
its ancestors; `root` lets the tests point at fake files.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_MOUNT = Path("sys/fs/cgroup")


def usable_cpus(root: Path = Path("/"), available: int | None = None) -> int:
    """The CPUs this process may run on (`available`: its affinity mask unless given), capped
    by the cgroup quota rounded up (1.5 CPUs: 2 processes can use it); at least 1."""
    count = affinity_cpus() if available is None else available
    quota = cgroup_quota(root)
    if quota is not None:
        count = min(count, max(1, math.ceil(quota)))
    return max(1, count)


def affinity_cpus() -> int:
    """The CPUs of this process's affinity mask (taskset, cpuset), or the host's count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def cgroup_quota(root: Path = Path("/")) -> float | None:
    """The tightest CPU quota, in CPUs, over this process's cgroup and its ancestors (v2, else
    v1); None when there is none or the files cannot be read."""
    try:
        lines = (root / "proc/self/cgroup").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    quotas: list[float] = []
    for line in lines:
        _, controllers, path = line.split(":", 2) if line.count(":") >= 2 else ("", "", "")
        if controllers == "":  # v2: one unified hierarchy
            quotas += [q for q in map(_v2_quota, _cgroup_dirs(root / CGROUP_MOUNT, path)) if q]
        elif "cpu" in controllers.split(","):
            mount = root / CGROUP_MOUNT / controllers
            if not mount.is_dir():
                mount = root / CGROUP_MOUNT / "cpu"
            quotas += [q for q in map(_v1_quota, _cgroup_dirs(mount, path)) if q]
    return min(quotas) if quotas else None


def _cgroup_dirs(mount: Path, path: str) -> list[Path]:
    """The cgroup's directory and its ancestors up to the mount. In a container with its own
    cgroup namespace the path is "/" and the mount is its cgroup; without one the host's path
    may not exist under the mount, and then the mount itself is what there is."""
    parts = [part for part in path.strip().split("/") if part]
    dirs = [mount.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]
    return [directory for directory in dirs if directory.is_dir()]


def _v2_quota(directory: Path) -> float | None:
    """cpu.max: "<quota> <period>" in microseconds, or "max <period>" for no limit."""
    try:
        quota, period = (directory / "cpu.max").read_text(encoding="utf-8").split()[:2]
        return None if quota == "max" else _ratio(quota, period)
    except (OSError, ValueError):
        return None


def _v1_quota(directory: Path) -> float | None:
    """cpu.cfs_quota_us (-1: no limit) over cpu.cfs_period_us."""
    try:
        quota = (directory / "cpu.cfs_quota_us").read_text(encoding="utf-8").strip()
        period = (directory / "cpu.cfs_period_us").read_text(encoding="utf-8").strip()
        return _ratio(quota, period)
    except (OSError, ValueError):
        return None


def _ratio(quota: str, period: str) -> float | None:
    share, every = int(quota), int(period)
    return share / every if share > 0 and every > 0 else None
