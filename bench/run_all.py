"""Run every benchmark script in this folder (bench_*.py), one after another."""

from __future__ import annotations

import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).parent
status = 0
for script in sorted(here.glob("bench_*.py")):
    print(f"== {script.name}", flush=True)
    status |= subprocess.call([sys.executable, str(script), *sys.argv[1:]])
sys.exit(status)
