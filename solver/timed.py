"""Solver calls with a time limit that really stops them, for the batch command line.

Each call runs in one child process; when the time is up the parent kills the child (whatever it
was doing, C code included, and whatever half-built caches it held) and starts a new one for the
next call. The parent never runs solver code, so nothing it keeps can be left half done.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from solver.errors import SolverError, TimeLimitError

T = TypeVar("T")


def _serve(connection: Connection) -> None:
    """The child: answer (function, args) with ("ok", result) or ("error", message) until None."""
    connection.send(("ready", None))
    while True:
        try:
            call = connection.recv()
        except EOFError:
            return
        if call is None:
            return
        function, args = call
        try:
            connection.send(("ok", function(*args)))
        except SolverError as error:
            connection.send(("error", str(error)))


class TimedRunner:
    """Runs picklable functions one at a time in a child process, each within `seconds` of wall
    time; use it as a context manager so the child ends with it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None

    def __enter__(self) -> TimedRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """function(*args) in the child; TimeLimitError when it takes longer than the limit,
        SolverError when it raises one (its message), and the child is then ready for more."""
        connection = self._connection or self._start()
        connection.send((function, args))
        if not connection.poll(self.seconds):
            self._kill()
            raise TimeLimitError(f"no answer within {self.seconds:g} s", seconds=self.seconds)
        try:
            status, value = connection.recv()
        except EOFError:  # the child died (out of memory, say): the next call gets a new one
            self._kill()
            raise SolverError("the solver process ended unexpectedly") from None
        if status == "error":
            raise SolverError(value)
        return value

    def close(self) -> None:
        """Let the child return (killed if it has not within a second)."""
        if self._connection is not None and self._process is not None:
            self._connection.send(None)
            self._process.join(timeout=1)
        self._kill()

    def _start(self) -> Connection:
        """A new child, once it is ready: its start-up is not charged to the first call."""
        context = multiprocessing.get_context()
        parent, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self._process.start()
        child.close()
        parent.recv()  # "ready"
        self._connection = parent
        return parent

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
        if self._connection is not None:
            self._connection.close()
        self._process = self._connection = None
