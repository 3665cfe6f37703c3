"""The server's hot path per move, in one process and without a socket to the players:
each request frame goes through the connection's own path (``server.net.session``:
decode, rate limit, ``protocol`` parsing; ``server.net.routes``: dispatch, metrics) to
the games service (``Games.move``: the rules, the one Redis script on a real
``redis-server`` with AOF ``everysec`` over a unix socket, the delta), and its reply
is encoded, as the server does for each move with ``"reply": "delta"``; only the
WebSocket frame's read and write are left out.

    python -m bench.hotpath [--game crescent] [--players 100] [--moves 20000]
                            [--profile 25]

Prints CPU µs per move of this process (the players' own share is building a request
and reading ``legal`` and ``seq`` off the delta: a few µs), the same less the games
started when one ended (at the CPU of a start, measured after the run: a start is not a
move, and costs several moves' CPU), and with ``--profile N``
the N functions of most own time under cProfile, where the time goes when the
WebSocket layer and the other processes are out of the picture. The players play
``legal[seq % len(legal)]`` as bench/load_server's do, a new game when one ends.
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
from server.net.metrics import Metrics
from server.net.ratelimit import TokenBucket
from server.net.routes import Routes
from server.net.session import Conn, Hub, Sessions
from server.patience.engine import keep_legal_moves
from server.services import LEGAL_POSITIONS, Services
from server.settings import Settings
from server.store import Store


def connection(sessions: Sessions, player: str) -> Conn:
    """A signed-in connection with no socket: :meth:`Sessions.answer` never touches it."""
    conn = Conn(None, TokenBucket(sessions.settings.rate, sessions.settings.burst, 0.0))  # type: ignore[arg-type]
    conn.player = player
    return conn


async def play(
    sv: Services, sessions: Sessions, player: str, game: str, moves: int
) -> tuple[int, int]:
    """``moves`` moves (fewer never: games are restarted) of one player, each through
    the request/reply path of the server; the numbers of moves played and of games
    started after the first (a game that ends is followed by a new one)."""
    games = sv.games
    conn = connection(sessions, player)
    state = await games.start(player, game, Mode.PRACTICE, None)
    gid, seq, legal = state["game_id"], state["seq"], state["legal"]
    starts = 0
    for rid in range(1, moves + 1):
        if not legal:
            starts += 1
            state = await games.start(player, game, Mode.PRACTICE, None)
            gid, seq, legal = state["game_id"], state["seq"], state["legal"]
        move = legal[seq % len(legal)]
        frame = P.encode(P.request(rid, "move", game_id=gid, seq=seq, move=move, reply="delta"))
        # -- what the server does with the frame (``Sessions.handler`` less the socket)
        reply = await sessions.answer(conn, frame)
        out = reply if isinstance(reply, bytes) else P.encode(reply)
        # -- the player reads the new seq and legal moves
        if not isinstance(reply, dict) or not reply.get("ok"):
            raise RuntimeError(f"move refused: {P.decode(out)}")
        delta = reply["delta"]
        seq, legal = delta["seq"], delta["legal"]
    return moves, starts


async def start_cpu(sv: Services, players: list[str], game: str, each: int) -> float:
    """CPU µs of one ``start`` of a practice game, ``each`` by every player at once:
    what the run's restarts add to its CPU per move."""
    cpu = time.process_time()
    await asyncio.gather(
        *(sv.games.start(p, game, Mode.PRACTICE, None) for p in players for _ in range(each))
    )
    return (time.process_time() - cpu) / (len(players) * each) * 1e6


async def run(args: argparse.Namespace) -> None:
    gc.set_threshold(*GC_THRESHOLDS)  # as the server does
    keep_legal_moves(LEGAL_POSITIONS)  # as the server does (else 1,000 players miss it)
    redis = RedisProcess(appendonly=True, unix=True).start()
    store = Store(redis.url, prefix=f"h{uuid.uuid4().hex[:8]}:")
    try:
        sv = Services.build(store)
        # the server's own session and routes (the rate limit never bites: the bench
        # measures the server, not the limiter)
        settings = Settings(rate=1e9, burst=10**9, address_limits=False)
        metrics = Metrics()
        hub = Hub()
        sessions = Sessions(settings, metrics, hub, Routes(sv, hub, settings, metrics).dispatch)
        # An account per player, as bench/load_server's: an account keeps only its
        # newest 100 practice games in play (``max_in_play``), so players sharing one
        # would resign each other's games on every start.
        stamp = uuid.uuid4().hex[:8]
        players = [f"h{stamp}x{i}" for i in range(args.players)]
        for player in players:
            await sv.accounts.register(player)
        per = max(1, args.moves // args.players)
        await asyncio.gather(*(play(sv, sessions, p, args.game, 20) for p in players))
        profile = cProfile.Profile() if args.profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        done = await asyncio.gather(*(play(sv, sessions, p, args.game, per) for p in players))
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        count = sum(m for m, _ in done)
        starts = sum(s for _, s in done)
        note = " (under cProfile: inflated)" if profile else ""
        per_start = 0.0 if profile else await start_cpu(sv, players, args.game, 2)
        print(
            f"{args.game}, {args.players} players, {count} moves: "
            f"{cpu / count * 1e6:.1f} µs CPU per move{note}, {count / wall:,.0f} moves/s"
        )
        if per_start:
            net = (cpu * 1e6 - starts * per_start) / count
            print(
                f"  {starts} games started on the way, {per_start:.0f} µs CPU each: "
                f"{net:.1f} µs CPU per move without them"
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
