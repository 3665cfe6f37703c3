"""An attacker's WebSocket over a raw socket: the frames are websockets' sans-I/O
client's (``ClientProtocol``), the socket is the attacker's own, so it can stop
reading (a tiny receive buffer: the server's writes pile up at once) and read again
when it chooses."""

from __future__ import annotations

import asyncio
import collections
import socket
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.typing import Subprotocol
from websockets.uri import parse_uri

import protocol as P
from tests.support import GUARD


class RawClient:
    """A WebSocket client on a socket of its own, reading only when told."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        proto: ClientProtocol,
    ) -> None:
        self.reader, self.writer, self.proto = reader, writer, proto
        self.ids = 0
        #: the close frame the server sent, once read
        self.close_rcvd: Close | None = None
        #: messages read from the socket, not yet handed back by :meth:`recv`
        self.unread: collections.deque[dict[str, Any]] = collections.deque()

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        rcvbuf: int = 0,
        source: str = "127.0.0.1",
        headers: dict[str, str] | None = None,
    ) -> RawClient:
        """Connect from ``source`` with an ``rcvbuf``-byte receive buffer (0: the
        system's) and finish the opening handshake (``InvalidStatus`` if refused)."""
        uri = parse_uri(url)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        sock.bind((source, 0))
        await asyncio.get_running_loop().sock_connect(sock, (uri.host, uri.port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 16)
        proto = ClientProtocol(uri, subprotocols=[Subprotocol(P.SUBPROTOCOL)])
        request = proto.connect()
        for name, value in (headers or {}).items():
            request.headers[name] = value
        proto.send_request(request)
        client = cls(reader, writer, proto)
        try:
            await client._flush()
            while proto.state is State.CONNECTING:
                await client._feed()
            if proto.handshake_exc is not None:
                raise proto.handshake_exc
        except BaseException:
            client.abort()
            raise
        proto.events_received()  # the handshake's response
        return client

    async def _flush(self) -> None:
        for data in self.proto.data_to_send():
            if data:
                self.writer.write(data)
        await self.writer.drain()

    async def _feed(self) -> bool:
        """Read what the socket has; False at its end."""
        try:
            data = await asyncio.wait_for(self.reader.read(1 << 16), GUARD)
        except BrokenPipeError:  # our answer to a close came after the server went
            data = b""
        if data:
            self.proto.receive_data(data)
        else:
            self.proto.receive_eof()
        return bool(data)

    async def send(self, op: str, **params: Any) -> int:
        """Send a request; its id."""
        self.ids += 1
        self.proto.send_binary(P.encode(P.request(self.ids, op, **params)))
        await self._flush()
        return self.ids

    async def recv(self) -> dict[str, Any]:
        """The next message (a reply or an event). The messages of a read that brought
        several wait for the next calls, and a close frame among them is answered."""
        while not self.unread:
            for event in self.proto.events_received():
                if not isinstance(event, Frame):
                    continue
                if event.opcode is Opcode.BINARY:
                    self.unread.append(P.decode(bytes(event.data), max_size=1 << 24))
                if event.opcode is Opcode.CLOSE:
                    await self._closed()
            if not self.unread and not await self._feed():
                raise EOFError("the server closed the connection")
        msg: dict[str, Any] = self.unread.popleft()
        return msg

    async def call(self, op: str, **params: Any) -> dict[str, Any]:
        """Send a request and read up to its reply (events before it are dropped)."""
        rid = await self.send(op, **params)
        while True:
            msg = await self.recv()
            if msg.get("re") == rid:
                return msg

    async def read_to_the_end(self) -> int:
        """Read everything the server sent until it closes the socket: the bytes read
        (the close frame, if one came, is in :attr:`close_rcvd`)."""
        total = 0
        while True:
            try:
                data = await asyncio.wait_for(self.reader.read(1 << 16), GUARD)
            except (ConnectionResetError, BrokenPipeError):  # (after our close answer)
                return total
            if not data:
                return total
            total += len(data)
            self.proto.receive_data(data)
            for event in self.proto.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    await self._closed()

    async def _closed(self) -> None:
        """The server's close frame came: note it and answer it, as every client does
        (the protocol has queued the answer), so the server ends the connection at once
        rather than after its closing handshake's grace."""
        self.close_rcvd = self.proto.close_rcvd
        # written, not drained: a server that reads nothing more of this connection
        # (its queue of requests full) would hold a drain until it aborts
        for data in self.proto.data_to_send():
            if data and not self.writer.is_closing():
                self.writer.write(data)

    def abort(self) -> None:
        self.writer.transport.abort()
        self.writer.close()
