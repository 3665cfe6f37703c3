"""The load: players connected to a server, each playing legal moves as fast as its
replies come (:class:`Player`, keeping its state by delta replies as the terminal
client does), or sending the same request shape to the echo and the floor
(:class:`Echoer`); and idle connections (:func:`idle`)."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

import protocol as P
from protocol.delta import apply_delta

from .game import GAME
from .procs import rss_kib
from .rounds import Load, close_all


async def open_many(url: str, n: int, *, parallel: int = 200) -> list[ClientConnection]:
    sem = asyncio.Semaphore(parallel)

    async def one() -> ClientConnection:
        async with sem:
            return await connect(
                url,
                subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
                compression=None,
                ping_interval=None,
                open_timeout=60,
            )

    return list(await asyncio.gather(*(one() for _ in range(n))))


class Player:
    """One connection playing random-ish legal moves as fast as replies come, keeping
    its state by delta replies as the terminal client does."""

    def __init__(
        self, ws: ClientConnection, sizes: list[int] | None = None, seqs: Counter[int] | None = None
    ) -> None:
        self.ws = ws
        self.ids = 0
        self.state: dict[str, Any] = {}
        #: bytes of each move reply, when given a list to fill
        self.sizes = sizes
        #: how many moves were made at each index of a game (seq), when given a counter
        self.seqs = seqs

    async def call(self, op: str, **params: Any) -> dict[str, Any]:
        self.ids += 1
        await self.ws.send(msgpack.packb(P.request(self.ids, op, **params)))
        frame = await self.ws.recv()
        reply: dict[str, Any] = msgpack.unpackb(frame)
        if not reply.get("ok"):
            raise RuntimeError(f"{op}: {reply}")
        if self.sizes is not None and op == "move":
            self.sizes.append(len(frame))
        return reply

    async def new_game(self) -> None:
        self.state = (await self.call("start", game=GAME, mode="practice"))["state"]

    async def step(self) -> bool:
        """One move; False when the game is over (a new one is started, not timed)."""
        legal = self.state["legal"]
        if not legal:
            await self.new_game()
            return False
        move = legal[self.state["seq"] % len(legal)]
        if self.seqs is not None:
            self.seqs[self.state["seq"]] += 1
        reply = await self.call(
            "move", game_id=self.state["game_id"], seq=self.state["seq"], move=move, reply="delta"
        )
        self.state = apply_delta(self.state, reply["delta"])
        return True


class Echoer:
    """The same request shape against the echo server (or the floor)."""

    def __init__(self, ws: ClientConnection, sizes: list[int] | None = None) -> None:
        self.ws = ws
        self.ids = 0
        self.sizes = sizes

    async def step(self) -> bool:
        self.ids += 1
        msg = P.request(
            self.ids,
            "move",
            game_id="abcdefghijkl",
            seq=self.ids,
            move={"from": "T1", "to": "FA-S"},
            reply="delta",
        )
        await self.ws.send(msgpack.packb(msg))
        frame = await self.ws.recv()
        msgpack.unpackb(frame)
        if self.sizes is not None:
            self.sizes.append(len(frame))
        return True


async def pasyans_load(port: int, pid: int, players: int, *, children: bool = True) -> Load:
    """``players`` players signed in to the pasyans server (or the floor-plus-engine
    one) on ``port``, a game started each."""
    url = f"ws://127.0.0.1:{port}/ws"
    conns = await open_many(url, players)
    try:
        sizes: list[int] = []
        seqs: Counter[int] = Counter()
        ps = [Player(c, sizes, seqs) for c in conns]
        # An account per player: one account keeps only its newest 100 practice games
        # in play (--max-in-play), so players sharing one would resign each other's.
        stamp = int(time.time() * 1000) % 10**9
        await asyncio.gather(*(p.call("register", name=f"b{stamp}x{i}") for i, p in enumerate(ps)))
        await asyncio.gather(*(p.new_game() for p in ps))
    except BaseException:
        await close_all(conns)
        raise
    return Load(pid, conns, [p.step for p in ps], sizes, seqs, children)


async def echo_load(port: int, pid: int, players: int) -> Load:
    """``players`` connections to the echo server (or the floor) on ``port``."""
    conns = await open_many(f"ws://127.0.0.1:{port}/", players)
    sizes: list[int] = []
    return Load(pid, conns, [Echoer(c, sizes).step for c in conns], sizes)


async def idle(port: int, pid: int, n: int) -> tuple[int, float]:
    url = f"ws://127.0.0.1:{port}/ws"
    warm = await open_many(url, 50)
    await close_all(warm)
    await asyncio.sleep(0.5)
    before = rss_kib(pid)
    conns = await open_many(url, n)
    await asyncio.sleep(1.0)
    after = rss_kib(pid)
    # every connection still answers
    probe = Player(conns[-1])
    await probe.call("games")
    await close_all(conns)
    return len(conns), (after - before) / len(conns)
