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
#: the suffixes of a player's keys after ``Keys.player`` that a rename moves (counts
#: of an hour, ``:invites:N`` and ``:reports:N``, and ``:presence`` are left to expire)
PLAYER_KEYS = (
    "",
    ":games",
    ":inplay",
    ":races",
    ":daily",
    ":stats",
    ":counted",
    ":follows",
    ":followers",
    ":blocks",
    ":inbox",
    ":inbox:apart",
    ":devices",  # the devices linked by a code (issue 49, the players' half)
    ":inbox:read",
    ":chal",
    ":chal:open",
    ":chal:seen",
    ":banned",
)


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

    # -- rename ------------------------------------------------------------------------

    async def move_player_keys(self, old: str, new: str) -> None:
        """Move every key of ``old``'s (:data:`PLAYER_KEYS`) to ``new``'s, one by one
        (DUMP and RESTORE: the two names' keys are in different slots of a cluster)."""
        for suffix in PLAYER_KEYS:
            src, dst = self.keys.player(old) + suffix, self.keys.player(new) + suffix
            async with self._call("rename"):
                raw: Any = await self.redis.dump(src)
                if raw is None:
                    continue
                ttl = int(await self.redis.pttl(src))
                await self.redis.restore(dst, max(ttl, 0), raw, replace=True)
                await self.redis.delete(src)

    async def renamed_player(self, new: str, old: str, now_ms: int) -> None:
        """The moved hash says its new name, and whom to tell at next sign-in."""
        async with self._call("rename"):
            await self.redis.hset(
                self.keys.player(new),
                mapping={"name": new, "renamed_from": old, "renamed_at": now_ms},
            )

    async def hold_name(self, old: str, look_alikes: list[str], new: str) -> None:
        """Keep ``old`` from registration: its look-alike keys name ``new`` now (a
        registration of ``old`` is refused as looking like ``new``)."""
        async with self._call("rename"):
            for k in look_alikes:
                key = self.keys.look_alike(k)
                if (_text(await self.redis.get(key)) or "").casefold() == old.casefold():
                    await self.redis.set(key, new)

    async def point_token(self, new: str) -> None:
        """The player's token, and each linked device's, names ``new`` now."""
        digest = _text(await self.redis.hget(self.keys.player(new), "token"))
        devices: Any = await self.redis.smembers(self.keys.player_devices(new))
        async with self._call("rename"):
            for d in [digest, *(_text(x) for x in devices)]:
                if d:
                    await self.redis.set(self.keys.token(d), new)

    async def rename_in_games(self, new: str) -> int:
        """Each game of the player's names ``new`` as its player."""
        async with self._call("rename"):
            raw: Any = await self.redis.zrange(self.keys.player_games(new), 0, -1)
        gids = [_text(g) for g in raw]
        for start in range(0, len(gids), 500):
            async with self._call("rename"):
                pipe = self.redis.pipeline(transaction=False)
                for gid in gids[start : start + 500]:
                    pipe.hset(self.keys.game(gid or ""), "player", new)
                await pipe.execute()
        return len(gids)

    async def rename_in_follows(self, old: str, new: str) -> None:
        """The players ``new`` follows list them among their followers as ``new``, and
        their followers follow ``new``."""
        async with self._call("rename"):
            follows = [
                _text(x) or "" for x in await self.redis.smembers(self.keys.player_follows(new))
            ]
            followers = [
                _text(x) or "" for x in await self.redis.smembers(self.keys.player_followers(new))
            ]
            pipe = self.redis.pipeline(transaction=False)
            for f in follows:
                pipe.srem(self.keys.player_followers(f), old)
                pipe.sadd(self.keys.player_followers(f), new)
            for f in followers:
                pipe.srem(self.keys.player_follows(f), old)
                pipe.sadd(self.keys.player_follows(f), new)
            await pipe.execute()

    async def renamed_notice(self, name: str) -> str | None:
        """The name the player had before an operator renamed them, once (then
        forgotten): what ``auth`` tells them."""
        key = self.keys.player(name)
        async with self._call("rename"):
            old = _text(await self.redis.hget(key, "renamed_from"))
            if old is not None:  # a write only after a rename, not at every sign-in
                await self.redis.hdel(key, "renamed_from")
        return old

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
