"""The pasyans wire protocol, version 1 (PROTOCOL.md), for servers and clients.

Pure: no I/O, and nothing from ``server`` or ``client``::

    frame = encode(request(1, Op.MOVE, game_id=gid, seq=3, move={"from": "T1", "to": "T2"}))
    req = parse_request(decode(frame))       # Move(id=1, game_id=..., seq=3, move={...})
    reply = parse_reply(decode(answer))      # Reply(re=1, ok=True, result={"state": ...})
"""

from __future__ import annotations

from .codec import MAX_FRAME, decode, encode, peek_id
from .errors import (
    CLOSE_GOING_AWAY,
    CLOSE_INTERNAL,
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_PROTOCOL_ERROR,
    CLOSE_RESTART,
    CLOSE_TOO_BIG,
    CLOSE_TRY_AGAIN,
    CLOSE_UNSUPPORTED,
    ErrorCode,
    ProtocolError,
)
from .messages import (
    MAX_ID,
    PUBLIC_OPS,
    REQUESTS,
    Auth,
    Board,
    Daily,
    Event,
    Games,
    Leaderboard,
    Mode,
    Move,
    MyGames,
    Op,
    Push,
    RaceCreate,
    RaceJoin,
    RaceLeave,
    RaceStart,
    Register,
    Reply,
    Request,
    Resign,
    Resume,
    Rules,
    Start,
    Undo,
    error,
    event,
    ok,
    parse_reply,
    parse_request,
    request,
)

VERSION = 1
SUBPROTOCOL = "pasyans.v1"

__all__ = [
    "CLOSE_GOING_AWAY",
    "CLOSE_INTERNAL",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_PROTOCOL_ERROR",
    "CLOSE_RESTART",
    "CLOSE_TOO_BIG",
    "CLOSE_TRY_AGAIN",
    "CLOSE_UNSUPPORTED",
    "MAX_FRAME",
    "MAX_ID",
    "PUBLIC_OPS",
    "REQUESTS",
    "SUBPROTOCOL",
    "VERSION",
    "Auth",
    "Board",
    "Daily",
    "ErrorCode",
    "Event",
    "Games",
    "Leaderboard",
    "Mode",
    "Move",
    "MyGames",
    "Op",
    "ProtocolError",
    "Push",
    "RaceCreate",
    "RaceJoin",
    "RaceLeave",
    "RaceStart",
    "Register",
    "Reply",
    "Request",
    "Resign",
    "Resume",
    "Rules",
    "Start",
    "Undo",
    "decode",
    "encode",
    "error",
    "event",
    "ok",
    "parse_reply",
    "parse_request",
    "peek_id",
    "request",
]
