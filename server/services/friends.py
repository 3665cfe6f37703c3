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

Each row also says whether that player is online and what they do (``Presence``:
nothing of a game's progress), unless they hide it. A player who hides it shows
nothing live at all (:func:`veiled`): no daily in play, no time finer than the day.

A player may block another, and the block tells the blocked one nothing: their
``friend_add`` follows as any other (the same answers, the same rows in their
``friends``), their ``invite`` is answered as if it went; but what they see of the
one who blocks them is what a hidden player shows (:func:`veiled`, offline), their
invites are dropped, and they are never told that the blocker beat their daily.

When a followed player's ranked daily ends better than a follower's finished one of
the same day and game, the follower's inbox says so (``daily_beaten``): both games
are over, and a finished daily is what ``friends`` shows whole anyway.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from protocol import ErrorCode, GameStatus, InboxKind, ProtocolError

from ..patience import registry
from ..store import Store
from .games import Games
from .inbox import Inbox
from .presence import Presence
from .ratings import Ratings
from .records import SUMMARY_FIELDS, Record

#: how long what a followed player did today is shown again as it was read, in ms
FRESH_MS = 2000
#: followed players whose games of today are kept (the newest read)
KEPT = 4096
#: a day in ms: the finest time a hidden player's games show
DAY_MS = 86_400_000


def as_followed(summary: dict[str, Any]) -> dict[str, Any]:
    """A player's daily game as those who follow them see it: whole once it is over;
    while it is in play, only ``{"status": "playing"}``."""
    if summary["status"] == GameStatus.PLAYING:
        return {"status": str(GameStatus.PLAYING)}
    return summary


def veiled(games: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A player's daily games (as followed) as a follower sees them when the player
    hides their presence or blocks the follower: nothing in play, and their times to
    the day only (what a leaderboard shows anyway)."""
    return {
        slug: summary | {k: summary[k] - summary[k] % DAY_MS for k in ("created", "updated")}
        for slug, summary in games.items()
        if summary["status"] != GameStatus.PLAYING
    }


def beats(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether the finished game ``a`` ranks before ``b`` (the boards' rule: wins
    first, by fewer moves, then less time; losses by more cards founded)."""
    a_won, b_won = a["status"] == GameStatus.WON, b["status"] == GameStatus.WON
    if a_won != b_won:
        return bool(a_won)
    if a_won:
        return (a["moves"], a["time_ms"]) < (b["moves"], b["time_ms"])
    return bool(a["foundation"] > b["foundation"])


class Friends:
    def __init__(
        self,
        store: Store,
        games: Games,
        presence: Presence,
        inbox: Inbox,
        *,
        most: int = 200,
    ) -> None:
        self.store = store
        self.games = games
        self.presence = presence
        self.inbox = inbox
        #: the players' ratings from races (issue 51; ``Services.build``)
        self.ratings: Ratings | None = None
        #: players one may follow at most (``Settings.max_follows``: a friends board
        #: reads one entry per friend)
        self.most = most
        #: followed player → (read at, date, their games of that day as followed)
        self._today: OrderedDict[str, tuple[int, str, dict[str, Any]]] = OrderedDict()

    async def registered(self, name: str) -> str:
        """The registered spelling of ``name``; ``not_found`` for nobody."""
        return await self._name(name)

    async def _name(self, name: str) -> str:
        """The registered spelling of ``name`` (names are unique regardless of case)."""
        info = await self.store.player(name)
        if not info:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no player is called {name!r}",
                key="error.no_player",
                params={"name": name},
            )
        return info.get("name", name.encode()).decode()

    async def add(self, player: str, name: str) -> dict[str, Any]:
        friend = await self._name(name)
        if friend.casefold() == player.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "you cannot follow yourself", key="error.follow_self"
            )
        if await self.store.follow_count(player) >= self.most:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                f"you follow {self.most} players already: remove one first",
                key="error.follow_limit",
                params={"n": self.most},
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
        veils = await self.store.veiled(player, friends)
        seen = await self.presence.of(friends, veils)
        ratings = await self.ratings.shown(friends) if self.ratings else [{} for _ in friends]
        out = [
            {"player": f, "today": veiled(shown[f]) if veil else shown[f], "ratings": r} | p
            for f, p, veil, r in zip(friends, seen, veils, ratings, strict=True)
        ]
        return {
            "date": today,
            "friends": out,
            "blocked": await self.store.blocks(player),
            "hidden": await self.store.hidden(player),
        }

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

    async def block(self, player: str, name: str, *, add: bool) -> dict[str, Any]:
        """``block`` (``unblock`` with ``add=False``) the player ``name``. Their follow of
        ``player`` stays (its end would tell them): it shows them nothing live."""
        other = await self._name(name)
        if other.casefold() == player.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "you cannot block yourself", key="error.block_self"
            )
        changed = await self.store.block(player, other, add=add)
        if add:
            return {"player": other, "blocked": changed}
        return {"player": other, "unblocked": changed}

    async def hide(self, player: str, hidden: bool | None) -> dict[str, Any]:
        """``presence``: whether ``player`` hides their presence (set when given)."""
        if hidden is not None:
            await self.store.set_hidden(player, hidden)
        return {"hidden": await self.store.hidden(player)}

    async def daily_finished(self, rec: Record) -> None:
        """A listener of finished games: a ranked daily that beats a follower's
        finished one of the same day and game goes to that follower's inbox."""
        if not rec.ranked or rec.recorded or rec.status == GameStatus.PLAYING:
            return
        blocked = {b.casefold() for b in await self.store.blocks(rec.player)}
        followers = [
            f for f in await self.store.followers(rec.player) if f.casefold() not in blocked
        ]
        if not followers:
            return
        slug = rec.game.slug
        theirs = await self.store.players_dailies(followers, rec.date, [slug])
        pairs = [(f, ids[slug]) for f, ids in zip(followers, theirs, strict=True) if slug in ids]
        rows = await self.store.games([gid for _, gid in pairs], SUMMARY_FIELDS)
        mine = self.games.views.summary(
            rec.gid, (await self.store.games([rec.gid], SUMMARY_FIELDS))[0]
        )
        if mine is None:
            return
        for (follower, gid), row in zip(pairs, rows, strict=True):
            other = self.games.views.summary(gid, row)
            if other is None or other["status"] == GameStatus.PLAYING or not other["ranked"]:
                continue
            if beats(mine, other):
                item = self.inbox.item(InboxKind.DAILY_BEATEN, rec.player, slug, date=rec.date)
                await self.inbox.put(follower, item)
