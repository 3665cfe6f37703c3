"""The inbox: each player's items (invites and news), newest first, at most
:data:`MOST` from players they follow and :data:`MOST_APART` from anyone else (kept
apart: a stranger's item never pushes out one from a player they follow), kept
:data:`KEEP_MS`, with the ids of those read; and the count of invites a player sent
in an hour."""

from __future__ import annotations

from typing import Any

from protocol import pack, unpack

from .connection import Connection, _text

#: items an inbox keeps at most from players its player follows
MOST = 100
#: items an inbox keeps at most from players its player does not follow
MOST_APART = 50
#: how long an item is kept (30 days)
KEEP_MS = 30 * 86_400_000


class InboxStore(Connection):
    async def inbox_sender(self, player: str, sender: str) -> tuple[bool, bool]:
        """Whether ``player`` blocks ``sender``, and whether they follow them (one
        round trip: both sets are on the player's slot)."""
        async with self._call("inbox"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.sismember(self.keys.player_blocks(player), sender)
            pipe.sismember(self.keys.player_follows(player), sender)
            blocked, followed = await pipe.execute()
        return bool(blocked), bool(followed)

    async def inbox_add(self, player: str, item: dict[str, Any], *, apart: bool = False) -> None:
        """Put ``item`` first in ``player``'s inbox (the oldest past :data:`MOST` go),
        or with ``apart`` (its sender is not followed) first among the items kept apart
        (the oldest past :data:`MOST_APART` go)."""
        if apart:
            key, most = self.keys.player_inbox_apart(player), MOST_APART
        else:
            key, most = self.keys.player_inbox(player), MOST
        async with self._call("inbox"):
            pipe = self.redis.pipeline(transaction=True)
            pipe.lpush(key, pack(item))
            pipe.ltrim(key, 0, most - 1)
            pipe.pexpire(key, KEEP_MS)
            await pipe.execute()

    async def inbox(self, player: str) -> tuple[list[dict[str, Any]], set[str]]:
        """``player``'s items (both lists), newest first, and the ids read."""
        async with self._call("inbox"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.lrange(self.keys.player_inbox(player), 0, MOST - 1)
            pipe.lrange(self.keys.player_inbox_apart(player), 0, MOST_APART - 1)
            pipe.smembers(self.keys.player_inbox_read(player))
            raw, apart, read = await pipe.execute()
        items = [unpack(r) for r in [*raw, *apart]]
        items.sort(key=lambda i: int(i.get("at") or 0), reverse=True)
        return items, {_text(r) or "" for r in read}

    async def inbox_mark(self, player: str, ids: list[str], forget: list[str]) -> None:
        """Note ``ids`` read, and forget the read marks of ``forget`` (items gone)."""
        key = self.keys.player_inbox_read(player)
        async with self._call("inbox"):
            pipe = self.redis.pipeline(transaction=False)
            if ids:
                pipe.sadd(key, *ids)
            if forget:
                pipe.srem(key, *forget)
            pipe.pexpire(key, KEEP_MS)
            await pipe.execute()

    async def count_invite(self, player: str, window: int, seconds: int) -> int:
        """Count one invite of ``player`` in the hour ``window``; the count so far."""
        key = self.keys.player_invites(player, window)
        async with self._call("inbox"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, seconds)
            count, _ = await pipe.execute()
        return int(count)
