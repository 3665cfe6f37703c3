"""Error codes and close codes of the wire protocol, each defined once.

Exceptions::

    ProtocolError(code, message)   anything the peer sent that the protocol refuses;
                                   ``code`` is the :class:`ErrorCode` put on the wire
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """The ``error.code`` of a failed reply (docs/protocol.md, "Error codes")."""

    BAD_REQUEST = "bad_request"
    UNKNOWN_OP = "unknown_op"
    UNAUTHORIZED = "unauthorized"
    NOT_FOUND = "not_found"
    NAME_TAKEN = "name_taken"
    ILLEGAL_MOVE = "illegal_move"
    STALE_SEQ = "stale_seq"
    GAME_OVER = "game_over"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"
    FORBIDDEN = "forbidden"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A request (or reply) the protocol refuses.

    ``extra`` holds additional fields of the error object, e.g. the current ``state``
    of a ``stale_seq`` error.
    """

    def __init__(self, code: ErrorCode, message: str, **extra: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra

    def __repr__(self) -> str:
        return f"ProtocolError(ErrorCode.{self.code.name}, {self.message!r})"


# WebSocket close codes the server uses (RFC 6455 §7.4.1).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001  # the server shuts down
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_UNSUPPORTED = 1003
CLOSE_POLICY = 1008  # repeated abuse (too many bad frames in a row)
CLOSE_TOO_BIG = 1009  # a frame over the hard limit (far beyond MAX_FRAME)
CLOSE_INTERNAL = 1011
CLOSE_RESTART = 1012
CLOSE_TRY_AGAIN = 1013
