"""Friends: the players one follows (one-way, like lichess), by name.

Stored as a set of names per player (``Keys.player_follows``, on the player's slot).
A friends-only leaderboard ranks the player and those they follow
(``Leaderboards.page(among=…)``); ``friends`` tells how each did on today's dailies.

Following needs no consent, so it must not be watching: of a daily still in play,
``friends`` tells only that it is being played (:func:`as_followed`). Its moves,
foundation count and ``seq`` would let a follower watch a rival's game move by move
while the day counts, and its ``game_id`` nothing a follower may use yet (a replay of
another player's daily waits for the day's end). A finished daily is shown whole, as
its leaderboard entry is.
"""

from __future__ import annotations

from typing import Any

from protocol import ErrorCode, GameStatus, ProtocolError

from ..patience import registry
from ..store import Store
from .games import Games
from .records import SUMMARY_FIELDS


def as_followed(summary: dict[str, Any]) -> dict[str, Any]:
    """A player's daily game as those who follow them see it: whole once it is over;
    while it is in play, only ``{"status": "playing"}``."""
    if summary["status"] == GameStatus.PLAYING:
        return {"status": str(GameStatus.PLAYING)}
    return summary


class Friends:
    def __init__(self, store: Store, games: Games, *, most: int = 200) -> None:
        self.store = store
        self.games = games
        #: players one may follow at most (``Settings.max_follows``: a friends board
        #: reads one entry per friend)
        self.most = most

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
        if await self.store.follow_count(player) >= self.most:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, f"you follow {self.most} players already: remove one first"
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
        """Those ``player`` follows, each with their games on today's dailies (those
        in play: only that they are, :func:`as_followed`)."""
        today = self.games.dailies.today()
        friends = await self.store.follows(player)
        # two round trips whatever the number followed (up to --max-follows)
        dailies = await self.store.players_dailies(friends, today, sorted(registry.slugs()))
        wanted = [(i, slug, gid) for i, ids in enumerate(dailies) for slug, gid in ids.items()]
        rows = await self.store.games([gid for _, _, gid in wanted], SUMMARY_FIELDS)
        games: list[dict[str, Any]] = [{} for _ in friends]
        for (i, slug, gid), row in zip(wanted, rows, strict=True):
            if (summary := self.games.views.summary(gid, row)) is not None:
                games[i][slug] = as_followed(summary)
        out = [{"player": f, "today": g} for f, g in zip(friends, games, strict=True)]
        return {"date": today, "friends": out}
