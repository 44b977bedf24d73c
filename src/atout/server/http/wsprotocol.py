"""The WebSocket protocol ``atout serve`` runs under uvicorn: uvicorn's own (sans-I/O, on ``websockets``),
with a text frame to a client written to its socket directly, and a client's whole text frames read off
the socket directly.

A table's action sends a frame to each of its people: through uvicorn's ``send`` and ``websockets``'
``send_text`` that was about 20,000 instructions a frame, building the same few header bytes every time
(``benchmarks/server_icount.py``). A server's frame is never masked and Atout's are never compressed, so
it is a fixed header and the UTF-8 text: written here, byte for byte what ``websockets`` writes
(``tests/server/test_wsprotocol.py``). Everything else (the handshake, pings, closing, a connection not
open or whose socket is full, which waits) is uvicorn's.

Reading likewise: a client's action is one small masked text frame, which ``websockets``' generators
parsed for about 45,000 instructions. Data that holds only whole frames is cut into them here; each whole
text frame goes to the application as uvicorn would send it, every other frame (ping, pong, close, binary)
to ``websockets`` as it is, which finds it at a frame's start. The first data that is not whole frames (a
frame cut across two reads, a fragmented message, an oversized or unmasked frame) goes to ``websockets``,
and from then on all of that connection's data does: its parser may hold a part of a frame.
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State
from websockets.speedups import (
    apply_mask,  # the C mask, as websockets.frames takes it (a wheel always has it)
)

READ_AHEAD = 8
"""Messages a connection may have waiting for the application before its socket stops being read: uvicorn
stops reading after every message and starts again when the application takes it (two system calls a
message); the application takes a client's messages one by one, and each is at most ``MAX_FRAME``."""

WRITE_TEXT = "atout.write_text"
"""The ASGI scope's extension this protocol offers: ``write_text(text) -> bool`` (``AtoutWebSocketProtocol``)."""

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


def whole_frames(data: bytes, max_size: int | None) -> list[tuple[bytes, bytes | None]] | None:
    """``data`` cut into a client's frames: each frame's bytes with, for a whole text message (FIN and the
    text opcode), its unmasked payload (else None); None unless ``data`` is whole masked frames, each
    within ``max_size``."""
    frames: list[tuple[bytes, bytes | None]] = []
    at, end = 0, len(data)
    while at < end:
        if end - at < 6:
            return None
        first, second = data[at], data[at + 1]
        if not second & 0x80 or first & 0x70:  # a client's frames are masked; no extension sets a bit here
            return None
        size, start = second & 0x7F, at + 2
        if size == 126:
            if end - start < 6:
                return None
            size, start = int.from_bytes(data[start : start + 2], "big"), start + 2
        elif size == 127:  # eight bytes of length: a message of 65,536 bytes or more (ws_max_size says how much)
            if end - start < 12:
                return None
            size, start = int.from_bytes(data[start : start + 8], "big"), start + 8
        if max_size is not None and size > max_size:
            return None
        body = start + 4
        if end - body < size:
            return None
        frames.append(
            (data[at : body + size], apply_mask(data[body : body + size], data[start:body]) if first == _TEXT else None)
        )
        at = body + size
    return frames


class AtoutWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol; a text message on an open, uncompressed connection whose socket takes
    more goes straight to the socket; a client's whole text frames come straight from it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.framed_here = False
        """Whether this connection's data is cut into frames here: from its handshake on, while every data
        has been whole frames (``websockets``' parser then holds nothing between frames)."""

    def data_received(self, data: bytes) -> None:
        if self.framed_here:
            frames = None
            if (
                self.handshake_complete
                and not self.close_sent
                and self.conn.state is State.OPEN
                and not self.conn.extensions
            ):
                frames = whole_frames(data, self.config.ws_max_size)
            if frames is not None:
                for k, (raw, text) in enumerate(frames):
                    if text is not None:  # as uvicorn hands a whole text message to the application
                        self.curr_msg_data_type = "text"
                        self.frames = [text]
                        self.send_receive_event_to_app()
                        continue
                    fragment = not raw[0] & 0x80 or raw[0] & 0x0F == 0  # FIN unset, or a continuation
                    super().data_received(raw)  # a ping, a pong, a close, a binary message: websockets'
                    if fragment or self.conn.state is not State.OPEN:
                        self.framed_here = False  # websockets keeps a message's pieces, or closes
                        rest = data[sum(len(r) for r, _ in frames[: k + 1]) :]
                        if rest:
                            super().data_received(rest)
                        return
                return
            self.framed_here = False
        initiated = self.handshake_initiated
        super().data_received(data)
        if not initiated and self.handshake_initiated and data.endswith(b"\r\n\r\n") and not self.conn.reader.buffer:
            self.framed_here = True  # the request ended this data: websockets' parser is at the first frame

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, but the socket is paused only once ``READ_AHEAD`` messages wait, not after each one:
        uvicorn pauses it only when it reads as running, so it reads as paused while this message is queued."""
        hold = not self.read_paused and self.queue.qsize() + 1 < READ_AHEAD
        if hold:
            self.read_paused = True
        super().send_receive_event_to_app()
        if hold:
            self.read_paused = False

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the application may write its text frames at once (ASGI's extensions)
            scope["extensions"][WRITE_TEXT] = self.write_text

    def write_text(self, text: str) -> bool:
        """``text`` as a whole text frame to the socket at once, and True; False when uvicorn's ``send``
        must do it (the handshake not done, closing, compressed, or the socket's buffer full: it waits)."""
        if (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
            and not self.conn.extensions
        ):
            self.transport.write(text_frame(text.encode()))
            return True
        return False

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.send":
            text = message.get("text")
            if text is not None and self.write_text(text):
                return
        await super().send(message)
