"""Fair daily challenges: one seeded deal per patience per UTC day, proven winnable.

The choice itself — candidate seeds, the scan, the certificate, the commitment — is
the solver's (``server/solver/daily.py``); this service runs it for the server.
The daily is the first candidate the solver **certifies**: it found a
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
import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from protocol import ErrorCode, ProtocolError

from ..patience import registry
from ..solver.daily import (
    DEFAULT_BUDGET,
    MAX_CANDIDATES,
    Budget,
    Candidate,
    Choice,
    Chooser,
    Scan,
    commitment,
    search_candidate,
)
from ..store import Store
from .clock import Clock, day_after, utc_date

log = logging.getLogger("pasyans.daily")

#: how long a lease on choosing a daily lasts unless renewed (the instance choosing it
#: renews it after every candidate); another instance takes over once it lapses
LEASE_MS = 300_000
POLL_SECONDS = 0.2
#: the ``retry_after`` (seconds) of a ``start daily`` refused while its daily is prepared
RETRY_SECONDS = 5.0
#: seconds between two writes of a scan's progress to Redis (for the other instances)
PROGRESS_EVERY = 1.0


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


#: called with (date, slug, choice, seconds) when this instance chose a daily
Observer = Callable[[str, str, Choice, float], None]


def lower_priority(niceness: int, idle: bool = False) -> None:
    """A solver worker's initializer: run at a lower CPU priority than the event loop,
    ``niceness`` lower, and (``idle``, where the system has it) under ``SCHED_IDLE``,
    which runs only when no process of normal priority wants the core."""
    if niceness > 0:
        os.nice(niceness)
    if idle and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError as exc:  # not allowed here: the niceness alone
            log.warning("the solver cannot run under SCHED_IDLE: %s", exc)


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
