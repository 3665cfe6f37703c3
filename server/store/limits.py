"""Limits per client address: counts in windows that end by themselves
(``server.services.limits`` decides what they allow)."""

from __future__ import annotations

from . import scripts
from .connection import Connection, Lua


class LimitStore(Connection):
    _count_in_window = Lua(scripts.COUNT_IN_WINDOW)

    async def count_address(self, address: str, kind: str, window: int, left_ms: int) -> int:
        """One more ``kind`` by ``address`` in window ``window``, which ends in
        ``left_ms``; the count so far."""
        key = self.keys.address_count(address, kind, window)
        async with self._call("address"):
            return int(await self._count_in_window(keys=[key], args=[left_ms]))

    async def address_count(self, address: str, kind: str, window: int) -> int:
        async with self._call("address"):
            value = await self.redis.get(self.keys.address_count(address, kind, window))
        return int(value or 0)

    async def uncount_address(self, address: str, kind: str, window: int) -> None:
        """One ``kind`` counted by ``address`` in window ``window`` given back (a
        ``link`` counted as failed before it ran, that succeeded)."""
        async with self._call("address"):
            await self.redis.decr(self.keys.address_count(address, kind, window))
