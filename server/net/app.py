"""The server process: ``/ws`` (subprotocol ``pasyans.v1``), ``/healthz``,
``/protocol.json`` and the web client's page at ``/`` (``static``); ``/metrics`` on the
operator's address alone (``operator``, ``--metrics``).

One :class:`App` per process builds the parts and runs their life cycle; each part
lives in its own module:

- ``session``: a connection's loop (frame → request → one reply) and who is connected
- ``conn``: a connection's outbox and writer: nothing sent waits on a peer
- ``routes``: what each op does, in a dispatch table keyed by op
- ``events``: news from any instance (races, spectators' boards, challenge results,
  a player's games written elsewhere), as events to the connections here
- ``http``: the handshake's checks (connections per address), ``/healthz``
- ``operator``: ``/metrics`` on the operator's own address
- ``static``: the web client's files, from memory

Shutdown (SIGTERM/SIGINT or :meth:`App.stop`): stop accepting, let in-flight requests
finish (``shutdown_timeout``), send ``bye``, close every socket with 1001.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from websockets.asyncio.server import Server, serve
from websockets.typing import Subprotocol

import protocol as P

from ..services import Clock, Services
from ..services.links import served
from ..settings import Settings
from ..solver.daily import Budget, Chooser
from ..store import EmbeddedRedis, Store
from ..store.durability import Durability
from ..workers import SolverPool
from .events import Events
from .http import Endpoints, Origins
from .metrics import Metrics
from .operator import OperatorPort
from .relay import Relay
from .routes import Routes
from .session import Hub, Sessions, being_cancelled, bounded, cancel
from .static import StaticFiles
from .tournament_relay import TournamentRelay

log = logging.getLogger("pasyans.server")

#: The cyclic garbage collector's thresholds for a serving process. Every move
#: allocates a few hundred short-lived objects (state, view, reply), so with CPython's
#: default (700, 10, 10) the collector runs every couple of moves and, with many
#: connections, full collections walk every connection's objects (a large share of a
#: move's CPU at 1,000 players: docs/history/performance-rounds.md). Reference
#: counting frees nearly all of it anyway; the collector still runs, just less often.
GC_THRESHOLDS = (50_000, 20, 100)


class App:
    """A pasyans server process (in-process tests build one directly)."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        chooser: Chooser | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        #: None: the solver's scan, candidate by candidate (a test may pass its own)
        self.chooser = chooser
        self.metrics = Metrics()
        self.hub = Hub(
            rate=settings.account_rate or 2 * settings.rate,
            burst=settings.account_burst or 2 * settings.burst,
        )
        self.pool: SolverPool | None = None
        self.embedded: EmbeddedRedis | None = None
        self.store: Store | None = None
        self.services: Services | None = None
        self.sessions: Sessions | None = None
        self.relay: Relay | None = None
        self.server: Server | None = None
        self.operator: OperatorPort | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        #: the web client's files, read once: a server built without them fails here
        self.static = StaticFiles.load()

    async def start(self) -> None:
        s = self.settings
        if gc.get_threshold()[0] < GC_THRESHOLDS[0]:
            gc.set_threshold(*GC_THRESHOLDS)
        url = s.redis_cluster or s.redis_url
        durability = Durability.parse(s.durability)
        if url is None:
            self.embedded = EmbeddedRedis(
                s.data_dir, binary=s.redis_server, appendfsync=durability.appendfsync
            )
            await self.embedded.start()
            url = self.embedded.url
        self.store = store = Store(
            url,
            cluster=bool(s.redis_cluster),
            prefix=s.key_prefix,
            max_connections=s.redis_connections,
            observe=self.metrics.observe_redis,
            durability=durability,
            wait_replicas=s.wait_replicas,
            replica_timeout=s.replica_timeout,
        )
        self.pool = SolverPool(
            s.solver_workers,
            niceness=s.solver_nice,
            today_niceness=s.solver_today_nice,
            idle=s.solver_idle,
            queue=s.solver_queue,
            per_account=s.solver_per_player,
            per_address=s.solver_per_address,
        )
        self.metrics.watch_pool(self.pool)
        self.services = services = Services.build(
            store,
            self.clock,
            chooser=self.chooser,
            budget=Budget(s.candidate_nodes, s.daily_nodes),
            pool=self.pool,
            cache_size=s.game_cache,
            countdown=s.race_countdown,
            away_after=s.race_away_after,
            absent_limit=s.race_absent_limit,
            daily_wait=s.daily_wait,
            idle_gap=s.idle_gap,
            limits=s,
            watch_stale_after=max(5.0, 3 * s.presence_interval),
        )
        services.dailies.observe = self.metrics.daily_chosen
        try:  # the deployment's first day is the first day a server of it started
            await services.dailies.first_day()
        except Exception:  # storage is out: read (or set) at the first request instead
            log.warning("the deployment's first day could not be read yet", exc_info=True)
        self.metrics.dailies_preparing.set_function(services.dailies.preparing)
        if s.backfill_look_alikes and not await self.backfill_look_alikes():
            later = asyncio.create_task(self.backfill_look_alikes(retry=10), name="look-alikes")
            self._tasks.append(later)
        self.relay = relay = Relay(self.hub, services.watch, delay=s.watch_delay)
        # a player's first connection here follows their channel (News); their last
        # leaving is noted in their presence too
        news, presence = services.news, services.presence

        def left(player: str) -> None:
            news.left(player)
            presence.gone(player)

        self.hub.arrived, self.hub.left = news.arrived, left
        assert services.tournaments is not None
        self.tournament_relay = TournamentRelay(
            self.hub, services.tournaments, rate=s.tournament_events
        )
        routes = Routes(services, self.hub, s, self.metrics, relay=relay)
        routes.tournament_relay = self.tournament_relay
        self.sessions = sessions = Sessions(
            s, self.metrics, self.hub, routes.dispatch, refused=routes.refused
        )
        # The listener first: a port in use stops the start before any background work
        # (the dailies' choices, race events) has begun.
        self.server = await serve(
            sessions.handler,
            s.host,
            s.port,
            subprotocols=[Subprotocol(P.SUBPROTOCOL)],
            process_request=Endpoints(
                services,
                self.metrics,
                sessions,
                static=self.static,
                origins=Origins.parse(s.allowed_origins),
            ).process_request,
            compression="deflate" if s.compression else None,
            max_size=s.hard_max_frame,
            max_queue=4,
            open_timeout=s.handshake_timeout,
            # each connection's own keepalive (conn.py): websockets' waits for a full
            # buffer to drain before its ping, with no limit
            ping_interval=None,
            ping_timeout=None,
            close_timeout=5,
            reuse_port=s.reuse_port or None,
        )
        if s.metrics:
            self.operator = OperatorPort(s.metrics, self.metrics.render)
            await self.operator.start()
        if not s.public_url:  # the address served, its port once bound
            services.links.base = served(s.host, self.port)
        events = Events(self.hub, services.games, services.races, relay)
        assert services.tournaments is not None
        events.tournaments = self.tournament_relay
        self._tasks.append(asyncio.create_task(self.tournament_relay.keep(), name="tournaments"))
        ticks = services.tournaments.run()
        self._tasks.append(asyncio.create_task(ticks, name="tournament-ticks"))
        services.news.local = events.deliver
        self._tasks.append(asyncio.create_task(services.news.listen(events.deliver), name="news"))
        spectators = relay.keep(s.presence_interval)
        self._tasks.append(asyncio.create_task(spectators, name="spectators"))
        presence_beat = services.races.keep_presence(self.hub.online, interval=s.presence_interval)
        self._tasks.append(asyncio.create_task(presence_beat, name="race-presence"))
        self._tasks.append(asyncio.create_task(services.presence.keep(), name="presence"))
        if s.prepare_dailies:
            prepare = asyncio.create_task(self.prepare_dailies(), name="prepare-dailies")
            self._tasks.append(prepare)
        log.info("pasyans-server listening on ws://%s:%d/ws", s.host, self.port)

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    @property
    def metrics_port(self) -> int:
        """The operator's port (``--metrics``), where ``/metrics`` is served."""
        assert self.operator is not None, "no --metrics address"
        return self.operator.port

    async def stop(self) -> None:
        """Graceful shutdown; safe to call twice. Every step is bounded in time."""
        limit = self.settings.shutdown_timeout
        if self.operator is not None:
            await self.operator.close()
            self.operator = None
        if self.server is not None and self.sessions is not None and not self.sessions.draining:
            self.server.server.close()  # stop accepting
            await self.sessions.drain(limit)
            self.server.close(code=P.CLOSE_GOING_AWAY, reason="server shutting down")
            await bounded("closing connections", self.server.wait_closed(), limit)
        await cancel(self._tasks, 2)
        self._tasks.clear()
        if self.relay is not None:
            await self.relay.close()
        if self.services is not None:  # the dailies' choices under way end here
            await bounded("daily choices", self.services.dailies.close(), 2)
        if self.pool is not None:
            await bounded("solver processes", self.pool.close(), 5)
            self.pool = None
        if self.services is not None:
            await bounded("races", self.services.races.close(), 2)
            if self.services.tournaments is not None:
                await bounded("tournaments", self.services.tournaments.close(), 2)
        if self.store is not None:
            await bounded("redis client", self.store.close(), 2)
            self.store = None
        if self.embedded is not None:
            await self.embedded.stop()
            self.embedded = None

    async def backfill_look_alikes(self, retry: float = 0) -> bool:
        """Give the players registered before look-alike names were refused their
        look-alike keys (``Accounts.backfill``), before this server takes a
        registration; False if storage failed (then the server starts anyway and, with
        ``retry`` seconds, tries again every ``retry`` seconds until it is done)."""
        assert self.services is not None
        while True:
            try:
                await self.services.accounts.backfill()
                return True
            except Exception:
                if being_cancelled():
                    raise asyncio.CancelledError from None
                log.exception("giving earlier players their look-alike keys failed")
            if not retry:
                return False
            await asyncio.sleep(retry)

    async def prepare_dailies(self) -> None:
        """Keep the dailies prepared: today's first, then the next days' (one budget)."""
        assert self.services is not None
        await self.services.dailies.keep_prepared(self.settings.prepare_days)
