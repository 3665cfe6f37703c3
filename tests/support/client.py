"""A small async test client speaking the real protocol over a real WebSocket.

async with connect(url) as c:
    await c.register("alice")
    state = (await c.call("start", game="crescent", mode="practice"))["state"]
    reply = await c.request("move", game_id=..., seq=0, move=...)  # raw reply map

Every request it sends and every frame it reads is checked against the protocol's
AsyncAPI document (``tests.support.schema``): a reply or event the document does not
describe fails the test, and so does a successful reply to a request it refuses.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Subprotocol

import protocol as P

from .schema import Frames
from .wait import GUARD


class TestClient:
    __test__ = False  # not a pytest test class

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        self.frames: list[bytes] = []  # every binary frame received, as sent
        self.player: str | None = None
        self.token: str | None = None
        #: the frames' check against the protocol's schema
        self.checked = Frames()

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = GUARD) -> dict[str, Any]:
        """The next frame, decoded (events included). ``timeout`` is a hang guard,
        never a measure: a test waits for a frame however long a loaded machine takes."""
        import asyncio

        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "the server sends binary frames only"
        self.frames.append(data)
        msg = P.decode(data, max_size=1 << 24)
        self.checked.received(msg)
        return msg

    async def reply(self, rid: int | None, timeout: float = GUARD) -> dict[str, Any]:
        """The reply to ``rid``; events received meanwhile go to ``events``."""
        while True:
            msg = await self.recv(timeout)
            if "ev" in msg:
                self.events.append(msg)
                continue
            assert msg.get("re") == rid, f"reply to {msg.get('re')} while waiting for {rid}"
            return msg

    async def request(self, op: str, **params: Any) -> dict[str, Any]:
        """Send one request; return the raw reply map (ok or not)."""
        rid = next(self.ids)
        msg = P.request(rid, op, **params)
        self.checked.sent(msg)
        await self.ws.send(P.encode(msg))
        return await self.reply(rid)

    async def call(self, op: str, **params: Any) -> dict[str, Any]:
        """Send one request; return its result, or raise its ``ProtocolError``."""
        reply = P.parse_reply(await self.request(op, **params))
        assert isinstance(reply, P.Reply)
        return reply.unwrap()

    async def error(self, op: str, **params: Any) -> dict[str, Any]:
        """Send a request that must fail; return its ``error`` map."""
        reply = await self.request(op, **params)
        assert reply["ok"] is False, f"{op} succeeded: {reply}"
        err: dict[str, Any] = reply["error"]
        return err

    async def register(self, name: str) -> str:
        result = await self.call("register", name=name)
        token: str = result["token"]
        self.player, self.token = result["player"], token
        return token

    async def start(self, game: str, mode: str = "practice", **params: Any) -> dict[str, Any]:
        state: dict[str, Any] = (await self.call("start", game=game, mode=mode, **params))["state"]
        return state

    async def move(self, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        new: dict[str, Any] = (
            await self.call("move", game_id=state["game_id"], seq=state["seq"], move=move)
        )["state"]
        return new

    async def next_event(self, ev: str, timeout: float = GUARD, **match: Any) -> dict[str, Any]:
        """The next event ``ev`` whose fields include ``match`` (events that arrived
        while a reply was awaited come first); an ``AssertionError`` after ``timeout``
        seconds, a hang guard."""
        deadline = time.monotonic() + timeout
        while True:
            if self.events:
                msg = self.events.pop(0)
            else:
                left = deadline - time.monotonic()
                try:
                    msg = await self.recv(timeout=max(0.01, left))
                except TimeoutError:
                    raise AssertionError(
                        f"no event {ev} {match or ''} within the {timeout:g} s hang guard"
                    ) from None
                assert "ev" in msg, f"a reply while waiting for {ev}: {msg}"
            if msg["ev"] == ev and all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def progress_of(self, who: str | None, moves: int) -> dict[str, Any]:
        """Wait for a ``race`` event showing ``who`` at ``moves`` moves; that row."""
        while True:
            ev = await self.next_event("race")
            rows = {p["player"]: p for p in ev["players"]}
            if rows[who]["moves"] == moves:
                row: dict[str, Any] = rows[who]
                return row

    async def close(self) -> None:
        await self.ws.close()


@contextlib.asynccontextmanager
async def connect(
    url: str, *, subprotocols: list[str] | None = None, **kwargs: Any
) -> AsyncIterator[TestClient]:
    """A :class:`TestClient` on ``url`` offering ``pasyans.v1`` (compression off)."""
    protos = [Subprotocol(p) for p in ([P.SUBPROTOCOL] if subprotocols is None else subprotocols)]
    async with ws_connect(
        url, subprotocols=protos, compression=None, max_size=1 << 24, **kwargs
    ) as ws:
        yield TestClient(ws)
