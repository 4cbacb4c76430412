"""One free loopback port for a server a test, a bench or the demo starts and names to others.

Asking the kernel for port 0 and closing the probe is not enough when tests run side by side: a
port taken that way comes from the range the kernel also hands to outgoing connections, so any
client of another test may take it before the server binds it ("Address already in use"). The port
is therefore drawn at random below that range, where the kernel never picks one by itself, and
probed there. Standard library only: the benches and the fixtures import it without the bot.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

LOWEST = 10_000
EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")
ATTEMPTS = 200


def ephemeral_start() -> int:
    """The first port the kernel hands out by itself (32768 when it cannot be read)."""
    try:
        return int(EPHEMERAL.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port() -> int:
    """A loopback port no one holds now, drawn where no outgoing connection takes one."""
    top = ephemeral_start()
    if top - LOWEST < 1_000:        # a machine that gives nearly every port away: ask the kernel
        return kernel_port()
    draw = random.SystemRandom()
    for _ in range(ATTEMPTS):
        port = draw.randrange(LOWEST, top)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return kernel_port()


def kernel_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
