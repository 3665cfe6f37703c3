"""Server speed: validated, persisted moves per second and latency over WebSocket +
msgpack + Redis, next to a bare websockets + msgpack echo server and a *floor* server
measured in the same run; and idle connections per process with memory per connection.

Each server runs in its own process (the pasyans server on a real redis-server with
AOF ``everysec`` on a unix socket, as the embedded default; the echo server bare);
the load client runs here, on the same cores. Its players keep their state by delta
replies (``"reply": "delta"``, applied with :func:`protocol.delta.apply_delta`), as
the terminal client does.

    python -m bench.load_server [--seconds 4] [--rounds 4] [--players 1,100,1000] [--idle 10000]
                           [--cluster-players 100,1000] [--preparing-players 100]
                           [--prepare-args '--no-solver-idle'] [--paced-players 1000]
                           [--pace 1] [--json] [--save]

The *floor* does per move only what any server of this design must: read the frame,
persist a real state with one Lua script call on the same pipelined Redis connection,
answer with a real delta of the benchmarked game the size of pasyans's (the median
of the deltas of whole games played as the load client plays: ~180 bytes for
Crescent); no validation and no engine. The *engine* figure is the game's own work
per move (:func:`engine_cost`), measured in this process before the servers start,
in CPU time, each row's figure at the moves its players made (by index in the game)
and with as many games played at once as the row has players (``"engine_us"``; one
game at a time: ``"engine_one_game_us"``, the figure of the rows before 2026-11-26's
second run: 1,000 games' positions do not stay in the CPU's caches as one game's do).
Beside them runs the *floor plus the engine* (:func:`floor_engine_server`): the
floor's work and the engine's in one process, driven by the same load client as
pasyans, and nothing else (no validation, records, clock or cache). It is the least a
server running our engine can spend a move, measured as the servers are: the engine
figure above is measured apart, and in a server's process, beside its sockets and
buffers, the same work costs up to ~1.7 × as much (docs/performance.md, "Issue 28,
third round"). ``"floor_engine_cpu_us"``, ``"floor_engine_p99_ms"``,
``"cpu_vs_floor_engine"`` (pasyans's CPU a move over it: what our own code adds) and
``"floor_engine_p99_ratio"`` (its p99 over the floor's) are in each single-Redis row.
Targets (issue 15): pasyans's server CPU per move ≤ 1.2 × (the floor's + the
engine's), and p99 ≤ 1.5 × the floor's, at 1, 100 and 1,000 players; ``--json``
prints those rows (``{"rows": [{"players", "pasyans_moves_s", "floor_moves_s",
"pasyans_cpu_us", "floor_cpu_us", "engine_us", "pasyans_p99_ms", "floor_p99_ms",
"cpu_ratio", "p99_ratio", …}]}``). Then rows of pasyans on a local Redis Cluster of
three primaries with a replica each (deploy/local) at each of ``--cluster-players``
(``"store": "cluster"``, ``"vs_redis"``: its CPU per move over the single-Redis row's
at that count, issue 28's target ≤ 1.3; its floor figures are the single Redis's),
and rows at ``--preparing-players`` on a server certifying dailies meanwhile
(``"preparing": true``, ``"p99_vs_idle"``: its p99 over the single-Redis row's, issue
28's target ≤ 1.5; ``"dailies_before"``/``"dailies_after"``: dailies chosen and being
chosen, candidates tried, solver CPU seconds, which show the solver was at work).
Older targets (DESIGN.md): throughput ≥ 0.5 × the echo's, p99 ≤ 2 × the echo's;
10,000 idle connections at ≤ 20 KiB each.

Paced rows (``--paced-players``, none by default): each player thinks ``--pace``
seconds between its moves (on average, at random), as people do, so a server answers
at a fraction of its capacity and a move's latency is its own, not a queue's; the
floor, the floor plus the engine and pasyans take turns in them too (``"paced_s"`` in
their ``--json`` rows). Their CPU per move counts the idle server's wake-ups: only
their latencies mean something.

The servers of a row take turns: each row's ``--seconds`` are split into
``--rounds`` turns of every server (the echo, the floor, the floor plus the engine,
pasyans, pasyans on the Redis Cluster when the count is among ``--cluster-players``
and the server preparing dailies when it is among ``--preparing-players``), in one
order in even rounds and the reverse in odd ones, their players connected
throughout; a server's figures pool its turns (moves and CPU summed, latencies
together). The preparing server's solver processes are frozen (SIGSTOP) outside its
own turns, or they would take the other servers' CPU in theirs. On this shared
machine the speed of everything drifts by ±30 % within minutes: measured one after
another, a ratio of two servers read the drift as much as the servers
(docs/performance.md, "Issue 28, fourth round").

Each run is compared with the saved baseline ``bench/load_server_baseline.json`` when present
(the ratios to the echo count: absolute figures move with the machine's load);
``--save`` makes this run the baseline.

Fairness, checked: the load client is not the bottleneck of the pasyans rows (the
server process is at ~100 % of a core while the client uses ~30–40 %); in the echo
rows both processes share the two cores, which if anything flatters pasyans. The
echo answers each request with the request itself (~100 bytes). The time a player
spends starting a new game after one ends is in the elapsed time, not in the move
count or the latencies.

The server gets ``--rate``/``--burst`` high enough that the per-connection rate limit
never bites (the bench measures the server, not the limiter), and does not prepare
dailies (no solver at work meanwhile), except in the preparing rows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import inspect
import json
import os
import random
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve

import protocol as P
from deploy.procs import RedisProcess, free_port
from protocol.delta import apply_delta
from server.net.app import GC_THRESHOLDS

if TYPE_CHECKING:
    from deploy.local import LocalDeployment

ROOT = Path(__file__).resolve().parents[1]

GAME = "crescent"
BASELINE = Path(__file__).with_name("load_server_baseline.json")


async def listen(handler: Callable[[ServerConnection], Awaitable[None]], port: int) -> None:
    """Serve ``handler`` on 127.0.0.1:``port`` until cancelled, as every comparison
    server of this bench does (no compression, no pings, the protocol's frame limit)."""
    async with serve(
        handler, "127.0.0.1", port, compression=None, ping_interval=None, max_size=P.MAX_FRAME
    ):
        await asyncio.Future()


# -- the echo server (run as a subprocess) ---------------------------------------------


async def echo_server(port: int) -> None:
    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "echo": msg}))

    await listen(handler, port)


# -- the floor server (run as a subprocess) --------------------------------------------

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


def canned_delta() -> dict[str, Any]:
    """A real delta reply of the benchmarked game for the floor to answer with, the
    size of pasyans's: built as the server builds one (counters, the legal list, the
    changed piles' cards, the changed info keys) for each move the load client plays
    in the games of deals 1 to 5, the one of median encoded size."""
    from server.patience import registry

    game = registry.get(GAME)
    found: list[tuple[int, dict[str, Any]]] = []
    for deal in range(1, 6):
        state = game.deal(deal)
        for seq in range(500):  # a game ends well before
            legal = game.legal_moves(state)
            if not legal or game.status(state) != "playing":
                break
            after = game.apply(state, legal[seq % len(legal)])
            was, now = game.view(state), game.view(after)
            piles = {
                b["id"]: b["cards"]
                for a, b in zip(was["piles"], now["piles"], strict=True)
                if a["cards"] != b["cards"]
            }
            delta = {
                "game_id": "abcdefghijkl",
                "seq": seq + 1,
                "status": str(game.status(after)),
                "moves": seq + 1,
                "time_ms": 1000,
                "foundation": game.score(after)[0],
                "clean": True,
                "legal": [m.to_wire() for m in game.legal_moves(after)],
                "piles": piles,
                "info": {k: v for k, v in now["info"].items() if was["info"].get(k) != v},
            }
            found.append((len(msgpack.packb(delta)), delta))
            state = after
    found.sort(key=lambda pair: pair[0])
    return found[len(found) // 2][1]


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


async def floor_engine_server(port: int, redis_url: str) -> None:
    """The floor plus the engine, in one process: per move, the floor's work (read the
    frame, one script call persisting the new state, answer with a delta) and the
    engine's as :func:`engine_cost` times it (parse the move, play it, status and
    score, dump the state, the legal moves in wire form, the changed piles' views and
    the info), with the delta built from them. No validation beyond the engine's, no
    account, record, clock or cache: the least a server running our engine can spend a
    move, measured as the servers are (in its own process, with its own CPU caches).
    ``register`` is answered at once and ``start`` deals a game held in the connection."""
    from server.net.app import LEGAL_POSITIONS
    from server.patience import registry
    from server.patience.engine import keep_legal_moves

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
                piles = {
                    game.ids[i]: game.view_pile(new, i)["cards"]
                    for i, cards in enumerate(new.piles)
                    if cards is not state.piles[i]
                }
                was, now = game.info(state), game.info(new)
                seq += 1
                delta = {
                    "game_id": gid,
                    "seq": seq,
                    "status": status,
                    "moves": seq,
                    "time_ms": 1000,
                    "foundation": foundation,
                    "clean": True,
                    "legal": [m.to_wire() for m in game.legal_moves(new)],
                    "piles": piles,
                    "info": {k: v for k, v in now.items() if was.get(k) != v},
                }
                state = new
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "delta": delta}))
            elif op == "start":
                deals += 1
                seq, state = 0, game.deal(count * 100_000 + deals)
                gid = f"e{count}x{deals}"
                wire = {
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
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "state": wire}))
            else:  # register
                await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True}))

    try:
        await listen(handler, port)
    finally:
        await write.close()


# -- helpers ----------------------------------------------------------------------------


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_http(port: int, path: str = "/healthz", timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1):
                return
        except OSError as exc:
            if getattr(exc, "code", None):  # any HTTP answer means it is up
                return
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


def spawn(args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )


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


async def close_all(conns: list[ClientConnection]) -> None:
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)


# -- load -------------------------------------------------------------------------------


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


Step = Callable[[], Awaitable[bool]]


def cpu_seconds(pid: int, *, children: bool = True) -> float:
    """User + system CPU time of a process and (``children``) of its children still
    running (server workers; not wanted when the children are solver processes)."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        if children:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
            pids += [int(c) for c in text.split()]
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


#: (messages/s, p50 ms, p99 ms, server CPU µs per message, client CPU µs per message,
#: median reply bytes, the engine's CPU µs per move at the moves played: 0 for the echo)
#: moves/s, p50 ms, p99 ms, server CPU µs a move, client CPU µs a move, median reply
#: bytes, the engine's µs a move (as many games at once as the row has players), the
#: same one game at a time
Row = tuple[float, float, float, float, float, float, float, float]


async def drive(
    steppers: list[Step], seconds: float, pid: int, *, children: bool = True, pause: float = 0.0
) -> tuple[int, list[float], float, float]:
    """Run the steppers for ``seconds``: (messages, latencies + [elapsed], CPU seconds
    of the server process ``pid`` (and its children) and of this load client meanwhile).
    With a ``pause``, each player thinks between its moves (``pause`` seconds on average,
    at random from half to one and a half of it; the first move after a random part
    of it, so that the players do not move in step): the paced rows."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop(step: Step) -> None:
        if pause:
            await asyncio.sleep(random.uniform(0, pause))
        while True:
            t0 = time.perf_counter()
            if t0 >= stop:
                return
            if await step():
                latencies.append(time.perf_counter() - t0)
            if pause:
                await asyncio.sleep(pause * random.uniform(0.5, 1.5))

    t0 = time.perf_counter()
    server0, client0 = cpu_seconds(pid, children=children), time.process_time()
    await asyncio.gather(*(loop(s) for s in steppers))
    server = cpu_seconds(pid, children=children) - server0
    client = time.process_time() - client0
    return len(latencies), [x for x in latencies] + [time.perf_counter() - t0], server, client


def summarise(
    count: int,
    latencies: list[float],
    server: float,
    client: float,
    sizes: list[int],
    engine: float = 0.0,
    single: float = 0.0,
) -> Row:
    """A :data:`Row` from what :func:`drive` measured, the reply sizes seen and the
    engine's µs per move at the moves played."""
    elapsed = latencies.pop()
    lat = sorted(latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    per = 1e6 / count if count else 0.0
    size = float(statistics.median(sizes)) if sizes else 0.0
    return count / elapsed, p50, p99, server * per, client * per, size, engine, single


@dataclass
class Load:
    """One server's players at one row, their connections kept open through the row's
    rounds: each :meth:`measure` drives them once and keeps what :func:`drive` saw."""

    pid: int
    conns: list[ClientConnection]
    steps: list[Step]
    #: bytes of each reply, and (pasyans's players) moves by index in their games
    sizes: list[int]
    seqs: Counter[int] | None = None
    #: count the server's child processes' CPU too (not when they are solvers)
    children: bool = True
    samples: list[tuple[int, list[float], float, float]] = field(default_factory=list)
    #: called with True before each measured turn and False after it
    on_turn: Callable[[bool], None] | None = None
    #: each player's thinking time between moves, on average (:func:`drive`)
    pause: float = 0.0

    async def measure(self, seconds: float) -> None:
        if self.on_turn is not None:
            self.on_turn(True)
        try:
            measured = await drive(
                self.steps, seconds, self.pid, children=self.children, pause=self.pause
            )
        finally:
            if self.on_turn is not None:
                self.on_turn(False)
        self.samples.append(measured)

    async def warm(self, seconds: float) -> None:
        """Drive the players ``seconds`` and forget it (connections, caches, JIT-less
        first calls): only what :meth:`measure` drives after it counts."""
        await drive(self.steps, seconds, self.pid, children=self.children, pause=self.pause)
        self.sizes.clear()
        if self.seqs is not None:
            self.seqs.clear()

    def row(self, engines: Engines | None = None, players: int = 0) -> Row:
        """The :data:`Row` of every round measured, pooled: moves and CPU summed, the
        latencies of all rounds together."""
        latencies = [x for _, lat, _, _ in self.samples for x in lat[:-1]]
        elapsed = sum(lat[-1] for _, lat, _, _ in self.samples)
        count = sum(c for c, _, _, _ in self.samples)
        server = sum(s for _, _, s, _ in self.samples)
        client = sum(c for _, _, _, c in self.samples)
        engine = single = 0.0
        if engines is not None and self.seqs is not None:
            engine, single = engines.at(players, self.seqs), engines.single.at(self.seqs)
        return summarise(count, [*latencies, elapsed], server, client, self.sizes, engine, single)

    async def close(self) -> None:
        await close_all(self.conns)


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


async def opened(stack: contextlib.AsyncExitStack, *opening: Awaitable[Load]) -> list[Load]:
    """Each load of ``opening`` opened in turn, its players disconnected when ``stack``
    closes (those not yet opened when one fails are never opened)."""
    loads: list[Load] = []
    pending = list(opening)
    try:
        while pending:
            loads.append(await pending.pop(0))
            stack.push_async_callback(loads[-1].close)
    finally:
        for rest in pending:
            if inspect.iscoroutine(rest):
                rest.close()
    return loads


async def measure_alone(load: Load, seconds: float, rounds: int) -> None:
    """One server's row with nobody to take turns with (a count only its rows have):
    a warm-up of half a second, then ``rounds`` turns; its players disconnect after."""
    try:
        await load.warm(0.5)
        await measure_rounds([load], seconds, rounds)
    finally:
        await load.close()


async def measure_rounds(loads: list[Load], seconds: float, rounds: int) -> None:
    """Measure ``loads`` in turn, ``rounds`` times, ``seconds`` in all each: forward in
    even rounds, backward in odd ones, so a drift of the machine's speed over the row
    (other work, CPU frequency, the cache) falls on every server alike instead of on
    whichever ran last."""
    for r in range(rounds):
        for load in loads if r % 2 == 0 else loads[::-1]:
            await load.measure(seconds / rounds)


@dataclass(frozen=True)
class EngineCost:
    """The engine's own CPU µs per move of the benchmarked game, by the move's index in
    its game (seq): a row's figure is weighted by the indices its players reached. A
    short row of 1,000 players plays mostly the first moves of fresh games, whose
    positions have about twice the legal moves of a whole game's average."""

    #: µs per move at each index (seq), over whole games played as the load client plays
    by_seq: tuple[float, ...]
    #: µs per move over every move measured
    mean: float
    #: the games played at once while measuring (:func:`engine_cost`)
    games: int = 1

    def at(self, seqs: Counter[int]) -> float:
        """µs per move over the moves counted in ``seqs`` (index → moves)."""
        total = sum(seqs.values())
        if not total or not self.by_seq:
            return self.mean
        last = len(self.by_seq) - 1
        return sum(self.by_seq[min(i, last)] * k for i, k in seqs.items()) / total


def engine_cost(seconds: float, games: int = 1) -> EngineCost:
    """The engine's own work per move of the benchmarked game: what the server asks of
    the game for each move (parse the move, play it, status and score, dump the state
    for Redis, the new legal moves in wire form, the view of the piles that changed
    and the info), on the moves the load client plays (``legal[seq % n]``), in this
    process, nothing else running in it. ``games`` games are played at once, a move of
    each in turn (a new deal when one ends), as a server holding that many players'
    games plays them: 1,000 games' positions and legal-move lists do not stay in the
    CPU's caches as one game's do (measured: ~1.5 × the µs of one game at a time at
    the same move indices, docs/performance.md). CPU time, as the servers' figures:
    the timed sections' wall time is split by move index and scaled by the process's
    CPU over wall time of the whole measurement (a CPU clock read twice a move would
    cost more than a tenth of what it measures)."""
    from server.net.app import LEGAL_POSITIONS
    from server.patience import registry
    from server.patience.engine import keep_legal_moves

    keep_legal_moves(LEGAL_POSITIONS)  # as the server does (else 1,000 games miss it)
    game = registry.get(GAME)
    count, seed, spent = 0, 0, 0.0
    walls: list[float] = []
    moves: list[int] = []

    def fresh() -> list[Any]:
        nonlocal seed
        seed += 1
        state = game.deal(seed)
        return [state, [m.to_wire() for m in game.legal_moves(state)], 0]

    table = [fresh() for _ in range(games)]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    deadline = wall0 + seconds
    while time.perf_counter() < deadline:
        for slot in table:
            state, wires, seq = slot
            if not wires:
                slot[:] = fresh()
                continue
            wire = wires[seq % len(wires)]
            t0 = time.perf_counter()
            new = game.apply(state, game.parse_move(wire))
            status = game.status(new)
            game.score(new)
            game.dumps(new)
            wires = [m.to_wire() for m in game.legal_moves(new)] if status == "playing" else []
            for i, cards in enumerate(new.piles):
                if cards is not state.piles[i]:
                    game.view_pile(new, i)
            game.info(new)
            took = time.perf_counter() - t0
            if seq == len(walls):
                walls.append(0.0)
                moves.append(0)
            walls[seq] += took
            moves[seq] += 1
            spent += took
            slot[0], slot[1], slot[2] = new, wires, seq + 1
            count += 1
    scale = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    # an index reached by few games is too noisy alone: it takes the mean of the
    # indices from it on (the tail of long games)
    by_seq, tail_wall, tail_moves = [], 0.0, 0
    for wall, k in zip(reversed(walls), reversed(moves), strict=True):
        tail_wall, tail_moves = tail_wall + wall, tail_moves + k
        mean_here = wall / k if k >= 20 else tail_wall / tail_moves
        by_seq.append(mean_here * scale * 1e6)
    by_seq.reverse()
    mean = spent / count * scale * 1e6 if count else 0.0
    return EngineCost(tuple(by_seq), mean, games)


@dataclass(frozen=True)
class Engines:
    """The engine's cost one game at a time (``single``) and with as many games at once
    as each row has players (``by_games``): a row's ratio uses the latter."""

    single: EngineCost
    by_games: dict[int, EngineCost]

    def at(self, players: int, seqs: Counter[int]) -> float:
        return self.by_games.get(players, self.single).at(seqs)


def engines(seconds: float, players: set[int]) -> Engines:
    """:func:`engine_cost` one game at a time and at each count of ``players``."""
    single = engine_cost(seconds)
    by_games = {n: single if n == 1 else engine_cost(seconds, games=n) for n in sorted(players)}
    return Engines(single, by_games)


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


async def main_async(args: argparse.Namespace) -> None:
    # The load client keeps every player's last state (a few hundred objects each)
    # alive: with CPython's default thresholds the cyclic collector walks all of them
    # every few replies, CPU taken from the servers on the same cores. The server
    # raises its thresholds the same way (server.net.app.GC_THRESHOLDS).
    gc.set_threshold(*GC_THRESHOLDS)
    counts = {*args.players, *args.cluster_players, *args.preparing_players} - {0}
    counts |= set(args.paced_players)
    eng = engines(args.engine_seconds, counts)  # first, with nothing else of ours running
    print(
        f"  {GAME}: the engine's own work {eng.single.mean:.1f} µs per move over whole "
        "games, one at a time; "
        + ", ".join(f"{n:,} at once {c.mean:.1f}" for n, c in eng.by_games.items()),
        file=sys.stderr,
    )
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # a row keeps four servers' players connected at once
    most = max(*args.players, *args.paced_players, 0)
    want = min(hard, max(soft, args.idle * 2 + 1000, 8 * most + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-bench-"))
    redis = RedisProcess(appendonly=True, directory=tmp / "redis", unix=True).start()
    sport, eport = free_port(), free_port()
    server = spawn(server_command(sport, redis.url, args))
    echo = spawn([sys.executable, __file__, "--echo-server", str(eport), "--loop", args.loop])
    fport = free_port()
    floor = spawn(
        [
            sys.executable,
            __file__,
            "--floor-server",
            str(fport),
            "--redis-url",
            redis.url,
            "--loop",
            args.loop,
        ]
    )
    feport = free_port()
    floor_engine = spawn(
        [
            sys.executable,
            __file__,
            "--floor-engine-server",
            str(feport),
            "--redis-url",
            redis.url,
            "--loop",
            args.loop,
        ]
    )
    servers = (server, echo, floor, floor_engine)
    if args.pin:
        # The servers on the first CPU, the load client and redis-server on the others:
        # each server then competes with its own load for nothing.
        cpus = sorted(os.sched_getaffinity(0))
        first, rest = {cpus[0]}, set(cpus[1:]) or {cpus[0]}
        for proc in servers:
            os.sched_setaffinity(proc.pid, first)
        if redis.process is not None:
            os.sched_setaffinity(redis.process.pid, rest)
        os.sched_setaffinity(0, rest)
    rows = []
    #: players → the floor-plus-engine server's row
    floor_engines: dict[int, Row] = {}
    cluster_rows: list[tuple[int, Row]] = []
    #: players, pasyans's, the floor's and the floor-plus-engine's rows, paced
    paced: list[tuple[int, Row, Row, Row]] = []
    #: players, the row of the server preparing dailies, its progress before and after
    preparing: list[tuple[int, Row, dict[str, float], dict[str, float]]] = []
    # The cluster's server takes its turns in the same rounds as the single Redis's
    # (its rows at counts of --players): "vs_redis" then compares the two in one phase
    # of the machine.
    cluster: LocalDeployment | None = None
    try:
        if args.cluster_players:
            cluster = await start_cluster(args)
        wait_http(sport)
        wait_http(eport, "/")
        wait_http(fport, "/")
        wait_http(feport, "/")
        for n in args.players:
            async with contextlib.AsyncExitStack() as row_stack:
                loads = await opened(
                    row_stack,
                    echo_load(eport, echo.pid, n),
                    echo_load(fport, floor.pid, n),
                    pasyans_load(feport, floor_engine.pid, n),
                    pasyans_load(sport, server.pid, n),
                )
                if cluster is not None and n in args.cluster_players:
                    node = cluster.servers[0]
                    loads += await opened(row_stack, pasyans_load(node.port, node.child.pid, n))
                prep = None
                if n in args.preparing_players:
                    prep = await row_stack.enter_async_context(Preparing(args))
                    loads += await opened(
                        row_stack, pasyans_load(prep.port, prep.pid, n, children=False)
                    )
                for load in loads:
                    await load.warm(0.5)
                if prep is not None:
                    assert prep.solvers is not None
                    before = await prep.progress()
                    prep.solvers.freeze()
                    loads[-1].on_turn = prep.solvers.turn
                await measure_rounds(loads, args.seconds, args.rounds)
                if prep is not None:
                    after = await prep.progress()
                    preparing.append((n, loads[-1].row(eng, n), before, after))
            e, f = loads[0].row(), loads[1].row()
            fe, s = loads[2].row(eng, n), loads[3].row(eng, n)
            rows.append((n, s, e, f))
            floor_engines[n] = fe
            print(
                f"  {n} players: pasyans {s[0]:,.0f}/s p50 {s[1]:.2f} p99 {s[2]:.2f} ms; "
                f"echo {e[0]:,.0f}/s p50 {e[1]:.2f} p99 {e[2]:.2f} ms; "
                f"floor {f[0]:,.0f}/s p50 {f[1]:.2f} p99 {f[2]:.2f} ms; CPU µs per message: "
                f"server {s[3]:.0f} (client {s[4]:.0f}), echo {e[3]:.0f} (client {e[4]:.0f}), "
                f"floor {f[3]:.0f} (client {f[4]:.0f}); floor + engine {fe[0]:,.0f}/s "
                f"p99 {fe[2]:.2f} ms, {fe[3]:.0f} µs a move",
                file=sys.stderr,
            )
            if cluster is not None and n in args.cluster_players:
                cluster_rows.append((n, loads[4].row(eng, n)))
                say_cluster(n, cluster_rows[-1][1])
            if preparing and preparing[-1][0] == n:
                say_preparing(*preparing[-1])
        for n in args.paced_players:
            async with contextlib.AsyncExitStack() as row_stack:
                loads = await opened(
                    row_stack,
                    echo_load(fport, floor.pid, n),
                    pasyans_load(feport, floor_engine.pid, n),
                    pasyans_load(sport, server.pid, n),
                )
                for load in loads:
                    load.pause = args.pace
                for load in loads:
                    await load.warm(args.pace)
                await measure_rounds(loads, args.seconds, args.rounds)
            f, fe, s = loads[0].row(), loads[1].row(eng, n), loads[2].row(eng, n)
            paced.append((n, s, f, fe))
            print(
                f"  {n} players, a move every {args.pace:g} s each: pasyans {s[0]:,.0f}/s "
                f"p50 {s[1]:.2f} p99 {s[2]:.2f} ms; floor p50 {f[1]:.2f} p99 {f[2]:.2f} ms; "
                f"floor + engine p50 {fe[1]:.2f} p99 {fe[2]:.2f} ms",
                file=sys.stderr,
            )
        for n in sorted(set(args.cluster_players) - set(args.players)):
            if cluster is not None:  # a count of --cluster-players alone
                node = cluster.servers[0]
                load = await pasyans_load(node.port, node.child.pid, n)
                await measure_alone(load, args.seconds, args.rounds)
                cluster_rows.append((n, load.row(eng, n)))
                say_cluster(n, cluster_rows[-1][1])
        solo = args.idle and args.workers == 1
        idle_row = await idle(sport, server.pid, args.idle) if solo else None
    finally:
        for proc in servers:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
        redis.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)  # its data too: a bench keeps nothing
        if cluster is not None:
            await asyncio.to_thread(cluster.stop)

    for n in sorted(set(args.preparing_players) - set(args.players)):
        async with Preparing(args) as prep:  # a count of --preparing-players alone
            load = await pasyans_load(prep.port, prep.pid, n, children=False)
            before = await prep.progress()
            await measure_alone(load, args.seconds, args.rounds)
            preparing.append((n, load.row(eng, n), before, await prep.progress()))
            say_preparing(*preparing[-1])

    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    targets = [target_row(n, s, f, floor_engines.get(n)) for n, s, e, f in rows]
    for n, s in cluster_rows:
        same = next(((r, f) for m, r, _, f in rows if m == n), None)  # one Redis, same n
        if same is not None:
            one, base = same
            ratio = round(s[3] / one[3], 3) if one[3] else None
            targets.append({**target_row(n, s, base), "store": "cluster", "vs_redis": ratio})
    for n, s, f, fe in paced:
        targets.append({**target_row(n, s, f, fe), "paced_s": args.pace})
    for n, s, before, after in preparing:
        dailies = {"dailies_before": before, "dailies_after": after}
        same = next(((r, f) for m, r, _, f in rows if m == n), None)
        if same is not None:
            one, base = same
            p99 = round(s[2] / one[2], 3) if one[2] else None
            targets.append(
                {**target_row(n, s, base), "preparing": True, "p99_vs_idle": p99, **dailies}
            )
    if args.json:
        print(json.dumps({"game": GAME, "rounds": args.rounds, "rows": targets}, indent=1))
    else:
        print_tables(rows, targets, baseline, eng)
    saved: dict[str, dict[str, float]] = {}
    for n, s, e, f in rows:
        saved[str(n)] = {
            "moves_per_s": round(s[0]),
            "p50_ms": round(s[1], 2),
            "p99_ms": round(s[2], 2),
            "echo_per_s": round(e[0]),
            "echo_p50_ms": round(e[1], 2),
            "echo_p99_ms": round(e[2], 2),
            "ratio": round(s[0] / e[0] if e[0] else 0, 3),
            "p99_ratio": round(s[2] / e[2] if e[2] else 0, 3),
            "server_us": round(s[3], 1),
            "client_us": round(s[4], 1),
            "echo_us": round(e[3], 1),
            "echo_client_us": round(e[4], 1),
            "floor_per_s": round(f[0]),
            "floor_p99_ms": round(f[2], 2),
            "floor_ratio": round(f[0] / e[0] if e[0] else 0, 3),
            "floor_p99_ratio": round(f[2] / e[2] if e[2] else 0, 3),
            "floor_us": round(f[3], 1),
            "engine_us": round(s[6], 1),
        }
    if args.save:
        BASELINE.write_text(json.dumps(saved, indent=2) + "\n")
        print(f"\nsaved as the baseline: {BASELINE.relative_to(ROOT)}", file=sys.stderr)
    if idle_row:
        count, kib = idle_row
        print(
            f"\nidle connections held by one server process: {count:,}, "
            f"{kib:.1f} KiB each (target 10,000 at ≤ 20 KiB)",
            file=sys.stderr if args.json else sys.stdout,
        )


#: issue 15's targets: server CPU per move ≤ CPU_TARGET × (floor's + engine's), and
#: p99 ≤ P99_TARGET × the floor's
CPU_TARGET, P99_TARGET = 1.2, 1.5


def target_row(n: int, s: Row, f: Row, fe: Row | None = None) -> dict[str, Any]:
    """One row of ``--json``: pasyans against the floor plus the engine (at the moves
    this row's players made), and against the floor-plus-engine server ``fe``
    (:func:`floor_engine_server`) when measured."""
    eng = s[6]
    measured: dict[str, Any] = {}
    if fe is not None:
        measured = {
            "floor_engine_moves_s": round(fe[0]),
            "floor_engine_cpu_us": round(fe[3], 1),
            "floor_engine_p99_ms": round(fe[2], 2),
            "cpu_vs_floor_engine": round(s[3] / fe[3], 3) if fe[3] else None,
            "floor_engine_p99_ratio": round(fe[2] / f[2], 3) if f[2] else None,
        }
    return {
        "players": n,
        "pasyans_moves_s": round(s[0]),
        "floor_moves_s": round(f[0]),
        "pasyans_cpu_us": round(s[3], 1),
        "floor_cpu_us": round(f[3], 1),
        "engine_us": round(eng, 1),
        "engine_one_game_us": round(s[7], 1),
        "pasyans_p99_ms": round(s[2], 2),
        "floor_p99_ms": round(f[2], 2),
        "cpu_ratio": round(s[3] / (f[3] + eng), 3) if f[3] + eng else None,
        "p99_ratio": round(s[2] / f[2], 3) if f[2] else None,
        "pasyans_reply_bytes": s[5],
        "floor_reply_bytes": f[5],
        **measured,
    }


def print_tables(
    rows: list[tuple[int, Row, Row, Row]],
    targets: list[dict[str, Any]],
    baseline: dict[str, Any],
    eng: Engines,
) -> None:
    print()
    print(
        f"{GAME}: the engine's own work {eng.single.mean:.1f} µs per move over whole games "
        "one at a time (each row: at the moves its players made, as many games at once as "
        "it has players)"
    )
    print()
    print(
        f"| players | store | pasyans moves/s | floor moves/s | pasyans CPU µs/move "
        f"| floor CPU µs/move | engine µs/move | CPU ratio (≤ {CPU_TARGET}) "
        f"| pasyans p99 ms | floor p99 ms | p99 ratio (≤ {P99_TARGET}) "
        f"| reply B pasyans / floor | floor + engine in one process: µs/move, p99 ms "
        f"| pasyans CPU ÷ it | its p99 ÷ floor's |"
    )
    print("|---:|---|" + "---:|" * 13)
    for t in targets:
        kind = ", preparing dailies" if t.get("preparing") else ""
        if "paced_s" in t:
            kind = f", a move every {t['paced_s']:g} s"
        print(
            f"| {t['players']:,} | {t.get('store', 'redis')}{kind} | {t['pasyans_moves_s']:,} "
            f"| {t['floor_moves_s']:,} | {t['pasyans_cpu_us']:.0f} | {t['floor_cpu_us']:.0f} "
            f"| {t['engine_us']:.0f} | {t['cpu_ratio']} | {t['pasyans_p99_ms']:.2f} "
            f"| {t['floor_p99_ms']:.2f} | {t['p99_ratio']} "
            f"| {t['pasyans_reply_bytes']:.0f} / {t['floor_reply_bytes']:.0f} "
            + (
                f"| {t['floor_engine_cpu_us']:.0f}, {t['floor_engine_p99_ms']:.2f} "
                f"| {t['cpu_vs_floor_engine']} | {t['floor_engine_p99_ratio']} |"
                if "floor_engine_cpu_us" in t
                else "| – | – | – |"
            )
        )
    print()
    print(
        "| players | pasyans moves/s | p50 ms | p99 ms | echo msgs/s | p50 ms | p99 ms "
        "| throughput ratio (≥ 0.5) | p99 ratio (≤ 2) | baseline ratio | baseline p99 ratio "
        "| server CPU µs/move | echo CPU µs/msg | baseline server µs/move |"
    )
    print("|---:" * 14 + "|")
    for n, s, e, _ in rows:
        ratio = s[0] / e[0] if e[0] else 0
        p99r = s[2] / e[2] if e[2] else 0
        base = baseline.get(str(n))
        was = f"{base['ratio']:.2f} | {base['p99_ratio']:.2f}" if base else "– | –"
        was_cpu = f"{base['server_us']:.0f}" if base and "server_us" in base else "–"
        print(
            f"| {n:,} | {s[0]:,.0f} | {s[1]:.2f} | {s[2]:.2f} | {e[0]:,.0f} | {e[1]:.2f} "
            f"| {e[2]:.2f} | {ratio:.2f} | {p99r:.2f} | {was} "
            f"| {s[3]:.0f} | {e[3]:.0f} | {was_cpu} |"
        )


#: days after today whose dailies the preparation row's server prepares: more work
#: than the row lasts, so that the solver is busy throughout (checked before and after)
PREPARE_DAYS = 30


async def daily_progress(redis_url: str, port: int, pid: int) -> dict[str, float]:
    """How far the preparation row's server got: dailies chosen (of every day) and
    candidates tried by the scans under way, read from its Redis; dailies it is
    choosing now (``pasyans_dailies_preparing``); CPU seconds its solver processes
    spent so far."""
    from server.services.clock import day_after, utc_date
    from server.store import Store

    store = Store(redis_url)
    try:
        chosen = tried = 0
        date = utc_date(int(time.time() * 1000))
        for _ in range(PREPARE_DAYS + 1):
            fields = await store.daily(date)
            chosen += sum(1 for k in fields if k.startswith("seed:"))
            for k, v in fields.items():
                if k.startswith("progress:"):
                    tried += int(bytes(v).split(b":")[0])
            date = day_after(date)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            metrics = reply.read().decode()
        preparing = next(
            float(line.split()[-1])
            for line in metrics.splitlines()
            if line.startswith("pasyans_dailies_preparing ")
        )
        solver = cpu_seconds(pid) - cpu_seconds(pid, children=False)
        return {"chosen": chosen, "tried": tried, "preparing": preparing, "solver_cpu_s": solver}
    finally:
        await store.close()


def child_pids(pid: int) -> list[int]:
    """The processes ``pid`` started (any of its threads), still running."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


class Solvers:
    """A preparing server's solver processes, frozen (SIGSTOP) outside that server's
    turns: running on, they would take the CPU of the other servers' turns. While
    frozen, a watch freezes any the server starts meanwhile."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._watch: asyncio.Task[None] | None = None

    def _signal(self, sig: signal.Signals) -> None:
        for child in child_pids(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, sig)

    def freeze(self) -> None:
        self._signal(signal.SIGSTOP)
        if self._watch is None:
            self._watch = asyncio.create_task(self._keep_frozen())

    async def _keep_frozen(self) -> None:
        while True:
            await asyncio.sleep(0.02)
            self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._signal(signal.SIGCONT)

    def turn(self, starts: bool) -> None:
        """:attr:`Load.on_turn`: thawed for the server's own turn only."""
        if starts:
            self.thaw()
        else:
            self.freeze()


class Preparing:
    """A pasyans server preparing dailies, for the rows at ``--preparing-players``: on
    a fresh Redis (no daily stored), so it starts choosing today's at once, then the
    next :data:`PREPARE_DAYS` days'; its solver workers as the server's settings (or
    ``--prepare-args``) put them. Its rows' CPU figure is the server process's own,
    without the solver's. An async context manager: the server and its Redis stop at
    the end."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="pasyans-bench-prep-"))
        self.redis = RedisProcess(appendonly=True, directory=self.tmp / "redis", unix=True)
        self.port = free_port()
        self.command = server_command(self.port, "", args, prepare=True)
        self.command += ["--prepare-days", str(PREPARE_DAYS), *shlex.split(args.prepare_args)]
        self.server: subprocess.Popen[bytes] | None = None
        self.solvers: Solvers | None = None

    async def __aenter__(self) -> Preparing:
        self.redis.start()
        self.command[self.command.index("--redis-url") + 1] = self.redis.url
        self.server = spawn(self.command)
        self.solvers = Solvers(self.server.pid)
        try:
            wait_http(self.port)
        except BaseException:
            await self.__aexit__()
            raise
        return self

    @property
    def pid(self) -> int:
        assert self.server is not None
        return self.server.pid

    async def progress(self) -> dict[str, float]:
        return await daily_progress(self.redis.url, self.port, self.pid)

    async def __aexit__(self, *exc: object) -> None:
        if self.solvers is not None:
            self.solvers.thaw()  # a frozen process would not hear SIGTERM
        if self.server is not None:
            self.server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.server.wait(15)
        self.redis.cleanup()
        shutil.rmtree(self.tmp, ignore_errors=True)


def say_preparing(n: int, row: Row, before: dict[str, float], after: dict[str, float]) -> None:
    print(
        f"  {n} players, preparing dailies: pasyans {row[0]:,.0f}/s p50 {row[1]:.2f} "
        f"p99 {row[2]:.2f} ms; CPU µs per move {row[3]:.0f}; dailies chosen "
        f"{before['chosen']:.0f} -> {after['chosen']:.0f}, being chosen "
        f"{before['preparing']:.0f} -> {after['preparing']:.0f}, candidates of the "
        f"scans under way {before['tried']:.0f} -> {after['tried']:.0f}, solver CPU "
        f"{after['solver_cpu_s'] - before['solver_cpu_s']:.1f} s in the row",
        file=sys.stderr,
    )


def server_command(
    port: int, redis_url: str, args: argparse.Namespace, *, prepare: bool = False
) -> list[str]:
    """The pasyans server of the single-Redis rows (``prepare``: preparing dailies)."""
    return [
        sys.executable,
        "-m",
        "server",
        "serve",
        "--port",
        str(port),
        "--redis-url",
        redis_url,
        "--rate",
        "1000000000",
        "--burst",
        "1000000000",
        "--ping-interval",
        "0",
        "--log-level",
        "warning",
        "--prepare-dailies" if prepare else "--no-prepare-dailies",
        "--no-address-limits",  # every player registers from 127.0.0.1
        "--loop",
        args.loop,
        "--workers",
        "1" if prepare else str(args.workers),
    ]


async def start_cluster(args: argparse.Namespace) -> LocalDeployment | None:
    """A local Redis Cluster of three primaries, each with a replica (deploy/local.py),
    and one pasyans server on it, for the rows at ``--cluster-players``; None (said)
    if the cluster cannot start."""
    from deploy.local import LaunchError, LocalDeployment

    server_args = [
        *("--rate", "1000000000", "--burst", "1000000000", "--ping-interval", "0"),
        *("--log-level", "warning", "--loop", args.loop, "--no-prepare-dailies"),
        "--no-address-limits",  # every player registers from 127.0.0.1
    ]
    deployment = LocalDeployment(instances=1, masters=3, replicas=1, server_args=server_args)
    try:
        return await asyncio.to_thread(deployment.start)
    except (LaunchError, OSError) as exc:
        print(f"  no Redis Cluster row: {exc}", file=sys.stderr)
        return None


def say_cluster(n: int, row: Row) -> None:
    print(
        f"  {n} players, Redis Cluster: pasyans {row[0]:,.0f}/s p50 {row[1]:.2f} "
        f"p99 {row[2]:.2f} ms; CPU µs per move {row[3]:.0f}",
        file=sys.stderr,
    )


def reference_server(args: argparse.Namespace) -> Coroutine[Any, Any, None] | None:
    """The reference server this process was started to run (``--echo-server``,
    ``--floor-server`` or ``--floor-engine-server``; ``None`` for the benchmark
    itself). It collects garbage as pasyans does (``server.net.app.GC_THRESHOLDS``):
    with CPython's default thresholds the floor plus the engine spent 12–37 µs a move
    more on collections than pasyans does (docs/performance.md, fifth round), which
    flattered pasyans's ratio to it."""
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


def main() -> None:
    parser = argparse.ArgumentParser(
        prog=f"python -m bench.{Path(__file__).stem}",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="seconds per server in each measured row"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="turns each server takes in a row (--seconds split among them, the "
        "order reversed every other round; the cluster's server too at counts of "
        "--players): a drift of the machine's speed falls on every server alike",
    )
    parser.add_argument(
        "--players", default="1,100,1000", help="comma-separated concurrent players per row"
    )
    parser.add_argument(
        "--idle", type=int, default=10_000, help="idle connections to open (0 = skip)"
    )
    parser.add_argument(
        "--loop", default="auto", help="event loop of every process: auto, uvloop, asyncio"
    )
    parser.add_argument("--workers", type=int, default=1, help="pasyans server processes")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin the servers to the first CPU, the load client and redis to the others",
    )
    parser.add_argument(
        "--engine-seconds",
        type=float,
        default=2.0,
        help="seconds of engine-only play to measure its µs per move",
    )
    parser.add_argument(
        "--cluster-players",
        default="100,1000",
        help="comma-separated players of the Redis Cluster rows (3 primaries with a "
        "replica each, deploy/local.py); 0 = skip",
    )
    parser.add_argument(
        "--preparing-players",
        default="100",
        help="comma-separated players of the rows on a server preparing dailies "
        "meanwhile (a fresh Redis); 0 = skip",
    )
    parser.add_argument(
        "--prepare-args",
        default="",
        help="more options of the preparing server, e.g. '--solver-nice 19' [none: "
        "the server's defaults]",
    )
    parser.add_argument(
        "--paced-players",
        default="0",
        help="comma-separated players of the paced rows (each thinks --pace seconds "
        "between moves, as people do: a server's own latency, not a queue's); 0 = skip",
    )
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds a paced player thinks, on average"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"rows": [...]} (the targets of issues 15 and 28) instead of the tables',
    )
    parser.add_argument("--save", action="store_true", help="save this run as the baseline")
    parser.add_argument("--echo-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--floor-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--floor-engine-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from server.__main__ import run

    served = reference_server(args)
    if served is not None:
        with contextlib.suppress(KeyboardInterrupt):
            run(served, args.loop)
        return
    args.players = [int(x) for x in args.players.split(",") if x]
    args.cluster_players = [int(x) for x in args.cluster_players.split(",") if int(x or 0)]
    args.preparing_players = [int(x) for x in args.preparing_players.split(",") if int(x or 0)]
    args.paced_players = [int(x) for x in args.paced_players.split(",") if int(x or 0)]
    run(main_async(args), args.loop)


if __name__ == "__main__":
    main()
