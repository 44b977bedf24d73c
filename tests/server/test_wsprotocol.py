"""The server's text frames, written without ``websockets``' framing, are the bytes it would write."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from atout.server import wsprotocol
from atout.server.wsprotocol import text_frame

from .helpers import Client, quick_config, running_server


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_each_length_encoding_is_the_one_websockets_writes(size: int) -> None:
    data = ("é" * size).encode()[:size]
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_text_is_framed_as_websockets_frames_it(text: str) -> None:
    data = text.encode()
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


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
        await ann.ws.close()
    read = [len(text.encode()) for text in ann.raw]
    assert read and read == written[:len(read)]
    assert min(read) < 126 <= max(read), read  # the one-byte length and the two-byte one, both read
