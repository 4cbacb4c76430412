"""A loopback link between one client and the broker whose way back the test can hold: what
the client sends always reaches the broker, what the broker answers is dropped while held.

An ingress behind it whose publish has gone through, with its confirm held, is an ingress the
broker got the update from and that never learned so: the window between the broker's store
and its answer, made to last as long as the test needs, with nothing left to timing (a paused
broker or a reading of the kernel's socket queues would be).
"""

from __future__ import annotations

import asyncio
import contextlib


class HeldLink:
    """`async with HeldLink(broker_port) as link`: clients connect to `link.url`; `hold()`
    drops the broker's answers from then on; `sent` is every byte clients sent the broker."""

    def __init__(self, broker_port: int) -> None:
        self.broker_port = broker_port
        self.sent = bytearray()
        self.held = False
        self.server: asyncio.Server | None = None
        self.pumps: set[asyncio.Task] = set()

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"nats://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    def hold(self) -> None:
        self.held = True

    def forwarded(self, text: str) -> bool:
        """Whether `text` went through to the broker."""
        return text.encode() in self.sent

    async def __aenter__(self) -> HeldLink:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self.server is not None
        self.server.close()
        for pump in self.pumps:
            pump.cancel()
        await asyncio.gather(*self.pumps, return_exceptions=True)
        await self.server.wait_closed()

    async def _link(self, client_in: asyncio.StreamReader,
                    client_out: asyncio.StreamWriter) -> None:
        broker_in, broker_out = await asyncio.open_connection("127.0.0.1", self.broker_port)
        for pump in (self._pump(client_in, broker_out, forth=True),
                     self._pump(broker_in, client_out, forth=False)):
            task = asyncio.create_task(pump)
            self.pumps.add(task)
            task.add_done_callback(self.pumps.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    forth: bool) -> None:
        try:
            while chunk := await source.read(65536):
                if forth:
                    sink.write(chunk)
                    await sink.drain()
                    self.sent += chunk  # counted once the broker's side has it
                elif not self.held:
                    sink.write(chunk)
                    await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                sink.close()
