"""A server's port is drawn where no outgoing connection can take it before the server binds it."""

from __future__ import annotations

import socket

import pytest

from demo import ports


def test_a_port_is_below_the_kernels_own_range_and_free():
    top = ports.ephemeral_start()
    for _ in range(50):
        port = ports.free_port()
        assert ports.LOWEST <= port < top
        with socket.socket() as server:
            server.bind(("127.0.0.1", port))


def test_a_port_held_by_another_is_never_given(monkeypatch: pytest.MonkeyPatch):
    spare = ports.free_port()  # free, and below the range other tests' connections take theirs
    with socket.socket() as held:  # (a neighbour of the held port may be one of those)
        held.bind(("127.0.0.1", 0))
        taken = held.getsockname()[1]
        monkeypatch.setattr(ports, "LOWEST", taken)
        monkeypatch.setattr(ports, "ephemeral_start", lambda: taken + 1_000)
        draws = iter([taken, taken, spare])
        monkeypatch.setattr(ports.random.SystemRandom, "randrange", lambda _self, a, b: next(draws))
        assert ports.free_port() == spare


def test_an_unreadable_range_falls_back_to_the_usual_one(monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setattr(ports, "EPHEMERAL", tmp_path / "missing")
    assert ports.ephemeral_start() == 32_768
    (tmp_path / "range").write_text("garbage\n")
    monkeypatch.setattr(ports, "EPHEMERAL", tmp_path / "range")
    assert ports.ephemeral_start() == 32_768


def test_a_machine_without_room_below_asks_the_kernel(monkeypatch: pytest.MonkeyPatch):
    kernels = ports.ephemeral_start()
    monkeypatch.setattr(ports, "ephemeral_start", lambda: ports.LOWEST + 10)
    assert ports.free_port() >= kernels
