"""The guard's parts that decide without timing anything (bench/bench_guard.py): which commit it
compares against, the lines it prints for given ratios, that REF's worktree goes away, and how
the worktree gets its compiled core. No bot runs here and nothing asserts on time."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from bench.bench_guard import (
    FIGURES,
    default_ref,
    disagreement,
    give_core,
    has_changes,
    judge,
    judge_floor,
    native_sources,
    worktree,
)

BURST, CPU, P99 = FIGURES
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def run_git(repo: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *arguments], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository of two commits with a bot/ and a docs/ folder."""
    root = tmp_path / "repo"
    (root / "bot").mkdir(parents=True)
    (root / "docs").mkdir()
    run_git(root, "init", "--quiet")
    for number in (1, 2):
        (root / "bot" / "round.py").write_text(f"VERSION = {number}\n")
        (root / "docs" / "notes.md").write_text(f"note {number}\n")
        run_git(root, "add", ".")
        run_git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet",
                "-m", f"commit {number}")
    return root


def test_a_clean_tree_is_compared_with_the_commit_before(repo: Path):
    assert not has_changes(repo)
    assert default_ref(has_changes(repo))[0] == "HEAD~1"


def test_a_change_elsewhere_leaves_the_tree_clean(repo: Path):
    (repo / "docs" / "notes.md").write_text("edited\n")
    assert not has_changes(repo)


def test_a_change_to_the_bot_is_compared_with_head(repo: Path):
    (repo / "bot" / "round.py").write_text("VERSION = 3\n")
    ref, why = default_ref(has_changes(repo))
    assert (ref, "uncommitted" in why) == ("HEAD", True)


def test_a_new_file_in_the_solver_counts_as_a_change(repo: Path):
    (repo / "solver").mkdir()
    (repo / "solver" / "new.py").write_text("")
    assert has_changes(repo)


def test_the_worktree_holds_ref_and_is_removed_after(repo: Path):
    with worktree(repo, "HEAD~1") as tree:
        assert (tree / "bot" / "round.py").read_text() == "VERSION = 1\n"
        (tree / "build").mkdir()  # what a build leaves behind does not keep it
    assert not tree.exists()
    assert run_git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_the_worktree_is_removed_when_the_run_fails(repo: Path):
    with pytest.raises(KeyboardInterrupt), worktree(repo, "HEAD") as tree:
        raise KeyboardInterrupt
    assert not tree.exists()
    assert str(tree) not in run_git(repo, "worktree", "list")


def test_an_unknown_ref_is_said_plainly(repo: Path):
    with pytest.raises(SystemExit, match="no-such-ref"), worktree(repo, "no-such-ref"):
        pass


def test_the_lines_say_slower_lost_and_faster():
    assert judge(BURST, 0.969).line == "burst: after is 3.1 % slower than before (within 5 %)"
    assert judge(CPU, 1.072) == judge(CPU, 1.072, 0.05)
    assert judge(CPU, 1.072).line == ("CPU an update: after LOST 7.2 % against before "
                                      "(more than 5 %)")
    assert judge(CPU, 1.072).failed
    assert judge(BURST, 1.04).line == "burst: after is 4.0 % faster than before"
    assert judge(P99, 0.9).line == "half-load p99: after is 10.0 % lower than before"
    assert judge(P99, 1.0).line == "half-load p99: after is the same as before"


def test_the_direction_of_a_loss_depends_on_the_figure():
    assert judge(BURST, 0.93).failed and not judge(BURST, 1.2).failed
    assert judge(P99, 1.2).failed and not judge(P99, 0.5).failed


def test_exactly_the_tolerance_passes_and_the_tolerance_is_an_option():
    assert not judge(BURST, 0.95).failed
    assert not judge(CPU, 1.05).failed
    assert judge(CPU, 1.03, tolerance=0.02).line.endswith("(more than 2 %)")


def test_turns_on_both_sides_of_the_tolerance_are_noted():
    assert disagreement(P99, [0.34, 1.27, 4.31]) == (
        "note: half-load p99's turns disagree (0.34 to 4.31 after/before): the noise is larger "
        "than 5 % here; run again (more --runs, a quieter machine) before reading its verdict")
    assert disagreement(BURST, [0.90, 0.97, 1.04]) is None  # all within 5 % above 1
    assert disagreement(BURST, [0.96, 1.02, 1.30]) is None  # none past 5 % below 1
    assert disagreement(BURST, [0.96, 1.30], tolerance=0.02) is not None


def test_the_floor():
    assert judge_floor(0.93).line.endswith("floor 0.90x: ok")
    assert judge_floor(0.89).failed
    assert not judge_floor(0.85, floor=0.8).failed


def checkout(root: Path, core_source: str, setup: str) -> Path:
    """A checkout's files the compiled core is built from."""
    (root / "solver" / "native").mkdir(parents=True)
    (root / "solver" / "native" / "core.c").write_text(core_source)
    (root / "setup.py").write_text(setup)
    return root


def test_the_same_sources_get_this_trees_core(tmp_path: Path):
    here = checkout(tmp_path / "here", "int x;\n", "pass\n")
    (here / "solver" / "native" / f"_core{SUFFIX}").write_bytes(b"compiled")
    there = checkout(tmp_path / "there", "int x;\n", "pass\n")
    (here / "solver" / "native" / "notes.txt").write_text("not a source")
    assert native_sources(here) == native_sources(there)
    assert "copied" in give_core(there, here)
    assert (there / "solver" / "native" / f"_core{SUFFIX}").read_bytes() == b"compiled"


BUILDS = ("from pathlib import Path\n"
          f"Path('solver/native/_core{SUFFIX}').write_bytes(b'built here')\n")


def test_other_sources_are_built_in_the_worktree(tmp_path: Path):
    here = checkout(tmp_path / "here", "int x;\n", BUILDS)
    (here / "solver" / "native" / f"_core{SUFFIX}").write_bytes(b"compiled")
    there = checkout(tmp_path / "there", "int y;\n", BUILDS)
    assert "built" in give_core(there, here)
    assert (there / "solver" / "native" / f"_core{SUFFIX}").read_bytes() == b"built here"


def test_a_core_that_cannot_be_had_ends_the_guard(tmp_path: Path):
    here = checkout(tmp_path / "here", "int x;\n", "pass\n")  # no core built here either
    there = checkout(tmp_path / "there", "int x;\n", "import sys\nsys.exit('no compiler')\n")
    with pytest.raises(SystemExit, match="no compiler"):
        give_core(there, here)


def test_the_build_does_not_read_refs_pyproject(tmp_path: Path):
    """The venv's setuptools may refuse REF's pyproject.toml (it asks for a newer one)."""
    here = checkout(tmp_path / "here", "int x;\n", "pass\n")
    there = checkout(tmp_path / "there", "int y;\n", "from pathlib import Path\n"
                     "assert not Path('pyproject.toml').exists()\n" + BUILDS)
    (there / "pyproject.toml").write_text("[project]\nlicense = 'MIT'\n")
    assert "built" in give_core(there, here)


def test_the_build_runs_with_this_python(tmp_path: Path):
    here = checkout(tmp_path / "here", "int x;\n", "pass\n")
    there = checkout(tmp_path / "there", "int y;\n", BUILDS.replace(
        "b'built here'", "__import__('sys').executable.encode()"))
    give_core(there, here)
    assert (there / "solver" / "native" / f"_core{SUFFIX}").read_bytes() == \
        sys.executable.encode()
