"""Ratings (issue 51): each game's hash of players' ratings, its board of those past
provisional, and each rated race's outcome, all under the game's hash tag so that a
race moves its members' ratings in one script, once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import scripts
from .connection import Connection, Lua, _text


class RatingStore(Connection):
    _rate = Lua(scripts.RATE)

    async def ratings(self, slug: str, players: Sequence[str]) -> list[str]:
        """Each player's stored rating at ``slug`` (``""``: none yet)."""
        if not players:
            return []
        fields = [p.casefold() for p in players]
        async with self._call("rating"):
            raw = await self.redis.hmget(self.keys.ratings(slug), fields)
        return [_text(v) or "" for v in raw]

    async def rating_outcome(self, slug: str, rid: str) -> str | None:
        """A rated race's outcome (JSON), or None if it is not rated (or expired)."""
        async with self._call("rating"):
            return _text(await self.redis.get(self.keys.rating_race(slug, rid)))

    async def rate_race(
        self,
        slug: str,
        rid: str,
        outcome: str,
        moves: Sequence[tuple[str, str, str, str, str]],
        ttl_ms: int,
    ) -> tuple[int, str]:
        """Write ``moves`` (field, value read, new value, board score, name) and the
        race's ``outcome`` in one step unless the race is rated already or a value
        moved since it was read: ``(1, outcome)``, ``(0, the earlier outcome)``,
        ``(-1, "")`` (read again)."""
        keys = [
            self.keys.ratings(slug),
            self.keys.rating_board(slug),
            self.keys.rating_race(slug, rid),
        ]
        args: list[Any] = [ttl_ms, outcome, *(x for move in moves for x in move)]
        async with self._call("rating"):
            code, text = await self._rate(keys=keys, args=args)
        return int(code), _text(text) or ""

    async def rating_page(self, slug: str, start: int, stop: int) -> list[tuple[str, float]]:
        """Names and displayed ratings of the board, highest first."""
        async with self._call("rating"):
            raw: Any = await self.redis.zrevrange(
                self.keys.rating_board(slug), start, stop, withscores=True
            )
        return [(_text(m) or "", float(s)) for m, s in raw]

    async def rating_size(self, slug: str) -> int:
        async with self._call("rating"):
            size: Any = await self.redis.zcard(self.keys.rating_board(slug))
        return int(size)

    async def rating_rank(self, slug: str, player: str) -> int | None:
        """The 0-based place of ``player`` on the board (highest first), or None."""
        async with self._call("rating"):
            rank: Any = await self.redis.zrevrank(self.keys.rating_board(slug), player)
        return None if rank is None else int(rank)

    async def players_ratings(
        self, players: Sequence[str], slugs: Sequence[str]
    ) -> list[dict[str, str]]:
        """Each player's stored ratings: slug → value, for the games they have one.
        One HMGET a game whatever the number of players (a ``friends`` look reads its
        friends' ratings: an HGET a friend and game was 16 commands a friend)."""
        if not players or not slugs:
            return [{} for _ in players]
        fields = [p.casefold() for p in players]
        async with self._call("rating"):
            pipe = self.redis.pipeline(transaction=False)
            for slug in slugs:
                pipe.hmget(self.keys.ratings(slug), fields)
            raw: list[Any] = await pipe.execute()
        out: list[dict[str, str]] = [{} for _ in players]
        for slug, values in zip(slugs, raw, strict=True):
            for row, v in zip(out, values, strict=True):
                if v:
                    row[slug] = _text(v) or ""
        return out

    async def rating_places(self, player: str, slugs: Sequence[str]) -> dict[str, float]:
        """The games whose rating board shows ``player``, with their displayed rating."""
        async with self._call("rating"):
            pipe = self.redis.pipeline(transaction=False)
            for slug in slugs:
                pipe.zscore(self.keys.rating_board(slug), player)
            raw = await pipe.execute()
        return {slug: float(score) for slug, score in zip(slugs, raw, strict=True) if score}

    async def rating_board_put(self, player: str, scores: dict[str, float]) -> None:
        """Put ``player`` on these games' rating boards at these ratings (an unban)."""
        for slug, score in scores.items():
            async with self._call("rating"):
                await self.redis.zadd(self.keys.rating_board(slug), {player: score})

    async def rating_board_take_off(self, player: str, slugs: Sequence[str]) -> None:
        """Take ``player`` off these games' rating boards (a ban: their rating stays)."""
        for slug in slugs:
            async with self._call("rating"):
                await self.redis.zrem(self.keys.rating_board(slug), player)

    async def rename_ratings(self, old: str, new: str, slugs: Sequence[str]) -> None:
        """A renamed player's ratings, and their places on the rating boards, follow the
        new name (each game's hash and board share one hash tag: one transaction)."""
        for slug in slugs:
            ratings, board = self.keys.ratings(slug), self.keys.rating_board(slug)
            async with self._call("rating"):
                value = await self.redis.hget(ratings, old.casefold())
                if value is None:
                    continue
                score = await self.redis.zscore(board, old)
                pipe = self.redis.pipeline(transaction=True)
                pipe.hdel(ratings, old.casefold())
                pipe.hset(ratings, new.casefold(), value)
                if score is not None:
                    pipe.zrem(board, old)
                    pipe.zadd(board, {new: score})
                await pipe.execute()
