"""A connection whose socket reads land in one buffer of its own (issue 71, the day flat).

asyncio's plain-TCP transport reads a stream's data with `recv(256 KiB)`: a 256 KiB block is
allocated for every read and cut down to what came. Below glibc's mapping threshold each such
block is carved from the heap among short-lived objects, and the holes it leaves stay:
`bench/bench_soak.py` saw glibc's free chunks grow from 1.7 to 12.4 MB over a simulated day, the
bot's objects flat. Above the threshold each read is a mapping made and unmapped, a few percent of
the bot's CPU (bot/runtime/allocator.py). A buffered protocol is read with `recv_into` a buffer
the protocol hands out: here one of READ_SIZE bytes a connection, made once, whose bytes are
copied into the StreamReader as they come — no allocation a read, whatever the threshold. Over TLS
asyncio already reads this way; this does the same for the plain HTTP of a local Bot API server.
"""

from __future__ import annotations

import asyncio
import ssl

READ_SIZE = 64 * 1024  # a read's most; a longer answer comes in several


class ReadInto(asyncio.StreamReaderProtocol, asyncio.BufferedProtocol):
    """asyncio's StreamReaderProtocol, fed from a buffer of its own."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        super().__init__(reader)
        self._fed = reader
        self._into = memoryview(bytearray(READ_SIZE))

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._into

    def buffer_updated(self, nbytes: int) -> None:
        self._fed.feed_data(self._into[:nbytes])


async def open_connection(host: str, port: int, tls: ssl.SSLContext | None, limit: int
                          ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """asyncio.open_connection's reader and writer, read into a buffer of the connection's."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit, loop=loop)
    protocol = ReadInto(reader)
    transport, _ = await loop.create_connection(
        lambda: protocol, host, port, ssl=tls, server_hostname=host if tls else None)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)
