"""Fair daily challenges: one seeded deal per patience per UTC day, proven winnable.

The seed of candidate ``k`` is ``uint64(HMAC-SHA256(secret, f"{date}:{slug}:{k}")[:8])``
(big-endian). The daily is the first candidate the solver **certifies**: it found a
winning line and the line replays through the rules to ``won``. Candidates are scanned
within a budget counted in solver nodes (the same choice on any machine), off the
event loop, once per day and game: an instance takes a Redis lease on the choice, the
others wait for its result in Redis. If no candidate is certified within the whole
budget, the daily is the candidate whose best line founded most cards, marked
``certified: false`` — never silently: that is an incident (a warning in the log, a
metric, and every surface says "not proven winnable"). ``par`` is the length of the
shortest certified line found, counted as ``moves`` counts them; the line itself is
shown with the seed once the day is over.

One budget serves every choice, a day ahead or while players wait (the large one: a
day's sixteen take a couple of CPU minutes). Candidates are searched one at a time in
the solver's worker processes, so the scan's progress (candidates tried, seconds) is
known while it runs: ``daily`` answers ``preparing`` with it, and ``start daily`` waits
up to ``wait`` seconds, then answers ``unavailable`` with a ``retry_after``. A server
keeps today's dailies and the next days' prepared (:meth:`Dailies.keep_prepared`).

The commitment shown before and during the day is
``sha256(seed as 8 big-endian bytes + f"{date}:{slug}")`` in hex; after the day the
seed itself is shown, so anyone can check both.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, ProtocolError, pack, unpack

from ..patience import registry
from ..solver import Result, candidate_nodes, solve
from ..store import Store
from .clock import Clock, day_after, utc_date

log = logging.getLogger("pasyans.daily")

#: candidates looked at most, whatever the budget (a bound on a day's work)
MAX_CANDIDATES = 10_000
#: how long a lease on choosing a daily lasts unless renewed (the instance choosing it
#: renews it after every candidate); another instance takes over once it lapses
LEASE_MS = 300_000
POLL_SECONDS = 0.2
#: the ``retry_after`` (seconds) of a ``start daily`` refused while its daily is prepared
RETRY_SECONDS = 5.0
#: seconds between two writes of a scan's progress to Redis (for the other instances)
PROGRESS_EVERY = 1.0


@dataclass(frozen=True)
class Budget:
    """Solver nodes per candidate (the game's own cap when smaller) and per daily in
    all (reproducible budgets: the same choice on any machine). The default is the one
    budget of every daily, whether chosen a day ahead or while players wait."""

    candidate_nodes: int = 30_000
    total_nodes: int = 2_500_000


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
    #: solver nodes spent on the scan in all
    nodes: int = 0

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
            f"nodes:{slug}": self.nodes,
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
            nodes=num("nodes", 0),
        )

    def label(self, slug: str) -> str | None:
        """What every surface says of a daily not proven winnable (None if it is)."""
        if self.certified:
            return None
        return unproven_label(self.best_founded, registry.get(slug).total)


def unproven_label(best_founded: int, total: int) -> str:
    return f"not proven winnable (best line founds {best_founded} of {total})"


@dataclass(frozen=True)
class Progress:
    """A scan under way: candidates searched so far, since when (epoch ms)."""

    tried: int
    started_ms: int

    def wire(self) -> dict[str, int]:
        elapsed = max(0, int(time.time() * 1000) - self.started_ms)
        return {"tried": self.tried, "elapsed_ms": elapsed}

    def pack(self) -> str:
        return f"{self.tried}:{self.started_ms}"

    @classmethod
    def unpack(cls, raw: bytes | str | None) -> Progress | None:
        if raw is None:
            return None
        text = raw.decode() if isinstance(raw, bytes) else raw
        tried, _, started = text.partition(":")
        try:
            return cls(int(tried), int(started))
        except ValueError:
            return None


@dataclass(frozen=True)
class Candidate:
    """One candidate searched: what a scan keeps of the solver's result."""

    k: int
    seed: int
    nodes: int
    best_founded: int
    par: int | None
    #: the winning line as wire moves, None if none was found
    line: tuple[dict[str, Any], ...] | None


class Scan:
    """The bookkeeping of a scan of candidates k = 0, 1, … within a budget: the same
    whether the candidates are searched in this process (:func:`choose`) or one at a
    time in the solver's workers (:class:`Dailies`), so both choose the same daily."""

    def __init__(self, slug: str, budget: Budget) -> None:
        game = registry.get(slug)
        self.per = candidate_nodes(game, budget.candidate_nodes)  # the game's own, when smaller
        self.total = game.total
        self.budget = budget
        self.k = 0
        self.spent = 0
        self.best: Choice | None = None
        self.chosen: Choice | None = None

    def next_nodes(self) -> int | None:
        """The nodes for candidate :attr:`k`, or None when the scan is over."""
        if self.chosen is not None:
            return None
        if self.k >= MAX_CANDIDATES or (self.k > 0 and self.spent >= self.budget.total_nodes):
            assert self.best is not None
            self.chosen = dataclasses.replace(self.best, tried=self.k, nodes=self.spent)
            return None
        return max(1, min(self.per, self.budget.total_nodes - self.spent))

    def feed(self, c: Candidate) -> None:
        self.spent += max(c.nodes, 1)
        self.k += 1
        if c.line is not None:
            self.chosen = Choice(
                c.seed, c.k, True, c.par, self.total, c.line, self.k, nodes=self.spent
            )
        elif self.best is None or c.best_founded > self.best.best_founded:
            self.best = Choice(c.seed, c.k, False, None, c.best_founded)


Chooser = Callable[[str, bytes, str, Budget], Choice]
Search = Callable[..., Result]
#: called with (date, slug, choice, seconds) when this instance chose a daily
Observer = Callable[[str, str, Choice, float], None]


def candidate_seed(secret: bytes, date: str, slug: str, k: int) -> int:
    mac = hmac.new(secret, f"{date}:{slug}:{k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "big")


def commitment(seed: int, date: str, slug: str) -> str:
    return hashlib.sha256(seed.to_bytes(8, "big") + f"{date}:{slug}".encode()).hexdigest()


def search_candidate(
    slug: str, secret: bytes, date: str, k: int, nodes: int, search: Search = solve
) -> Candidate:
    """Search candidate ``k`` within ``nodes`` (CPU-bound: a worker process runs it)."""
    game = registry.get(slug)
    seed = candidate_seed(secret, date, slug, k)
    result = search(game, game.deal(seed), max_nodes=nodes)
    line = None if result.line is None else tuple(m.to_wire() for m in result.line)
    return Candidate(k, seed, max(result.nodes, 1), result.best_founded, result.par, line)


def choose(
    slug: str, secret: bytes, date: str, budget: Budget, *, search: Search = solve
) -> Choice:
    """Scan candidates k = 0, 1, … within ``budget``: the first certified one, else the
    one whose best line founded most cards. CPU-bound: run it off the event loop."""
    scan = Scan(slug, budget)
    while (nodes := scan.next_nodes()) is not None:
        scan.feed(search_candidate(slug, secret, date, scan.k, nodes, search))
    assert scan.chosen is not None
    return scan.chosen


def lower_priority(niceness: int) -> None:
    """A solver worker's initializer: run at a lower CPU priority than the event loop."""
    if niceness > 0:
        os.nice(niceness)


class Dailies:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        chooser: Chooser | None = None,
        budget: Budget = DEFAULT_BUDGET,
        executor: Executor | None = None,
        wait: float = 2.0,
    ):
        self.store = store
        self.clock = clock
        #: None: scan candidate by candidate in :attr:`executor` (with progress);
        #: a chooser (tests): the whole choice in one call there
        self.chooser = chooser
        self.budget = budget
        #: seconds the ``daily`` op and ``start daily`` wait for a daily still being
        #: chosen before they answer ``preparing`` / ``unavailable``
        self.wait = wait
        #: where candidates are scanned (a process pool in production; None: a thread)
        self.executor = executor
        #: the executor's workers: a scan searches candidates ahead while some are idle
        self.workers = 1
        self._in_flight = 0
        #: told of every daily this instance chose (metrics)
        self.observe: Observer | None = None
        self.owner = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._secret: bytes | None = None
        self._cache: dict[tuple[str, str], Choice] = {}
        self._pending: dict[tuple[str, str], asyncio.Future[Choice]] = {}
        self._progress: dict[tuple[str, str], Progress] = {}

    def today(self) -> str:
        return utc_date(self.clock.now_ms())

    def revealed(self, date: str) -> bool:
        """Whether the day is over (its seeds may be shown)."""
        return date < self.today()

    async def secret(self) -> bytes:
        if self._secret is None:
            self._secret = await self.store.secret()
        return self._secret

    def preparing(self) -> int:
        """Dailies this instance is choosing now."""
        return len(self._pending)

    async def deal(self, date: str, slug: str) -> tuple[int, str]:
        """``(seed, commitment)`` of a daily (chosen once, kept in Redis), waiting up to
        :attr:`wait` seconds for one still being chosen; then ``unavailable`` with a
        ``retry_after`` and the scan's progress (the choice goes on)."""
        task = asyncio.ensure_future(self.choice(date, slug))
        done, _ = await asyncio.wait({task}, timeout=self.wait)
        if not done:
            task.cancel()  # only this wait: the choice itself is shielded
            progress = (await self.progress(date, [slug])).get(slug)
            so_far = (
                f" ({progress['tried']} candidates, {progress['elapsed_ms'] // 1000} s so far)"
                if progress
                else ""
            )
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                f"certifying a winnable daily of {slug} for {date}{so_far}: "
                f"try again in {RETRY_SECONDS:.0f} s",
                retry_after=RETRY_SECONDS,
                preparing=progress or {"tried": 0, "elapsed_ms": 0},
            )
        choice = task.result()
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

    async def progress(self, date: str, slugs: Sequence[str]) -> dict[str, dict[str, int]]:
        """``{tried, elapsed_ms}`` of the scans of ``slugs`` on ``date`` under way: this
        instance's own, else what the instance choosing it wrote to Redis."""
        out = {s: p.wire() for s in slugs if (p := self._progress.get((date, s))) is not None}
        if len(out) < len(slugs):
            stored = await self.store.daily(date)
            for slug in slugs:
                seen = Progress.unpack(stored.get(f"progress:{slug}"))
                if slug not in out and seen is not None:
                    out[slug] = seen.wire()
        return out

    async def _choose(self, date: str, slug: str, budget: Budget) -> Choice:
        while True:
            stored = await self.store.daily(date)
            if f"seed:{slug}" in stored:
                return Choice.from_fields(stored, slug)
            if await self.store.lease_daily(date, slug, self.owner, LEASE_MS):
                break
            await asyncio.sleep(POLL_SECONDS)  # another instance is choosing it
        began = time.monotonic()
        key = (date, slug)
        self._progress[key] = Progress(0, int(time.time() * 1000))
        try:
            secret = await self.secret()
            if self.chooser is not None:
                loop = asyncio.get_running_loop()
                choice = await loop.run_in_executor(
                    self.executor, self.chooser, slug, secret, date, budget
                )
            else:
                choice = await self._scan(date, slug, secret, budget)
        finally:
            self._progress.pop(key, None)
        await self.store.put_daily(date, choice.fields(date, slug))
        stored = await self.store.daily(date)  # the first instance to write wins
        chosen = Choice.from_fields(stored, slug)
        seconds = time.monotonic() - began
        if not chosen.certified:
            log.warning(
                "INCIDENT: the daily of %s on %s is %s after %d candidates and %d nodes "
                "(%.0f s): the whole budget found no win",
                slug,
                date,
                chosen.label(slug),
                chosen.tried,
                chosen.nodes,
                seconds,
            )
        else:
            log.info(
                "daily of %s on %s certified: k=%d, par %s, %.1f s",
                slug,
                date,
                chosen.k,
                chosen.par,
                seconds,
            )
        if self.observe is not None:
            self.observe(date, slug, chosen, seconds)
        return chosen

    async def _scan(self, date: str, slug: str, secret: bytes, budget: Budget) -> Choice:
        """Candidates in the executor, fed to the scan in the order k = 0, 1, …; the
        progress kept here and, every :data:`PROGRESS_EVERY` seconds, in Redis with the
        lease renewed. While a worker would be idle (the last games of a day), the
        next candidates are searched ahead, side by side: only those whose node budget
        the scan would give them whatever the earlier ones spend, so the choice is the
        one :func:`choose` makes."""
        key = (date, slug)
        scan = Scan(slug, budget)
        progress = self._progress[key]
        written = time.monotonic()
        ahead: dict[int, tuple[int, asyncio.Future[Candidate]]] = {}
        try:
            while (nodes := scan.next_nodes()) is not None:
                k = scan.k
                if k in ahead and ahead[k][0] != nodes:  # not what the scan gives it
                    ahead.pop(k)[1].cancel()
                if k not in ahead:
                    ahead[k] = (nodes, self._submit(slug, secret, date, k, nodes))
                last = max(ahead)
                while (
                    self._in_flight < self.workers
                    and last + 1 < MAX_CANDIDATES
                    and scan.spent + (last + 2 - k) * 2 * scan.per <= budget.total_nodes
                ):
                    last += 1
                    ahead[last] = (scan.per, self._submit(slug, secret, date, last, scan.per))
                scan.feed(await ahead.pop(k)[1])
                progress = self._progress[key] = Progress(scan.k, progress.started_ms)
                if time.monotonic() - written >= PROGRESS_EVERY:
                    written = time.monotonic()
                    await self.store.daily_progress(
                        date, slug, self.owner, progress.pack(), LEASE_MS
                    )
        finally:
            for _, future in ahead.values():  # searched ahead past the choice
                future.cancel()
        assert scan.chosen is not None
        return scan.chosen

    def _submit(
        self, slug: str, secret: bytes, date: str, k: int, nodes: int
    ) -> asyncio.Future[Candidate]:
        """Candidate ``k`` to the executor, counted in :attr:`_in_flight` until a worker
        is done with it (a cancelled one may still be running)."""
        loop = asyncio.get_running_loop()
        self._in_flight += 1

        def done() -> None:
            self._in_flight -= 1

        if self.executor is None:
            future = loop.run_in_executor(None, search_candidate, slug, secret, date, k, nodes)
            future.add_done_callback(lambda _: done())
            return future
        job = self.executor.submit(search_candidate, slug, secret, date, k, nodes)

        def finished(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody counts
                loop.call_soon_threadsafe(done)

        job.add_done_callback(finished)
        return asyncio.wrap_future(job)

    async def prepare(self, dates: list[str], budget: Budget | None = None) -> None:
        """Choose every game's daily of ``dates``, a date at a time, its games side by
        side (candidates interleave in the executor's workers)."""
        for date in dates:
            await asyncio.gather(*(self.choice(date, slug, budget) for slug in registry.slugs()))

    async def keep_prepared(self, days: int = 2, interval: float = 60.0) -> None:
        """While the server runs: today's dailies first (a server starting a day it has
        not prepared), then the next ``days`` days', checked every ``interval`` s."""
        while True:
            dates = [self.today()]
            for _ in range(days):
                dates.append(day_after(dates[-1]))
            try:
                await self.prepare(dates)
            except Exception:  # a storage outage: try again later
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                log.exception("preparing the dailies failed")
            await asyncio.sleep(interval)

    def check_date(self, date: str | None) -> str:
        today = self.today()
        if date is None:
            return today
        if date > today:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no daily for {date} yet (today is {today})")
        return date
