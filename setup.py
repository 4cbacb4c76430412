"""The compiled parts of the solver (solver/native/*.c), built by `pip install .` like the rest.

Everything else about the package lives in pyproject.toml; setuptools has no table there for
a C extension, so they are declared here: the 24 core (_core), Countdown's search
(_countdown, countdown.c alone) and the lean loop of `batch` (_batch, batch.c alone). All are
optional: on a machine without a C compiler the install still succeeds and the Python twins
answer (`python -m solver --version` says so for the core); the tests fail then (tests/solver/test_native_twin.py,
tests/solver/test_countdown_twin.py), unless SOLVER_PURE=1.
"""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("solver/native")
COUNTDOWN, BATCH = NATIVE / "countdown.c", NATIVE / "batch.c"
FLAGS = ["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]

setup(ext_modules=[
    Extension(
        "solver.native._core",
        sources=sorted(str(path) for path in NATIVE.glob("*.c") if path not in (COUNTDOWN, BATCH)),
        depends=sorted(str(path) for path in NATIVE.glob("*.h")),
        extra_compile_args=FLAGS,
        optional=True,
    ),
    Extension(
        "solver.native._countdown",
        sources=[str(COUNTDOWN)],
        extra_compile_args=FLAGS,
        optional=True,
    ),
    Extension(
        "solver.native._batch",
        sources=[str(BATCH)],
        extra_compile_args=FLAGS,
        optional=True,
    ),
])
