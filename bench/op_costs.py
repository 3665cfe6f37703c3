"""What one request of each op costs the server, against a move (issue 35).

Two ``pasyans-server serve`` processes on one Redis. A *builder*, whose rate limits are
lifted (``--rate``/``--burst``, ``--account-rate``/``--account-burst``), fills it with
realistic data in seconds: a player who follows ``--follows`` players (200 is
``--max-follows``), each with today's dailies (one played a few moves and given up, one
in play), so that the daily board and the friends board hold their entries; a challenge
all of them played; a hundred challenges of theirs, which the player accepted; a race
lobby; and two games of ``--long-moves`` moves (a crescent deal whose piles T5 and T13
pass a card back and forth: at ``MOVE_CAP``, 5,000, the game ends lost; the other one is
left two moves short, in play). The builder is stopped, and a *measured* server with the
default limits (those per address included) and ``--workers`` solver processes answers
the rows: its caches start cold, as after a restart.

A row opens one connection, signs in and sends ``--requests`` requests of one op
(``--few`` of those that replay a whole game, twice that of those that miss a cache,
2.1 s apart, and ``--searches`` of those that search with the whole budget), one
after the other, paced as the connection's token bucket allows (its burst, then its
rate: what one connection can repeat); it reads the server process's CPU (its own
utime + stime from ``/proc/PID/stat``, less what it spends idle, watched for 30 s
first; its children, the solver processes, apart) before and after. Per row: the
replies by code; the server's CPU µs per request, and that ÷ a move's; the solver
processes' CPU ms per request; p50/p99 reply latency; the median reply's bytes; the
1-minute load average. CPU is counted in clock ticks (10 ms): a row's figure is exact
to a tick, and the idle rate's error over its time, ÷ its requests (shown as ``< N``
below that). The ``refused`` rows ask while another
connection of the same account holds a search in flight.

    python -m bench.op_costs [--requests 300] [--few 5] [--searches 3] [--follows 200]
                             [--long-moves 5000] [--workers 2] [--json] [--save]

The table (or ``--json``) goes to stdout, compared with the saved baseline
``bench/op_costs_baseline.json`` (``--save`` writes it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import protocol as P
from deploy.procs import RedisProcess, ServerProcess, children
from server.patience.engine import MOVE_CAP
from server.settings import Settings

BASELINE = Path(__file__).with_name("op_costs_baseline.json")
GAME = "crescent"
#: a crescent deal whose piles T5 and T13 pass their top card back and forth: a game
#: of any length, up to MOVE_CAP
LONG_SEED = 1
SHUTTLE = ({"from": "T5", "to": "T13"}, {"from": "T13", "to": "T5"})
#: a crescent deal whose search takes the whole budget (bench.solver_flood)
HARD_SEED = 3
#: the daily the player and those they follow leave in play
IN_PLAY_DAILY = "fifteen"
#: challenges made by those the player follows, which the player accepted
CHALLENGES = 100
#: rows are measured with the clients paced this far under the server's bucket
MARGIN = 0.95
#: seconds the measured server is watched idle first (its CPU a second then is taken
#: off every row)
SETTLE = 30.0
#: seconds apart the rows that miss a cache ask (friends', challenges': 2 s)
MISS = 2.1
TICK = os.sysconf("SC_CLK_TCK")

Params = dict[str, Any]


class Wire:
    """One raw connection: a request, its reply (events in between are skipped)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, url: str) -> AsyncIterator[Wire]:
        async with connect(
            url,
            subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
            compression=None,
            max_size=None,
        ) as ws:
            yield cls(ws)

    async def call(self, op: str, **params: Any) -> tuple[dict[str, Any], int]:
        """The reply to one request, and its size in bytes."""
        self.ids += 1
        await self.ws.send(P.encode(P.request(self.ids, op, **params)))
        while True:
            frame = await self.ws.recv()
            reply = P.decode(frame, max_size=1 << 30)
            if reply.get("re") == self.ids:
                return reply, len(frame)

    async def ok(self, op: str, **params: Any) -> dict[str, Any]:
        reply, _ = await self.call(op, **params)
        if not reply.get("ok"):
            raise RuntimeError(f"{op} {params}: {reply.get('error')}")
        return reply


# -- the data ---------------------------------------------------------------------------


@dataclass
class Data:
    """What the builder made, for the rows to ask about."""

    me: str = ""
    flooder: str = ""
    long_done: str = ""
    long_open: str = ""
    long_open_seq: int = 0
    shuttle_seq: int = 0
    shuttle: str = ""
    hard: str = ""
    hard_seq: int = 0
    #: deal games of HARD_SEED, one a finish check (a line found is kept: the next
    #: check of the same game searches nothing)
    checks: list[tuple[str, int]] = field(default_factory=list)
    daily_open: str = ""
    daily_open_seq: int = 0
    big_challenge: str = ""
    race_code: str = ""
    follows: int = 0


async def shuttle(w: Wire, moves: int) -> tuple[str, int]:
    """A deal game of ``LONG_SEED`` with ``moves`` moves back and forth: its id and seq."""
    state = (await w.ok("start", game=GAME, mode="deal", seed=LONG_SEED))["state"]
    gid, seq = state["game_id"], state["seq"]
    for i in range(moves):
        delta = (await w.ok("move", game_id=gid, seq=seq, move=SHUTTLE[i % 2], reply="delta"))[
            "delta"
        ]
        seq = delta["seq"]
    return gid, seq


async def play_some(w: Wire, state: dict[str, Any], moves: int, rnd: random.Random) -> None:
    """``moves`` moves, to a foundation when one is legal, then give the game up."""
    gid, seq, legal = state["game_id"], state["seq"], state["legal"]
    for _ in range(moves):
        if not legal:
            return
        home = [m for m in legal if str(m.get("to", "")).startswith("F")]
        move = rnd.choice(home or legal)
        delta = (await w.ok("move", game_id=gid, seq=seq, move=move, reply="delta"))["delta"]
        seq, legal = delta["seq"], delta["legal"]
    if legal:
        await w.ok("resign", game_id=gid)


async def build(url: str, follows: int, long_moves: int, checks: int) -> Data:
    tag = uuid.uuid4().hex[:6]
    data = Data(follows=follows)
    rnd = random.Random(35)
    async with Wire.open(url) as w:
        data.flooder = (await w.ok("register", name=f"fl{tag}"))["token"]
        await w.ok("daily")  # today's dailies chosen (a server prepares them ahead)
        # Those the player will follow: their dailies, a challenge they all played.
        codes: list[str] = []
        for i in range(follows):
            await w.ok("register", name=f"f{tag}{i}")
            if i == 0:
                made = await w.ok("challenge_create", game=GAME)
                data.big_challenge = made["challenge"]["code"]
            if i == 1:
                data.race_code = (await w.ok("race_create", game=GAME))["race"]["code"]
            elif 2 <= i <= 5 and data.race_code:
                await w.ok("race_join", code=data.race_code)
            state = (await w.ok("start", game=GAME, mode="daily"))["state"]
            await play_some(w, state, i % 60, rnd)
            await w.ok("start", game=IN_PLAY_DAILY, mode="daily")
            accepted = await w.ok("challenge_accept", code=data.big_challenge)
            await w.ok("resign", game_id=accepted["state"]["game_id"])
            if i < CHALLENGES:
                codes.append((await w.ok("challenge_create", game=GAME))["challenge"]["code"])
            if i % 50 == 49:
                print(f"  built {i + 1} followed players", file=sys.stderr, flush=True)
        me = f"me{tag}"
        data.me = (await w.ok("register", name=me))["token"]
        for i in range(follows):
            await w.ok("friend_add", name=f"f{tag}{i}")
        for code in codes:
            await w.ok("challenge_accept", code=code)
        state = (await w.ok("start", game=GAME, mode="daily"))["state"]
        await play_some(w, state, 20, rnd)
        state = (await w.ok("start", game=IN_PLAY_DAILY, mode="daily"))["state"]
        data.daily_open, data.daily_open_seq = state["game_id"], state["seq"]
        for i in range(1 + checks):
            state = (await w.ok("start", game=GAME, mode="deal", seed=HARD_SEED))["state"]
            if i:
                data.checks.append((state["game_id"], state["seq"]))
            else:
                data.hard, data.hard_seq = state["game_id"], state["seq"]
        data.shuttle, data.shuttle_seq = await shuttle(w, 0)
        print(f"  playing two games of {long_moves} moves", file=sys.stderr, flush=True)
        data.long_done, _ = await shuttle(w, long_moves)
        if long_moves < MOVE_CAP:
            await w.ok("resign", game_id=data.long_done)
        data.long_open, data.long_open_seq = await shuttle(w, long_moves - 2)
    return data


# -- measuring --------------------------------------------------------------------------


def cpu(pid: int) -> float:
    """A process's own user + system CPU seconds (its threads', not its children's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each running child of ``pid`` (the solver processes)."""
    out = {}
    for child in children(pid):
        with contextlib.suppress(OSError):
            out[child] = cpu(child)
    return out


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the children spent between two readings (a new one: all of its)."""
    return sum(t - before.get(p, 0.0) for p, t in after.items())


@dataclass
class Row:
    op: str
    what: str
    requests: int = 0
    replies: dict[str, int] = field(default_factory=dict)
    server_us: float = 0.0
    #: one clock tick, and what the idle rate subtracted may be off by over the row's
    #: time, over its requests: a smaller figure is no figure
    resolution_us: float = 0.0
    vs_move: float | None = None
    #: None while another connection holds a search (``busy``): that one's
    solver_ms: float | None = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    reply_bytes: int = 0
    load: float = 0.0


class Pacer:
    """The connection's token bucket as the server keeps it (a little under it)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate * MARGIN
        self.tokens = self.burst = max(1.0, burst * MARGIN)
        self.at = time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.at = 1.0, time.monotonic()
        self.tokens -= 1


class Meter:
    def __init__(self, server: ServerProcess, url: str) -> None:
        assert server.process is not None
        self.pid = server.process.pid
        self.url = url
        #: the server's CPU seconds a second idle, and what that may be off by
        self.idle = self.idle_error = 0.0
        #: the connections' budget, as ``auth`` tells it (the defaults until then)
        self.limits = {"rate": 50.0, "burst": 100}

    async def settle(self, seconds: float = SETTLE) -> None:
        """The server's CPU a second when nobody asks anything (beats, timers)."""
        start, t0 = cpu(self.pid), time.monotonic()
        await asyncio.sleep(seconds)
        elapsed = time.monotonic() - t0
        self.idle = (cpu(self.pid) - start) / elapsed
        self.idle_error = 1 / TICK / elapsed

    async def row(
        self,
        op: str,
        what: str,
        token: str,
        n: int,
        params: Callable[[int], Params],
        *,
        busy: Callable[[Wire, asyncio.Event], Coroutine[Any, Any, None]] | None = None,
        pause: float = 0.0,
    ) -> Row:
        """``n`` requests of ``op`` (the i-th with ``params(i)``) from one connection
        signed in with ``token``, ``pause`` seconds apart (else as fast as the bucket
        allows); with ``busy``, a second connection of the same account runs ``busy``
        meanwhile (holding a search in flight), not counted."""
        row = Row(op, what, n, load=round(os.getloadavg()[0], 2))
        latencies: list[float] = []
        sizes: list[int] = []
        codes: Counter[str] = Counter()
        async with contextlib.AsyncExitStack() as stack:
            w = await stack.enter_async_context(Wire.open(self.url))
            if token:
                self.limits = (await w.ok("auth", token=token))["limits"]
            pacer = Pacer(self.limits["rate"], self.limits["burst"])
            holder: asyncio.Task[None] | None = None
            done = asyncio.Event()
            if busy is not None:
                other = await stack.enter_async_context(Wire.open(self.url))
                await other.ok("auth", token=token)
                holder = asyncio.create_task(busy(other, done))
                await asyncio.sleep(0.3)  # its search is under way
            own, solvers, t0 = cpu(self.pid), children_cpu(self.pid), time.monotonic()
            for i in range(n):
                if pause and i:
                    await asyncio.sleep(pause)
                await pacer.take()
                start = time.perf_counter()
                reply, size = await w.call(op, **params(i))
                latencies.append(time.perf_counter() - start)
                sizes.append(size)
                codes["ok" if reply.get("ok") else reply["error"]["code"]] += 1
            elapsed = time.monotonic() - t0
            row.resolution_us = (1 / TICK + self.idle_error * elapsed) / n * 1e6
            row.server_us = max(0.0, cpu(self.pid) - own - self.idle * elapsed) / n * 1e6
            if busy is None:
                row.solver_ms = spent(solvers, children_cpu(self.pid)) / n * 1e3
            else:
                row.solver_ms = None
            if holder is not None:  # its last search ends before the next row
                done.set()
                await holder
        latencies.sort()
        row.replies = dict(codes)
        row.p50_ms = statistics.median(latencies) * 1e3
        row.p99_ms = latencies[math.ceil(0.99 * len(latencies)) - 1] * 1e3  # nearest rank
        row.reply_bytes = int(statistics.median(sizes))
        print(f"  {op} ({what}): {asdict(row)}", file=sys.stderr, flush=True)
        return row


def searching(gid: str) -> Callable[[Wire, asyncio.Event], Coroutine[Any, Any, None]]:
    """A connection that keeps one hint of its account in flight, back to back, until
    ``done`` (its last one answered)."""

    async def hold(w: Wire, done: asyncio.Event) -> None:
        while not done.is_set():
            await w.call("hint", game_id=gid)

    return hold


async def measure(meter: Meter, data: Data, args: argparse.Namespace) -> list[Row]:
    n, few, searches = args.requests, args.few, args.searches
    me, fl = data.me, data.flooder
    far = args.long_moves - 1
    tag = uuid.uuid4().hex[:6]
    rows = []

    def add(row: Row) -> None:
        rows.append(row)

    s0 = data.shuttle_seq
    add(
        await meter.row(
            "move",
            "a card back and forth, delta reply (the reference)",
            me,
            n,
            lambda i: {
                "game_id": data.shuttle,
                "seq": s0 + i,
                "move": SHUTTLE[i % 2],
                "reply": "delta",
            },
        )
    )
    add(await meter.row("games", "the list of games", me, n, lambda i: {}))
    add(await meter.row("rules", f"{GAME}'s rules page", me, n, lambda i: {"game": GAME}))
    add(await meter.row("daily", "today's, signed in", me, n, lambda i: {}))
    board = {"game": GAME, "board": "daily", "limit": 100}
    add(await meter.row("leaderboard", "daily, limit 100", me, n, lambda i: board))
    add(
        await meter.row(
            "leaderboard", "around_me, limit 100", me, n, lambda i: {**board, "around_me": True}
        )
    )
    add(
        await meter.row(
            "leaderboard",
            f"friends ({data.follows} followed), limit 100",
            me,
            n,
            lambda i: {**board, "friends": True},
        )
    )
    add(await meter.row("my_games", "limit 100", me, n, lambda i: {"limit": 100}))
    add(await meter.row("stats", "the player's own", me, n, lambda i: {}))
    add(
        await meter.row(
            "friends",
            f"{data.follows} followed, again and again (a read is kept 2 s)",
            me,
            n,
            lambda i: {},
        )
    )
    add(
        await meter.row(
            "friends",
            f"{data.follows} followed, read afresh ({MISS} s apart)",
            me,
            2 * few,
            lambda i: {},
            pause=MISS,
        )
    )
    long_game = {"game_id": data.long_done}
    add(
        await meter.row(
            "replay", f"a game of {args.long_moves} moves, no step", me, n, lambda i: long_game
        )
    )
    add(await meter.row("replay", "step 0", me, n, lambda i: {**long_game, "step": 0}))
    add(
        await meter.row(
            "replay",
            "a far step, first time (a solver process replays it)",
            me,
            few,
            lambda i: {**long_game, "step": far - 3 * i},
        )
    )
    mid = args.long_moves // 2
    async with Wire.open(meter.url) as w:  # the neighbours' first step, not counted
        await w.ok("auth", token=me)
        await w.ok("replay", **long_game, step=mid)
    add(
        await meter.row(
            "replay",
            "the next steps after a far one",
            me,
            n,
            lambda i: {**long_game, "step": mid + 1 + i},
        )
    )
    u0 = data.long_open_seq
    add(
        await meter.row(
            "undo",
            f"the last move of a game of {args.long_moves - 2} moves",
            me,
            few,
            lambda i: {"game_id": data.long_open, "seq": u0 + i},
        )
    )
    add(
        await meter.row(
            "hint",
            f"crescent deal {HARD_SEED}, the same position again",
            me,
            searches,
            lambda i: {"game_id": data.hard},
        )
    )
    add(
        await meter.row(
            "finish",
            f"check of crescent deal {HARD_SEED}, a new game each",
            me,
            searches,
            lambda i: {"game_id": data.checks[i][0], "seq": data.checks[i][1], "check": True},
        )
    )
    check = {"game_id": data.checks[0][0], "seq": data.checks[0][1], "check": True}
    add(
        await meter.row(
            "hint",
            "refused: the account's search in flight",
            me,
            n,
            lambda i: {"game_id": data.checks[0][0]},
            busy=searching(data.hard),
        )
    )
    add(
        await meter.row(
            "finish",
            "check, refused: the account's search in flight",
            me,
            n,
            lambda i: check,
            busy=searching(data.hard),
        )
    )
    ranked = {"game_id": data.daily_open, "seq": data.daily_open_seq, "check": True}
    add(
        await meter.row(
            "finish", "check of a ranked daily (its trivial line)", me, n, lambda i: ranked
        )
    )
    add(await meter.row("race_create", "a lobby", fl, n, lambda i: {"game": GAME}))
    add(
        await meter.row(
            "race_join", "a lobby of 5, again and again", me, n, lambda i: {"code": data.race_code}
        )
    )
    add(await meter.row("challenge_create", "a fresh deal", fl, n, lambda i: {"game": GAME}))
    add(
        await meter.row(
            "challenge",
            f"one with {data.follows} results",
            me,
            n,
            lambda i: {"code": data.big_challenge},
        )
    )
    add(
        await meter.row(
            "challenges",
            "limit 100, again and again (a list is kept 2 s)",
            me,
            n,
            lambda i: {"limit": 100},
        )
    )
    add(
        await meter.row(
            "challenges",
            f"limit 100, listed afresh ({MISS} s apart)",
            me,
            2 * few,
            lambda i: {"limit": 100},
            pause=MISS,
        )
    )
    add(
        await meter.row(
            "start",
            "practice, past --max-in-play",
            fl,
            n,
            lambda i: {"game": GAME, "mode": "practice"},
        )
    )
    most = Settings().address_registrations
    add(
        await meter.row(
            "register",
            f"a new name each, the first {most} of the hour from an address",
            "",
            most,
            lambda i: {"name": f"r{tag}{i}"},
        )
    )
    add(
        await meter.row(
            "register",
            f"past the address's {most} an hour",
            "",
            n,
            lambda i: {"name": f"x{tag}{i}"},
        )
    )
    move = rows[0].server_us
    for row in rows:
        row.vs_move = round(row.server_us / move, 1) if move else None
    return rows


async def run(args: argparse.Namespace, redis_url: str) -> dict[str, Any]:
    lifted = ["--rate", "1000000", "--burst", "1000000"]
    lifted += ["--account-rate", "1000000", "--account-burst", "1000000"]
    builder = ServerProcess(*lifted, "--log-level", "warning", redis_url=redis_url)
    with builder:
        t0 = time.monotonic()
        data = await build(builder.url, args.follows, args.long_moves, args.searches)
        built = time.monotonic() - t0
    # The defaults, limits per address included (deploy.procs turns them off).
    env = {"PASYANS_SOLVER_WORKERS": str(args.workers), "PASYANS_ADDRESS_LIMITS": "true"}
    measured = ServerProcess("--log-level", "warning", redis_url=redis_url, env=env)
    with measured:
        meter = Meter(measured, measured.url)
        await meter.settle()
        rows = await measure(meter, data, args)
    return {
        "rows": [asdict(r) for r in rows],
        "idle_server_us_per_s": round(meter.idle * 1e6),
        "built_seconds": round(built, 1),
        "requests": args.requests,
        "few": args.few,
        "searches": args.searches,
        "follows": args.follows,
        "long_moves": args.long_moves,
        "workers": args.workers,
    }


def table(result: dict[str, Any], baseline: dict[str, Any]) -> str:
    before = {(r["op"], r["what"]): r for r in baseline.get("rows", [])}
    lines = [
        "| op | what | replies | server µs/req | ÷ move | solver ms/req | p50 ms | p99 ms "
        "| reply bytes | baseline µs/req | load |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        replies = ", ".join(f"{n} {code}" for code, n in sorted(r["replies"].items()))
        base = before.get((r["op"], r["what"]), {}).get("server_us")
        us = r["server_us"]
        solver = "–" if r["solver_ms"] is None else f"{r['solver_ms']:.1f}"
        below = us < r["resolution_us"]
        server = f"< {r['resolution_us']:.0f}" if below else f"{us:.0f}"
        ratio = "–" if below else r["vs_move"]
        lines.append(
            f"| `{r['op']}` | {r['what']} | {replies} | {server} | "
            f"{ratio} | {solver} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
            f"{r['reply_bytes']} | {'–' if base is None else f'{base:.0f}'} | {r['load']} |"
        )
    lines.append(
        f"\n{result['requests']} requests a row ({result['few']} where a whole game is replayed, "
        f"{result['searches']} where the solver searches); the server idle: "
        f"{result['idle_server_us_per_s']} µs of CPU a second, subtracted; "
        f"load (1, 5, 15 min) after: {result['machine_load_after']}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.op_costs",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--requests", type=int, default=300, help="requests a row [300]")
    parser.add_argument(
        "--few",
        type=int,
        default=5,
        help="requests a row that replays a whole game (a far replay step, undo of the long "
        "game) [5]",
    )
    parser.add_argument(
        "--searches",
        type=int,
        default=3,
        help="requests a row that searches with the whole budget (hint, finish check: "
        "about 10 s of a solver process each) [3]",
    )
    parser.add_argument(
        "--follows", type=int, default=200, help="players the player follows (≤ 200) [200]"
    )
    parser.add_argument(
        "--long-moves",
        type=int,
        default=MOVE_CAP,
        help=f"moves of the long games (≤ {MOVE_CAP}, where a game ends) [{MOVE_CAP}]",
    )
    parser.add_argument("--workers", type=int, default=2, help="--solver-workers [2]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    args = parser.parse_args(argv)
    if not 2 <= args.long_moves <= MOVE_CAP:
        parser.error(f"--long-moves is between 2 and {MOVE_CAP}")
    with RedisProcess() as redis:
        result = asyncio.run(run(args, redis.url))
    result["machine_load_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.save:
        BASELINE.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    print(table(result, baseline))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
