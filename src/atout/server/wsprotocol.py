"""The WebSocket protocol ``atout serve`` runs under uvicorn: uvicorn's own (sans-I/O, on ``websockets``),
with a text frame to a client written to its socket directly.

A table's action sends a frame to each of its people: through uvicorn's ``send`` and ``websockets``'
``send_text`` that was about 20,000 instructions a frame, building the same few header bytes every time
(``benchmarks/server_icount.py``). A server's frame is never masked and Atout's are never compressed, so
it is a fixed header and the UTF-8 text: written here, byte for byte what ``websockets`` writes
(``tests/server/test_wsprotocol.py``). Everything else (the handshake, pings, closing, a connection not
open or whose socket is full, which waits) is uvicorn's.
"""

from __future__ import annotations

import struct

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

_TEXT = 0x81
"""FIN and the text opcode: a whole text message in one frame."""


def text_frame(data: bytes) -> bytes:
    """A server's unmasked, uncompressed text frame holding ``data`` (RFC 6455 §5.2)."""
    size = len(data)
    if size < 126:
        return bytes((_TEXT, size)) + data
    if size < 65536:
        return struct.pack("!BBH", _TEXT, 126, size) + data
    return struct.pack("!BBQ", _TEXT, 127, size) + data


class AtoutWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol; a text message on an open, uncompressed connection whose socket takes
    more goes straight to the socket."""

    async def send(self, message: ASGISendEvent) -> None:
        if (message["type"] == "websocket.send" and self.handshake_complete and not self.close_sent
                and not self.disconnected and self.initial_response is None and self.writable.is_set()
                and self.conn.state is State.OPEN and not self.conn.extensions):
            text = message.get("text")
            if text is not None:
                self.transport.write(text_frame(text.encode()))
                return
        await super().send(message)
