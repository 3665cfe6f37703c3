"""Jobs for the solver's worker processes in tests: module-level functions (a worker
imports them by name) that report on the worker or wait for the test's word."""

from __future__ import annotations

import os
import time
from pathlib import Path

from server.solver.daily import Budget, Choice, choose

#: the longest a held job waits for its release: a hang guard, never reached in a pass
GUARD_SECONDS = 120.0


def pid() -> int:
    """The worker's process id."""
    return os.getpid()


def priority() -> tuple[int, int]:
    """The worker's niceness and scheduling policy now."""
    return os.nice(0), os.sched_getscheduler(0)


def hold(release: str) -> int:
    """Wait until the file ``release`` exists (the test creates it), then answer the
    worker's process id: a job that runs exactly as long as the test wants."""
    started = Path(release + ".started")
    started.touch()
    deadline = time.monotonic() + GUARD_SECONDS
    while not Path(release).exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{release} was never created")
        time.sleep(0.005)
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def held_choice(release: str, slug: str, secret: bytes, date: str, budget: Budget) -> Choice:
    """A chooser of dailies (``App(chooser=functools.partial(held_choice, path))``)
    that runs until the file ``release`` exists, then chooses as the server does."""
    hold(release)
    return choose(slug, secret, date, budget)
