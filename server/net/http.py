"""Plain HTTP on the WebSocket's port: the ``/ws`` handshake's checks (subprotocol,
``Origin``, connections per address), ``/healthz`` (200 when Redis answers, 503 while
the server drains), ``/protocol.json`` (the protocol's AsyncAPI document) and the web
client's files (``static``). ``/metrics`` is not here: it is served on the operator's
address (``operator``).

websockets answers one HTTP request a connection and then closes it, so every answer
here says ``Connection: close``: an HTTP/1.1 client that keeps connections alive opens
a new one for its next request instead of writing it to a closed socket."""

from __future__ import annotations

import asyncio
import functools
import gzip
import http
from collections.abc import Iterable
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

import protocol as P

from ..services import Services
from .metrics import Metrics
from .session import Sessions
from .static import StaticFiles, accepts_gzip

#: the default port of each scheme an Origin or Host may leave out
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def origin_key(origin: str) -> str | None:
    """``scheme://host:port`` of an origin, lower case, with its default port written
    out (``http://Example.org`` → ``http://example.org:80``); None if it is no origin
    (``null``, a path, garbage)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port or DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname or port is None:
        return None
    return f"{parts.scheme.lower()}://{parts.hostname.lower()}:{port}"


def same_host(origin: str, host: str) -> bool:
    """Whether the page at ``origin`` was served by the host the request names in its
    ``Host`` header (its port written out or the scheme's default)."""
    key = origin_key(origin)
    if key is None or not host:
        return False
    scheme = key.split(":", 1)[0]
    here = origin_key(f"{scheme}://{host}")
    return here == key


class Origins:
    """Who may open the WebSocket from a web page: pages of this server (the
    ``Origin`` names the host the request was sent to) and the origins of the
    ``allowed_origins`` setting (``*``: any). A request with no ``Origin`` (the
    terminal client, any program that is not a browser) is no page and is allowed:
    the check only keeps other sites' pages from playing with a visitor's account."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        words = [w.strip() for w in allowed if w.strip()]
        self.any = "*" in words
        self.allowed = {key for w in words if (key := origin_key(w)) is not None}

    @classmethod
    def parse(cls, setting: str) -> Origins:
        return cls(setting.split(","))

    def allows(self, origin: str | None, host: str | None) -> bool:
        if origin is None:
            return True
        if self.any or same_host(origin, host or ""):
            return True
        return origin_key(origin) in self.allowed


@functools.cache
def protocol_document() -> tuple[bytes, bytes]:
    """The AsyncAPI document of the protocol (``protocol.schema``, as committed in
    docs/protocol.asyncapi.json), plain and gzipped: made once, on the first ask (a
    few tenths of a second, in a thread), never on a server that nobody asks."""
    from protocol.schema import document, dumps

    body = dumps(document()).encode()
    return body, gzip.compress(body, mtime=0)


class Endpoints:
    def __init__(
        self,
        services: Services,
        metrics: Metrics,
        sessions: Sessions,
        *,
        static: StaticFiles | None = None,
        origins: Origins | None = None,
    ) -> None:
        self.services = services
        self.metrics = metrics
        self.sessions = sessions
        self.static = static
        self.origins = origins or Origins()

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """An HTTP answer (saying ``Connection: close``), or None to go on with the
        WebSocket handshake."""
        response = await self.answer(connection, request)
        if response is not None and "Connection" not in response.headers:
            response.headers["Connection"] = "close"
        return response

    async def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return self.handshake(connection, request)
        if path == "/healthz":
            if self.sessions.draining:  # a load balancer stops sending us players
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            if await self.services.healthy():
                return connection.respond(http.HTTPStatus.OK, "ok")
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "redis unavailable\n")
        if path == "/protocol.json":
            return await self.protocol(request)
        if self.static is not None:
            answer = self.static.answer(path, request)
            if answer is not None:
                return answer
        return connection.respond(
            http.HTTPStatus.NOT_FOUND, "not found: try /, /ws, /healthz, /protocol.json\n"
        )

    async def protocol(self, request: Request) -> Response:
        """``GET /protocol.json``: the protocol's AsyncAPI document, readable by any page
        (it is public: ``Access-Control-Allow-Origin: *``)."""
        plain, gzipped = await asyncio.to_thread(protocol_document)
        headers = Headers(
            [
                ("Content-Type", "application/json; charset=utf-8"),
                ("Cache-Control", "no-cache"),
                ("Access-Control-Allow-Origin", "*"),
                ("Vary", "Accept-Encoding"),
            ]
        )
        body = plain
        if accepts_gzip(request):
            body = gzipped
            headers["Content-Encoding"] = "gzip"
        headers["Content-Length"] = str(len(body))
        return Response(200, "OK", headers, body)

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
        origins = request.headers.get_all("Origin")
        origin = origins[0] if origins else None
        if len(origins) > 1 or not self.origins.allows(origin, request.headers.get("Host")):
            return connection.respond(
                http.HTTPStatus.FORBIDDEN,
                f"a page of {origin} may not open this server's WebSocket: a page served "
                "by this server may (or list its origin in --allowed-origins)\n",
            )
        if not self.sessions.admit(connection, request):
            cap = self.sessions.settings.address_connections
            refused = connection.respond(
                http.HTTPStatus.TOO_MANY_REQUESTS,
                f"your address holds {cap} connections to this server already: close one "
                "and try again\n",
            )
            refused.headers["Retry-After"] = "5"
            return refused
        return None
