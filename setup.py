"""The compiled core of the solver (solver/native/*.c), built by `pip install .` like the rest.

Everything else about the package lives in pyproject.toml; setuptools has no table there for
a C extension, so it is declared here. The core is optional: on a machine without a C compiler
the install still succeeds and the pure-Python solver answers (`python -m solver --version`
says so); the tests fail then (tests/solver/test_native_twin.py), unless SOLVER_PURE=1.
"""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("solver/native")

setup(ext_modules=[
    Extension(
        "solver.native._core",
        sources=sorted(str(path) for path in NATIVE.glob("*.c")),
        depends=sorted(str(path) for path in NATIVE.glob("*.h")),
        extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra",
                            "-Wno-missing-field-initializers"],
        optional=True,
    ),
])
