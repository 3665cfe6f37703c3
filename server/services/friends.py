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

What ``friends`` shows of a followed player is kept :data:`FRESH_MS` (by the games'
clock) and shown again as it was to anyone who follows them: reading it is two Redis
commands and a summary a game, 40 moves' worth of the server's CPU for 200 followed
players (bench.op_costs), which a flood of ``friends`` would repeat 50 times a second.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from protocol import ErrorCode, GameStatus, ProtocolError

from ..patience import registry
from ..store import Store
from .games import Games
from .records import SUMMARY_FIELDS

#: how long what a followed player did today is shown again as it was read, in ms
FRESH_MS = 2000
#: followed players whose games of today are kept (the newest read)
KEPT = 4096


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
        #: followed player → (read at, date, their games of that day as followed)
        self._today: OrderedDict[str, tuple[int, str, dict[str, Any]]] = OrderedDict()

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
        in play: only that they are, :func:`as_followed`), as read at most
        :data:`FRESH_MS` ago."""
        today = self.games.dailies.today()
        now = self.games.clock.now_ms()
        friends = await self.store.follows(player)
        shown: dict[str, dict[str, Any]] = {}
        for friend in friends:
            kept = self._today.get(friend)
            if kept is not None and kept[1] == today and now - kept[0] < FRESH_MS:
                shown[friend] = kept[2]
        stale = [f for f in friends if f not in shown]
        for friend, games in zip(stale, await self._read(stale, today), strict=True):
            shown[friend] = games
            self._today[friend] = (now, today, games)
            self._today.move_to_end(friend)
        while len(self._today) > KEPT:
            self._today.popitem(last=False)
        out = [{"player": f, "today": shown[f]} for f in friends]
        return {"date": today, "friends": out}

    async def _read(self, players: list[str], today: str) -> list[dict[str, Any]]:
        """Each of ``players``' games on the dailies of ``today``, as followed: two
        round trips whatever their number."""
        if not players:
            return []
        dailies = await self.store.players_dailies(players, today, sorted(registry.slugs()))
        wanted = [(i, slug, gid) for i, ids in enumerate(dailies) for slug, gid in ids.items()]
        rows = await self.store.games([gid for _, _, gid in wanted], SUMMARY_FIELDS)
        games: list[dict[str, Any]] = [{} for _ in players]
        for (i, slug, gid), row in zip(wanted, rows, strict=True):
            if (summary := self.games.views.summary(gid, row)) is not None:
                games[i][slug] = as_followed(summary)
        return games
