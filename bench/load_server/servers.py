"""The servers pasyans is measured beside, each run in a process of its own
(``python -m bench.load_server --echo-server PORT`` and so on): the echo, the *floor*
(what any server of this design must do a move) and the *floor plus the engine* (the
floor's work and the engine's, nothing else)."""

from __future__ import annotations

import argparse
import asyncio
import gc
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import msgpack
from websockets.asyncio.server import ServerConnection, serve

import protocol as P
from server.net.app import GC_THRESHOLDS
from server.patience.engine import AnyGame, AnyState

from .game import GAME, canned_delta


async def listen(handler: Callable[[ServerConnection], Awaitable[None]], port: int) -> None:
    """Serve ``handler`` on 127.0.0.1:``port`` until cancelled, as every comparison
    server of this bench does (no compression, no pings, the protocol's frame limit)."""
    async with serve(
        handler, "127.0.0.1", port, compression=None, ping_interval=None, max_size=P.MAX_FRAME
    ):
        await asyncio.Future()


# -- the echo server --------------------------------------------------------------------


async def echo_server(port: int) -> None:
    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "echo": msg}))

    await listen(handler, port)


# -- the floor server -------------------------------------------------------------------

FLOOR_SCRIPT = """
redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'state', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
return 1
"""


class FloorWrite:
    """The floor's one write a move: :data:`FLOOR_SCRIPT` on the pipelined Redis
    connection the pasyans server's moves use (``server.store.pipe``)."""

    def __init__(self, redis_url: str) -> None:
        from server.store.pipe import ScriptPipe, sha1

        self.pipe = ScriptPipe(redis_url)
        self.script, self.sha = FLOOR_SCRIPT.encode(), sha1(FLOOR_SCRIPT)

    async def __call__(self, keys: list[str], seq: int, state: bytes, frame: bytes | str) -> None:
        await self.pipe.evalsha(self.script, self.sha, keys, [seq, state, frame])

    async def close(self) -> None:
        await self.pipe.close()


async def floor_server(port: int, redis_url: str) -> None:
    """What any server of this architecture must do per move, and nothing more: read
    the frame, persist a real state with one script call on the same pipelined Redis
    connection the pasyans server uses, answer with a real (canned) delta of the
    benchmarked game, the size of pasyans's replies. No validation, no engine: the
    pasyans row over this row is what our own code costs."""
    from server.patience import registry

    dumped = registry.get(GAME).dumps(registry.get(GAME).deal(1))
    canned = canned_delta()
    write = FloorWrite(redis_url)
    count = 0

    async def handler(ws: ServerConnection) -> None:
        nonlocal count
        count += 1
        keys = [f"floor:{{{count}}}", f"floor:{{{count}}}:log"]
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            seq = msg.get("seq", 0)
            await write(keys, seq, dumped, frame)
            await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "delta": canned}))

    try:
        await listen(handler, port)
    finally:
        await write.close()


# -- the floor plus the engine ----------------------------------------------------------


async def floor_engine_server(port: int, redis_url: str) -> None:
    """The floor plus the engine, in one process: per move, the floor's work (read the
    frame, one script call persisting the new state, answer with a delta) and the
    engine's as :func:`~.game.engine_cost` times it (parse the move, play it, status
    and score, dump the state, the legal moves in wire form, the changed piles' views
    and the info), with the delta built from them. No validation beyond the engine's,
    no account, record, clock or cache: the least a server running our engine can
    spend a move, measured as the servers are (in its own process, with its own CPU
    caches). ``register`` is answered at once and ``start`` deals a game held in the
    connection."""
    from server.patience import registry
    from server.patience.engine import keep_legal_moves
    from server.services import LEGAL_POSITIONS

    keep_legal_moves(LEGAL_POSITIONS)  # as the server does
    game = registry.get(GAME)
    write = FloorWrite(redis_url)
    count = 0

    async def handler(ws: ServerConnection) -> None:
        nonlocal count
        count += 1
        deals = 0
        gid, seq, state = "", 0, game.deal(1)
        keys = [f"floor:{{e{count}}}", f"floor:{{e{count}}}:log"]
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            op = msg.get("op")
            if op == "move":
                new = game.apply(state, game.parse_move(msg["move"]))
                status = str(game.status(new))
                foundation = game.score(new)[0]
                await write(keys, seq, game.dumps(new), frame)
                seq += 1
                delta = engine_delta(game, state, new, gid, seq, status, foundation)
                state = new
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "delta": delta}))
            elif op == "start":
                deals += 1
                seq, state = 0, game.deal(count * 100_000 + deals)
                gid = f"e{count}x{deals}"
                wire = engine_start(game, state, gid)
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "state": wire}))
            else:  # register
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True}))

    try:
        await listen(handler, port)
    finally:
        await write.close()


def engine_delta(
    game: AnyGame, state: AnyState, new: AnyState, gid: str, seq: int, status: str, found: int
) -> dict[str, Any]:
    """The floor plus the engine's delta for the move from ``state`` to ``new``: the
    counters, the legal moves, the changed piles' cards, the changed info keys."""
    piles = {
        game.ids[i]: game.view_pile(new, i)["cards"]
        for i, cards in enumerate(new.piles)
        if cards is not state.piles[i]
    }
    was, now = game.info(state), game.info(new)
    return {
        "game_id": gid,
        "seq": seq,
        "status": status,
        "moves": seq,
        "time_ms": 1000,
        "foundation": found,
        "clean": True,
        "legal": [m.to_wire() for m in game.legal_moves(new)],
        "piles": piles,
        "info": {k: v for k, v in now.items() if was.get(k) != v},
    }


def engine_start(game: AnyGame, state: AnyState, gid: str) -> dict[str, Any]:
    """The floor plus the engine's state of a game just dealt."""
    return {
        "game_id": gid,
        "seq": 0,
        "status": str(game.status(state)),
        "moves": 0,
        "time_ms": 0,
        "foundation": game.score(state)[0],
        "clean": True,
        "legal": [m.to_wire() for m in game.legal_moves(state)],
        "view": game.view(state),
    }


def reference_server(args: argparse.Namespace) -> Coroutine[Any, Any, None] | None:
    """The reference server this process was started to run (``--echo-server``,
    ``--floor-server`` or ``--floor-engine-server``; ``None`` for the benchmark
    itself). It collects garbage as pasyans does (``server.net.app.GC_THRESHOLDS``):
    with CPython's default thresholds the floor plus the engine spent 12–37 µs a move
    more on collections than pasyans does (docs/history/performance-rounds.md, fifth
    round), which flattered pasyans's ratio to it."""
    if args.echo_server:
        served = echo_server(args.echo_server)
    elif args.floor_server:
        served = floor_server(args.floor_server, args.redis_url)
    elif args.floor_engine_server:
        served = floor_engine_server(args.floor_engine_server, args.redis_url)
    else:
        return None
    gc.set_threshold(*GC_THRESHOLDS)
    return served
