"""The WebSocket server: ``/ws`` (subprotocol ``pasyans.v1``), ``/healthz``, ``/metrics``.

One :class:`App` per process. Each connection runs one loop: read a frame, decode
and validate it at the edge (``protocol``), rate-limit, dispatch to a service, send
exactly one reply. Requests of one connection are answered in order; connections are
independent. Nothing a client sends can raise out of the loop: protocol errors get
their code, anything unexpected is logged with context and answered ``internal``.

Shutdown (SIGTERM/SIGINT or :meth:`App.stop`): stop accepting, let in-flight requests
finish (``shutdown_timeout``), send ``bye``, close every socket with 1001.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import http
import importlib.resources
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import redis.exceptions
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response
from websockets.typing import Subprotocol

import protocol as P
from protocol import ErrorCode, Op, ProtocolError

from ..patience import registry
from ..services import Clock, Services, daily_overview
from ..services.clock import day_after
from ..services.daily import Budget, Chooser, choose
from ..services.games import find_game
from ..services.race_news import RaceNews
from ..settings import Settings
from ..store import EmbeddedRedis, Store
from .metrics import Metrics
from .ratelimit import TokenBucket

log = logging.getLogger("pasyans.server")

#: The cyclic garbage collector's thresholds for a serving process. Every move
#: allocates a few hundred short-lived objects (state, view, reply), so with CPython's
#: default (700, 10, 10) the collector runs every couple of moves and, with many
#: connections, full collections walk every connection's objects: measured here,
#: 30-40 % of the CPU per move at 1,000 players. Reference counting frees nearly all of
#: it anyway; the collector still runs, just less often.
GC_THRESHOLDS = (50_000, 20, 100)

#: the players' rules pages in a source checkout (an editable install); an installed
#: package carries them as ``server.rules``
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def rules_text(slug: str) -> str | None:
    """The rules page of ``slug`` (Markdown), from the package or the checkout."""
    try:
        page = importlib.resources.files("server.rules").joinpath(f"{slug}.md")
        return page.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    try:
        return (DOCS / f"{slug}.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


Result = dict[str, Any]
#: What a route answers: the reply's fields, or (the hot path: ``move``) the reply's
#: ``state`` already msgpack-encoded.
Answer = Result | bytes


def _ok_packed(re: int, state: bytes) -> bytes:
    """``P.encode(P.ok(re, state=...))`` for a state already encoded."""
    return P.encode_map(P.ok(re), P.Encoded("state", state))


async def _bounded(what: str, aw: Awaitable[Any], seconds: float) -> None:
    try:
        await asyncio.wait_for(aw, seconds)
    except TimeoutError:
        log.warning("shutdown: %s took over %s s; going on", what, seconds)


class Conn:
    """One client connection: its socket, player (once authenticated), rate-limit
    bucket and count of bad frames in a row. :meth:`push` sends it an event."""

    __slots__ = ("bad", "bucket", "player", "ws")

    def __init__(self, ws: ServerConnection, bucket: TokenBucket) -> None:
        self.ws = ws
        self.player: str | None = None
        self.bucket = bucket
        self.bad = 0

    async def push(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(P.encode(msg))

    def need_player(self) -> str:
        if self.player is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, "register or auth first")
        return self.player


class Hub:
    """Who is connected: every connection, and each player's connections (for events)."""

    def __init__(self) -> None:
        self.conns: set[Conn] = set()
        self.players: dict[str, set[Conn]] = {}

    def add(self, conn: Conn) -> None:
        self.conns.add(conn)

    def login(self, conn: Conn, player: str) -> None:
        if conn.player is not None:
            self._forget(conn)
        conn.player = player
        self.players.setdefault(player.lower(), set()).add(conn)

    def remove(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self._forget(conn)

    def _forget(self, conn: Conn) -> None:
        if conn.player is not None:
            mine = self.players.get(conn.player.lower())
            if mine is not None:
                mine.discard(conn)
                if not mine:
                    del self.players[conn.player.lower()]

    async def send_to(self, player: str, msg: dict[str, Any]) -> None:
        for conn in list(self.players.get(player.lower(), ())):
            await conn.push(msg)


class App:
    """A pasyans server process (in-process tests build one directly)."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        chooser: Chooser = choose,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.chooser = chooser
        self.pool: ProcessPoolExecutor | None = None
        self._prepare: asyncio.Task[None] | None = None
        self.metrics = Metrics()
        self.hub = Hub()
        self.embedded: EmbeddedRedis | None = None
        self.store: Store | None = None
        self.services: Services | None = None
        self.server: Server | None = None
        self.draining = False
        self.inflight = 0
        self._idle = asyncio.Event()
        #: ops open to anyone: the handler gets the connection
        self._public: dict[Op, Callable[[Conn, Any], Awaitable[Answer]]] = {
            Op.REGISTER: self.op_register,
            Op.AUTH: self.op_auth,
            Op.GAMES: self.op_games,
            Op.RULES: self.op_rules,
            Op.DAILY: self.op_daily,
            Op.LEADERBOARD: self.op_leaderboard,
        }
        #: ops of a signed-in player: the handler gets the player's name
        self._signed_in: dict[Op, Callable[[str, Any], Awaitable[Answer]]] = {
            Op.START: self.op_start,
            Op.RESUME: self.op_resume,
            Op.MOVE: self.op_move,
            Op.UNDO: self.op_undo,
            Op.RESIGN: self.op_resign,
            Op.HINT: self.op_hint,
            Op.MY_GAMES: self.op_my_games,
            Op.RACE_CREATE: self.op_race_create,
            Op.RACE_JOIN: self.op_race_join,
            Op.RACE_START: self.op_race_start,
            Op.RACE_LEAVE: self.op_race_leave,
            Op.RACE_REMATCH: self.op_race_rematch,
        }
        assert set(self._public) == P.PUBLIC_OPS
        assert set(self._public) | set(self._signed_in) == set(P.REQUESTS)
        self._listener: asyncio.Task[None] | None = None

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        s = self.settings
        if gc.get_threshold()[0] < GC_THRESHOLDS[0]:
            gc.set_threshold(*GC_THRESHOLDS)
        url = s.redis_cluster or s.redis_url
        if url is None:
            self.embedded = EmbeddedRedis(s.data_dir, binary=s.redis_server)
            await self.embedded.start()
            url = self.embedded.url
        self.store = Store(
            url,
            cluster=bool(s.redis_cluster),
            prefix=s.key_prefix,
            max_connections=s.redis_connections,
            observe=self.metrics.observe_redis,
        )
        if s.solver_workers > 0:
            self.pool = ProcessPoolExecutor(s.solver_workers)
        self.services = Services.build(
            self.store,
            self.clock,
            chooser=self.chooser,
            budget=Budget(s.candidate_nodes, s.daily_nodes),
            executor=self.pool,
            cache_size=s.game_cache,
            countdown=s.race_countdown,
        )
        self._listener = asyncio.create_task(self.listen(), name="race-events")
        if s.prepare_dailies:
            self._prepare = asyncio.create_task(self.prepare_dailies(), name="prepare-dailies")
        self.server = await serve(
            self.handler,
            s.host,
            s.port,
            subprotocols=[Subprotocol(P.SUBPROTOCOL)],
            process_request=self.process_request,
            compression="deflate" if s.compression else None,
            max_size=s.hard_max_frame,
            max_queue=4,
            ping_interval=s.ping_interval or None,
            ping_timeout=s.ping_timeout or None,
            close_timeout=5,
            reuse_port=s.reuse_port or None,
        )
        log.info("pasyans-server listening on ws://%s:%d/ws", s.host, self.port)

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def stop(self) -> None:
        """Graceful shutdown; safe to call twice. Every step is bounded in time."""
        limit = self.settings.shutdown_timeout
        if self.server is not None and not self.draining:
            self.draining = True
            self.server.server.close()  # stop accepting
            if self.inflight:
                self._idle.clear()
                await _bounded("in-flight requests", self._idle.wait(), limit)
            bye = P.event(P.Event.BYE, reason="server shutting down")
            pushes = asyncio.gather(*(c.push(bye) for c in list(self.hub.conns)))
            await _bounded("bye", pushes, limit)
            self.server.close(code=P.CLOSE_GOING_AWAY, reason="server shutting down")
            await _bounded("closing connections", self.server.wait_closed(), limit)
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.wait({self._listener}, timeout=2)
            self._listener = None
        if self._prepare is not None:
            self._prepare.cancel()
            await asyncio.wait({self._prepare}, timeout=2)
            self._prepare = None
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        if self.services is not None:
            await _bounded("races", self.services.races.close(), 2)
        if self.store is not None:
            await _bounded("redis client", self.store.close(), 2)
            self.store = None
        if self.embedded is not None:
            await self.embedded.stop()
            self.embedded = None

    async def prepare_dailies(self) -> None:
        """Choose today's and tomorrow's dailies in the background (a day ahead), and
        each next day's as the days go by."""
        assert self.services is not None
        dailies = self.services.dailies
        while True:
            today = dailies.today()
            try:
                await dailies.prepare([today, day_after(today)])
            except Exception:  # a storage outage: try again later
                log.exception("preparing the dailies failed")
            await asyncio.sleep(600)

    # -- events across instances --------------------------------------------------------

    async def listen(self) -> None:
        """Pass race events published by any instance to the members connected here."""
        assert self.store is not None
        while True:
            pubsub = self.store.pubsub()
            try:
                await pubsub.psubscribe(self.store.keys.race_channels())
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is not None and msg.get("type") == "pmessage":
                        try:
                            await self.deliver(RaceNews.from_bytes(msg["data"]))
                        except Exception:
                            log.exception("cannot deliver a race event")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("race event listener: %r; reconnecting", exc)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 1)  # type: ignore[no-untyped-call]

    async def deliver(self, news: RaceNews) -> None:
        race = news.race
        ev = P.event(P.Event.RACE, **race)
        for member in news.members:
            await self.hub.send_to(member, ev)
        for member, gid in news.games.items():
            if not self.hub.players.get(member.lower()):
                continue
            try:
                state = await self.sv.games.resume(member, gid)
            except Exception:
                log.exception("race %s: cannot load the game of %s", news.race_id, member)
                continue
            started = P.event(P.Event.RACE_STARTED, race_id=news.race_id, state=state)
            await self.hub.send_to(member, started)

    # -- HTTP -------------------------------------------------------------------------

    async def process_request(
        self, connection: ServerConnection, request: HttpRequest
    ) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            if self.draining:
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            offered = ",".join(request.headers.get_all("Sec-WebSocket-Protocol"))
            if P.SUBPROTOCOL not in [p.strip() for p in offered.split(",")]:
                return connection.respond(
                    http.HTTPStatus.BAD_REQUEST,
                    f"this endpoint speaks the WebSocket subprotocol {P.SUBPROTOCOL}: "
                    "offer it in Sec-WebSocket-Protocol\n",
                )
            return None
        if path == "/healthz":
            healthy = False
            if self.store is not None:
                with contextlib.suppress(redis.exceptions.RedisError, OSError, TimeoutError):
                    healthy = await asyncio.wait_for(self.store.ping(), 2.0)
            if healthy:
                return connection.respond(http.HTTPStatus.OK, "ok")
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "redis unavailable\n")
        if path == "/metrics":
            body = self.metrics.render()
            headers = Headers(
                [
                    ("Content-Type", "text/plain; version=0.0.4; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                ]
            )
            return Response(200, "OK", headers, body)
        return connection.respond(
            http.HTTPStatus.NOT_FOUND, "not found: try /ws, /healthz, /metrics\n"
        )

    # -- WebSocket --------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        s = self.settings
        conn = Conn(ws, TokenBucket(s.rate, s.burst, time.monotonic()))
        self.hub.add(conn)
        self.metrics.connections.inc()
        self.metrics.connections_total.inc()
        try:
            async for frame in ws:
                if self.draining:
                    break
                self.inflight += 1
                try:
                    reply = await self.handle_frame(conn, frame)
                    await ws.send(reply if isinstance(reply, bytes) else P.encode(reply))
                finally:
                    self.inflight -= 1
                    if self.draining and not self.inflight:
                        self._idle.set()
                if conn.bad >= s.max_bad_frames:
                    self.metrics.policy_closes.inc()
                    reason = f"{conn.bad} bad frames in a row"
                    await conn.push(P.event(P.Event.BYE, reason=reason))
                    await ws.close(P.CLOSE_POLICY, reason)
                    break
        except ConnectionClosed:
            pass
        finally:
            self.hub.remove(conn)
            self.metrics.connections.dec()

    async def handle_frame(self, conn: Conn, frame: bytes | str) -> dict[str, Any] | bytes:
        """Exactly one reply to one frame; never raises."""
        try:
            msg = P.decode(frame, max_size=self.settings.max_frame)
        except ProtocolError as exc:
            conn.bad += 1
            self.metrics.bad_frames.labels(str(exc.code)).inc()
            rid = P.peek_id(frame) if isinstance(frame, bytes) else None
            return P.error(rid, exc.code, exc.message)
        rid = P.usable_id(msg.get("id"))
        if not conn.bucket.take(time.monotonic()):
            self.metrics.rate_limited.inc()
            retry = round(conn.bucket.wait() + 0.001, 3)
            return P.error(
                rid,
                ErrorCode.RATE_LIMITED,
                f"too many requests: retry after {retry:g} s",
                retry_after=retry,
            )
        try:
            req = P.parse_request(msg)
        except ProtocolError as exc:
            conn.bad += 1
            self.metrics.bad_frames.labels(str(exc.code)).inc()
            return P.error(rid, exc.code, exc.message)
        conn.bad = 0
        op = req.op
        start = time.perf_counter()
        try:
            if op in P.PUBLIC_OPS:
                result = await self._public[op](conn, req)
            else:
                result = await self._signed_in[op](conn.need_player(), req)
            self.metrics.count_op(op, "ok")
            if isinstance(result, bytes):
                return _ok_packed(req.id, result)
            return P.ok(req.id, **result)
        except ProtocolError as exc:
            self.metrics.count_op(op, exc.code)
            return P.error(req.id, exc.code, exc.message, **exc.extra)
        except redis.exceptions.RedisError as exc:
            log.error("redis error in %s (id %s, player %s): %r", op, req.id, conn.player, exc)
            self.metrics.count_op(op, "internal")
            return P.error(req.id, ErrorCode.INTERNAL, "storage is unavailable; try again")
        except Exception:
            log.exception("unexpected error in %r (player %s)", req, conn.player)
            self.metrics.count_op(op, "internal")
            return P.error(req.id, ErrorCode.INTERNAL, "internal error")
        finally:
            if op is Op.MOVE:
                self.metrics.move_seconds.observe(time.perf_counter() - start)

    # -- operations -------------------------------------------------------------------

    @property
    def sv(self) -> Services:
        assert self.services is not None
        return self.services

    @property
    def limits(self) -> dict[str, float]:
        """The request budget of every connection, told at sign-in so that a client
        can pace itself: ``rate`` requests a second, ``burst`` at once."""
        return {"rate": self.settings.rate, "burst": self.settings.burst}

    async def op_register(self, conn: Conn, req: P.Register) -> Result:
        token = await self.sv.accounts.register(req.name)
        self.hub.login(conn, req.name)
        return {"player": req.name, "token": token, "limits": self.limits}

    async def op_auth(self, conn: Conn, req: P.Auth) -> Result:
        name = await self.sv.accounts.authenticate(req.token)
        self.hub.login(conn, name)
        return {"player": name, "limits": self.limits}

    async def op_games(self, conn: Conn, req: P.Games) -> Result:
        games = [
            {
                "slug": g.slug,
                "title_en": g.title_en,
                "title_ru": g.title_ru,
                "decks": g.decks,
                "summary": g.summary,
            }
            for g in registry.games()
        ]
        return {"games": games}

    async def op_rules(self, conn: Conn, req: P.Rules) -> Result:
        find_game(req.game)
        text = await asyncio.to_thread(rules_text, req.game)
        if text is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"the rules of {req.game} are not written yet")
        return {"game": req.game, "text": text}

    async def op_start(self, player: str, req: P.Start) -> Result:
        state = await self.sv.games.start(player, req.game, req.mode, req.seed)
        return {"state": state}

    async def op_resume(self, player: str, req: P.Resume) -> Result:
        return {"state": await self.sv.games.resume(player, req.game_id)}

    async def op_move(self, player: str, req: P.Move) -> bytes | Result:
        games = self.sv.games
        if req.reply is P.ReplyForm.DELTA:
            return {"delta": await games.move_delta(player, req.game_id, req.seq, req.move)}
        return await games.move_packed(player, req.game_id, req.seq, req.move)

    async def op_undo(self, player: str, req: P.Undo) -> Result:
        delta = req.reply is P.ReplyForm.DELTA
        state = await self.sv.games.undo(player, req.game_id, req.seq, delta=delta)
        return {"delta": state} if delta else {"state": state}

    async def op_resign(self, player: str, req: P.Resign) -> Result:
        return {"state": await self.sv.games.resign(player, req.game_id)}

    async def op_hint(self, player: str, req: P.Hint) -> Result:
        return await self.sv.games.hint(player, req.game_id)

    async def op_my_games(self, player: str, req: P.MyGames) -> Result:
        return await self.sv.games.my_games(player, req.limit, req.cursor)

    async def op_daily(self, conn: Conn, req: P.Daily) -> Result:
        return await daily_overview(self.sv.games, req.date, conn.player)

    async def op_race_create(self, player: str, req: P.RaceCreate) -> Result:
        race = await self.sv.races.create(player, req.game, req.seed, daily=req.daily)
        return {"race": race}

    async def op_race_join(self, player: str, req: P.RaceJoin) -> Result:
        race = await self.sv.races.join(player, req.code)
        state = await self.sv.races.my_game(player, race["race_id"])
        return {"race": race} if state is None else {"race": race, "state": state}

    async def op_race_start(self, player: str, req: P.RaceStart) -> Result:
        return {"race": await self.sv.races.start(player, req.race_id)}

    async def op_race_leave(self, player: str, req: P.RaceLeave) -> Result:
        return await self.sv.races.leave(player, req.race_id)

    async def op_race_rematch(self, player: str, req: P.RaceRematch) -> Result:
        return {"race": await self.sv.races.rematch(player, req.race_id)}

    async def op_leaderboard(self, conn: Conn, req: P.Leaderboard) -> Result:
        find_game(req.game)
        date = self.sv.dailies.check_date(req.date)
        return await self.sv.boards.page(
            req.game,
            req.board,
            date,
            limit=req.limit,
            cursor=req.cursor,
            around_me=req.around_me,
            player=conn.player,
        )
