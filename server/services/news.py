"""News between server instances: what one instance publishes and every other passes on
to the players connected to it, read here from Redis pub/sub and handed to the edge as
typed items (the edge, ``server/net/events.py``, only sends frames).

The channels:

- each race's (``ch:race:{rid}``): its :class:`~.race_news.RaceNews`;
- each race's boards for its spectators (``ch:watch:{rid}``): :class:`WatchBoard`;
- the bans' (``ch:ban``): a player an operator banned, whose connections every
  instance closes (:class:`~.moderation.Banned`);
- each player's (``ch:pl:{name}``), subscribed by the instances where that player is
  connected: a game of theirs written elsewhere (:class:`GameWritten`), so that every
  connection of a player — two tabs, a phone and a terminal — sees its games' changes
  at once; an invite (:class:`InboxNews`); a finished game of a challenge they made
  (:class:`ChallengeResult`); a sign-out.

Under classic pub/sub every instance follows every race's and watch channel (two
patterns). Under sharded pub/sub (``store/channels.py``: a Redis Cluster of Redis 7)
patterns do not exist, and an instance follows only the races it has a reason to: a
race op of a player connected here, or their resuming a race game
(:meth:`News.race_here`, from the edge), a race's
news naming a member connected here (and the rematch it names), a spectator here
(:meth:`News.spectating`); it stops when the last of them has gone. A player connected
to two instances who joins a race on one tells the other on their own channel.

A player's channel carries a game's change only while some other instance holds a
connection of that player: an instance that gets a player's first connection says so
on the player's channel (``here``), the others holding one answer likewise, and an
instance whose last connection of that player closes says ``gone``. Each instance so
knows, without asking Redis on a move, whether a write needs publishing at all (a
player on one instance, nearly every one, costs nothing). An instance that dies
without saying ``gone`` is forgotten after :data:`PEER_TTL` seconds, each instance
repeating its ``here`` every :data:`PEER_REFRESH` seconds while others share a player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from protocol import pack, unpack

from ..store import Store
from ..store.channels import Listening
from .moderation import Banned
from .race_news import RaceNews
from .records import Record

log = logging.getLogger("pasyans.news")

#: seconds after which another instance's ``here`` is forgotten unless repeated
PEER_TTL = 90.0
#: seconds between two repeats of this instance's ``here`` to the players it shares
PEER_REFRESH = 30.0
#: the kinds of message that carry news (classic, by a pattern, sharded)
MESSAGES = ("message", "pmessage", "smessage")
#: seconds a sign-in or a race op waits at most for its subscriptions (``settled``)
FOLLOW_WAIT = 1.0
#: seconds the listener waits for a message before it applies new subscriptions
POLL = 0.05


@dataclass(frozen=True, slots=True)
class WatchBoard:
    """A member's board, for a race's spectators (the ``race_board`` event's fields)."""

    race_id: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ChallengeResult:
    """A finished challenge game, for the challenge's creator."""

    creator: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class InboxNews:
    """A new inbox item that tells its player at once (``invited``)."""

    player: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameWritten:
    """A game of ``player``'s changed (the ``game`` event's fields)."""

    player: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SignedOut:
    """``player``'s tokens were replaced or their account deleted: close every
    connection of theirs (but the one that asked, on its own instance)."""

    player: str
    #: only the connections whose token is no longer the player's (asked of the store):
    #: after this instance began following the player's channel, a sign-out published
    #: before it may have been missed
    check: bool = False


@dataclass(frozen=True)
class TournamentNews:
    """A tournament changed (issue 51): its standings, its entrants or its status."""

    tid: str


Item = (
    RaceNews
    | WatchBoard
    | ChallengeResult
    | GameWritten
    | InboxNews
    | Banned
    | SignedOut
    | TournamentNews
)
Deliver = Callable[[Item], Awaitable[None]]


def game_event(rec: Record) -> dict[str, Any]:
    """The ``game`` event's fields: which game, its new ``seq`` and status."""
    return {"game_id": rec.gid, "seq": rec.seq, "status": str(rec.status)}


class News:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.keys = store.keys
        #: this instance, as its ``here`` and ``gone`` name it
        self.instance = uuid.uuid4().hex[:12]
        #: players connected here (each one's channel is subscribed)
        self._players: set[str] = set()
        #: player → other instances holding a connection of theirs → when last heard
        self._peers: dict[str, dict[str, float]] = {}
        #: (un)subscriptions and announcements waiting for the listening loop
        self._pending: asyncio.Queue[tuple[str, str, bytes]] = asyncio.Queue()
        #: the edge's delivery to this instance's own connections (set by the App)
        self.local: Deliver | None = None
        self._refreshed = time.monotonic()
        #: sharded pub/sub: race id → its members as last heard, for the races
        #: followed here
        self._races: dict[str, frozenset[str]] = {}
        #: sharded pub/sub: races watched by a spectator here
        self._spectated: set[str] = set()
        #: sharded pub/sub: the race and watch channels to follow
        self._channels: set[str] = set()
        #: how many (un)subscriptions and announcements were queued, and applied
        #: (:meth:`settled`)
        self._queued = 0
        self._applied = 0
        self._progress = asyncio.Event()
        self._listening = False

    # -- who is connected here ------------------------------------------------------------

    def arrived(self, player: str) -> None:
        """``player``'s first connection here: follow their channel, say ``here``."""
        key = player.casefold()
        if key not in self._players:
            self._players.add(key)
            self._queue(("follow", key, b""))

    def _queue(self, item: tuple[str, str, bytes]) -> None:
        self._queued += 1
        self._pending.put_nowait(item)

    async def settled(self) -> None:
        """Once every (un)subscription queued so far is applied (at most
        :data:`FOLLOW_WAIT` seconds): a sign-in's answer, and a race op's, wait for
        it, so that whatever is published after it for the player or the race (an
        invite, another member joining) reaches this instance."""
        target = self._queued
        deadline = asyncio.get_running_loop().time() + FOLLOW_WAIT
        while self._listening and self._applied < target:
            self._progress.clear()
            left = deadline - asyncio.get_running_loop().time()
            try:
                await asyncio.wait_for(self._progress.wait(), max(0.0, left))
            except TimeoutError:
                return

    def left(self, player: str) -> None:
        """``player``'s last connection here closed: say ``gone``, stop following."""
        key = player.casefold()
        if key in self._players:
            self._players.discard(key)
            self._peers.pop(key, None)
            self._queue(("unfollow", key, b""))
            for rid, members in list(self._races.items()):
                if key in members:
                    self._keep_race(rid)

    # -- which races are followed here (sharded pub/sub) -------------------------------

    def race_here(self, race: Mapping[str, Any], player: str | None = None) -> None:
        """A race's object seen here: in the answer to a race op of ``player`` (connected
        here), or in its news. Under sharded pub/sub, follow its channel while a member
        is connected here (and the rematch it names); ``player``'s other instances are
        told to follow it too."""
        if not self.store.sharded:
            return
        rid = str(race["race_id"])
        members = frozenset(str(p["player"]).casefold() for p in race.get("players") or ())
        if player is not None:
            members |= {player.casefold()}
        self._races[rid] = members
        self._keep_race(rid)
        rematch = race.get("rematch")
        if isinstance(rematch, Mapping) and rematch.get("race_id") and rid in self._races:
            new = str(rematch["race_id"])
            if new not in self._races:
                self._races[new] = members
                self._keep_race(new)
        if player is not None and rid in self._races and self.elsewhere(player):
            message = pack({"race": rid, "from": self.instance})
            self._queue(("say", self.keys.player_channel(player), message))

    def spectating(self, rid: str, watching: bool) -> None:
        """Whether a spectator here watches race ``rid`` (the relay says, under
        sharded pub/sub): its race and watch channels are followed while one does."""
        if not self.store.sharded:
            return
        if watching:
            self._spectated.add(rid)
            self._races.setdefault(rid, frozenset())
        else:
            self._spectated.discard(rid)
        self._keep_race(rid)

    def _keep_race(self, rid: str) -> None:
        """Follow or leave ``rid``'s channels as somebody here needs them."""
        members = self._races.get(rid, frozenset())
        needed = rid in self._spectated or any(m in self._players for m in members)
        channels = [self.keys.race_channel(rid)]
        if rid in self._spectated:
            channels.append(self.keys.watch_channel(rid))
        if not needed:
            self._races.pop(rid, None)
            channels.append(self.keys.watch_channel(rid))
        for channel in channels:
            if needed and channel not in self._channels:
                self._channels.add(channel)
                self._queue(("sub", channel, b""))
            elif not needed and channel in self._channels:
                self._channels.discard(channel)
                self._queue(("unsub", channel, b""))
        if needed and rid not in self._spectated:
            watch = self.keys.watch_channel(rid)
            if watch in self._channels:
                self._channels.discard(watch)
                self._queue(("unsub", watch, b""))

    def races_followed(self) -> list[str]:
        """The races followed here under sharded pub/sub (for tests and metrics)."""
        return sorted(self._races)

    def elsewhere(self, player: str) -> bool:
        """Whether another instance holds a connection of ``player`` (as last heard)."""
        peers = self._peers.get(player.casefold())
        if not peers:
            return False
        now = time.monotonic()
        for peer, heard in list(peers.items()):
            if now - heard > PEER_TTL:
                del peers[peer]
        return bool(peers)

    # -- what goes out ---------------------------------------------------------------------

    async def game_written(self, rec: Record) -> None:
        """A listener of written games (``Changes``): the player's connections here get
        the ``game`` event (the edge leaves out the one that asked), and, only while
        another instance holds one of theirs, the player's channel carries it."""
        item = GameWritten(rec.player, game_event(rec))
        if self.local is not None and rec.player.casefold() in self._players:
            await self.local(item)
        if self.elsewhere(rec.player):
            message = {"game": item.event, "from": self.instance}
            await self.store.spublish(self.keys.player_channel(rec.player), pack(message))

    async def signed_out(self, player: str) -> None:
        """Tell every other instance to close ``player``'s connections there (the
        token they signed in with is refused now): always published, whatever this
        instance last heard of where the player is connected."""
        message = pack({"signout": self.instance})
        await self.store.spublish(self.keys.player_channel(player), message)

    # -- what comes in ---------------------------------------------------------------------

    async def listen(self, deliver: Deliver) -> None:
        """Hand ``deliver`` every item any instance publishes, until cancelled;
        reconnects after a storage outage (and follows every player again)."""
        while True:
            pubsub = self.store.pubsub()
            try:
                await pubsub.subscribe(self.keys.ban_channel())
                # tournaments' changes: classic publishes, one pattern (issue 51)
                await pubsub.psubscribe(self.store.tournament_channel())
                if not self.store.sharded:
                    await pubsub.psubscribe(self.keys.race_channels(), self.keys.watch_channels())
                await pubsub.follow(*sorted(self._channels))
                followed = [self.keys.player_channel(p) for p in self._players]
                if followed:
                    await pubsub.follow(*followed)
                    for player in self._players:
                        await self._say(player, "here")
                self._applied = self._queued - self._pending.qsize()  # all followed
                self._progress.set()
                self._listening = True
                while True:
                    await self._apply_pending(pubsub, deliver)
                    await self._refresh()
                    msg = await pubsub.get_message(timeout=POLL)
                    task = asyncio.current_task()
                    if task is not None and task.cancelling():
                        raise asyncio.CancelledError  # swallowed by the client's timeout
                    if msg is not None and msg.get("type") in MESSAGES:
                        try:
                            item = await self._read(msg["channel"], msg["data"])
                            if item is not None:
                                await deliver(item)
                        except Exception:
                            log.exception("cannot deliver news from %r", msg.get("channel"))
            except asyncio.CancelledError:
                self._listening = False
                raise
            except Exception as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from exc
                log.warning("news listener: %r; reconnecting", exc)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 1)

    async def _apply_pending(self, pubsub: Listening, deliver: Deliver) -> None:
        while not self._pending.empty():
            what, name, data = self._pending.get_nowait()
            if what == "sub" and name in self._channels:
                await pubsub.follow(name)
            elif what == "unsub" and name not in self._channels:
                await pubsub.unfollow(name)
            elif what == "say":
                await self.store.spublish(name, data)
            elif what == "follow" and name in self._players:
                await pubsub.follow(self.keys.player_channel(name))
                await self._say(name, "here")
                # a sign-out published before the subscription was missed: check
                await deliver(SignedOut(name, check=True))
            elif what == "unfollow" and name not in self._players:
                await pubsub.unfollow(self.keys.player_channel(name))
                await self._say(name, "gone")
            self._applied += 1
            self._progress.set()

    async def _refresh(self) -> None:
        """Repeat ``here`` to the players shared with other instances."""
        now = time.monotonic()
        if now - self._refreshed < PEER_REFRESH:
            return
        self._refreshed = now
        for player in [p for p in self._players if self.elsewhere(p)]:
            await self._say(player, "here")

    async def _say(self, player: str, what: str) -> None:
        message = pack({what: self.instance})
        await self.store.spublish(self.keys.player_channel(player), message)

    async def _read(self, channel: bytes | str, data: bytes) -> Item | None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        keys = self.keys
        if name == keys.ban_channel():
            message = unpack(data)
            reason, renamed = str(message.get("reason") or ""), str(message.get("renamed") or "")
            return Banned(str(message["player"]), reason, renamed)
        if name.startswith(self.store.tournament_channel("")):
            return TournamentNews(name[len(self.store.tournament_channel("")) :])
        if name.startswith(keys.watch_channels()[:-1]):
            fields = unpack(data)
            return WatchBoard(str(fields["race_id"]), dict(fields))
        if name.startswith(keys.race_channels()[:-1]):
            news = RaceNews.from_bytes(data)
            self.race_here(news.race)  # its members and rematch, under sharded pub/sub
            return news
        if name.startswith(keys.player_channels_prefix()):
            return await self._player_message(name[len(keys.player_channels_prefix()) :], data)
        return None

    async def _player_message(self, player: str, data: bytes) -> Item | None:
        message: dict[str, Any] = unpack(data)
        if player not in self._players:
            return None
        # for every connection of the player's, whichever instance published it
        if "invited" in message:
            return InboxNews(player, dict(message["invited"]))
        if "challenge" in message:
            return ChallengeResult(player, dict(message["challenge"]))
        peer = str(
            message.get("here")
            or message.get("gone")
            or message.get("from")
            or message.get("signout")
            or ""
        )
        if peer == self.instance or player not in self._players:
            return None
        if "signout" in message:
            return SignedOut(player)
        peers = self._peers.setdefault(player, {})
        if "gone" in message:
            peers.pop(peer, None)
            return None
        known = peer in peers
        peers[peer] = time.monotonic()
        if "here" in message:
            if not known:  # tell the newcomer this instance holds the player too
                await self._say(player, "here")
            return None
        if "race" in message:  # they are in a race: follow it here too
            rid = str(message["race"])
            self._races[rid] = self._races.get(rid, frozenset()) | {player}
            self._keep_race(rid)
            return None
        game = message.get("game")
        return GameWritten(player, dict(game)) if isinstance(game, dict) else None
