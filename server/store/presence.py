"""Presence: which players are connected, to any instance, doing what; and whether a
player hides it (a field of the player's hash)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .connection import Connection, _text


class PresenceStore(Connection):
    async def put_presence(self, players: dict[str, str], instance: str, ttl_ms: int) -> None:
        """Note each player of ``players`` (name → ``expires_ms|activity|race_id``)
        connected to ``instance``; each one's hash lives ``ttl_ms`` unless noted again."""
        if not players:
            return
        async with self._call("presence"):
            pipe = self.redis.pipeline(transaction=False)
            for name, value in players.items():
                key = self.keys.player_presence(name)
                pipe.hset(key, instance, value)
                pipe.pexpire(key, ttl_ms)
            await pipe.execute()

    async def drop_presence(self, player: str, instance: str) -> None:
        """``player``'s last connection to ``instance`` closed."""
        async with self._call("presence"):
            await self.redis.hdel(self.keys.player_presence(player), instance)

    async def presences(self, players: Sequence[str]) -> list[tuple[list[str], bool]]:
        """Each player's noted values (one an instance) and whether they hide their
        presence, in one round trip."""
        if not players:
            return []
        async with self._call("presence"):
            pipe = self.redis.pipeline(transaction=False)
            for name in players:
                pipe.hvals(self.keys.player_presence(name))
                pipe.hget(self.keys.player(name), "hide_presence")
            raw: list[Any] = await pipe.execute()
        return [
            ([_text(v) or "" for v in raw[i]], raw[i + 1] == b"1") for i in range(0, len(raw), 2)
        ]

    async def veiled(self, viewer: str, players: Sequence[str]) -> list[bool]:
        """Whether each of ``players`` shows ``viewer`` nothing live: they hide their
        presence, or they block ``viewer`` (one round trip)."""
        if not players:
            return []
        async with self._call("presence"):
            pipe = self.redis.pipeline(transaction=False)
            for name in players:
                pipe.hget(self.keys.player(name), "hide_presence")
                pipe.sismember(self.keys.player_blocks(name), viewer)
            raw: list[Any] = await pipe.execute()
        return [raw[i] == b"1" or bool(raw[i + 1]) for i in range(0, len(raw), 2)]

    async def set_hidden(self, player: str, hidden: bool) -> None:
        async with self._call("presence"):
            await self.redis.hset(self.keys.player(player), "hide_presence", int(hidden))

    async def hidden(self, player: str) -> bool:
        async with self._call("presence"):
            return await self.redis.hget(self.keys.player(player), "hide_presence") == b"1"

    async def race_heads(self, rids: Sequence[str]) -> list[dict[str, str]]:
        """Each race's ``status`` and ``code`` (empty for one gone)."""
        async with self._call("presence"):
            pipe = self.redis.pipeline(transaction=False)
            for rid in rids:
                pipe.hmget(self.keys.race(rid), ["status", "code"])
            rows: list[Any] = await pipe.execute()
        return [
            {k: _text(v) or "" for k, v in zip(("status", "code"), row, strict=True)}
            for row in rows
        ]
