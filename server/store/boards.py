"""Leaderboards: a zset per game and period whose members sort by the result (all
scores 0), and the hash of each player's member on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import scripts
from .connection import Connection, Lua, _text


class BoardStore(Connection):
    _board_put = Lua(scripts.BOARD_PUT)

    async def board_put(self, slug: str, period: str, player: str, member: str, mode: str) -> bool:
        keys = [self.keys.board(slug, period), self.keys.board_players(slug, period)]
        async with self._call("board_put"):
            return bool(await self._board_put(keys=keys, args=[player, member, mode]))

    async def board_page(self, slug: str, period: str, start: int, stop: int) -> list[str]:
        async with self._call("board"):
            raw = await self.redis.zrange(self.keys.board(slug, period), start, stop)
        return [_text(m) or "" for m in raw]  # type: ignore[arg-type]

    async def board_members(self, slug: str, period: str, players: list[str]) -> list[str]:
        """The members of those of ``players`` who have an entry on the board."""
        if not players:
            return []
        async with self._call("board"):
            raw = await self.redis.hmget(self.keys.board_players(slug, period), players)
        return [_text(m) or "" for m in raw if m is not None]

    async def board_counts_below(
        self, slug: str, period: str, prefixes: Sequence[str]
    ) -> list[int]:
        """How many members of the board sort before each of ``prefixes`` (all its
        scores are 0, so Redis orders them lexically), in one round trip."""
        if not prefixes:
            return []
        key = self.keys.board(slug, period)
        async with self._call("board"):
            pipe = self.redis.pipeline(transaction=False)
            for prefix in prefixes:
                pipe.zlexcount(key, "-", f"({prefix}")
            counts = await pipe.execute()
        return [int(c) for c in counts]

    async def board_size(self, slug: str, period: str) -> int:
        async with self._call("board"):
            size: Any = await self.redis.zcard(self.keys.board(slug, period))
            return int(size)

    async def board_entry(self, slug: str, period: str, player: str) -> tuple[int, str] | None:
        """``(0-based rank, member)`` of the player's entry, or None."""
        async with self._call("board"):
            member = await self.redis.hget(self.keys.board_players(slug, period), player)
            if member is None:
                return None
            rank: Any = await self.redis.zrank(self.keys.board(slug, period), member)
        if rank is None:
            return None
        return int(rank), _text(member) or ""
