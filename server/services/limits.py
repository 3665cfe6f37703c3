"""Limits per client address, counted in Redis so that they hold across every server
instance: registrations, race joins by code, and race joins with a code that names no
race (someone guessing codes).

The per-connection token bucket (``server.net.ratelimit``) does not stop one machine
opening many connections: 300 accounts in half a second came from one address. Each
limit here is a fixed window (``window`` seconds, starting at multiples of it since the
epoch by the injectable clock): one ``INCR`` of the key of (address, kind, window),
which expires with its window. A request past the limit is ``rate_limited`` with
``retry_after``, the seconds until the window ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from protocol import ErrorCode, ProtocolError

from ..settings import Settings
from ..store import Store
from .clock import Clock


class Kind(StrEnum):
    """What a client address spends."""

    REGISTER = "register"
    RACE_JOIN = "race_join"
    RACE_JOIN_FAILED = "race_join_failed"
    #: ``link`` attempts, and those with a wrong code (someone guessing codes)
    LINK = "link"
    LINK_FAILED = "link_failed"


#: how a refusal names each kind
WHAT = {
    Kind.REGISTER: "registrations",
    Kind.RACE_JOIN: "race joins",
    Kind.RACE_JOIN_FAILED: "race joins with a code that names no race",
    Kind.LINK: "device links",
    Kind.LINK_FAILED: "device links with a wrong code",
}
#: the same, as the key a client says it with (protocol/errors.py)
KEYS = {
    Kind.REGISTER: "error.limit_register",
    Kind.RACE_JOIN: "error.limit_race_join",
    Kind.RACE_JOIN_FAILED: "error.limit_race_join_failed",
    Kind.LINK: "error.limit_link",
    Kind.LINK_FAILED: "error.limit_link_failed",
}


class AddressLimits:
    """``most[kind]`` of each kind per client address per ``window`` seconds (a kind
    missing or 0: no limit)."""

    def __init__(
        self, store: Store, clock: Clock, *, window: float, most: Mapping[Kind, int]
    ) -> None:
        self.store = store
        self.clock = clock
        self.window_ms = max(1, int(window * 1000))
        self.most = {kind: n for kind, n in most.items() if n > 0}

    @classmethod
    def of(cls, store: Store, clock: Clock, settings: Settings) -> AddressLimits:
        """The limits per client address the settings give (none when turned off)."""
        most = {
            Kind.REGISTER: settings.address_registrations,
            Kind.RACE_JOIN: settings.address_race_joins,
            Kind.RACE_JOIN_FAILED: settings.address_failed_joins,
            Kind.LINK: settings.address_links,
            Kind.LINK_FAILED: settings.address_failed_links,
        }
        if not settings.address_limits:
            most = {}
        return cls(store, clock, window=settings.address_window, most=most)

    def _window(self) -> tuple[int, int]:
        """The current window's number and the milliseconds left of it."""
        now = self.clock.now_ms()
        return now // self.window_ms, self.window_ms - now % self.window_ms

    def _refuse(self, kind: Kind, left_ms: int) -> ProtocolError:
        retry = round(left_ms / 1000, 3)
        most, window = self.most[kind], self.window_ms / 1000
        return ProtocolError(
            ErrorCode.RATE_LIMITED,
            f"too many {WHAT[kind]} from your address ({most} in {window:g} s): "
            f"retry after {retry:g} s",
            key=KEYS[kind],
            params={"seconds": max(1, round(retry))},
            retry_after=retry,
        )

    async def spend(self, kind: Kind, address: str) -> None:
        """Count one ``kind`` for ``address``; ``rate_limited`` once past the limit
        (the refused ones count too: hammering does not help)."""
        if kind not in self.most:
            return
        window, left = self._window()
        if await self.store.count_address(address, kind, window, left) > self.most[kind]:
            raise self._refuse(kind, left)

    async def count(self, kind: Kind, address: str) -> None:
        """Count one ``kind`` for ``address`` that has happened (a failed join): the
        next :meth:`check` refuses once the limit is reached."""
        if kind in self.most:
            window, left = self._window()
            await self.store.count_address(address, kind, window, left)

    async def check(self, kind: Kind, address: str) -> None:
        """``rate_limited`` if ``address`` has spent all its ``kind`` already, without
        spending one (what is counted only when it happens: a failed join)."""
        if kind not in self.most:
            return
        window, left = self._window()
        if await self.store.address_count(address, kind, window) >= self.most[kind]:
            raise self._refuse(kind, left)

    async def refund(self, kind: Kind, address: str) -> None:
        """Give back one ``kind`` :meth:`spend` counted for ``address`` in this window
        (what is counted as failed before it runs, then succeeds: ``link``)."""
        if kind in self.most:
            window, _ = self._window()
            await self.store.uncount_address(address, kind, window)
