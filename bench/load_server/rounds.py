"""A server's players driven for a while and what it cost (:func:`drive`), a row of
figures from it (:data:`Row`), and rows measured in interleaved rounds
(:func:`measure_rounds`), so that a drift of the machine's speed falls on every
server alike."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection

from .game import Engines
from .procs import cpu_seconds

#: one player's move (or message): False when its game is over and a new one started
#: (not timed)
Step = Callable[[], Awaitable[bool]]

#: moves/s, p50 ms, p99 ms, server CPU µs a move, client CPU µs a move, median reply
#: bytes, the engine's µs a move (as many games at once as the row has players), the
#: same one game at a time
Row = tuple[float, float, float, float, float, float, float, float]


async def close_all(conns: list[ClientConnection]) -> None:
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)


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
