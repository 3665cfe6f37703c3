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
the solver's worker processes (``server/workers.py``), so the scan's progress
(candidates tried, seconds, an estimate of the rest) is known while it runs: ``daily``
answers ``preparing`` with it, and ``start daily`` waits up to ``wait`` seconds, then
answers ``unavailable`` with a ``retry_after``. A server keeps today's dailies and the
next days' prepared (:meth:`Dailies.keep_prepared`): today's in the workers' ``TODAY``
lane, which always has a worker of its own, the days ahead in the ``AHEAD`` lane,
with what is left of the cores. A past day is never chosen on a player's request
(:meth:`Dailies.known`): only the background's scan chooses a day it missed, and no
day before the deployment's first (:meth:`Dailies.first_day`) has dailies at all.

The commitment shown before and during the day is
``sha256(seed as 8 big-endian bytes + f"{date}:{slug}")`` in hex; after the day the
seed itself is shown, so anyone can check both.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
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
from ..solver.difficulty import difficulty
from ..solver.tuning import candidate_nodes
from ..store import Store
from ..workers import Lane, SolverPool, WorkerDied
from .clock import Clock, day_after, day_before, utc_date

log = logging.getLogger("pasyans.daily")

#: how long a lease on choosing a daily lasts unless renewed (the instance choosing it
#: renews it after every candidate); another instance takes over once it lapses
LEASE_MS = 300_000
POLL_SECONDS = 0.2
#: the ``retry_after`` (seconds) of a ``start daily`` refused while its daily is prepared
RETRY_SECONDS = 5.0
#: seconds between two writes of a scan's progress to Redis (for the other instances)
PROGRESS_EVERY = 1.0
#: times a candidate is searched again after its worker died under it
RETRIES = 2
#: the ``retry_after`` (seconds) of a past day's par line not chosen yet
BACKFILL_RETRY = 60.0


#: the estimate of a scan's rest is at most the time of its candidate under way so far,
#: divided by this (:meth:`Progress.wire`)
LAST_SHARE = 4


@dataclass(frozen=True)
class Progress:
    """A scan under way: candidates searched so far, since when (epoch ms), the nodes
    spent, and the nodes the whole choice is expected to take (the recent days' own
    figure for that game; 0 unknown), from which the rest is estimated."""

    tried: int
    started_ms: int
    spent: int = 0
    expected: int = 0
    #: when the last candidate was searched (epoch ms; 0: none yet)
    fed_ms: int = 0

    def wire(self) -> dict[str, int | None]:
        """``tried``, ``elapsed_ms`` and ``estimate_ms``: the milliseconds the rest of the
        choice should take at the pace so far (None before the first candidate): the
        nodes the recent days took (:attr:`expected`) less those spent, at the nodes
        per millisecond so far; with no such figure, or past it, one more candidate
        at the milliseconds a candidate took so far. Most dailies are certified
        within a few candidates: the whole budget (the worst case) as the figure
        said "about 2 days" of dailies ready in two minutes (issue 47)."""
        now = int(time.time() * 1000)
        elapsed = max(0, now - self.started_ms)
        estimate = None
        if self.spent > 0 and self.tried > 0:
            fed = self.fed_ms or now
            running = max(0, now - fed)  # the candidate under way, so far
            if self.expected > self.spent:
                rest = elapsed * (self.expected - self.spent) / self.spent
            else:  # the candidate under way: what a candidate took, less its time so far
                rest = max(0, fed - self.started_ms) / self.tried - running
            # Bounded by the candidate under way, at a quarter of its time so far: the
            # candidates before it took their whole node budget (they found no win),
            # the one that is chosen ends sooner, so the figure from them promised up
            # to 13 × the real rest in a scan's last seconds (bench.fresh, issue 47).
            estimate = int(max(min(rest, running / LAST_SHARE), 1000))
        return {"tried": self.tried, "elapsed_ms": elapsed, "estimate_ms": estimate}

    def pack(self) -> str:
        return f"{self.tried}:{self.started_ms}:{self.spent}:{self.expected}:{self.fed_ms}"

    @classmethod
    def unpack(cls, raw: bytes | str | None) -> Progress | None:
        if raw is None:
            return None
        text = raw.decode() if isinstance(raw, bytes) else raw
        try:
            return cls(*(int(part) for part in text.split(":")[:5]))
        except (TypeError, ValueError):
            return None


#: called with (date, slug, choice, seconds) when this instance chose a daily
Observer = Callable[[str, str, Choice, float], None]


class Dailies:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        chooser: Chooser | None = None,
        budget: Budget = DEFAULT_BUDGET,
        pool: SolverPool | None = None,
        wait: float = 2.0,
        first_day: str = "",
    ):
        self.store = store
        self.clock = clock
        #: None: scan candidate by candidate in :attr:`pool` (with progress);
        #: a chooser (tests): the whole choice in one job there
        self.chooser = chooser
        self.budget = budget
        #: seconds the ``daily`` op and ``start daily`` wait for a daily still being
        #: chosen before they answer ``preparing`` / ``unavailable``
        self.wait = wait
        #: where candidates are searched: the solver's worker processes (the server's),
        #: or threads of this process (a pool of none, as tools and tests build it)
        self.pool = pool if pool is not None else SolverPool(0)
        #: told of every daily this instance chose (metrics)
        self.observe: Observer | None = None
        self.owner = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._secret: bytes | None = None
        #: the first day with dailies: the setting, else read from Redis once
        self._first: str | None = first_day or None
        #: past days whose every daily is known to be chosen (the background's scan)
        self._complete: set[str] = set()
        self._cache: dict[tuple[str, str], Choice] = {}
        self._pending: dict[tuple[str, str], asyncio.Future[Choice]] = {}
        self._progress: dict[tuple[str, str], Progress] = {}

    def today(self) -> str:
        return utc_date(self.clock.now_ms())

    def difficulty(self, choice: Choice, slug: str) -> int:
        """1–3: how hard the daily ``choice`` of ``slug`` is (``solver.difficulty``)."""
        per = candidate_nodes(registry.get(slug), self.budget.candidate_nodes)
        return difficulty(choice, slug, per)

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
            progress = (await self.progress(date, [slug])).get(slug) or {
                "tried": 0,
                "elapsed_ms": 0,
                "estimate_ms": None,
            }
            estimate = progress["estimate_ms"]
            left = "" if estimate is None else f", ready in about {1 + estimate // 1000} s"
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                f"certifying a winnable daily of {slug} for {date} ({progress['tried']} "
                f"candidates so far{left}): try again in {RETRY_SECONDS:.0f} s",
                key="error.certifying",
                params={"game": slug},
                retry_after=RETRY_SECONDS,
                preparing=progress,
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
        try:
            choice = await asyncio.shield(pending)
        except WorkerDied:  # logged by the pool; the next ask chooses it again
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                f"certifying the daily of {slug} for {date} stopped (a solver process "
                f"ended): try again in {RETRY_SECONDS:.0f} s",
                key="error.certifying",
                params={"game": slug},
                retry_after=RETRY_SECONDS,
            ) from None
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
        seconds; None for one still being chosen (its choice goes on). A past day's
        dailies are read, never chosen on a request (:meth:`known`)."""
        if self.revealed(date):
            return {slug: await self.known(date, slug) for slug in slugs}
        tasks = {slug: asyncio.ensure_future(self.choice(date, slug)) for slug in slugs}
        await asyncio.wait(tasks.values(), timeout=self.wait)
        out: dict[str, Choice | None] = {}
        for slug, task in tasks.items():
            if task.done() and not _stopped(task):
                out[slug] = task.result()
            else:
                task.cancel()  # only this wait: the choice itself is shielded
                out[slug] = None
        return out

    async def known(self, date: str, slug: str) -> Choice | None:
        """The daily of ``slug`` on ``date`` if it was chosen, else None: nothing is
        searched. A past day never chosen (the server was down) is chosen by the
        background's scan alone (:meth:`keep_prepared`), never on a player's demand:
        else anyone could make the server solve date after date."""
        key = (date, slug)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        stored = await self.store.daily(date)
        if f"seed:{slug}" not in stored:
            return None
        choice = self._cache[key] = Choice.from_fields(stored, slug)
        return choice

    async def past(self, date: str, slug: str) -> Choice:
        """A past day's chosen daily, or ``unavailable`` while the background's scan
        has not chosen it yet (see :meth:`known`)."""
        choice = await self.known(date, slug)
        if choice is None:
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                f"the daily of {slug} on {date} is not certified yet: the server certifies "
                "past days it missed in the background",
                retry_after=BACKFILL_RETRY,
                key="error.daily_not_certified",
                params={"game": slug, "date": date},
            )
        return choice

    async def chosen(self, date: str) -> int:
        """How many games' dailies of ``date`` are chosen (stored) so far."""
        stored = await self.store.daily(date)
        return sum(1 for slug in registry.slugs() if f"seed:{slug}" in stored)

    async def progress(self, date: str, slugs: Sequence[str]) -> dict[str, dict[str, int | None]]:
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
        expected = await self._expected_nodes(date, slug, budget)
        self._progress[key] = Progress(0, int(time.time() * 1000), 0, expected)
        try:
            secret = await self.secret()
            if self.chooser is not None:
                lane = self._lane(date)
                choice = await self.pool.run(lane, self.chooser, slug, secret, date, budget)
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
        """Candidates in the solver's workers, fed to the scan in the order k = 0, 1, …; the
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
        retries = 0
        try:
            while (nodes := scan.next_nodes()) is not None:
                k = scan.k
                if k in ahead and ahead[k][0] != nodes:  # not what the scan gives it
                    ahead.pop(k)[1].cancel()
                if k not in ahead:
                    ahead[k] = (nodes, self._submit(slug, secret, date, k, nodes))
                last = max(ahead)
                while (
                    self.pool.spare() > 0
                    and last + 1 < MAX_CANDIDATES
                    and scan.spent + (last + 2 - k) * 2 * scan.per <= budget.total_nodes
                ):
                    last += 1
                    ahead[last] = (scan.per, self._submit(slug, secret, date, last, scan.per))
                try:
                    candidate = await ahead.pop(k)[1]
                except WorkerDied:
                    retries += 1
                    if retries > RETRIES:
                        raise
                    log.warning("searching candidate %d of %s on %s again", k, slug, date)
                    continue
                scan.feed(candidate)
                progress = self._progress[key] = dataclasses.replace(
                    progress, tried=scan.k, spent=scan.spent, fed_ms=int(time.time() * 1000)
                )
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

    async def _expected_nodes(self, date: str, slug: str, budget: Budget) -> int:
        """The nodes choosing ``slug``'s daily should take: the median of the three
        days before ``date`` where chosen, else 0 (unknown: the estimate goes a
        candidate at a time, :meth:`Progress.wire`)."""
        seen = []
        day = date
        for _ in range(3):
            day = day_before(day)
            nodes = (await self.store.daily(day)).get(f"nodes:{slug}")
            if nodes is not None and int(nodes) > 0:
                seen.append(int(nodes))
        return min(sorted(seen)[len(seen) // 2], budget.total_nodes) if seen else 0

    def _lane(self, date: str) -> Lane:
        """Today's dailies are players' to wait for; the days ahead, and the past days
        the background chooses, take only what is left of the cores."""
        return Lane.TODAY if date == self.today() else Lane.AHEAD

    def _submit(
        self, slug: str, secret: bytes, date: str, k: int, nodes: int
    ) -> asyncio.Future[Candidate]:
        """Candidate ``k`` to the solver's workers."""
        return self.pool.submit(self._lane(date), search_candidate, slug, secret, date, k, nodes)

    async def prepare(self, dates: list[str], budget: Budget | None = None) -> None:
        """Choose every game's daily of ``dates``, a date at a time, its games side by
        side (candidates interleave in the solver's workers)."""
        for date in dates:
            await asyncio.gather(*(self.choice(date, slug, budget) for slug in registry.slugs()))

    async def keep_prepared(self, days: int = 2, interval: float = 60.0) -> None:
        """While the server runs: today's dailies first (a server starting a day it has
        not prepared), then the next ``days`` days', then any past day since the first
        day whose dailies were never chosen (the server was down that day), checked
        every ``interval`` s."""
        while True:
            dates = [self.today()]
            for _ in range(days):
                dates.append(day_after(dates[-1]))
            try:
                await self.prepare(dates)
                await self.backfill()
            except ProtocolError as exc:  # a solver process ended: again soon
                log.warning("preparing the dailies: %s", exc.message)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            except Exception:  # a storage outage: try again later
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                log.exception("preparing the dailies failed")
            await asyncio.sleep(interval)

    async def backfill(self) -> int:
        """Choose the dailies of past days (yesterday back to the first day) that were
        never chosen, the latest first; how many were chosen. Each past day is read once
        per process, then remembered as complete."""
        first = await self.first_day()
        chosen = 0
        date = day_before(self.today())
        while date >= first:
            if date not in self._complete:
                stored = await self.store.daily(date)
                missing = [s for s in registry.slugs() if f"seed:{s}" not in stored]
                if missing:
                    log.info("choosing %d missed daily(ies) of %s", len(missing), date)
                    await asyncio.gather(*(self.choice(date, slug) for slug in missing))
                    chosen += len(missing)
                self._complete.add(date)
            date = day_before(date)
        return chosen

    async def first_day(self) -> str:
        """The first day with dailies (``--first-day``, else the day this deployment's
        Redis was first used)."""
        if self._first is None:
            self._first = await self.store.first_day(self.today())
        return self._first

    async def check_date(self, date: str | None) -> str:
        """The date a request names (today when it names none): ``not_found`` for a
        day after today or before the first day."""
        today = self.today()
        if date is None:
            return today
        if date > today:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no daily for {date} yet (today is {today})",
                key="error.daily_future",
                params={"date": date, "today": today},
            )
        first = await self.first_day()
        if date < first:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no dailies before {first}: the first day of this server",
                key="error.daily_before_first",
                params={"first": first},
            )
        return date


def _stopped(task: asyncio.Future[Choice]) -> bool:
    """Whether a choice ``task`` (done) failed because a solver process ended: it is
    still being prepared (the next ask chooses it again)."""
    exc = task.exception()
    return isinstance(exc, ProtocolError) and exc.code == ErrorCode.UNAVAILABLE
