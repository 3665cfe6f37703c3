"""Everything the services ask of Redis, one method per question or atomic step.

A semaphore bounds concurrent Redis calls (redis-py's asyncio pool raises past its
``max_connections`` instead of waiting). Every call is timed into the
``pasyans_redis_seconds`` histogram when metrics are on.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from . import scripts
from .cluster import ClusterSpec, NodePipes, Subscribers, check_prefix
from .durability import Durability, Replicated
from .keys import Keys
from .pipe import ScriptPipe, sha1, supports

Fields = dict[str, bytes]
Value = bytes | str | int | float
Observer = Callable[[str, float], None]
POOL_HEADROOM = 8  # connections beyond the semaphore (pub/sub listeners)


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else value


def _fields(raw: Mapping[Any, Any]) -> Fields:
    return {(k.decode() if isinstance(k, bytes) else str(k)): v for k, v in raw.items()}


class Store:
    """The Redis side of pasyans. ``url`` is any redis-py URL (``redis://``,
    ``unix://``); with ``cluster=True`` it names a Redis Cluster instead, as
    :class:`~.cluster.ClusterSpec` reads it (``host:port,host:port`` or one
    ``redis://`` URL of a node). ``prefix`` goes before every key.

    ``durability`` :attr:`~.durability.Durability.REPLICATED` acknowledges a move
    (and a new game) only once ``wait_replicas`` replicas confirmed it within
    ``replica_timeout`` seconds (:class:`~.durability.Replicated`); the other modes
    change nothing here (the move takes the lean path below)."""

    def __init__(
        self,
        url: str,
        *,
        cluster: bool = False,
        prefix: str = "",
        max_connections: int = 64,
        observe: Observer | None = None,
        durability: Durability = Durability.DEFAULT,
        wait_replicas: int = 1,
        replica_timeout: float = 1.0,
    ) -> None:
        self.keys = Keys(prefix)
        spec: ClusterSpec | None = None
        self.redis: aioredis.Redis | RedisCluster
        self._subscribers: Subscribers | None = None
        if cluster:
            spec = ClusterSpec.parse(url)
            check_prefix(prefix)
            # A bound per node; the semaphore bounds the sum (the headroom is for the
            # few calls made outside it). The listener has clients of its own.
            self.redis = spec.client(max_connections=max_connections + POOL_HEADROOM)
            self._subscribers = Subscribers(self.redis, spec)
        else:
            # Headroom over the semaphore: the pub/sub listener holds a connection too.
            self.redis = aioredis.Redis.from_url(
                url, max_connections=max_connections + POOL_HEADROOM, decode_responses=False
            )
        self._sem = _Semaphore(max_connections)
        self._observe = observe
        self._move = self.redis.register_script(scripts.MOVE)
        self._replicated: Replicated | None = None
        if durability is Durability.REPLICATED:
            self._replicated = Replicated(
                self.redis,
                spec=spec,
                replicas=wait_replicas,
                timeout=replica_timeout,
                max_connections=max_connections,
            )
        # Moves go through one lean pipelined connection (see ``pipe``) when it can
        # reach the URL (one Redis, not a cluster); on a cluster without TLS, through
        # one such connection per primary (``NodePipes``); redis-py otherwise.
        self._pipe = ScriptPipe(url) if not cluster and supports(url) else None
        self._nodes = (
            NodePipes(self.redis, spec, scripts.MOVE)
            if isinstance(self.redis, RedisCluster) and spec is not None and not spec.ssl
            else None
        )
        #: the scripts run on the pipelined connection, encoded once (by sha)
        self._texts: dict[str, bytes] = {}
        self._move_sha = sha1(scripts.MOVE)
        self._move_script = scripts.MOVE.encode()
        self._board_put = self.redis.register_script(scripts.BOARD_PUT)
        self._streak = self.redis.register_script(scripts.STREAK)
        self._stats = self.redis.register_script(scripts.STATS)
        self._create = self.redis.register_script(scripts.CREATE)
        self._race_status = self.redis.register_script(scripts.RACE_STATUS)
        self._race_join = self.redis.register_script(scripts.RACE_JOIN)
        self._race_place = self.redis.register_script(scripts.RACE_PLACE)
        self._keep_newest = self.redis.register_script(scripts.KEEP_NEWEST)
        self._drop_unplayed = self.redis.register_script(scripts.DROP_UNPLAYED)
        self._drop_lobby = self.redis.register_script(scripts.DROP_LOBBY)
        self._race_saw = self.redis.register_script(scripts.RACE_SAW)
        self._delete_if = self.redis.register_script(scripts.DELETE_IF)
        self._count_in_window = self.redis.register_script(scripts.COUNT_IN_WINDOW)
        self._challenge_open = self.redis.register_script(scripts.CHALLENGE_OPEN)
        self._race_watch = self.redis.register_script(scripts.RACE_WATCH)

    async def close(self) -> None:
        if self._replicated is not None:
            await self._replicated.close()
        if self._pipe is not None:
            await self._pipe.close()
        if self._nodes is not None:
            await self._nodes.aclose()
        if self._subscribers is not None:
            await self._subscribers.aclose()
        await self.redis.aclose()

    def pubsub(self) -> PubSub:
        """A fresh pub/sub connection (subscribe messages ignored) for the race
        listener; on a cluster, to one node, another one at each call."""
        if self._subscribers is not None:
            return self._subscribers.pubsub()
        assert isinstance(self.redis, aioredis.Redis)
        return self.redis.pubsub(ignore_subscribe_messages=True)

    @asynccontextmanager
    async def _call(self, name: str) -> AsyncIterator[None]:
        async with self._sem.held():
            start = time.perf_counter()
            try:
                yield
            finally:
                if self._observe is not None:
                    self._observe(name, time.perf_counter() - start)

    async def ping(self) -> bool:
        async with self._call("ping"):
            return bool(await self.redis.ping())

    # -- players ----------------------------------------------------------------------

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
        return name if hmac.compare_digest(stored.encode(), digest.encode()) else None

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
        if self._piped_scripts:
            return bool(await self._piped("stats", self._stats, keys, args))
        async with self._call("stats"):
            return bool(await self._stats(keys=keys, args=args))

    async def player_stats(self, player: str) -> Fields:
        async with self._call("stats"):
            return _fields(await self.redis.hgetall(self.keys.player_stats(player)))

    async def follow(self, player: str, friend: str, *, add: bool) -> bool:
        """Follow (or with ``add=False`` stop following) ``friend``; False when
        nothing changed."""
        key = self.keys.player_follows(player)
        async with self._call("friends"):
            changed = await (self.redis.sadd(key, friend) if add else self.redis.srem(key, friend))
        return bool(changed)

    async def follows(self, player: str) -> list[str]:
        """The names ``player`` follows, sorted."""
        async with self._call("friends"):
            raw = await self.redis.smembers(self.keys.player_follows(player))
        return sorted((_text(m) or "" for m in raw), key=str.casefold)

    async def follow_count(self, player: str) -> int:
        async with self._call("friends"):
            count: Any = await self.redis.scard(self.keys.player_follows(player))
        return int(count)

    # -- limits per client address ---------------------------------------------------

    async def count_address(self, address: str, kind: str, window: int, left_ms: int) -> int:
        """One more ``kind`` by ``address`` in window ``window``, which ends in
        ``left_ms``; the count so far."""
        key = self.keys.address_count(address, kind, window)
        async with self._call("address"):
            return int(await self._count_in_window(keys=[key], args=[left_ms]))

    async def address_count(self, address: str, kind: str, window: int) -> int:
        async with self._call("address"):
            value = await self.redis.get(self.keys.address_count(address, kind, window))
        return int(value or 0)

    # -- games ------------------------------------------------------------------------

    async def create_game(self, gid: str, fields: Mapping[str, Value], player: str) -> bool:
        """Store a new game (False, and nothing written, if ``gid`` exists)."""
        args: list[Value] = [x for item in fields.items() for x in item]
        keys = [self.keys.game(gid)]
        created_ms = int(fields["created"])
        if self._replicated is None and self._piped_scripts:
            # The game's commands on the pipelined connections, as its moves.
            if not await self._piped("create_game", self._create, keys, args):
                return False
            if self._pipe is not None:
                zadd = ("ZADD", self.keys.player_games(player), created_ms, gid)
                await self._piped_command("create_game", *zadd)
            else:
                async with self._call("create_game"):
                    await self.redis.zadd(self.keys.player_games(player), {gid: created_ms})
            return True
        async with self._call("create_game"):
            if self._replicated is not None:
                created = await self._replicated.run(scripts.CREATE, keys, args)
            else:
                created = await self._create(keys=keys, args=args)
            if not created:
                return False
            await self.redis.zadd(self.keys.player_games(player), {gid: created_ms})
            return True

    @property
    def _piped_scripts(self) -> bool:
        """Whether scripts run on pipelined connections: one Redis's (:mod:`.pipe`) or
        each primary's of a cluster (``NodePipes``)."""
        return self._pipe is not None or self._nodes is not None

    async def _piped(
        self, name: str, script: AsyncScript, keys: list[str], args: list[Value]
    ) -> Any:
        """``script`` on a pipelined connection (:attr:`_piped_scripts`); on a cluster,
        what the slot map got wrong goes to redis-py's call, as a move's does."""
        start = time.perf_counter()
        try:
            text = self._texts.get(script.sha)
            if text is None:
                code = script.script
                text = self._texts[script.sha] = (
                    code.encode() if isinstance(code, str) else bytes(code)
                )
            if self._pipe is not None:
                return await self._pipe.evalsha(text, script.sha, keys, args)
            assert self._nodes is not None

            async def fallback() -> Any:
                async with self._call(name):
                    return await script(keys=keys, args=args)

            return await self._nodes.evalsha(keys, args, fallback, (text, script.sha))
        finally:
            if self._observe is not None:
                self._observe(name, time.perf_counter() - start)

    async def _piped_command(self, name: str, *args: Value) -> Any:
        """A command on the pipelined connection (one Redis, see :mod:`.pipe`)."""
        assert self._pipe is not None
        start = time.perf_counter()
        try:
            return await self._pipe.command(*args)
        finally:
            if self._observe is not None:
                self._observe(name, time.perf_counter() - start)

    async def game(self, gid: str) -> Fields | None:
        async with self._call("game"):
            raw = await self.redis.hgetall(self.keys.game(gid))
        return _fields(raw) if raw else None

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
        """One atomic compare-and-set on ``seq``: ``(1, new seq)`` when written,
        ``(0, current seq)`` when another writer was first, ``(-1, 0)`` if missing."""
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
        if self._replicated is not None:
            async with self._call("move"):
                done, current = await self._replicated.run(scripts.MOVE, keys, args)
            return int(done), int(current)
        start = time.perf_counter()
        pipe = self._pipe
        if pipe is not None:
            # Pipelined on its own connection: no pool, so no semaphore needed.
            try:
                done, current = await pipe.evalsha(self._move_script, self._move_sha, keys, args)
            finally:
                if self._observe is not None:
                    self._observe("move", time.perf_counter() - start)
            return int(done), int(current)
        nodes = self._nodes
        if nodes is not None:
            try:
                done, current = await nodes.evalsha(keys, args, lambda: self._library(keys, args))
            finally:
                if self._observe is not None:
                    self._observe("move", time.perf_counter() - start)
            return int(done), int(current)
        try:
            done, current = await self._library(keys, args)
        finally:
            if self._observe is not None:
                self._observe("move", time.perf_counter() - start)
        return int(done), int(current)

    async def _library(self, keys: list[str], args: list[Value]) -> Any:
        """The move script through redis-py (which follows a cluster's redirections)."""
        sem = self._sem.get()
        await sem.acquire()
        try:
            return await self._move(keys=keys, args=args)
        finally:
            sem.release()

    async def game_log(self, gid: str) -> list[bytes]:
        async with self._call("log"):
            raw: list[Any] = await self.redis.lrange(self.keys.game_log(gid), 0, -1)
            return [bytes(x) for x in raw]

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
        old: list[bytes]
        if self._piped_scripts:
            old = await self._piped("keep_newest", self._keep_newest, [key], args)
        else:
            async with self._call("keep_newest"):
                old = await self._keep_newest(keys=[key], args=args)
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

    # -- dailies ----------------------------------------------------------------------

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
        another instance holds it (so two instances never compute the same daily)."""
        async with self._call("daily"):
            return bool(
                await self.redis.set(self.keys.daily_lease(date, slug), owner, nx=True, px=ms)
            )

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

    # -- leaderboards -----------------------------------------------------------------

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

    # -- races ------------------------------------------------------------------------

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

    async def publish(self, channel: str, data: bytes) -> None:
        async with self._call("publish"):
            # Not ``publish()``: the asyncio cluster client has it only from redis-py 8.
            await self.redis.execute_command("PUBLISH", channel, data)

    # -- challenges -------------------------------------------------------------------

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

    # -- spectators of races ----------------------------------------------------------

    async def race_watch(self, rid: str, player: str, now_ms: int, fresh_ms: int, most: int) -> int:
        """Let ``player`` watch the race (one atomic step): the watchers now, or -1 no
        such race, -2 ``player`` is a member, -3 ``most`` others watch it already."""
        keys = [
            self.keys.race(rid),
            self.keys.race_players(rid),
            self.keys.race_watchers(rid),
            self.keys.race_spectators(rid),
        ]
        async with self._call("race"):
            return int(await self._race_watch(keys=keys, args=[player, now_ms, fresh_ms, most]))

    async def race_watchers(self, rid: str) -> dict[str, int]:
        """spectator → when a server last saw them watching (ms)."""
        async with self._call("race"):
            raw = await self.redis.hgetall(self.keys.race_watchers(rid))
        return {k: int(v) for k, v in _fields(raw).items()}

    async def race_still_watched(self, rid: str, players: Sequence[str], now_ms: int) -> None:
        """Note that ``players`` still watch the race (connected to this server)."""
        async with self._call("race"):
            key = self.keys.race_watchers(rid)
            await self.redis.hset(key, mapping={p: now_ms for p in players})
            await self.redis.expire(key, 86_400)  # not past the race's day

    async def race_unwatch(self, rid: str, players: Sequence[str]) -> int:
        """``players`` no longer watch the race; how many were watching."""
        async with self._call("race"):
            return int(await self.redis.hdel(self.keys.race_watchers(rid), *players))

    async def race_spectator(self, rid: str, player: str) -> bool:
        """Whether ``player`` ever watched the race (and so may not join it)."""
        async with self._call("race"):
            return bool(await self.redis.sismember(self.keys.race_spectators(rid), player))


class _Semaphore:
    """An asyncio.Semaphore created lazily in the running loop."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sem: Any = None

    def get(self) -> asyncio.Semaphore:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.size)
        sem: asyncio.Semaphore = self._sem
        return sem

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        async with self.get():
            yield
