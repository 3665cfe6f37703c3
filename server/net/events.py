"""Race events across server instances: every instance listens on the race channels
and passes each :class:`RaceNews` to the members connected to it (``race``), and a
starting member their game (``race_started``); the races service learns from it which
races to watch for presence (:meth:`Races.noticed`). With a :class:`~.relay.Relay`
the same connection also carries the spectators' and challenge creators' channels,
and a race's news reaches its spectators too."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import protocol as P

from ..services.games import Games
from ..services.race import Races
from ..services.race_news import RaceNews
from ..store import Store
from .relay import Relay
from .session import Hub, being_cancelled

log = logging.getLogger("pasyans.server")


class RaceEvents:
    def __init__(
        self, store: Store, hub: Hub, games: Games, races: Races, relay: Relay | None = None
    ) -> None:
        self.store = store
        self.hub = hub
        self.games = games
        self.races = races
        self.relay = relay

    async def listen(self) -> None:
        """Deliver what any instance publishes, until cancelled; reconnects after a
        storage outage."""
        while True:
            pubsub = self.store.pubsub()
            try:
                extra = self.relay.patterns() if self.relay is not None else []
                await pubsub.psubscribe(self.store.keys.race_channels(), *extra)
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if being_cancelled():  # swallowed by the client's own timeout
                        raise asyncio.CancelledError
                    if msg is not None and msg.get("type") == "pmessage":
                        try:
                            await self.route(msg["channel"], msg["data"])
                        except Exception:
                            log.exception("cannot deliver a race event")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if being_cancelled():  # a cancellation the client turned into an error
                    raise asyncio.CancelledError from exc
                log.warning("race event listener: %r; reconnecting", exc)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 1)  # type: ignore[no-untyped-call]

    async def route(self, channel: bytes | str, data: bytes) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        if self.relay is not None and self.relay.takes(name):
            await self.relay.deliver(name, data)
        else:
            await self.deliver(RaceNews.from_bytes(data))

    async def deliver(self, news: RaceNews) -> None:
        self.races.noticed(news.race)
        ev = P.event(P.Event.RACE, **news.race)
        for member in news.members:
            await self.hub.send_to(member, ev)
        if self.relay is not None:
            await self.relay.race_news(news)
        for member, gid in news.games.items():
            if not self.hub.online(member):
                continue
            try:
                state = await self.games.resume(member, gid)
            except Exception:
                log.exception("race %s: cannot load the game of %s", news.race_id, member)
                continue
            started = P.event(P.Event.RACE_STARTED, race_id=news.race_id, state=state)
            await self.hub.send_to(member, started)
