"""The inbox: invites from friends (a race's lobby, a challenge) and news (someone
finished your challenge, someone you follow beat your daily, a race of yours has a
rematch), newest first, kept 30 days, at most 100 from players one follows and 50
from anyone else, kept apart: invites from strangers (30 fresh accounts' worth) never
push a friend's item out (``store/inbox.py``), with read marks.

An invite also reaches every open connection of its player, on any instance, as the
``invited`` event (published on the inbox channel: ``News``). A player who blocks
another drops their invites silently: the sender is answered as if it went, so a
block tells nothing. A player sends at most ``per_hour`` invites an hour (fixed
windows on the hour): past it ``rate_limited``.

Nothing here carries a seed, a line or a card: an item names a race or challenge by
its code (what its sender could share by hand anyway), its game and who sent it.
"""

from __future__ import annotations

import secrets
from typing import Any

from protocol import ErrorCode, InboxKind, ProtocolError, RaceStatus, pack

from ..store import Store
from ..store.inbox import KEEP_MS
from .clock import Clock
from .links import Links

HOUR_MS = 3_600_000


def _text(value: bytes | None) -> str:
    return value.decode() if value else ""


class Inbox:
    def __init__(self, store: Store, clock: Clock, links: Links, *, per_hour: int = 30) -> None:
        self.store = store
        self.clock = clock
        self.links = links
        #: invites a player may send an hour (0: no limit)
        self.per_hour = per_hour

    def item(
        self,
        kind: InboxKind,
        sender: str,
        game: str,
        *,
        race: str | None = None,
        challenge: str | None = None,
        date: str | None = None,
    ) -> dict[str, Any]:
        return {
            "id": "i" + secrets.token_urlsafe(9),
            "kind": str(kind),
            "sender": sender,
            "at": self.clock.now_ms(),
            "game": game,
            "date": date,
            "race": {"code": race, "url": self.links.race(race)} if race else None,
            "challenge": (
                {"code": challenge, "url": self.links.challenge(challenge)} if challenge else None
            ),
        }

    async def put(self, player: str, item: dict[str, Any], *, event: bool = False) -> None:
        """Put ``item`` in ``player``'s inbox, unless they block its sender (kept apart
        when they do not follow its sender: it never pushes out an item from a player
        they follow); with ``event``, tell their connections (``invited``) on every
        instance."""
        blocked, followed = await self.store.inbox_sender(player, item["sender"])
        if blocked:
            return
        await self.store.inbox_add(player, item, apart=not followed)
        if event:
            unread = (await self.items(player))["unread"]
            # on the player's channel, followed wherever they are connected (``News``)
            news = {"invited": {"item": item | {"read": False}, "unread": unread}}
            await self.store.spublish(self.store.keys.player_channel(player), pack(news))

    async def invite(
        self, player: str, friend: str, *, race: str | None, challenge: str | None
    ) -> dict[str, Any]:
        """``invite``: send ``friend`` (their registered name) a race's lobby that
        ``player`` is in, or an open challenge."""
        if friend.casefold() == player.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "you cannot invite yourself", key="error.invite_self"
            )
        if race is not None:
            item = await self._race_invite(player, race.upper())
        else:
            item = await self._challenge_invite(player, (challenge or "").upper())
        await self._count(player)
        await self.put(friend, item, event=True)
        return {"invited": friend}

    async def _race_invite(self, player: str, code: str) -> dict[str, Any]:
        rid = await self.store.race_by_code(code)
        info, members, _, _ = await self.store.race(rid) if rid else ({}, [], {}, {})
        if not info:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no race has the code {code!r}",
                key="error.no_race",
                params={"code": code},
            )
        if player not in members:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "invite to a race you are in", key="error.invite_not_member"
            )
        if _text(info.get("status")) != RaceStatus.LOBBY:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "this race has already started", key="error.race_started"
            )
        return self.item(InboxKind.INVITE, player, _text(info.get("game")), race=code)

    async def _challenge_invite(self, player: str, code: str) -> dict[str, Any]:
        info, _, _ = await self.store.challenge(code)
        now = self.clock.now_ms()
        if not info or now >= int(info.get("expires") or 0):
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no open challenge has the code {code!r}",
                key="error.no_challenge",
                params={"code": code},
            )
        if info.get("closed"):
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "this challenge is closed", key="error.challenge_closed"
            )
        return self.item(InboxKind.INVITE, player, _text(info.get("game")), challenge=code)

    async def _count(self, player: str) -> None:
        if self.per_hour <= 0:
            return
        now = self.clock.now_ms()
        left = HOUR_MS - now % HOUR_MS
        count = await self.store.count_invite(player, now // HOUR_MS, left // 1000 + 1)
        if count > self.per_hour:
            retry = round(left / 1000, 3)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"you sent {self.per_hour} invites this hour, the most: retry after {retry:.0f} s",
                retry_after=retry,
                key="error.limit_invites",
                params={"n": self.per_hour, "seconds": max(1, round(retry))},
            )

    async def items(self, player: str) -> dict[str, Any]:
        """``inbox``: the items of the last 30 days, newest first, and how many are unread."""
        items, read = await self._items(player)
        out = [i | {"read": i["id"] in read} for i in items]
        return {"items": out, "unread": sum(not i["read"] for i in out)}

    async def _items(self, player: str) -> tuple[list[dict[str, Any]], set[str]]:
        items, read = await self.store.inbox(player)
        since = self.clock.now_ms() - KEEP_MS
        return [i for i in items if int(i.get("at") or 0) >= since], read

    async def mark_read(self, player: str, item: str | None) -> dict[str, Any]:
        """``inbox_read``: one item (``item``, its id) or every item read."""
        items, read = await self._items(player)
        ids = {i["id"] for i in items}
        if item is not None and item not in ids:
            raise ProtocolError(
                ErrorCode.NOT_FOUND, "no such item in your inbox", key="error.no_inbox_item"
            )
        marked = [item] if item is not None else sorted(ids - read)
        await self.store.inbox_mark(player, marked, sorted(read - ids))
        return {"unread": len(ids - read - set(marked))}
