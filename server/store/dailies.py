"""The dailies: the deployment's secret they derive from and its first day, each day's
choice with its lease and progress, and the players' one ranked attempt at each; and
the deployment's id (the other value made once per deployment)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from .connection import Connection, Fields, Value, _fields, _text


class DailyStore(Connection):
    async def deployment(self) -> str:
        """The deployment's id, generated once (first caller wins) and kept in Redis."""
        key = self.keys.deployment()
        async with self._call("deployment"):
            await self.redis.set(key, "d" + secrets.token_hex(8), nx=True)
            value = await self.redis.get(key)
        return _text(value) or ""

    async def secret(self) -> bytes:
        """The server secret, generated once (first caller wins) and kept in Redis."""
        key = self.keys.secret()
        async with self._call("secret"):
            await self.redis.set(key, secrets.token_bytes(32), nx=True)
            value = await self.redis.get(key)
        assert isinstance(value, bytes)
        return value

    async def first_day(self, today: str) -> str:
        """The deployment's first day with dailies, set once (first caller wins): today
        for a new deployment; for one that chose dailies before this key existed, its
        earliest daily's date (one SCAN, once per deployment)."""
        key = self.keys.first_day()
        async with self._call("daily"):
            known = _text(await self.redis.get(key))
        if known:
            return known
        first = today
        async with self._call("daily"):
            used = await self.redis.exists(self.keys.secret())
        if used:  # a deployment that chose dailies before this key existed
            pattern = self.keys.daily("*")
            async with self._call("scan"):
                async for k in self.redis.scan_iter(match=pattern, count=500):
                    date = (_text(k) or "").rpartition("{")[2].rstrip("}")
                    if len(date) == 10 and date < first:
                        first = date
        async with self._call("daily"):
            await self.redis.set(key, first, nx=True)
            return _text(await self.redis.get(key)) or first

    async def daily(self, date: str) -> Fields:
        async with self._call("daily"):
            return _fields(await self.redis.hgetall(self.keys.daily(date)))

    async def lease_daily(self, date: str, slug: str, owner: str, ms: int) -> bool:
        """Take the lease on choosing a daily for ``ms`` milliseconds; False while
        another instance holds it (so two instances never compute the same daily).
        ``owner`` takes back a lease it holds already (its last choice failed: a solver
        process ended), renewed."""
        key = self.keys.daily_lease(date, slug)
        async with self._call("daily"):
            if await self.redis.set(key, owner, nx=True, px=ms):
                return True
            # not atomic: two instances may then both choose it, and the first to
            # write wins (:meth:`put_daily`), as after a lease that ran out
            if await self.redis.get(key) != owner.encode():
                return False
            return bool(await self.redis.set(key, owner, xx=True, px=ms))

    async def daily_progress(
        self, date: str, slug: str, owner: str, progress: str, lease_ms: int
    ) -> None:
        """Note how far the choice of a daily got (``progress:{slug}``, for the other
        instances) and renew the chooser's lease on it (if it still holds one)."""
        async with self._call("daily"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.hset(self.keys.daily(date), f"progress:{slug}", progress)
            pipe.set(self.keys.daily_lease(date, slug), owner, xx=True, px=lease_ms)
            await pipe.execute()

    async def put_daily(self, date: str, fields: Mapping[str, Value]) -> None:
        """Set fields not set yet (so every instance agrees on the first choice)."""
        async with self._call("daily"):
            pipe = self.redis.pipeline(transaction=False)
            for k, v in fields.items():
                pipe.hsetnx(self.keys.daily(date), k, v)
            await pipe.execute()

    async def claim_daily(self, player: str, date: str, slug: str, gid: str) -> str:
        """The id of the player's ranked game of that daily: ``gid`` if this call
        claimed it, else the one claimed before."""
        key, field = self.keys.player_dailies(player), f"{date}:{slug}"
        async with self._call("claim_daily"):
            if await self.redis.hsetnx(key, field, gid):
                return gid
            return _text(await self.redis.hget(key, field)) or gid

    async def player_dailies(
        self, player: str, date: str, slugs: Sequence[str] | None = None
    ) -> dict[str, str]:
        """slug → the player's ranked game id on ``date``, of the games ``slugs`` (one
        HMGET of their fields; the hash holds every day the player ever played, so
        reading it whole grows with the years), or of every game (HGETALL)."""
        if slugs is not None:
            return (await self.players_dailies([player], date, slugs))[0]
        async with self._call("player_dailies"):
            raw = _fields(await self.redis.hgetall(self.keys.player_dailies(player)))
        prefix = f"{date}:"
        return {k[len(prefix) :]: _text(v) or "" for k, v in raw.items() if k.startswith(prefix)}

    async def player_daily_fields(self, player: str, fields: Sequence[str]) -> list[str | None]:
        """The player's ranked game ids of ``fields`` (``{date}:{slug}``), one HMGET."""
        if not fields:
            return []
        async with self._call("player_dailies"):
            raw = await self.redis.hmget(self.keys.player_dailies(player), list(fields))
        return [_text(v) for v in raw]

    async def players_dailies(
        self, players: Sequence[str], date: str, slugs: Sequence[str]
    ) -> list[dict[str, str]]:
        """:meth:`player_dailies` of each of ``players`` in one round trip."""
        fields = [f"{date}:{slug}" for slug in slugs]
        async with self._call("player_dailies"):
            pipe = self.redis.pipeline(transaction=False)
            for player in players:
                pipe.hmget(self.keys.player_dailies(player), fields)
            rows = await pipe.execute()
        return [
            {slug: _text(v) or "" for slug, v in zip(slugs, row, strict=True) if v is not None}
            for row in rows
        ]
