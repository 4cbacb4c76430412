"""The compiled parts of the solver (solver/native/*.c), built by `pip install .` like the rest.

Everything else about the package lives in pyproject.toml; setuptools has no table there for
a C extension, so they are declared here: the 24 core (_core), Countdown's search
(_countdown, countdown*.c) and the lean loop of `batch` (_batch, batch.c). All are optional:
on a machine without a C compiler the install still succeeds and the Python twins answer
(`python -m solver --version` says so for the core); the tests fail then
(tests/solver/test_native_twin.py, test_countdown_twin.py, test_batch_output.py), unless
SOLVER_PURE=1 (test_batch_output.py fails anyway).
"""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("solver/native")
FLAGS = ["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
# Countdown's search and the batch loop are modules of their own; the rest is the 24 core
COUNTDOWN = sorted(str(path) for path in NATIVE.glob("countdown*.c"))
COUNTDOWN_HEADERS = sorted(str(path) for path in NATIVE.glob("countdown*.h"))
BATCH = str(NATIVE / "batch.c")
CORE = sorted(str(path) for path in NATIVE.glob("*.c") if str(path) not in [*COUNTDOWN, BATCH])
CORE_HEADERS = sorted(str(path) for path in NATIVE.glob("*.h")
                      if str(path) not in COUNTDOWN_HEADERS)

setup(ext_modules=[
    Extension("solver.native._core", sources=CORE, depends=CORE_HEADERS,
              extra_compile_args=FLAGS, optional=True),
    # hidden symbols: its functions' plain names (build, reaches, ...) bind inside the module
    Extension("solver.native._countdown", sources=COUNTDOWN, depends=COUNTDOWN_HEADERS,
              extra_compile_args=[*FLAGS, "-fvisibility=hidden"], optional=True),
    Extension("solver.native._batch", sources=[BATCH], extra_compile_args=FLAGS,
              optional=True),
])
