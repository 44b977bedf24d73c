"""The server's text frames, written without ``websockets``' framing, are the bytes it would write."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from atout.server.http import wsprotocol
from atout.server.http.wsprotocol import text_frame

from .helpers import SQLITE_ONLY, Client, quick_config, running_server


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_each_length_encoding_is_the_one_websockets_writes(size: int) -> None:
    data = ("é" * size).encode()[:size]
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_text_is_framed_as_websockets_frames_it(text: str) -> None:
    data = text.encode()
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


@SQLITE_ONLY
async def test_the_server_writes_its_frames_so_and_a_client_reads_them(db_url: str, monkeypatch) -> None:
    """Through the real server: its frames go through ``text_frame`` and ``websockets`` reads each of them."""
    written: list[int] = []

    def counted(data: bytes) -> bytes:
        written.append(len(data))
        return text_frame(data)

    monkeypatch.setattr(wsprotocol, "text_frame", counted)
    async with running_server(db_url, quick_config()) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
        await ann.expect("master")
        # the hub's connection writes straight to the socket (the protocol's ASGI extension)
        assert [c._write is not None for c in server.hub.connections] == [True]
        await ann.ws.close()
    read = [len(text.encode()) for text in ann.raw]
    assert read and read == written[: len(read)]
    assert min(read) < 126 <= max(read), read  # the one-byte length and the two-byte one, both read


# --------------------------------------------------------------------- reading a client's frames
CLIENT_FRAMES = st.lists(
    st.one_of(
        st.builds(lambda t: Frame(Opcode.TEXT, t.encode()), st.text(max_size=200)),
        st.builds(
            lambda n: Frame(Opcode.TEXT, b"x" * n), st.integers(120, 70_000)
        ),  # the 16-bit length; beyond the limit
        st.builds(lambda b: Frame(Opcode.BINARY, b), st.binary(max_size=50)),
        st.builds(lambda b: Frame(Opcode.PING, b), st.binary(max_size=20)),
        st.builds(lambda b: Frame(Opcode.PONG, b), st.binary(max_size=20)),
        st.builds(
            lambda a, b: [Frame(Opcode.TEXT, a.encode(), fin=False), Frame(Opcode.CONT, b.encode())],
            st.text(max_size=30),
            st.text(max_size=30),
        ),  # a message in two fragments
    ),
    max_size=12,
)

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


async def heard(protocol_class: type, chunks: list[bytes], expected: int) -> tuple[list[dict], bool]:
    """What the application receives when a client's bytes arrive in ``chunks``, through ``protocol_class``
    on a real socket's transport (the bytes handed to it as the event loop would, chunk by chunk); and
    whether the protocol still cuts the frames itself at the end."""
    import socket

    import uvicorn
    from uvicorn.server import ServerState

    received: list[dict] = []
    done = asyncio.Event()

    async def app(scope, receive, send) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            received.append(message)
            if message["type"] == "websocket.disconnect" or len(received) >= expected:
                done.set()
                return

    config = uvicorn.Config(
        app, ws=protocol_class, ws_per_message_deflate=False, ws_max_size=65_536, log_level="critical", lifespan="off"
    )
    config.load()
    loop = asyncio.get_running_loop()
    ours, theirs = socket.socketpair()
    protocol = protocol_class(config, ServerState(), {}, _loop=loop)
    transport, _ = await loop.connect_accepted_socket(lambda: protocol, ours)
    try:
        protocol.data_received(HANDSHAKE)
        await asyncio.wait_for(_accepted(protocol), 60)
        for chunk in chunks:
            protocol.data_received(chunk)
            await asyncio.sleep(0)  # the application's turn, as between two reads
        if expected:
            await asyncio.wait_for(done.wait(), 60)
    finally:
        transport.close()
        theirs.close()
    return received, getattr(protocol, "framed_here", False)


async def _accepted(protocol) -> None:
    while not protocol.handshake_complete:
        await asyncio.sleep(0)


@given(CLIENT_FRAMES, st.lists(st.integers(1, 400), max_size=8), st.data())
@settings(max_examples=60, deadline=None)
def test_a_client_s_frames_cut_anywhere_reach_the_application_as_uvicorn_s_own_protocol_gives_them(
    frames: list, cuts: list[int], data: st.DataObject
) -> None:
    flat = [f for item in frames for f in (item if isinstance(item, list) else [item])]
    wire = b"".join(f.serialize(mask=True, extensions=[]) for f in flat)
    points = sorted({min(c * 37 % (len(wire) + 1), len(wire)) for c in cuts} | {0, len(wire)})
    whole = data.draw(st.booleans(), label="whole frames")
    if whole:  # often: each read whole frames, as a browser's are
        points = sorted(
            {
                0,
                len(wire),
                *[sum(len(f.serialize(mask=True, extensions=[])) for f in flat[:k]) for k in range(len(flat) + 1)],
            }
        )
    chunks = [wire[a:b] for a, b in itertools.pairwise(points) if b > a]
    messages = sum(1 for f in flat if f.opcode in (Opcode.TEXT, Opcode.BINARY))
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    theirs, _ = asyncio.run(heard(WebSocketsSansIOProtocol, chunks, messages))
    ours, framed_here = asyncio.run(heard(wsprotocol.AtoutWebSocketProtocol, chunks, messages))
    assert ours == theirs
    if whole and all(f.fin and f.opcode != Opcode.CONT and len(f.data) <= 65_536 for f in flat):
        assert framed_here, "whole frames, yet websockets' parser took over"


@pytest.mark.parametrize("size", [125, 126, 65_535, 65_536, 65_537])
def test_whole_frames_reads_every_length_encoding_up_to_the_largest_message_taken(size: int) -> None:
    """A client's text frame in each of the three length encodings (7 bits, 16, 64: a message of 65,536
    bytes, the largest the server takes, needs the last) is read here, unmasked; one byte more than the
    largest is left to ``websockets``, which refuses it."""
    text = ("é" * size).encode()[:size]
    wire = Frame(Opcode.TEXT, text).serialize(mask=True, extensions=[])
    frames = wsprotocol.whole_frames(wire, 65_536)
    if size > 65_536:
        assert frames is None
    else:
        assert frames == [(wire, text)]
        assert wsprotocol.whole_frames(wire[:-1], 65_536) is None  # a frame cut short is not whole
