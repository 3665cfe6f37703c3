"""Accounts that last (issue 49): link codes, a token replaced, an account deleted and
its name held back, exports counted.

A link code is one key (``link:{CODE}`` → the player, with a TTL) taken with GETDEL,
so a code signs in once however many ask at once; the player's live code is noted
beside their account (``pl:{name}:link``) so that a new one deletes the old. A token
is replaced by a compare-and-set on the player's hash (:data:`ROTATE`): of two
connections replacing it at once, only the one still holding the current token wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import scripts
from .connection import Connection, Lua, _fields, _text

#: Replace a player's token if ``ARGV[1]`` is still one of theirs (the account's own
#: or a linked device's), and forget every linked device's. KEYS: the player's hash,
#: their devices. ARGV: the token's digest expected, the new one. Returns the digests
#: replaced (the account's first), or an empty list when ``ARGV[1]`` is not theirs.
ROTATE = """
local now = redis.call('HGET', KEYS[1], 'token')
if not now then return {} end
if now ~= ARGV[1] and redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then return {} end
local gone = redis.call('SMEMBERS', KEYS[2])
table.insert(gone, 1, now)
redis.call('HSET', KEYS[1], 'token', ARGV[2])
redis.call('DEL', KEYS[2])
return gone
"""

#: Take a player's entry off one board. KEYS: the board, its players' hash.
#: ARGV: the player. Returns 1 when there was one.
BOARD_DROP = """
local member = redis.call('HGET', KEYS[2], ARGV[1])
if not member then return 0 end
redis.call('ZREM', KEYS[1], member)
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


class AccountStore(Connection):
    _rotate = Lua(ROTATE)
    _board_drop = Lua(BOARD_DROP)
    _drop_if = Lua(scripts.DELETE_IF)

    # -- link a device ----------------------------------------------------------------

    async def put_link_code(self, player: str, code: str, ttl_ms: int) -> bool:
        """Make ``code`` sign ``player`` in for ``ttl_ms``, replacing their earlier
        code; False when the code is taken (another player's live code)."""
        async with self._call("link"):
            if not await self.redis.set(self.keys.link_code(code), player, nx=True, px=ttl_ms):
                return False
            old: Any = await self.redis.set(
                self.keys.player_link(player), code, px=ttl_ms, get=True
            )
            old = _text(old) if isinstance(old, bytes | str) else None
            if old and old != code:
                await self._drop_if(keys=[self.keys.link_code(old)], args=[player])
        return True

    async def take_link_code(self, code: str, digest: str) -> str | None:
        """The player ``code`` signs in, once (GETDEL), with a device token of digest
        ``digest`` added to the account: None when unknown, used or expired."""
        async with self._call("link"):
            player = _text(await self.redis.getdel(self.keys.link_code(code)))
            if player is None:
                return None
            await self._drop_if(keys=[self.keys.player_link(player)], args=[code])
            if not await self.redis.exists(self.keys.player(player)):
                return None  # the account left meanwhile
            await self.redis.sadd(self.keys.player_devices(player), digest)
            await self.redis.set(self.keys.token(digest), player)
        return player

    # -- sign out everywhere ----------------------------------------------------------

    async def rotate_token(self, player: str, old: str, new: str) -> bool:
        """Replace ``player``'s token digest ``old`` by ``new``; False (nothing done)
        when ``old`` is not the current one any more."""
        keys = [self.keys.player(player), self.keys.player_devices(player)]
        async with self._call("rotate"):
            await self.redis.set(self.keys.token(new), player)
            gone = await self._rotate(keys=keys, args=[old, new])
            if not gone:
                await self.redis.delete(self.keys.token(new))
                return False
            await self.redis.delete(*(self.keys.token(_text(d) or "") for d in gone))
        return True

    # -- export -----------------------------------------------------------------------

    async def count_export(self, player: str, window: int, seconds: int) -> int:
        """One more export by ``player`` in window ``window``; the count so far."""
        key = self.keys.player_exports(player, window)
        async with self._call("export"):
            pipe = self.redis.pipeline(transaction=True)
            pipe.incr(key)
            pipe.expire(key, seconds)
            count, _ = await pipe.execute()
        return int(count)

    async def account_keys(self, player: str) -> dict[str, Any]:
        """What the export reads raw: the player's hash (less its token), dailies,
        follows, followers, blocks, challenges' codes, races' ids, game ids."""
        k = self.keys
        async with self._call("export"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.hgetall(k.player(player))
            pipe.hgetall(k.player_dailies(player))
            pipe.smembers(k.player_follows(player))
            pipe.smembers(k.player_followers(player))
            pipe.smembers(k.player_blocks(player))
            pipe.zrange(k.player_challenges(player), 0, -1)
            pipe.zrange(k.player_races(player), 0, -1)
            pipe.zrange(k.player_games(player), 0, -1)
            raw = await pipe.execute()
        hash_, dailies = _fields(raw[0]), _fields(raw[1])
        hash_.pop("token", None)

        def names(members: Any) -> list[str]:
            return sorted((_text(m) or "" for m in members), key=str.casefold)

        return {
            "profile": {f: _text(v) for f, v in hash_.items()},
            "dailies": {f: _text(v) for f, v in dailies.items()},
            "follows": names(raw[2]),
            "followers": names(raw[3]),
            "blocks": names(raw[4]),
            "challenges": [_text(c) or "" for c in raw[5]],
            "races": [_text(r) or "" for r in raw[6]],
            "games": [_text(g) or "" for g in raw[7]],
        }

    # -- leave ------------------------------------------------------------------------

    async def delete_account(
        self,
        player: str,
        *,
        boards: Sequence[tuple[str, str]],
        games: Sequence[tuple[str, bool]],
        look_alikes: Sequence[str],
        hold_ms: int,
        now_ms: int,
    ) -> bool:
        """Delete ``player``'s account: token, link code, follows both ways, blocks,
        inbox, presence, statistics, their entries on ``boards`` ((slug, period)
        pairs), their ``games`` ((id, kept): a race game is kept for its race's other
        members, its player's name blanked; any other is deleted with its log); the
        name and its ``look_alikes`` keys are held for ``hold_ms``. False when there
        was no such player."""
        k = self.keys
        async with self._call("delete_account"):
            fields = _fields(await self.redis.hgetall(k.player(player)))
            if not fields:
                return False
            name = _text(fields.get("name")) or player
            digest = _text(fields.get("token")) or ""
            follows = await self.redis.smembers(k.player_follows(player))
            followers = await self.redis.smembers(k.player_followers(player))
            link = _text(await self.redis.get(k.player_link(player)))
            devices = await self.redis.smembers(k.player_devices(player))
            for raw in follows:
                await self.redis.srem(k.player_followers(_text(raw) or ""), name)
            for raw in followers:
                await self.redis.srem(k.player_follows(_text(raw) or ""), name)
            for slug, period in boards:
                keys = [k.board(slug, period), k.board_players(slug, period)]
                await self._board_drop(keys=keys, args=[name])
            for gid, kept in games:
                if kept:
                    await self.redis.hset(k.game(gid), "player", "")
                else:
                    await self.redis.delete(k.game(gid), k.game_log(gid), k.game_packed(gid))
            await self.redis.set(k.held_name(name), now_ms, px=hold_ms)
            for key in look_alikes:
                await self._drop_if(keys=[k.look_alike(key)], args=[name])
                await self.redis.set(k.look_alike(key), name, px=hold_ms, nx=True)
            if link:
                await self._drop_if(keys=[k.link_code(link)], args=[name])
            for d in [digest, *(_text(x) or "" for x in devices)]:
                if d:
                    await self.redis.delete(k.token(d))
            await self.redis.delete(
                k.player(player),
                k.player_games(player),
                k.player_in_play(player),
                k.player_races(player),
                k.player_dailies(player),
                k.player_stats(player),
                k.player_counted(player),
                k.player_follows(player),
                k.player_followers(player),
                k.player_blocks(player),
                k.player_presence(player),
                k.player_inbox(player),
                k.player_inbox_apart(player),
                k.player_inbox_read(player),
                k.player_link(player),
                k.player_devices(player),
                k.player_challenges(player),
                k.player_open_challenges(player),
                k.player_challenges_seen(player),
                k.banned_results(player),
            )
        return True

    async def drop_ratings(self, name: str, slugs: Sequence[str]) -> None:
        """A deleted player's ratings and their places on the rating boards (issue 51)."""
        for slug in slugs:
            async with self._call("rating"):
                pipe = self.redis.pipeline(transaction=True)
                pipe.hdel(self.keys.ratings(slug), name.casefold())
                pipe.zrem(self.keys.rating_board(slug), name)
                await pipe.execute()

    async def name_held(self, name: str) -> bool:
        """Whether ``name`` belonged to a player who left not long ago."""
        async with self._call("player"):
            return bool(await self.redis.exists(self.keys.held_name(name)))
