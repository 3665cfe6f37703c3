"""Follows: the players a player follows (friends, one-way), who follows a player
(the other side, for news of a followed player's daily), and the players a player
blocks."""

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
            back = self.keys.player_followers(friend)
            await (self.redis.sadd(back, player) if add else self.redis.srem(back, player))
        return bool(changed)

    async def follows(self, player: str) -> list[str]:
        """The names ``player`` follows, sorted."""
        async with self._call("friends"):
            raw = await self.redis.smembers(self.keys.player_follows(player))
        return sorted((_text(m) or "" for m in raw), key=str.casefold)

    async def followers(self, player: str) -> list[str]:
        """The names following ``player`` (since followers were noted), sorted."""
        async with self._call("friends"):
            raw = await self.redis.smembers(self.keys.player_followers(player))
        return sorted((_text(m) or "" for m in raw), key=str.casefold)

    async def follow_count(self, player: str) -> int:
        async with self._call("friends"):
            count: Any = await self.redis.scard(self.keys.player_follows(player))
        return int(count)

    async def block(self, player: str, other: str, *, add: bool) -> bool:
        """Block (or with ``add=False`` unblock) ``other``; False when nothing changed."""
        key = self.keys.player_blocks(player)
        async with self._call("friends"):
            changed = await (self.redis.sadd(key, other) if add else self.redis.srem(key, other))
        return bool(changed)

    async def blocks(self, player: str) -> list[str]:
        """The names ``player`` blocks, sorted."""
        async with self._call("friends"):
            raw = await self.redis.smembers(self.keys.player_blocks(player))
        return sorted((_text(m) or "" for m in raw), key=str.casefold)

    async def blocked_by(self, player: str, other: str) -> bool:
        """Whether ``player`` blocks ``other``."""
        async with self._call("friends"):
            found: Any = await self.redis.sismember(self.keys.player_blocks(player), other)
        return bool(found)
