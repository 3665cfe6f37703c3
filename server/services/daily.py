"""Fair daily challenges: one seeded deal per patience per UTC day, proven winnable.

The seed of candidate ``k`` is ``uint64(HMAC-SHA256(secret, f"{date}:{slug}:{k}")[:8])``
(big-endian). The daily is the first candidate the solver **certifies**: it found a
winning line and the line replays through the rules to ``won``. Candidates are scanned
within a budget counted in solver nodes (the same choice on any machine), off the
event loop, once per day and game: an instance takes a Redis lease on the choice, the
others wait for its result in Redis. If no candidate is certified within the whole
budget, the daily is the candidate whose best line founded most cards, marked
``certified: false`` — never silently. ``par`` is the length of the shortest certified
line found, counted as ``moves`` counts them; the line itself is shown with the seed
once the day is over.

The commitment shown before and during the day is
``sha256(seed as 8 big-endian bytes + f"{date}:{slug}")`` in hex; after the day the
seed itself is shown, so anyone can check both.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import os
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, ProtocolError, pack, unpack

from ..patience import registry
from ..solver import Result, candidate_nodes, solve
from ..store import Store
from .clock import Clock, utc_date

#: candidates looked at most, whatever the budget (a bound on a day's work)
MAX_CANDIDATES = 10_000
#: how long a lease on choosing a daily lasts, and how long others wait for it
LEASE_MS = 300_000
POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Budget:
    """Solver nodes per candidate and per daily in all (reproducible budgets)."""

    candidate_nodes: int = 1_500
    total_nodes: int = 12_000


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Choice:
    """A daily as chosen: the candidate, whether it is certified, its par line."""

    seed: int
    k: int
    certified: bool
    par: int | None
    best_founded: int
    #: the par line as wire moves (empty when not certified)
    line: tuple[dict[str, Any], ...] = ()
    #: candidates looked at
    tried: int = 1

    def fields(self, date: str, slug: str) -> dict[str, int | str | bytes]:
        return {
            f"seed:{slug}": self.seed,
            f"k:{slug}": self.k,
            f"commitment:{slug}": commitment(self.seed, date, slug),
            f"certified:{slug}": int(self.certified),
            f"par:{slug}": -1 if self.par is None else self.par,
            f"best_founded:{slug}": self.best_founded,
            f"line:{slug}": pack(list(self.line)),
            f"tried:{slug}": self.tried,
        }

    @classmethod
    def from_fields(cls, stored: dict[str, bytes], slug: str) -> Choice:
        def num(name: str, default: int) -> int:
            raw = stored.get(f"{name}:{slug}")
            return default if raw is None else int(raw)

        par = num("par", -1)
        line = stored.get(f"line:{slug}")
        return cls(
            seed=num("seed", 0),
            k=num("k", 0),
            certified=bool(num("certified", 0)),
            par=None if par < 0 else par,
            best_founded=num("best_founded", 0),
            line=tuple(unpack(line)) if line else (),
            tried=num("tried", 1),
        )


Chooser = Callable[[str, bytes, str, Budget], Choice]
Search = Callable[..., Result]


def candidate_seed(secret: bytes, date: str, slug: str, k: int) -> int:
    mac = hmac.new(secret, f"{date}:{slug}:{k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "big")


def commitment(seed: int, date: str, slug: str) -> str:
    return hashlib.sha256(seed.to_bytes(8, "big") + f"{date}:{slug}".encode()).hexdigest()


def choose(
    slug: str, secret: bytes, date: str, budget: Budget, *, search: Search = solve
) -> Choice:
    """Scan candidates k = 0, 1, … within ``budget``: the first certified one, else the
    one whose best line founded most cards. CPU-bound: run it off the event loop."""
    game = registry.get(slug)
    per = candidate_nodes(game, budget.candidate_nodes)  # the game's own, when smaller
    best: Choice | None = None
    spent = 0
    k = 0
    while k < MAX_CANDIDATES and (k == 0 or spent < budget.total_nodes):
        seed = candidate_seed(secret, date, slug, k)
        nodes = max(1, min(per, budget.total_nodes - spent))
        result = search(game, game.deal(seed), max_nodes=nodes)
        spent += max(result.nodes, 1)
        k += 1
        if result.line is not None:
            line = tuple(m.to_wire() for m in result.line)
            return Choice(seed, k - 1, True, result.par, game.total, line, k)
        if best is None or result.best_founded > best.best_founded:
            best = Choice(seed, k - 1, False, None, result.best_founded)
    assert best is not None
    return dataclasses.replace(best, tried=k)


class Dailies:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        chooser: Chooser = choose,
        budget: Budget = DEFAULT_BUDGET,
        executor: Executor | None = None,
        wait: float = 2.0,
    ):
        self.store = store
        self.clock = clock
        self.chooser = chooser
        self.budget = budget
        #: seconds the ``daily`` op waits for a daily still being chosen
        self.wait = wait
        #: where candidates are scanned (a process pool in production; None: a thread)
        self.executor = executor
        self.owner = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._secret: bytes | None = None
        self._cache: dict[tuple[str, str], Choice] = {}
        self._pending: dict[tuple[str, str], asyncio.Future[Choice]] = {}

    def today(self) -> str:
        return utc_date(self.clock.now_ms())

    def revealed(self, date: str) -> bool:
        """Whether the day is over (its seeds may be shown)."""
        return date < self.today()

    async def secret(self) -> bytes:
        if self._secret is None:
            self._secret = await self.store.secret()
        return self._secret

    async def deal(self, date: str, slug: str) -> tuple[int, str]:
        """``(seed, commitment)`` of a daily (chosen once, kept in Redis)."""
        choice = await self.choice(date, slug)
        return choice.seed, commitment(choice.seed, date, slug)

    async def choice(self, date: str, slug: str, budget: Budget | None = None) -> Choice:
        """The daily of ``slug`` on ``date``: read from Redis, or chosen now by this
        instance under a lease, or awaited from the instance that holds the lease."""
        key = (date, slug)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._choose(date, slug, budget or self.budget))
            self._pending[key] = pending
            pending.add_done_callback(lambda done: self._chosen(key, done))
        choice = await asyncio.shield(pending)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = choice
        return choice

    def _chosen(self, key: tuple[str, str], done: asyncio.Future[Choice]) -> None:
        """A choice ended: no longer pending. Its error is taken here too, so one
        that nobody waits for any more (all its callers cancelled, or the server
        shutting down) is not reported as "never retrieved"; a caller still waiting
        gets it from ``shield`` as before."""
        self._pending.pop(key, None)
        if not done.cancelled():
            done.exception()

    async def close(self) -> None:
        """Cancel the choices under way and wait for them to end (shutdown)."""
        pending = list(self._pending.values())
        for future in pending:
            future.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def ready(self, date: str, slugs: Sequence[str]) -> dict[str, Choice | None]:
        """Every daily of ``slugs`` on ``date`` that is chosen within :attr:`wait`
        seconds; None for one still being chosen (its choice goes on)."""
        tasks = {slug: asyncio.ensure_future(self.choice(date, slug)) for slug in slugs}
        await asyncio.wait(tasks.values(), timeout=self.wait)
        out: dict[str, Choice | None] = {}
        for slug, task in tasks.items():
            if task.done():
                out[slug] = task.result()
            else:
                task.cancel()  # only this wait: the choice itself is shielded
                out[slug] = None
        return out

    async def _choose(self, date: str, slug: str, budget: Budget) -> Choice:
        waited = 0.0
        while True:
            stored = await self.store.daily(date)
            if f"seed:{slug}" in stored:
                return Choice.from_fields(stored, slug)
            if waited >= LEASE_MS / 1000 or await self.store.lease_daily(
                date, slug, self.owner, LEASE_MS
            ):
                break
            await asyncio.sleep(POLL_SECONDS)  # another instance is choosing it
            waited += POLL_SECONDS
        loop = asyncio.get_running_loop()
        secret = await self.secret()
        choice = await loop.run_in_executor(self.executor, self.chooser, slug, secret, date, budget)
        await self.store.put_daily(date, choice.fields(date, slug))
        stored = await self.store.daily(date)  # the first instance to write wins
        return Choice.from_fields(stored, slug)

    async def prepare(self, dates: list[str], budget: Budget | None = None) -> None:
        """Choose every game's daily of ``dates`` in the background, a date at a time,
        its games side by side (as many at once as the executor has workers), with
        ``budget`` (default: the one for a player who waits)."""
        for date in dates:
            await asyncio.gather(*(self.choice(date, slug, budget) for slug in registry.slugs()))

    def check_date(self, date: str | None) -> str:
        today = self.today()
        if date is None:
            return today
        if date > today:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no daily for {date} yet (today is {today})")
        return date
