"""Races: a race's hash, members, games and places, its join code, the leases of its
dealer and of its presence check, and when its members were last seen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import scripts
from .connection import Connection, Fields, Lua, Value, _fields, _text


class RaceStore(Connection):
    _drop_lobby = Lua(scripts.DROP_LOBBY)
    _race_join = Lua(scripts.RACE_JOIN)
    _race_status = Lua(scripts.RACE_STATUS)
    _race_saw = Lua(scripts.RACE_SAW)
    _race_place = Lua(scripts.RACE_PLACE)

    async def create_race(self, rid: str, code: str, fields: Mapping[str, Value]) -> bool:
        """Store a new race under a fresh join code; False if the code is taken."""
        async with self._call("race"):
            if not await self.redis.set(self.keys.race_code(code), rid, nx=True, ex=86_400):
                return False
            await self.redis.hset(self.keys.race(rid), mapping=dict[Any, Any](fields))
            await self.redis.expire(self.keys.race(rid), 86_400)
            return True

    async def drop_lobby_race(self, rid: str) -> bool:
        """Delete race ``rid`` if it is in its lobby with nobody but its creator in it
        (and its join code); False (nothing done) otherwise."""
        async with self._call("race"):
            keys = [self.keys.race(rid), self.keys.race_players(rid), self.keys.race_seen(rid)]
            code = _text(await self._drop_lobby(keys=keys))
            if not code:
                return False
            await self.redis.delete(self.keys.race_code(code))
            return True

    async def race_by_code(self, code: str) -> str | None:
        async with self._call("race"):
            return _text(await self.redis.get(self.keys.race_code(code)))

    async def race(self, rid: str) -> tuple[Fields, list[str], dict[str, str], dict[str, int]]:
        """``(race hash, members, member → game id, member → place)``."""
        async with self._call("race"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.hgetall(self.keys.race(rid))
            pipe.smembers(self.keys.race_players(rid))
            pipe.hgetall(self.keys.race_games(rid))
            pipe.hgetall(self.keys.race_places(rid))
            info, members, games, places = await pipe.execute()
        return (
            _fields(info),
            sorted(_text(m) or "" for m in members),
            {k: _text(v) or "" for k, v in _fields(games).items()},
            {k: int(v) for k, v in _fields(places).items()},
        )

    async def race_member(self, rid: str, player: str, *, add: bool) -> bool:
        key = self.keys.race_players(rid)
        async with self._call("race"):
            if add:
                changed = await self.redis.sadd(key, player)
                await self.redis.expire(key, 86_400)
            else:
                changed = await self.redis.srem(key, player)
        return bool(changed)

    async def race_join(self, rid: str, player: str, most: int) -> int:
        """Add ``player`` to a race in its lobby holding fewer than ``most`` members:
        1 joined, 0 already a member, -1 not in the lobby, -2 full (one atomic step)."""
        keys = [self.keys.race(rid), self.keys.race_players(rid)]
        async with self._call("race"):
            return int(await self._race_join(keys=keys, args=[player, most]))

    async def race_claim_field(self, rid: str, field: str, value: str) -> str:
        """Set a field of the race's hash unless it is set: the value it holds after
        (``value`` if this call was first)."""
        key = self.keys.race(rid)
        async with self._call("race"):
            if await self.redis.hsetnx(key, field, value):
                return value
            return _text(await self.redis.hget(key, field)) or ""

    async def race_set_field(self, rid: str, field: str, value: Value | None) -> None:
        """Set a field of the race's hash (None: delete it)."""
        key = self.keys.race(rid)
        async with self._call("race"):
            if value is None:
                await self.redis.hdel(key, field)
            else:
                await self.redis.hset(key, field, value)

    async def race_status(self, rid: str, old: str, new: str, fields: Mapping[str, Value]) -> bool:
        args: list[Value] = [old, new, *(x for item in fields.items() for x in item)]
        async with self._call("race"):
            return bool(await self._race_status(keys=[self.keys.race(rid)], args=args))

    async def race_set_games(self, rid: str, games: Mapping[str, str]) -> None:
        async with self._call("race"):
            await self.redis.hset(self.keys.race_games(rid), mapping=dict[Any, Any](games))
            await self.redis.expire(self.keys.race_games(rid), 86_400)

    async def claim_race_dealer(self, rid: str, lease_ms: int) -> bool:
        """True if this call may deal the race: nobody holds its dealer lease."""
        async with self._call("race"):
            return bool(await self.redis.set(self.keys.race_dealer(rid), 1, nx=True, px=lease_ms))

    async def race_saw(self, rid: str, members: Sequence[str], now_ms: int) -> None:
        """Note that ``members`` of the race are connected (to this instance) now
        (nothing once the race is gone: its ``seen`` would outlive it)."""
        keys = [self.keys.race(rid), self.keys.race_seen(rid)]
        args: list[Value] = [x for m in members for x in (m, now_ms)]
        async with self._call("race"):
            await self._race_saw(keys=keys, args=args)

    async def race_seen(self, rid: str) -> dict[str, int]:
        """member → when they were last seen connected (ms since the epoch)."""
        async with self._call("race"):
            raw = await self.redis.hgetall(self.keys.race_seen(rid))
        return {k: int(v) for k, v in _fields(raw).items()}

    async def claim_race_watch(self, rid: str, lease_ms: int) -> bool:
        """True if this call may check the race's presence now (one instance a beat)."""
        async with self._call("race"):
            return bool(await self.redis.set(self.keys.race_watch(rid), 1, nx=True, px=lease_ms))

    async def race_place(self, rid: str, player: str) -> int:
        keys = [self.keys.race(rid), self.keys.race_places(rid)]
        async with self._call("race"):
            return int(await self._race_place(keys=keys, args=[player]))
