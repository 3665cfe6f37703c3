"""The server's hot path per move, in one process and without a socket to the players:
a request frame is decoded, parsed (``protocol``), played by the games service
(``Games.move_delta``: the rules, the one Redis script on a real ``redis-server`` with
AOF ``everysec`` over a unix socket, the delta) and its reply encoded, as
``server.net.session`` and ``routes`` do for each move with ``"reply": "delta"``.

    python -m bench.hotpath [--game crescent] [--players 100] [--moves 20000]
                            [--profile 25]

Prints CPU µs per move of this process (the players' own share is building a request
and reading ``legal`` and ``seq`` off the delta: a few µs), and with ``--profile N``
the N functions of most own time under cProfile, where the time goes when the
WebSocket layer and the other processes are out of the picture. The players play
``legal[seq % len(legal)]`` as bench/load_server.py's do, a new game when one ends.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import pstats
import time
import uuid

import protocol as P
from deploy.procs import RedisProcess
from protocol.messages import Mode
from server.net.app import GC_THRESHOLDS
from server.services import Services
from server.store import Store


async def play(sv: Services, player: str, game: str, moves: int) -> int:
    """``moves`` moves (fewer never: games are restarted) of one player, each through
    the request/reply path of the server; the number played."""
    games = sv.games
    state = await games.start(player, game, Mode.PRACTICE, None)
    gid, seq, legal = state["game_id"], state["seq"], state["legal"]
    for rid in range(1, moves + 1):
        if not legal:
            state = await games.start(player, game, Mode.PRACTICE, None)
            gid, seq, legal = state["game_id"], state["seq"], state["legal"]
        move = legal[seq % len(legal)]
        frame = P.encode(P.request(rid, "move", game_id=gid, seq=seq, move=move, reply="delta"))
        # -- what the server does with the frame
        req = P.parse_request(P.decode(frame))
        assert isinstance(req, P.MoveRequest)
        delta = await games.move_delta(player, req.game_id, req.seq, req.move)
        P.encode(P.ok(req.id, delta=delta))
        # -- the player reads the new seq and legal moves
        seq, legal = delta["seq"], delta["legal"]
    return moves


async def run(args: argparse.Namespace) -> None:
    gc.set_threshold(*GC_THRESHOLDS)  # as the server does
    redis = RedisProcess(appendonly=True, unix=True).start()
    store = Store(redis.url, prefix=f"h{uuid.uuid4().hex[:8]}:")
    try:
        sv = Services.build(store)
        player = f"h{uuid.uuid4().hex[:10]}"
        await sv.accounts.register(player)
        per = max(1, args.moves // args.players)
        await asyncio.gather(*(play(sv, player, args.game, 20) for _ in range(args.players)))
        profile = cProfile.Profile() if args.profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        done = await asyncio.gather(
            *(play(sv, player, args.game, per) for _ in range(args.players))
        )
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        count = sum(done)
        note = " (under cProfile: inflated)" if profile else ""
        print(
            f"{args.game}, {args.players} players, {count} moves: "
            f"{cpu / count * 1e6:.1f} µs CPU per move{note}, {count / wall:,.0f} moves/s"
        )
        if profile is not None:
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out)
            stats.sort_stats("tottime").print_stats(args.profile)
            print(out.getvalue())
    finally:
        await store.close()
        redis.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hotpath", description=__doc__)
    parser.add_argument("--game", default="crescent", help="the game played [crescent]")
    parser.add_argument("--players", type=int, default=100, help="players at once [100]")
    parser.add_argument("--moves", type=int, default=20_000, help="moves in all [20000]")
    parser.add_argument(
        "--profile", type=int, default=0, help="print the N costliest functions (cProfile)"
    )
    args = parser.parse_args(argv)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
