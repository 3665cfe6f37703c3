"""Tournaments (issue 51): a tournament's hash, its certified deals, its standings (a
sorted set), each entrant's hash, its join code, and the indexes the lobby reads.

Every key of one tournament carries its id as the hash tag, so the scripts that join
an entrant, deal the next deal and score a deal run on one node, atomically: the
standings are right however many instances write them, and whichever dies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .connection import Connection, Fields, Lua, Value, _fields, _text

#: points and cards founded in one sorted-set score: points × 2^20 + founded
SHIFT = 1 << 20

#: KEYS: board, entrant; ARGV: player, most entrants. 1: joined now, 0: already,
#: -1: full, -2: left before (no coming back)
JOIN = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  if redis.call('HGET', KEYS[2], 'left') == '1' then return -2 end
  return 0
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('HSET', KEYS[2], 'player', ARGV[1], 'deal', 0, 'current', '', 'streak', 0,
  'won', 0, 'played', 0, 'left', 0)
return 1
"""

#: KEYS: entrant; ARGV: game id prefix, deals in the sequence. The game in play (its
#: id and deal), else the next deal's, marked in play: {gid, deal}; {'', -1}: none left
NEXT = """
local current = redis.call('HGET', KEYS[1], 'current')
local deal = tonumber(redis.call('HGET', KEYS[1], 'deal') or '0')
if current and current ~= '' then return {current, deal} end
if deal >= tonumber(ARGV[2]) then return {'', -1} end
deal = deal + 1
local gid = ARGV[1] .. deal
redis.call('HSET', KEYS[1], 'deal', deal, 'current', gid)
return {gid, deal}
"""

#: KEYS: board, entrant; ARGV: player, game id, won (0/1), within par (0/1), cards
#: founded. Scores the deal once (its game must be the entrant's current one): a win
#: 2, within par 3, doubled from the third win in a row; a loss 0 and the streak
#: over. Returns the points, or -1 when the deal was scored already.
SCORE = """
if redis.call('HGET', KEYS[2], 'current') ~= ARGV[2] then return -1 end
local points = 0
local streak = tonumber(redis.call('HGET', KEYS[2], 'streak') or '0')
if ARGV[3] == '1' then
  points = 2
  if ARGV[4] == '1' then points = 3 end
  if streak >= 2 then points = points * 2 end
  streak = streak + 1
  redis.call('HINCRBY', KEYS[2], 'won', 1)
else
  streak = 0
end
redis.call('HSET', KEYS[2], 'current', '', 'streak', streak)
redis.call('HINCRBY', KEYS[2], 'played', 1)
redis.call('ZINCRBY', KEYS[1], points * 1048576 + tonumber(ARGV[5]), ARGV[1])
return points
"""


class TournamentStore(Connection):
    _tour_join = Lua(JOIN)
    _tour_next = Lua(NEXT)
    _tour_score = Lua(SCORE)

    def _tour(self, tid: str, part: str = "") -> str:
        return f"{self.keys.prefix}tour:{{{tid}}}{part}"

    def _entrant(self, tid: str, player: str) -> str:
        return self._tour(tid, f":e:{player.casefold()}")

    def _board(self, tid: str) -> str:
        return self._tour(tid, ":board")

    def tournament_channel(self, tid: str = "*") -> str:
        """The pub/sub channel of a tournament's changes (``*``: the pattern of all)."""
        return f"{self.keys.prefix}tourch:{tid}"

    async def create_tournament(
        self, tid: str, code: str, fields: Mapping[str, Value], ttl_s: int
    ) -> bool:
        """Store a new tournament under a fresh code; False if the code is taken."""
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tourcode:{code}"
            if not await self.redis.set(key, tid, nx=True, ex=ttl_s):
                return False
            await self.redis.hset(self._tour(tid), mapping=dict[Any, Any](fields))
            await self.redis.expire(self._tour(tid), ttl_s)
            return True

    async def tournament_by_code(self, code: str) -> str | None:
        async with self._call("tournament"):
            return _text(await self.redis.get(f"{self.keys.prefix}tourcode:{code}"))

    async def tournament(self, tid: str) -> Fields:
        async with self._call("tournament"):
            return _fields(await self.redis.hgetall(self._tour(tid)))

    async def set_tournament(self, tid: str, fields: Mapping[str, Value]) -> None:
        async with self._call("tournament"):
            await self.redis.hset(self._tour(tid), mapping=dict[Any, Any](fields))

    async def tournament_flag(self, tid: str, name: str, ttl_s: int) -> bool:
        """Set a one-time flag of the tournament (``ended``): True for the first asker."""
        async with self._call("tournament"):
            return bool(await self.redis.set(self._tour(tid, f":{name}"), 1, nx=True, ex=ttl_s))

    async def put_deal(self, tid: str, i: int, packed: bytes, ttl_s: int) -> None:
        """Deal ``i`` as certified (the first writer's stays)."""
        async with self._call("tournament"):
            await self.redis.hsetnx(self._tour(tid, ":deals"), str(i), packed)
            await self.redis.expire(self._tour(tid, ":deals"), ttl_s)

    async def deals(self, tid: str) -> dict[int, bytes]:
        async with self._call("tournament"):
            raw = await self.redis.hgetall(self._tour(tid, ":deals"))
        return {int(k): v for k, v in _fields(raw).items()}

    async def deal(self, tid: str, i: int) -> bytes | None:
        async with self._call("tournament"):
            value: Any = await self.redis.hget(self._tour(tid, ":deals"), str(i))
            return value if value is None else bytes(value)

    async def lease_tournament(self, tid: str, owner: str, ms: int) -> bool:
        """Whether ``owner`` holds (or now takes) the lease of certifying the deals."""
        async with self._call("tournament"):
            key = self._tour(tid, ":lease")
            if await self.redis.set(key, owner, nx=True, px=ms):
                return True
            if _text(await self.redis.get(key)) == owner:
                await self.redis.pexpire(key, ms)
                return True
            return False

    async def claim_tournament_address(
        self, tid: str, address: str, player: str, ttl_s: int
    ) -> str:
        """The account that entered tournament ``tid`` from client ``address``:
        ``player`` if none had (it is noted), else the one that had."""
        key = self._tour(tid, ":addr")
        async with self._call("tournament"):
            await self.redis.hsetnx(key, address, player)
            await self.redis.expire(key, ttl_s)
            holder = await self.redis.hget(key, address)
        return holder.decode() if isinstance(holder, bytes) else str(holder or player)

    async def join_tournament(self, tid: str, player: str, most: int, ttl_s: int) -> int:
        async with self._call("tournament"):
            keys = [self._board(tid), self._entrant(tid, player)]
            joined = int(await self._tour_join(keys=keys, args=[player, most]))
            if joined == 1:
                for key in keys:
                    await self.redis.expire(key, ttl_s)
            return joined

    async def drop_entrant(self, tid: str, player: str) -> None:
        """Out of a tournament not started: off the standings, no row kept."""
        async with self._call("tournament"):
            await self.redis.zrem(self._board(tid), player)
            await self.redis.delete(self._entrant(tid, player))

    async def entrant(self, tid: str, player: str) -> Fields:
        async with self._call("tournament"):
            return _fields(await self.redis.hgetall(self._entrant(tid, player)))

    async def entrants(self, tid: str, players: Sequence[str]) -> list[Fields]:
        async with self._call("tournament"):
            pipe = self.redis.pipeline(transaction=False)
            for p in players:
                pipe.hgetall(self._entrant(tid, p))
            return [_fields(r) for r in await pipe.execute()]

    async def set_entrant(self, tid: str, player: str, fields: Mapping[str, Value]) -> None:
        async with self._call("tournament"):
            await self.redis.hset(self._entrant(tid, player), mapping=dict[Any, Any](fields))

    async def next_deal(self, tid: str, player: str, prefix: str, deals: int) -> tuple[str, int]:
        async with self._call("tournament"):
            gid, deal = await self._tour_next(
                keys=[self._entrant(tid, player)], args=[prefix, deals]
            )
            return _text(gid) or "", int(deal)

    async def score_deal(
        self, tid: str, player: str, gid: str, won: bool, par: bool, founded: int
    ) -> int:
        async with self._call("tournament"):
            keys = [self._board(tid), self._entrant(tid, player)]
            args: list[Value] = [player, gid, int(won), int(par), founded]
            return int(await self._tour_score(keys=keys, args=args))

    async def board(self, tid: str) -> list[tuple[str, int]]:
        """Every entrant with their score (points × 2^20 + cards founded)."""
        async with self._call("tournament"):
            rows: Any = await self.redis.zrange(self._board(tid), 0, -1, withscores=True)
        return [(_text(name) or "", int(score)) for name, score in rows]

    async def entrant_count(self, tid: str) -> int:
        async with self._call("tournament"):
            return int(await self.redis.zcard(self._board(tid)))

    async def index_tournament(self, index: str, tid: str, score: int, ttl_s: int) -> None:
        """Add ``tid`` to an index: ``public``, ``open`` (by end, until finalized) or
        ``pl:NAME`` (a player's: made, joined, invited)."""
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tours:{index}"
            await self.redis.zadd(key, {tid: score})
            await self.redis.expire(key, ttl_s)

    async def unindex_tournament(self, index: str, tid: str) -> None:
        async with self._call("tournament"):
            await self.redis.zrem(f"{self.keys.prefix}tours:{index}", tid)

    async def indexed_tournaments(self, index: str, low: int, high: int | None = None) -> list[str]:
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tours:{index}"
            rows: Any = await self.redis.zrangebyscore(key, low, "+inf" if high is None else high)
        return [_text(r) or "" for r in rows]

    async def invite_to_tournament(self, tid: str, player: str, ttl_s: int) -> None:
        async with self._call("tournament"):
            await self.redis.sadd(self._tour(tid, ":invited"), player.casefold())
            await self.redis.expire(self._tour(tid, ":invited"), ttl_s)

    async def invited_to_tournament(self, tid: str, player: str) -> bool:
        async with self._call("tournament"):
            return bool(await self.redis.sismember(self._tour(tid, ":invited"), player.casefold()))

    async def count_tournament(self, what: str, ttl_s: int) -> int:
        """Count one more of ``what`` (a creation by an account or an address, a day)."""
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tourcount:{what}"
            n = int(await self.redis.incr(key))
            if n == 1:
                await self.redis.expire(key, ttl_s)
            return n

    async def uncount_tournament(self, what: str) -> None:
        async with self._call("tournament"):
            await self.redis.decr(f"{self.keys.prefix}tourcount:{what}")

    async def count_tournament_result(self, player: str, place: int) -> None:
        """Count a finished tournament in ``player``'s statistics (``stats``)."""
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tourstats:{{{player.casefold()}}}"
            pipe = self.redis.pipeline(transaction=False)
            pipe.hincrby(key, "played", 1)
            if place == 1:
                pipe.hincrby(key, "won", 1)
            if place <= 3:
                pipe.hincrby(key, "podiums", 1)
            await pipe.execute()
            best = await self.redis.hget(key, "best")
            if best is None or int(best) > place:
                await self.redis.hset(key, "best", place)

    async def tournament_results(self, player: str) -> dict[str, Any]:
        async with self._call("tournament"):
            key = f"{self.keys.prefix}tourstats:{{{player.casefold()}}}"
            raw = _fields(await self.redis.hgetall(key))
        best = raw.get("best")
        return {
            "played": int(raw.get("played") or 0),
            "won": int(raw.get("won") or 0),
            "podiums": int(raw.get("podiums") or 0),
            "best": int(best) if best is not None else None,
        }
