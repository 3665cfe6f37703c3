"""What operators do to players (``pasyans-server admin``, issue 49): bans, results
taken off the boards (and put back), the audit log, players' reports.

A ban is the ``banned`` field of the player's hash (the reason; ``banned_at`` when):
``auth`` reads it. The results a ban takes off the boards are kept in the player's
``:banned`` hash, so ``unban`` puts them back as they were (a few commands per board
the player is on: cheap).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .connection import Connection, Fields, _fields, _text

#: entries the audit log keeps (the oldest go)
AUDIT_MAX = 100_000
#: reports kept (the oldest go)
REPORTS_MAX = 100_000


class ModerationStore(Connection):
    async def ban_of(self, name: str) -> str | None:
        """The reason ``name`` is banned (``""`` for none given), or None if not."""
        async with self._call("ban"):
            return _text(await self.redis.hget(self.keys.player(name), "banned"))

    async def set_ban(self, name: str, reason: str | None, now_ms: int) -> None:
        """Ban ``name`` (``reason`` None: lift the ban)."""
        key = self.keys.player(name)
        async with self._call("ban"):
            if reason is None:
                await self.redis.hdel(key, "banned", "banned_at")
            else:
                await self.redis.hset(key, mapping={"banned": reason, "banned_at": now_ms})

    async def board_places(self, name: str) -> list[tuple[str, str]]:
        """Every board ``(slug, period)`` the player may have a result on: the days of
        their ranked dailies and each of those games' all-time board."""
        async with self._call("board"):
            fields = await self.redis.hkeys(self.keys.player_dailies(name))
        places: set[tuple[str, str]] = set()
        for raw in fields:
            date, _, slug = (_text(raw) or "").partition(":")
            if slug:
                places.add((slug, date))
                places.add((slug, "all"))
        return sorted(places)

    async def board_members_of(
        self, player: str, places: list[tuple[str, str]]
    ) -> dict[tuple[str, str], str]:
        """The player's member on each board of ``places`` that has one."""
        if not places:
            return {}
        async with self._call("board"):
            pipe = self.redis.pipeline(transaction=False)
            for slug, period in places:
                pipe.hget(self.keys.board_players(slug, period), player)
            found = await pipe.execute()
        return {p: m for p, m in zip(places, (_text(x) for x in found), strict=True) if m}

    async def board_take_off(self, player: str, members: Mapping[tuple[str, str], str]) -> None:
        """Take each member off its board (the player's entry with it)."""
        if not members:
            return
        async with self._call("board"):
            pipe = self.redis.pipeline(transaction=False)
            for (slug, period), member in members.items():
                pipe.zrem(self.keys.board(slug, period), member)
                pipe.hdel(self.keys.board_players(slug, period), player)
            await pipe.execute()

    async def keep_banned_results(self, name: str, members: Mapping[tuple[str, str], str]) -> None:
        if not members:
            return
        mapping: dict[Any, Any] = {f"{slug}|{period}": m for (slug, period), m in members.items()}
        async with self._call("ban"):
            await self.redis.hset(self.keys.banned_results(name), mapping=mapping)

    async def banned_results(self, name: str) -> dict[tuple[str, str], str]:
        async with self._call("ban"):
            raw = _fields(await self.redis.hgetall(self.keys.banned_results(name)))
        out = {}
        for field, member in raw.items():
            slug, _, period = field.partition("|")
            out[(slug, period)] = _text(member) or ""
        return out

    async def forget_banned_results(self, name: str) -> None:
        async with self._call("ban"):
            await self.redis.delete(self.keys.banned_results(name))

    # -- the audit log and reports ------------------------------------------------------

    async def audit(self, entry: Mapping[str, str | int]) -> str:
        """Write an operator's action to the audit log; its id."""
        async with self._call("audit"):
            rid = await self.redis.xadd(
                self.keys.audit(), dict[Any, Any](entry), maxlen=AUDIT_MAX, approximate=True
            )
        return _text(rid) or ""

    async def audit_log(self, count: int) -> list[tuple[str, dict[str, str]]]:
        """The newest ``count`` actions, oldest first."""
        async with self._call("audit"):
            raw: Any = await self.redis.xrevrange(self.keys.audit(), count=count)
        return _entries(reversed(raw))

    async def report_add(self, entry: Mapping[str, str | int]) -> str:
        async with self._call("report"):
            rid = await self.redis.xadd(
                self.keys.reports(), dict[Any, Any](entry), maxlen=REPORTS_MAX, approximate=True
            )
        return _text(rid) or ""

    async def reports_list(self, count: int) -> list[tuple[str, dict[str, str]]]:
        """The newest ``count`` reports, oldest first."""
        async with self._call("report"):
            raw: Any = await self.redis.xrevrange(self.keys.reports(), count=count)
        return _entries(reversed(raw))

    async def count_report(self, player: str, window: int, ttl: int) -> int:
        """Count a report ``player`` sends in hour ``window``; the count so far."""
        key = self.keys.player_reports(player, window)
        async with self._call("report"):
            pipe = self.redis.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, ttl)
            count, _ = await pipe.execute()
        return int(count)

    async def player_exists(self, name: str) -> Fields:
        """The player's hash (empty: no such player)."""
        async with self._call("player"):
            return _fields(await self.redis.hgetall(self.keys.player(name)))


def _entries(raw: Any) -> list[tuple[str, dict[str, str]]]:
    out = []
    for rid, fields in raw:
        out.append(
            (_text(rid) or "", {(_text(k) or ""): (_text(v) or "") for k, v in fields.items()})
        )
    return out
