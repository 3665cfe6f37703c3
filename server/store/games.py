"""Games: a game's hash and its log, the compare-and-set of a move, a player's list of
games, and the zsets of the newest (in play, races created) that a game's start keeps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import scripts
from .connection import Connection, Fields, Lua, Value, _fields, _text
from .packing import PACKED, SUMMARY_KEEP, pack_game, unpack_game


class GameStore(Connection):
    _move = Lua(scripts.MOVE)
    _create = Lua(scripts.CREATE)
    _keep_newest = Lua(scripts.KEEP_NEWEST)
    _drop_unplayed = Lua(scripts.DROP_UNPLAYED)
    _compact = Lua(scripts.COMPACT)
    _summarise = Lua(scripts.SUMMARISE)

    async def create_game(self, gid: str, fields: Mapping[str, Value], player: str) -> bool:
        """Store a new game (False, and nothing written, if ``gid`` exists)."""
        args: list[Value] = [x for item in fields.items() for x in item]
        keys = [self.keys.game(gid)]
        zadd = ("ZADD", self.keys.player_games(player), int(fields["created"]), gid)
        if not await self._writes.run("create_game", self._create, keys, args):
            return False
        await self._writes.command("create_game", *zadd)
        return True

    async def game(self, gid: str) -> Fields | None:
        """A game's fields; a packed game's ``state`` put back from its packed string
        (:mod:`.packing`), so that a reader sees the same fields either way (a game
        summarised has none: ``summary`` says so)."""
        async with self._call("game"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.hgetall(self.keys.game(gid))
            pipe.get(self.keys.game_packed(gid))
            raw, blob = await pipe.execute()
        if not raw:
            return None
        fields = _fields(raw)
        if fields.get(PACKED) == b"1" and blob is not None:
            fields["state"] = unpack_game(bytes(blob))[0]
        return fields

    async def games(self, gids: list[str], fields: list[str]) -> list[list[bytes | None]]:
        async with self._call("games"):
            pipe = self.redis.pipeline(transaction=False)
            for gid in gids:
                pipe.hmget(self.keys.game(gid), fields)
            return list(await pipe.execute())

    async def cas_game(
        self,
        gid: str,
        *,
        seq: int,
        state: bytes,
        entry: bytes,
        status: str,
        moves: int,
        foundation: int,
        now_ms: int,
        finished: bool,
        clean: bool,
        active_ms: int = 0,
    ) -> tuple[int, int]:
        """One atomic compare-and-set on ``seq`` (``scripts.MOVE``, one round trip on
        the store's transport for writes): ``(1, new seq)`` when written, ``(0, current
        seq)`` when another writer was first, ``(-1, 0)`` if missing."""
        args: list[Value] = [
            seq,
            state,
            entry,
            status,
            moves,
            foundation,
            now_ms,
            int(finished),
            int(clean),
            active_ms,
        ]
        keys = [self.keys.game(gid), self.keys.game_log(gid)]
        done, current = await self._writes.run("move", self._move, keys, args)
        return int(done), int(current)

    async def game_log(self, gid: str) -> list[bytes]:
        """A game's log entries, in order: its list, or a packed game's packed log."""
        async with self._call("log"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.lrange(self.keys.game_log(gid), 0, -1)
            pipe.get(self.keys.game_packed(gid))
            raw, blob = await pipe.execute()
        if not raw and blob is not None:
            return unpack_game(bytes(blob))[1]
        return [bytes(x) for x in raw]

    async def compact_game(self, gid: str, seq: int, state: bytes, log: list[bytes]) -> int:
        """Pack a finished game whose ``seq``, ``state`` and ``log`` were read
        (``scripts.COMPACT``: 1 packed now, 0 before, -1 missing, -2 in play or
        changed since: nothing done)."""
        keys = [self.keys.game(gid), self.keys.game_log(gid), self.keys.game_packed(gid)]
        args: list[Value] = [seq, pack_game(state, log), len(log)]
        return int(await self._scripts.run("compact", self._compact, keys, args))

    async def summarise_game(self, gid: str) -> int:
        """Summarise a finished practice game to its result (``scripts.SUMMARISE``: 1
        now, 0 before, -1 missing, -2 not a finished practice game: kept whole)."""
        keys = [self.keys.game(gid), self.keys.game_log(gid), self.keys.game_packed(gid)]
        args: list[Value] = list(SUMMARY_KEEP)
        return int(await self._scripts.run("summarise", self._summarise, keys, args))

    async def note_practice_done(self, gid: str, finished_ms: int) -> None:
        """Put a finished practice game on the retention sweep's list."""
        async with self._call("practice_done"):
            await self.redis.zadd(self.keys.practice_done(), {gid: finished_ms})

    async def practice_due(self, before_ms: int, limit: int) -> list[str]:
        """Up to ``limit`` finished practice games on the sweep's list that ended before
        ``before_ms``, oldest first."""
        async with self._call("practice_due"):
            raw = await self.redis.zrangebyscore(
                self.keys.practice_done(), "-inf", f"({before_ms}", start=0, num=limit
            )
        return [_text(g) or "" for g in raw]  # type: ignore[arg-type]

    async def practice_forget(self, gids: list[str]) -> None:
        async with self._call("practice_done"):
            await self.redis.zrem(self.keys.practice_done(), *gids)

    async def set_game_fields(self, gid: str, fields: Mapping[str, Value]) -> None:
        async with self._call("game_fields"):
            await self.redis.hset(self.keys.game(gid), mapping=dict[Any, Any](fields))

    async def player_game_ids(self, player: str, offset: int, limit: int) -> list[str]:
        """The player's game ids, newest first."""
        async with self._call("my_games"):
            raw = await self.redis.zrevrange(
                self.keys.player_games(player), offset, offset + limit - 1
            )
        return [_text(g) or "" for g in raw]  # type: ignore[arg-type]

    async def keep_newest(self, key: str, member: str, score: int, most: int) -> list[str]:
        """Add ``member`` to the zset ``key`` as its newest (``score``, a time in ms, or
        just after the newest's); the members past its newest ``most`` (oldest first),
        still in it: the caller deals with them, then :meth:`forget`."""
        args: list[Value] = [member, score, most]
        old: list[bytes] = await self._scripts.run("keep_newest", self._keep_newest, [key], args)
        return [_text(x) or "" for x in old]

    async def forget(self, key: str, members: list[str]) -> None:
        async with self._call("forget"):
            await self.redis.zrem(key, *members)

    async def drop_unplayed_game(self, player: str, gid: str) -> bool:
        """Delete ``player``'s game ``gid`` if it is in play with no move yet, and take
        it off their list of games; False (nothing done) otherwise."""
        async with self._call("drop_game"):
            keys = [self.keys.game(gid), self.keys.game_log(gid)]
            if not await self._drop_unplayed(keys=keys):
                return False
            await self.redis.zrem(self.keys.player_games(player), gid)
            return True
