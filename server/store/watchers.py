"""Spectators of races: who watches a race now (as servers last saw them) and who
ever did (and so may not join it)."""

from __future__ import annotations

from collections.abc import Sequence

from . import scripts
from .connection import Connection, Lua, _fields


class WatcherStore(Connection):
    _race_watch = Lua(scripts.RACE_WATCH)

    async def race_watch(self, rid: str, player: str, now_ms: int, fresh_ms: int, most: int) -> int:
        """Let ``player`` watch the race (one atomic step): the watchers now, or -1 no
        such race, -2 ``player`` is a member, -3 ``most`` others watch it already."""
        keys = [
            self.keys.race(rid),
            self.keys.race_players(rid),
            self.keys.race_watchers(rid),
            self.keys.race_spectators(rid),
        ]
        async with self._call("race"):
            return int(await self._race_watch(keys=keys, args=[player, now_ms, fresh_ms, most]))

    async def race_watchers(self, rid: str) -> dict[str, int]:
        """spectator → when a server last saw them watching (ms)."""
        async with self._call("race"):
            raw = await self.redis.hgetall(self.keys.race_watchers(rid))
        return {k: int(v) for k, v in _fields(raw).items()}

    async def race_still_watched(self, rid: str, players: Sequence[str], now_ms: int) -> None:
        """Note that ``players`` still watch the race (connected to this server)."""
        async with self._call("race"):
            key = self.keys.race_watchers(rid)
            await self.redis.hset(key, mapping={p: now_ms for p in players})
            await self.redis.expire(key, 86_400)  # not past the race's day

    async def race_unwatch(self, rid: str, players: Sequence[str]) -> int:
        """``players`` no longer watch the race; how many were watching."""
        async with self._call("race"):
            return int(await self.redis.hdel(self.keys.race_watchers(rid), *players))

    async def race_spectator(self, rid: str, player: str) -> bool:
        """Whether ``player`` ever watched the race (and so may not join it)."""
        async with self._call("race"):
            return bool(await self.redis.sismember(self.keys.race_spectators(rid), player))
