"""Players: accounts and their tokens, the look-alike names that keep one name from
passing for another, a player's hash (its daily streak) and statistics."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from . import scripts
from .connection import Connection, Fields, Lua, Value, _fields, _text


class PlayerStore(Connection):
    _delete_if = Lua(scripts.DELETE_IF)
    _streak = Lua(scripts.STREAK)
    _stats = Lua(scripts.STATS)

    async def create_player(
        self, name: str, digest: str, now_ms: int, look_alikes: Sequence[str]
    ) -> str:
        """Claim ``name`` (case-insensitively) and its ``look_alikes`` keys; ``""``
        when claimed, else the registered name in the way: the same name in another
        case (taken) or a name that looks alike.

        The look-alike keys go first (SET NX: of two look-alikes registering at once,
        one wins; a claim that loses gives back the keys it took). A key already
        holding this very name (a claim cut short before the player was written)
        counts as this claim's."""
        key = self.keys.player(name)
        async with self._call("create_player"):
            holder = await self._claim_look_alikes(name, look_alikes)
            if holder:
                return holder
            if not await self.redis.hsetnx(key, "token", digest):
                return _text(await self.redis.hget(key, "name")) or name
            pipe = self.redis.pipeline(transaction=False)
            pipe.hset(key, mapping={"name": name, "created": now_ms, "streak": 0})
            pipe.set(self.keys.token(digest), name)
            await pipe.execute()
            return ""

    async def _claim_look_alikes(self, name: str, look_alikes: Sequence[str]) -> str:
        """Set each look-alike key to ``name`` unless set; ``""``, or the other name
        holding one of them (and then the keys set here are deleted again)."""
        alike = [self.keys.look_alike(k) for k in look_alikes]
        pipe = self.redis.pipeline(transaction=False)
        for k in alike:
            pipe.set(k, name, nx=True)
        claimed = await pipe.execute()
        others = [k for k, done in zip(alike, claimed, strict=True) if not done]
        for k in others:
            holder = _text(await self.redis.get(k)) or name
            if holder.casefold() != name.casefold():
                for mine in (k for k, done in zip(alike, claimed, strict=True) if done):
                    await self._delete_if(keys=[mine], args=[name])
                return holder
        return ""

    async def player_names(self, batch: int = 500) -> AsyncIterator[list[str]]:
        """Every registered player's name, ``batch`` or so at a time (SCAN over the
        player hashes, every node of a cluster: slow on a big keyspace, for a
        one-off like ``Accounts.backfill``)."""
        pattern = self.keys.player("*")
        keys: list[Any] = []
        async with self._call("scan"):
            async for k in self.redis.scan_iter(match=pattern, count=batch):
                keys.append(k)
        for start in range(0, len(keys), batch):
            async with self._call("scan"):
                pipe = self.redis.pipeline(transaction=False)
                for k in keys[start : start + batch]:
                    pipe.hget(k, "name")
                names = await pipe.execute()
            yield [n for n in (_text(x) for x in names) if n]

    async def claim_look_alikes(self, pairs: Mapping[str, str]) -> int:
        """Give each look-alike key of ``pairs`` (key → name) its name unless it has
        one already (the first name met keeps it); how many were given."""
        async with self._call("look_alike"):
            pipe = self.redis.pipeline(transaction=False)
            for key, name in pairs.items():
                pipe.set(self.keys.look_alike(key), name, nx=True)
            return sum(bool(x) for x in await pipe.execute())

    async def look_alikes_backfilled(self) -> bool:
        async with self._call("look_alike"):
            return bool(await self.redis.exists(self.keys.look_alikes_backfilled()))

    async def mark_look_alikes_backfilled(self, now_ms: int) -> None:
        async with self._call("look_alike"):
            await self.redis.set(self.keys.look_alikes_backfilled(), now_ms)

    async def player_of_token(self, digest: str) -> str | None:
        """The player whose token hashes to ``digest``, checked in constant time."""
        async with self._call("auth"):
            name = _text(await self.redis.get(self.keys.token(digest)))
            if name is None:
                return None
            stored = _text(await self.redis.hget(self.keys.player(name), "token")) or ""
            if hmac.compare_digest(stored.encode(), digest.encode()):
                return name
            # a device linked by a code (``link``) has a token of its own
            if stored and await self.redis.sismember(self.keys.player_devices(name), digest):
                return name
        return None

    async def player(self, name: str) -> Fields:
        async with self._call("player"):
            return _fields(await self.redis.hgetall(self.keys.player(name)))

    async def count_streak(self, name: str, date: str, day_before: str) -> int:
        async with self._call("streak"):
            return int(await self._streak(keys=[self.keys.player(name)], args=[date, day_before]))

    async def count_game(self, player: str, args: list[Value]) -> bool:
        """Count a finished game in the player's statistics (``scripts.STATS``, whose
        ARGV ``args`` is); False when it was counted before."""
        keys = [self.keys.player_stats(player), self.keys.player_counted(player)]
        return bool(await self._scripts.run("stats", self._stats, keys, args))

    async def player_stats(self, player: str) -> Fields:
        async with self._call("stats"):
            return _fields(await self.redis.hgetall(self.keys.player_stats(player)))
