"""Challenges: a challenge's hash, its players' games and results, and each player's
challenges (open ones counted, results seen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import scripts
from .connection import Connection, Fields, Lua, Value, _fields, _text


class ChallengeStore(Connection):
    _challenge_open = Lua(scripts.CHALLENGE_OPEN)

    async def create_challenge(self, code: str, fields: Mapping[str, Value], ttl_ms: int) -> bool:
        """Store a new challenge under ``code``; False (nothing written) if taken."""
        key = self.keys.challenge(code)
        async with self._call("challenge"):
            if not await self.redis.hsetnx(key, "code", code):
                return False
            await self.redis.hset(key, mapping=dict[Any, Any](fields))
            await self.redis.pexpire(key, ttl_ms)
            return True

    async def drop_challenge(self, code: str) -> None:
        async with self._call("challenge"):
            await self.redis.delete(self.keys.challenge(code))

    async def challenge(self, code: str) -> tuple[Fields, dict[str, str], dict[str, bytes]]:
        """``(challenge hash, player → game id, player → packed result)``."""
        return (await self.challenges([code]))[0]

    async def count_open_challenge(
        self, player: str, code: str, now_ms: int, expires_ms: int, most: int
    ) -> int:
        """Count ``code`` among ``player``'s open challenges: 0 when counted, else when
        the oldest of their ``most`` open ones expires (ms): none was counted."""
        key = self.keys.player_open_challenges(player)
        async with self._call("challenge"):
            done, first = await self._challenge_open(
                keys=[key], args=[now_ms, expires_ms, code, most]
            )
        return 0 if int(done) else int(first)

    async def close_challenge(self, code: str, player: str, now_ms: int) -> bool:
        """Close the challenge (once: ``closed`` is its first closing's time) and take
        it off its creator ``player``'s open ones; False if it was closed already."""
        async with self._call("challenge"):
            if not await self.redis.hsetnx(self.keys.challenge(code), "closed", now_ms):
                return False
            await self.redis.zrem(self.keys.player_open_challenges(player), code)
            return True

    async def claim_challenge_game(self, code: str, player: str, gid: str, ttl_ms: int) -> str:
        """``player``'s game on the challenge: ``gid`` if they had none (one each)."""
        key = self.keys.challenge_games(code)
        async with self._call("challenge"):
            if await self.redis.hsetnx(key, player, gid):
                await self.redis.pexpire(key, ttl_ms)
                return gid
            return _text(await self.redis.hget(key, player)) or gid

    async def challenge_result(self, code: str, player: str, result: bytes, ttl_ms: int) -> bool:
        """Note ``player``'s result on the challenge; False if noted already (once)."""
        key = self.keys.challenge_results(code)
        async with self._call("challenge"):
            if not await self.redis.hsetnx(key, player, result):
                return False
            await self.redis.pexpire(key, ttl_ms)
            return True

    async def player_challenge(self, player: str, code: str, when_ms: int, keep: int) -> None:
        """List ``code`` among ``player``'s challenges (the newest ``keep`` are kept)."""
        key = self.keys.player_challenges(player)
        async with self._call("challenge"):
            await self.redis.zadd(key, {code: when_ms}, nx=True)
            await self.redis.zremrangebyrank(key, 0, -(keep + 1))

    async def player_challenge_codes(self, player: str, limit: int) -> list[str]:
        """The codes of ``player``'s challenges, newest first."""
        async with self._call("challenge"):
            raw = await self.redis.zrevrange(self.keys.player_challenges(player), 0, limit - 1)
        return [_text(c) or "" for c in raw]  # type: ignore[arg-type]

    async def challenges(
        self, codes: Sequence[str]
    ) -> list[tuple[Fields, dict[str, str], dict[str, bytes]]]:
        """:meth:`challenge` of each code, in one round trip."""
        async with self._call("challenge"):
            pipe = self.redis.pipeline(transaction=False)
            for code in codes:
                pipe.hgetall(self.keys.challenge(code))
                pipe.hgetall(self.keys.challenge_games(code))
                pipe.hgetall(self.keys.challenge_results(code))
            replies = await pipe.execute()
        return [
            (
                _fields(info),
                {k: _text(v) or "" for k, v in _fields(games).items()},
                {k: bytes(v) for k, v in _fields(results).items()},
            )
            for info, games, results in zip(*[iter(replies)] * 3, strict=True)
        ]

    async def challenges_seen(self, player: str) -> dict[str, int]:
        """code → how many others' results ``player`` has seen on it."""
        async with self._call("challenge"):
            raw = await self.redis.hgetall(self.keys.player_challenges_seen(player))
        return {k: int(v) for k, v in _fields(raw).items()}

    async def see_challenge(self, player: str, code: str, results: int) -> None:
        async with self._call("challenge"):
            await self.redis.hset(self.keys.player_challenges_seen(player), code, results)
