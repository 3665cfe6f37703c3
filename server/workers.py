"""The solver's worker processes: every search (a hint, a finish, its check, a daily's
candidates) runs here, never on the server's interpreter, whose event loop serves
every player's moves.

One :class:`SolverPool` per server process holds ``workers`` processes (started on
first use, replaced when one dies) and three queues, one per :class:`Lane`:

- ``PLAYER``: a player waits for it (hint, finish, finish check, a long replay).
  Bounded: an account has at most ``per_account`` such jobs queued or running, a
  client address (:data:`REQUESTER`, as the limits per address count it) at most
  ``per_address``, and the server at most ``queue`` waiting; past any of them the job
  is refused at once with :class:`Busy` (the client is told ``unavailable`` with a
  ``retry_after``), so a flood of hints makes the flooder wait, never the other
  players. The queue is fair across people, not accounts: a free worker takes the
  waiting job of the address with the fewest jobs running (ties: the address served
  longest ago), so a player whose address has nothing in flight gets the next free
  worker however many accounts another address floods from; and when the queue is
  full, such a player takes the place of the newest waiting job of the address with
  the most in flight (that job is refused :class:`Busy`, as if it had come last).
- ``TODAY``: today's dailies, which players may be waiting for. While players'
  searches wait too, the two lanes take turns: however many hints are asked, every
  other worker that comes free goes to today's dailies.
- ``AHEAD``: the days ahead and the past days never chosen: only what is left.

Each job runs at its lane's priority, which the worker takes before it starts it:
players' searches at ``niceness`` below the event loop (19 by default: a flood of
hints weighs 15 against the event loop's 1,024), today's dailies at ``today_niceness``
(0 by default, the server's own: on a host whose cores are all busy a nice-19 worker
gets about 1 % of a core, and today's sixteen need a few CPU minutes — players cannot
play them until then), the days ahead at ``niceness`` and, with ``idle`` (the
default), under ``SCHED_IDLE``, where a worker runs only when nothing of normal
priority wants the core. A worker that may not go back up (lowering a niceness or
leaving ``SCHED_IDLE`` needs a privilege an unprivileged server lacks) hands the job
back and is replaced by a fresh one, which starts at the server's own priority.

A worker dies with the server, whatever kills it (``PR_SET_PDEATHSIG``), and is
started with ``spawn``: it inherits none of the server's files (the data directory's
lock among them), so a killed server restarts at once. A worker that dies mid-job
fails that job with :class:`WorkerDied` and is replaced on the next job.

With ``workers=0`` jobs run in threads of the server, two at a time, under the same
admission rules: for tests and tiny budgets only (the search then holds the
interpreter the event loop needs).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import enum
import logging
import math
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

log = logging.getLogger("pasyans.workers")

T = TypeVar("T")

#: seconds a stopping worker is given after SIGTERM before SIGKILL
STOP_GRACE = 2.0
#: virtual workers of the thread mode (``workers=0``)
THREAD_SLOTS = 2
#: the first estimate of a player's job, in seconds, before any was measured
FIRST_ESTIMATE = 2.0


#: the client address of the request being answered (the server's routes set it for
#: each request, as its limits per address count it): a player's job counts against
#: it as well as against its account
REQUESTER: ContextVar[str | None] = ContextVar("solver_requester", default=None)


class Lane(enum.IntEnum):
    """Who waits for a job, in the order the pool serves them."""

    PLAYER = 0
    TODAY = 1
    AHEAD = 2


class Busy(Exception):
    """A player's job refused at once: the account has its share in flight, or the
    queue is full. ``retry_after``: seconds after which asking again may succeed."""

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class WorkerDied(RuntimeError):
    """The worker running a job ended before answering (killed, out of memory)."""


@dataclass(eq=False)
class _Job:
    lane: Lane
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    account: str | None
    #: whose share the job counts against when players' jobs take turns: its client
    #: address, else its account ("" for neither)
    share: str = ""
    began: float = 0.0


@dataclass(eq=False)
class _Worker:
    process: Any  # multiprocessing's SpawnProcess (untyped); None in the thread mode
    conn: Connection | None
    job: _Job | None = None
    #: the worker runs under SCHED_IDLE now
    idle: bool = False
    jobs: int = 0


@dataclass
class Snapshot:
    """The pool now (for ``/metrics`` and tests)."""

    workers: int
    alive: int
    running: dict[str, int]
    queued: dict[str, int]
    started: int
    died: int
    refused: int


@dataclass
class _Counters:
    started: int = 0
    died: int = 0
    refused: int = 0
    per_lane_done: dict[Lane, int] = field(default_factory=lambda: dict.fromkeys(Lane, 0))


#: the workers' process name (``comm``), as ``ps`` and ``top`` show it
NAME = b"pasyans-solver"


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """This process gets ``sig`` when its parent dies, however it dies, and is named
    :data:`NAME` (Linux only)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, sig)  # PR_SET_PDEATHSIG
            libc.prctl(15, ctypes.c_char_p(NAME), 0, 0, 0)  # PR_SET_NAME


def _schedule(idle: bool) -> bool:
    """Move this process to ``SCHED_IDLE`` (``idle``) or back to the normal class;
    False where that is not possible (no such class, or no privilege to leave it)."""
    if not hasattr(os, "SCHED_IDLE"):
        return not idle
    policy = os.SCHED_IDLE if idle else os.SCHED_OTHER
    try:
        os.sched_setscheduler(0, policy, os.sched_param(0))
    except OSError:
        return False
    return True


def _renice(target: int) -> bool:
    """Run at niceness ``target``; False where that is not allowed (lower than now,
    without the privilege)."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, target)
    except OSError:
        return os.getpriority(os.PRIO_PROCESS, 0) == target
    return True


def worker_main(conn: Connection, parent: int, niceness: dict[int, int], idle: bool) -> None:
    """A worker process: answer jobs ``(lane, fn, args)`` with ``("ok", result)``,
    ``("raise", exception)`` or ``("again", None)`` (it may not take the lane's
    priority back up: give the job back, and end), until the pipe closes.
    ``niceness``: lane → niceness added to the server's own."""
    die_with_parent()
    if os.getppid() != parent:  # the server died before the line above
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    base = os.getpriority(os.PRIO_PROCESS, 0)
    nice_now, under_idle = base, False
    while True:
        try:
            lane, fn, args = conn.recv()
        except (EOFError, OSError):
            return
        wanted_idle = idle and lane == Lane.AHEAD
        wanted_nice = min(19, base + niceness.get(lane, 0))
        if wanted_idle != under_idle:
            if _schedule(wanted_idle):
                under_idle = wanted_idle
            elif under_idle:
                conn.send(("again", None))
                return
        if wanted_nice != nice_now:
            if _renice(wanted_nice):
                nice_now = wanted_nice
            elif wanted_nice < nice_now:
                conn.send(("again", None))
                return
        try:
            result = fn(*args)
        except Exception as exc:
            try:
                conn.send(("raise", exc))
            except Exception:  # an exception that does not pickle: its words
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
        else:
            conn.send(("ok", result))


class SolverPool:
    def __init__(
        self,
        workers: int,
        *,
        niceness: int = 19,
        today_niceness: int = 0,
        idle: bool = True,
        queue: int = 8,
        per_account: int = 1,
        per_address: int = 0,
    ) -> None:
        #: worker processes (``-1``: :meth:`from_cores`; 0: threads)
        self.workers = workers if workers >= 0 else self.from_cores()
        #: lane → niceness added to the server's own for its jobs
        self.niceness = {
            Lane.PLAYER: niceness,
            Lane.TODAY: today_niceness,
            Lane.AHEAD: niceness,
        }
        self.idle = idle
        #: players' jobs waiting for a worker, at most
        self.queue = queue
        #: players' jobs of one account queued or running, at most
        self.per_account = per_account
        #: players' jobs of one client address queued or running, at most (0: no cap)
        self.per_address = per_address
        self._queues: dict[Lane, collections.deque[_Job]] = {
            lane: collections.deque() for lane in Lane
        }
        self._workers: list[_Worker] = []
        self._accounts: collections.Counter[str] = collections.Counter()
        #: players' jobs queued or running per share (:attr:`_Job.share`)
        self._shares: collections.Counter[str] = collections.Counter()
        #: share → the turn it was last served in (players' jobs take turns by share)
        self._served: dict[str, int] = {}
        self._turn = 0
        #: seconds a player's job took, smoothed: the ``retry_after`` of a refusal
        self._estimate = FIRST_ESTIMATE
        #: the lane served last while players and today's dailies both waited
        self._last: Lane | None = None
        self._closed = False
        self._counters = _Counters()
        self._context = multiprocessing.get_context("spawn")

    @staticmethod
    def from_cores() -> int:
        """The worker processes a pool of ``workers=-1`` starts: one fewer than the
        CPUs this process may run on, at least one — the event loop keeps a core to
        itself however hard the solver works (on a 2-core host two workers at the
        server's priority made every move's p99 2.0–2.4 × while dailies were chosen)."""
        try:
            cpus = len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            cpus = os.cpu_count() or 1
        return max(1, cpus - 1)

    @property
    def size(self) -> int:
        """Jobs the pool runs side by side."""
        return self.workers if self.workers > 0 else THREAD_SLOTS

    def spare(self) -> int:
        """Workers that would be idle now: neither running nor about to run a job."""
        running = sum(1 for w in self._workers if w.job is not None)
        queued = sum(len(q) for q in self._queues.values())
        return max(0, self.size - running - queued)

    def submit(
        self,
        lane: Lane,
        fn: Callable[..., T],
        *args: Any,
        account: str | None = None,
        address: str | None = None,
    ) -> asyncio.Future[T]:
        """Queue ``fn(*args)`` (a module-level function: it is pickled by name) and
        return its future; cancelling it drops the job while it waits (a job already
        running goes on, its answer thrown away). A player's job (``account``, and
        ``address``, by default :data:`REQUESTER`'s) may be refused at once with
        :class:`Busy`, or later, while it waits, when a player of an address with
        less in flight takes its place in a full queue."""
        if self._closed:
            raise RuntimeError("the solver pool is closed")
        if lane == Lane.PLAYER and address is None:
            address = REQUESTER.get()
        victim = self.admit(account, address) if lane == Lane.PLAYER else None
        loop = asyncio.get_running_loop()
        share = address if address is not None else (f"@{account}" if account else "")
        job = _Job(lane, fn, args, loop.create_future(), account, share)
        if victim is not None:
            self._queues[Lane.PLAYER].remove(victim)
            self._counters.refused += 1
            victim.future.set_exception(
                Busy(BUSY, self._retry_after(len(self._queues[Lane.PLAYER])))
            )
        if lane == Lane.PLAYER:
            self._shares[share] += 1
            job.future.add_done_callback(lambda _: _drop(self._shares, share))
        if account is not None:
            self._accounts[account] += 1
            job.future.add_done_callback(lambda _: _drop(self._accounts, account))
        self._queues[lane].append(job)
        self._dispatch()
        return job.future

    async def run(
        self,
        lane: Lane,
        fn: Callable[..., T],
        *args: Any,
        account: str | None = None,
        address: str | None = None,
    ) -> T:
        """``fn(*args)`` in a worker: :meth:`submit` and wait (cancelling the wait
        cancels the job)."""
        return await self.submit(lane, fn, *args, account=account, address=address)

    def admit(self, account: str | None, address: str | None = None) -> _Job | None:
        """Raise :class:`Busy` if a player's job of ``account`` from ``address``
        (default :data:`REQUESTER`'s) would be refused now (the cheap check a service
        makes before it reads anything for the job); the waiting job it would take
        the place of in a full queue, if any."""
        if address is None:
            address = REQUESTER.get()
        if account is not None and self._accounts[account] >= self.per_account:
            self._counters.refused += 1
            raise Busy(
                "you already asked the solver for something: wait for its answer",
                self._retry_after(1),
            )
        if address is not None and 0 < self.per_address <= self._shares[address]:
            self._counters.refused += 1
            raise Busy(
                "players at your address already asked the solver for as much as one "
                "address may: wait for their answers",
                self._retry_after(1),
            )
        waiting = len(self._queues[Lane.PLAYER])
        if waiting < self.queue:
            return None
        victim = self._victim(address)
        if victim is None:
            self._counters.refused += 1
            raise Busy(BUSY, self._retry_after(waiting))
        return victim

    def _victim(self, address: str | None) -> _Job | None:
        """In a full queue, the waiting job a player's job from ``address`` takes the
        place of: the newest of the share with the most jobs in flight, if that share
        would still have more than ``address``'s with the newcomer counted."""
        waiting = [j for j in self._queues[Lane.PLAYER] if not j.future.done()]
        if address is None or not waiting:
            return None
        mine = self._shares[address] + 1
        most = max(waiting, key=lambda j: self._shares[j.share])
        if self._shares[most.share] <= mine:
            return None
        return next(j for j in reversed(waiting) if j.share == most.share)

    def _retry_after(self, ahead: int) -> float:
        """Seconds until ``ahead`` jobs before this one are likely done."""
        return float(max(1, math.ceil(self._estimate * max(1, ahead) / self.size)))

    def _next(self) -> _Job | None:
        """The next job to run: players' searches and today's dailies in turn while
        both wait (today's first), the days ahead only when neither waits."""
        for queue in self._queues.values():
            while queue and queue[0].future.done():  # cancelled while it waited
                queue.popleft()
        players, today, ahead = (self._queues[lane] for lane in Lane)
        if today and players:
            lane = Lane.PLAYER if self._last == Lane.TODAY else Lane.TODAY
            self._last = lane
            return self._player() if lane == Lane.PLAYER else today.popleft()
        if players:
            return self._player()
        for queue in (today, ahead):
            if queue:
                return queue.popleft()
        return None

    def _player(self) -> _Job:
        """The players' job to run next: that of the share (address) with the fewest
        jobs running, the one served longest ago among equals, its oldest."""
        queue = self._queues[Lane.PLAYER]
        running = collections.Counter(
            w.job.share for w in self._workers if w.job is not None and w.job.lane == Lane.PLAYER
        )
        job = min(
            (j for j in queue if not j.future.done()),
            key=lambda j: (running[j.share], self._served.get(j.share, -1)),
        )
        queue.remove(job)
        self._turn += 1
        self._served[job.share] = self._turn
        if len(self._served) > 4 * (self.queue + self.size):  # forget the long served
            for share, _ in sorted(self._served.items(), key=lambda kv: kv[1])[: self.queue]:
                del self._served[share]
        return job

    def _dispatch(self) -> None:
        while not self._closed:
            worker = next((w for w in self._workers if w.job is None), None)
            if worker is None and len(self._workers) < self.size:
                if not any(self._queues.values()):
                    return
                worker = self._start_worker()
            if worker is None:
                return
            job = self._next()
            if job is None:
                return
            self._run(worker, job)

    def _start_worker(self) -> _Worker:
        if self.workers == 0:
            worker = _Worker(None, None)
        else:
            ours, theirs = self._context.Pipe()
            process = self._context.Process(
                target=worker_main,
                args=(theirs, os.getpid(), self.niceness, self.idle),
                name="pasyans-solver",
                daemon=True,
            )
            process.start()
            theirs.close()
            worker = _Worker(process, ours)
            loop = asyncio.get_running_loop()
            loop.add_reader(ours.fileno(), self._answered, worker)
            self._counters.started += 1
            log.info("solver worker pid %d started", process.pid)
        self._workers.append(worker)
        return worker

    def _run(self, worker: _Worker, job: _Job) -> None:
        job.began = time.monotonic()
        if worker.conn is None:  # the thread mode
            worker.job = job
            loop = asyncio.get_running_loop()
            done = loop.run_in_executor(None, job.fn, *job.args)
            done.add_done_callback(lambda f: self._thread_done(worker, f))
            return
        try:
            payload = pickle.dumps((job.lane, job.fn, job.args))
        except Exception as exc:  # not a job a process can take (a test's closure)
            job.future.set_exception(exc)
            return
        worker.job = job
        worker.jobs += 1
        try:
            worker.conn.send_bytes(payload)
        except OSError:
            self._lost(worker, "closed its pipe")

    def _thread_done(self, worker: _Worker, done: asyncio.Future[Any]) -> None:
        job, worker.job = worker.job, None
        assert job is not None
        if done.cancelled():
            job.future.cancel()
        elif (exc := done.exception()) is not None:
            self._finished(job, ("raise", exc))
        else:
            self._finished(job, ("ok", done.result()))
        self._dispatch()

    def _answered(self, worker: _Worker) -> None:
        """The worker's pipe is readable: its answer, or its end."""
        assert worker.conn is not None
        try:
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker, "it ended")
            return
        job, worker.job = worker.job, None
        if job is None:  # nothing was asked of it
            return
        if kind == "again":  # it may not leave SCHED_IDLE: the job goes first again
            self._queues[job.lane].appendleft(job)
            self._retire(worker)
        else:
            self._finished(job, (kind, value))
        self._dispatch()

    def _finished(self, job: _Job, answer: tuple[str, Any]) -> None:
        if job.lane == Lane.PLAYER:
            took = time.monotonic() - job.began
            self._estimate = 0.8 * self._estimate + 0.2 * took
        self._counters.per_lane_done[job.lane] += 1
        if job.future.done():
            return
        kind, value = answer
        if kind == "ok":
            job.future.set_result(value)
        elif kind == "raise" and isinstance(value, BaseException):
            job.future.set_exception(value)
        else:
            job.future.set_exception(RuntimeError(f"the solver failed: {value}"))

    def _lost(self, worker: _Worker, how: str) -> None:
        """A worker ended on its own: its job fails, another takes its place."""
        job, worker.job = worker.job, None
        self._counters.died += 1
        code = self._retire(worker)
        log.error("solver worker pid %s %s (exit code %s)", _pid(worker), how, code)
        if job is not None and not job.future.done():
            job.future.set_exception(WorkerDied("the solver's worker stopped during the search"))
        self._dispatch()

    def _retire(self, worker: _Worker) -> int | None:
        """Forget ``worker`` and make sure its process is gone; its exit code."""
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(worker.conn.fileno())
            worker.conn.close()
        process = worker.process
        if process is None:
            return None
        process.join(0.1)
        if process.is_alive():
            process.kill()
            process.join(STOP_GRACE)
        code: int | None = process.exitcode
        return code

    def snapshot(self) -> Snapshot:
        running = collections.Counter(w.job.lane.name.lower() for w in self._workers if w.job)
        return Snapshot(
            workers=self.size,
            alive=len(self._workers),
            running={lane.name.lower(): running[lane.name.lower()] for lane in Lane},
            queued={lane.name.lower(): len(q) for lane, q in self._queues.items()},
            started=self._counters.started,
            died=self._counters.died,
            refused=self._counters.refused,
        )

    def pids(self) -> list[int]:
        """The worker processes' ids (tests, ``/metrics``)."""
        return [w.process.pid for w in self._workers if w.process is not None]

    async def close(self) -> None:
        """Stop now: waiting jobs are cancelled, running ones abandoned (a daily's
        search under way is not stored; its lease runs out and the next start chooses it
        again), the processes stopped (SIGTERM, then SIGKILL after ``STOP_GRACE``)."""
        self._closed = True
        for queue in self._queues.values():
            while queue:
                queue.popleft().future.cancel()
        workers, self._workers = self._workers, []
        processes = [w.process for w in workers if w.process is not None]
        if processes:
            log.info("stopping %d solver process(es)", len(processes))
        for worker in workers:
            if worker.job is not None:
                worker.job.future.cancel()
            if worker.conn is not None:
                with contextlib.suppress(Exception):
                    asyncio.get_running_loop().remove_reader(worker.conn.fileno())
                worker.conn.close()
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in processes:
            while process.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if process.is_alive():
                process.kill()
            process.join(1)


#: why a player's job is refused when the queue is full of others' jobs
BUSY = "the solver is busy with other players' searches"


def _drop(counter: collections.Counter[str], key: str) -> None:
    """One job of ``key`` less in ``counter``."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def _pid(worker: _Worker) -> int | None:
    return None if worker.process is None else int(worker.process.pid)
