"""Waiting for something to happen, never for a time to pass (tests/README.md, "Time in
tests").

A test that sleeps and then asserts passes on a quiet machine and fails on a loaded
one; a test that asserts an upper bound on seconds does the same. Wait for the outcome
itself instead: a reply, an event frame (``TestClient.next_event``), an
``asyncio.Event`` set by the code under test, or, where nothing can be awaited, a
condition polled with :func:`eventually`. Its ``guard`` is a hang guard only: generous,
so that a loaded machine never reaches it, and failing with what was awaited.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

__all__ = ["GUARD", "eventually"]

T = TypeVar("T")

#: seconds a test waits for an outcome before it fails: it only stops a test that
#: would hang (nothing is asserted about how long the outcome took), so it is far
#: beyond what a machine under load needs
GUARD = 60.0


@overload
async def eventually(
    condition: Callable[[], Awaitable[T | None]],
    *,
    what: str | Callable[[], str] = ...,
    guard: float = ...,
    every: float = ...,
    pause: Callable[[float], Awaitable[object]] = ...,
) -> T: ...


@overload
async def eventually(
    condition: Callable[[], T | None],
    *,
    what: str | Callable[[], str] = ...,
    guard: float = ...,
    every: float = ...,
    pause: Callable[[float], Awaitable[object]] = ...,
) -> T: ...


async def eventually(
    condition: Callable[[], Any],
    *,
    what: str | Callable[[], str] = "",
    guard: float = GUARD,
    every: float = 0.01,
    pause: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> Any:
    """The first true value of ``condition()`` (a coroutine function is awaited),
    asked every ``every`` seconds; an ``AssertionError`` naming ``what`` (or saying
    what ``what()`` returns then) if it is still false after ``guard`` seconds.
    ``pause`` waits between two asks (a Textual test passes ``pilot.pause``, so the
    app handles its messages meanwhile)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + guard
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            said = (what() if callable(what) else what) or getattr(
                condition, "__qualname__", repr(condition)
            )
            raise AssertionError(f"never came true within the {guard:g} s hang guard: {said}")
        await pause(every)
