"""Time for the services: injectable, so tests can pass a fake clock."""

from __future__ import annotations

import datetime as dt
import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch."""
        ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class FakeClock:
    """A clock that moves only when told: ``FakeClock("2026-01-02T03:04:05")``."""

    def __init__(self, start: str | int = "2026-01-01T12:00:00") -> None:
        if isinstance(start, str):
            moment = dt.datetime.fromisoformat(start).replace(tzinfo=dt.UTC)
            start = int(moment.timestamp() * 1000)
        self.ms = start

    def now_ms(self) -> int:
        return self.ms

    def advance(self, *, ms: int = 0, seconds: float = 0, days: int = 0) -> None:
        self.ms += ms + int(seconds * 1000) + days * 86_400_000


def utc_date(ms: int) -> str:
    """The UTC date of a moment, ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).date().isoformat()


def day_before(date: str) -> str:
    return (dt.date.fromisoformat(date) - dt.timedelta(days=1)).isoformat()


def day_after(date: str) -> str:
    return (dt.date.fromisoformat(date) + dt.timedelta(days=1)).isoformat()


def day_end_ms(date: str) -> int:
    """The first millisecond after the UTC day ``date``: when the day closes."""
    moment = dt.datetime.fromisoformat(day_after(date)).replace(tzinfo=dt.UTC)
    return int(moment.timestamp() * 1000)
