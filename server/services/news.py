"""News between server instances: what one instance publishes and every other passes on
to the players connected to it, read here from Redis pub/sub and handed to the edge as
typed items (the edge, ``server/net/events.py``, only sends frames).

The channels:

- each race's (``ch:race:*``): its :class:`~.race_news.RaceNews`;
- each race's boards for its spectators (``ch:watch:*``): :class:`WatchBoard`;
- the challenges' (``ch:chal``): a finished challenge game, for its creator
  (:class:`ChallengeResult`);
- the inboxes' (``ch:inbox``): an invite, for its player (:class:`InboxNews`);
- the bans' (``ch:ban``): a player an operator banned, whose connections every
  instance closes (:class:`~.moderation.Banned`);
- each player's (``ch:pl:{name}``), subscribed by the instances where that player is
  connected: a game of theirs written elsewhere (:class:`GameWritten`), so that every
  connection of a player — two tabs, a phone and a terminal — sees its games' changes
  at once.

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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from protocol import pack, unpack

from ..store import Store
from .moderation import Banned
from .race_news import RaceNews
from .records import Record

log = logging.getLogger("pasyans.news")

#: seconds after which another instance's ``here`` is forgotten unless repeated
PEER_TTL = 90.0
#: seconds between two repeats of this instance's ``here`` to the players it shares
PEER_REFRESH = 30.0


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
        self._pending: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        #: the edge's delivery to this instance's own connections (set by the App)
        self.local: Deliver | None = None
        self._refreshed = time.monotonic()

    # -- who is connected here ------------------------------------------------------------

    def arrived(self, player: str) -> None:
        """``player``'s first connection here: follow their channel, say ``here``."""
        key = player.casefold()
        if key not in self._players:
            self._players.add(key)
            self._pending.put_nowait(("follow", key))

    def left(self, player: str) -> None:
        """``player``'s last connection here closed: say ``gone``, stop following."""
        key = player.casefold()
        if key in self._players:
            self._players.discard(key)
            self._peers.pop(key, None)
            self._pending.put_nowait(("unfollow", key))

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
            await self.store.publish(self.keys.player_channel(rec.player), pack(message))

    async def signed_out(self, player: str) -> None:
        """Tell every other instance to close ``player``'s connections there (the
        token they signed in with is refused now): always published, whatever this
        instance last heard of where the player is connected."""
        message = pack({"signout": self.instance})
        await self.store.publish(self.keys.player_channel(player), message)

    # -- what comes in ---------------------------------------------------------------------

    async def listen(self, deliver: Deliver) -> None:
        """Hand ``deliver`` every item any instance publishes, until cancelled;
        reconnects after a storage outage (and follows every player again)."""
        while True:
            pubsub = self.store.pubsub()
            try:
                patterns = [self.keys.race_channels(), self.keys.watch_channels()]
                await pubsub.psubscribe(
                    *patterns,
                    self.keys.challenge_channel(),
                    self.keys.inbox_channel(),
                    self.keys.ban_channel(),
                    self.store.tournament_channel(),
                )
                followed = [self.keys.player_channel(p) for p in self._players]
                if followed:
                    await pubsub.subscribe(*followed)
                    for player in self._players:
                        await self._say(player, "here")
                while True:
                    await self._apply_pending(pubsub, deliver)
                    await self._refresh()
                    msg = await pubsub.get_message(timeout=0.2)
                    task = asyncio.current_task()
                    if task is not None and task.cancelling():
                        raise asyncio.CancelledError  # swallowed by the client's timeout
                    if msg is not None and msg.get("type") in ("pmessage", "message"):
                        try:
                            item = await self._read(msg["channel"], msg["data"])
                            if item is not None:
                                await deliver(item)
                        except Exception:
                            log.exception("cannot deliver news from %r", msg.get("channel"))
            except asyncio.CancelledError:
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

    async def _apply_pending(self, pubsub: Any, deliver: Deliver) -> None:
        while not self._pending.empty():
            what, player = self._pending.get_nowait()
            channel = self.keys.player_channel(player)
            if what == "follow" and player in self._players:
                await pubsub.subscribe(channel)
                await self._say(player, "here")
                # a sign-out published before the subscription was missed: check
                await deliver(SignedOut(player, check=True))
            elif what == "unfollow" and player not in self._players:
                await pubsub.unsubscribe(channel)
                await self._say(player, "gone")

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
        await self.store.publish(self.keys.player_channel(player), message)

    async def _read(self, channel: bytes | str, data: bytes) -> Item | None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        keys = self.keys
        if name == keys.challenge_channel():
            message = unpack(data)
            return ChallengeResult(str(message["creator"]), dict(message["event"]))
        if name == keys.ban_channel():
            message = unpack(data)
            reason, renamed = str(message.get("reason") or ""), str(message.get("renamed") or "")
            return Banned(str(message["player"]), reason, renamed)
        if name == keys.inbox_channel():
            message = unpack(data)
            return InboxNews(str(message["to"]), dict(message["event"]))
        if name.startswith(self.store.tournament_channel("")):
            return TournamentNews(name[len(self.store.tournament_channel("")) :])
        if name.startswith(keys.watch_channels()[:-1]):
            fields = unpack(data)
            return WatchBoard(str(fields["race_id"]), dict(fields))
        if name.startswith(keys.race_channels()[:-1]):
            return RaceNews.from_bytes(data)
        if name.startswith(keys.player_channels_prefix()):
            return await self._player_message(name[len(keys.player_channels_prefix()) :], data)
        return None

    async def _player_message(self, player: str, data: bytes) -> Item | None:
        message: dict[str, Any] = unpack(data)
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
        game = message.get("game")
        return GameWritten(player, dict(game)) if isinstance(game, dict) else None
