"""SOLVER_WORKERS' default: the CPUs this process may use, read from fake /proc and cgroup files
(v2 `cpu.max`, v1 `cpu.cfs_quota_us`), not the host's count."""

from __future__ import annotations

import os
from pathlib import Path

from bot.runtime.cpus import affinity_cpus, cgroup_quota, usable_cpus

HOST = 32  # the host's CPUs the process's affinity allows


def fake(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_v2_container_with_its_own_namespace(tmp_path: Path):
    root = fake(tmp_path, {"proc/self/cgroup": "0::/\n",
                           "sys/fs/cgroup/cpu.max": "150000 100000\n"})
    assert cgroup_quota(root) == 1.5
    assert usable_cpus(root, available=HOST) == 2  # 1.5 CPUs keep two processes busy


def test_v2_unlimited_is_the_affinity(tmp_path: Path):
    root = fake(tmp_path, {"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "max 100000\n"})
    assert cgroup_quota(root) is None
    assert usable_cpus(root, available=HOST) == HOST


def test_v2_the_tightest_of_the_cgroup_and_its_ancestors(tmp_path: Path):
    """A systemd slice's quota binds every service under it."""
    root = fake(tmp_path, {
        "proc/self/cgroup": "0::/bots.slice/twentyfour.service\n",
        "sys/fs/cgroup/bots.slice/cpu.max": "300000 100000\n",
        "sys/fs/cgroup/bots.slice/twentyfour.service/cpu.max": "max 100000\n"})
    assert usable_cpus(root, available=HOST) == 3


def test_v2_a_quota_under_one_cpu_still_gives_one(tmp_path: Path):
    root = fake(tmp_path, {"proc/self/cgroup": "0::/\n",
                           "sys/fs/cgroup/cpu.max": "20000 100000\n"})
    assert usable_cpus(root, available=HOST) == 1


def test_the_affinity_wins_when_it_is_tighter(tmp_path: Path):
    root = fake(tmp_path, {"proc/self/cgroup": "0::/\n",
                           "sys/fs/cgroup/cpu.max": "800000 100000\n"})
    assert usable_cpus(root, available=2) == 2


def test_v1_quota_over_period(tmp_path: Path):
    root = fake(tmp_path, {
        "proc/self/cgroup": "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n",
        "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "250000\n",
        "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n"})
    assert cgroup_quota(root) == 2.5
    assert usable_cpus(root, available=HOST) == 3


def test_v1_in_a_container_the_host_path_is_not_mounted(tmp_path: Path):
    """Without a cgroup namespace the container sees the host's path, but its own cgroup is
    mounted at the controller's root."""
    root = fake(tmp_path, {
        "proc/self/cgroup": "4:cpu,cpuacct:/docker/abc\n",
        "sys/fs/cgroup/cpu/cpu.cfs_quota_us": "100000\n",
        "sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n"})
    assert usable_cpus(root, available=HOST) == 1


def test_v1_unlimited(tmp_path: Path):
    root = fake(tmp_path, {
        "proc/self/cgroup": "4:cpu,cpuacct:/\n",
        "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
        "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n"})
    assert usable_cpus(root, available=HOST) == HOST


def test_no_cgroup_files_at_all(tmp_path: Path):
    assert cgroup_quota(tmp_path) is None
    fake(tmp_path, {"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "garbage\n"})
    assert usable_cpus(tmp_path, available=HOST) == HOST


def test_this_process_on_this_machine():
    assert 1 <= usable_cpus() <= affinity_cpus() <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        assert affinity_cpus() == len(os.sched_getaffinity(0))
