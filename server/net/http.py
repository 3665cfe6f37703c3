"""Plain HTTP on the WebSocket's port: the ``/ws`` handshake's checks, ``/healthz``
(200 when Redis answers, 503 while the server drains) and ``/metrics`` (Prometheus text)."""

from __future__ import annotations

import asyncio
import contextlib
import http

import redis.exceptions
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

import protocol as P

from ..store import Store
from .metrics import Metrics
from .session import Sessions


class Endpoints:
    def __init__(self, store: Store, metrics: Metrics, sessions: Sessions) -> None:
        self.store = store
        self.metrics = metrics
        self.sessions = sessions

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """An HTTP answer, or None to go on with the WebSocket handshake."""
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return self.handshake(connection, request)
        if path == "/healthz":
            if self.sessions.draining:  # a load balancer stops sending us players
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            healthy = False
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

    def handshake(self, connection: ServerConnection, request: Request) -> Response | None:
        if self.sessions.draining:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
        offered = ",".join(request.headers.get_all("Sec-WebSocket-Protocol"))
        if P.SUBPROTOCOL not in [p.strip() for p in offered.split(",")]:
            return connection.respond(
                http.HTTPStatus.BAD_REQUEST,
                f"this endpoint speaks the WebSocket subprotocol {P.SUBPROTOCOL}: "
                "offer it in Sec-WebSocket-Protocol\n",
            )
        return None
