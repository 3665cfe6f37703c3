"""Follows: the players a player follows (friends, one-way)."""

from __future__ import annotations

from typing import Any

from .connection import Connection, _text


class FollowStore(Connection):
    async def follow(self, player: str, friend: str, *, add: bool) -> bool:
        """Follow (or with ``add=False`` stop following) ``friend``; False when
        nothing changed."""
        key = self.keys.player_follows(player)
        async with self._call("friends"):
            changed = await (self.redis.sadd(key, friend) if add else self.redis.srem(key, friend))
        return bool(changed)

    async def follows(self, player: str) -> list[str]:
        """The names ``player`` follows, sorted."""
        async with self._call("friends"):
            raw = await self.redis.smembers(self.keys.player_follows(player))
        return sorted((_text(m) or "" for m in raw), key=str.casefold)

    async def follow_count(self, player: str) -> int:
        async with self._call("friends"):
            count: Any = await self.redis.scard(self.keys.player_follows(player))
        return int(count)
