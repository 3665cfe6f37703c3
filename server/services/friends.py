"""Friends: the players one follows (one-way, like lichess), by name.

Stored as a set of names per player (``Keys.player_follows``, on the player's slot).
A friends-only leaderboard ranks the player and those they follow
(``Leaderboards.page(among=…)``); ``friends`` tells how each did on today's dailies.
"""

from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError

from ..store import Store
from .games import SUMMARY_FIELDS, Games

#: players one may follow at most (a friends board reads one entry per friend)
MAX_FOLLOWS = 200


class Friends:
    def __init__(self, store: Store, games: Games) -> None:
        self.store = store
        self.games = games

    async def _name(self, name: str) -> str:
        """The registered spelling of ``name`` (names are unique regardless of case)."""
        info = await self.store.player(name)
        if not info:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no player is called {name!r}")
        return info.get("name", name.encode()).decode()

    async def add(self, player: str, name: str) -> dict[str, Any]:
        friend = await self._name(name)
        if friend.casefold() == player.casefold():
            raise ProtocolError(ErrorCode.BAD_REQUEST, "you cannot follow yourself")
        if await self.store.follow_count(player) >= MAX_FOLLOWS:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, f"you follow {MAX_FOLLOWS} players already: remove one first"
            )
        added = await self.store.follow(player, friend, add=True)
        return {"friend": friend, "added": added}

    async def remove(self, player: str, name: str) -> dict[str, Any]:
        friend = await self._name(name)
        return {"friend": friend, "removed": await self.store.follow(player, friend, add=False)}

    async def among(self, player: str) -> list[str]:
        """The player and those they follow (a friends board's players)."""
        return [player, *await self.store.follows(player)]

    async def overview(self, player: str) -> dict[str, Any]:
        """Those ``player`` follows, each with their games on today's dailies."""
        today = self.games.dailies.today()
        out = []
        for friend in await self.store.follows(player):
            ids = await self.store.player_dailies(friend, today)
            slugs = sorted(ids)
            rows = await self.store.games([ids[s] for s in slugs], SUMMARY_FIELDS) if ids else []
            games = {
                slug: summary
                for slug, row in zip(slugs, rows, strict=True)
                if (summary := self.games.summary(ids[slug], row)) is not None
            }
            out.append({"player": friend, "today": games})
        return {"date": today, "friends": out}
