"""What stops a command, said to the player in words (``str()`` of each): the
server's refusals by their message key, never their code (docs/i18n.md)."""

from __future__ import annotations

import http
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from protocol.errors import ErrorCode, error_key

from .lang import _, current, say

Message = dict[str, Any]


class ClientError(Exception):
    """Anything that stops a command; ``str()`` is meant for the user."""


class ServerUnavailable(ClientError):
    pass


class ServerError(ClientError):
    """A failed reply: ``code`` (an :class:`ErrorCode` value), the server's message,
    and the error's other fields in ``extra`` (``state`` for ``stale_seq``).

    ``state`` is the game as the server has it after the refusal, when the request
    was a move or undo of :meth:`Connection.play`/:meth:`Connection.take_back`
    (None otherwise, or when it could not be fetched)."""

    def __init__(
        self,
        code: str,
        message: str,
        extra: dict[str, Any] | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}
        #: what to say to the player: a keyed message of the catalogues and its
        #: parameters (the code's own key when the server names none)
        self.key = key or error_key(code)
        self.params = dict(params or {})
        self.state: Message | None = None

    def __str__(self) -> str:
        """The error in the player's words (never its code): the keyed message; in
        English, the server's own words where they say more than the code's key (why a
        move is illegal, what a request lacks)."""
        said = say(self.key, self.params, fallback=self.message)
        own = self.key == error_key(self.code) and self.code in DETAILED
        if own and self.message and current().lang == "en":
            said = self.message  # as written: it may start with a player's name
        if self.code == ErrorCode.UNAUTHORIZED and self.key != BANNED:
            return said + " " + _("Run `pasyans login TOKEN` or `pasyans register NAME`.")
        return said


#: the operators banned the account (issue 49): said as it is, the token kept
BANNED = "error.banned"

#: codes whose English message says more than their key (the rule a move broke)
DETAILED = frozenset(
    {ErrorCode.ILLEGAL_MOVE, ErrorCode.BAD_REQUEST, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND}
)


class UsageError(ClientError):
    """The command cannot be done as asked, whatever the server says (exit status 2)."""


# -- the server out of reach, or not a pasyans server ---------------------------------


def unreachable(url: str, why: object) -> ServerUnavailable:
    return ServerUnavailable(
        _(
            "cannot reach the pasyans server at {url}: {why}\n"
            "Is it running? Start one with `make run` in the source tree (it runs "
            "`pasyans-server serve`), or pick another with --server URL (or PASYANS_SERVER).",
            url=url,
            why=why,
        )
    )


def http_server(url: str, status: int) -> ServerUnavailable:
    """An HTTP server answered a page (200: a pasyans server's web client at ``/``) or
    404 where the WebSocket was asked for: a URL without the ``/ws`` path, most
    likely."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    said = f"HTTP {status} {http.HTTPStatus(status).phrase}"
    if path.endswith("/ws"):
        return ServerUnavailable(
            _(
                "{url} answers {status}: this is an HTTP server but has no "
                "pasyans WebSocket there (a pasyans server's is ws://HOST:PORT/ws)",
                url=url,
                status=said,
            )
        )
    fixed = urlunsplit(parts._replace(path=f"{path}/ws", query="", fragment=""))
    return ServerUnavailable(
        _(
            "{url} answers {status}: this is an HTTP server: use {fixed} "
            "(a pasyans server's WebSocket is at /ws)",
            url=url,
            status=said,
            fixed=fixed,
        )
    )


def not_websocket(url: str) -> ServerUnavailable:
    return ServerUnavailable(
        _(
            "{url} is not a WebSocket URL: a pasyans server is ws://HOST:PORT/ws "
            "(or wss:// behind TLS), e.g. ws://127.0.0.1:8765/ws",
            url=url,
        )
    )
