"""Frames as maps, both ways: the builders of requests, replies and events, and the
client's reader of what the server sends (:func:`parse_reply`).

The builders shape the envelope only (docs/protocol.md, "Envelope"); what goes in it
is described by ``protocol.requests``, ``protocol.results`` and ``protocol.events``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ErrorCode, ProtocolError, error_key
from .ops import Event, Op


def request(id: int, op: Op | str, **params: Any) -> dict[str, Any]:
    """A request frame's map (params that are None are left out)."""
    msg: dict[str, Any] = {"id": id, "op": str(op)}
    msg.update((k, v) for k, v in params.items() if v is not None)
    return msg


def ok(re: int | None, **result: Any) -> dict[str, Any]:
    """A successful reply to request ``re``."""
    msg: dict[str, Any] = {"re": re, "ok": True}
    msg.update(result)
    return msg


def error(re: int | None, code: ErrorCode, message: str, **extra: Any) -> dict[str, Any]:
    """A failed reply; ``extra`` goes into the error object (e.g. ``state``, and the
    ``key`` and ``params`` a client says it with: the code's own key when not given).

    ``re`` is None only when the request's id could not be read (undecodable frame).
    """
    err: dict[str, Any] = {"code": str(code), "message": message, "key": error_key(code)}
    err["params"] = {}
    err.update(extra)
    return {"re": re, "ok": False, "error": err}


def event(name: Event | str, **fields: Any) -> dict[str, Any]:
    """An unasked server → client message."""
    msg: dict[str, Any] = {"ev": str(name)}
    msg.update(fields)
    return msg


# -- the client's side ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """A reply to request ``re``: ``result`` holds every field but ``re``/``ok``."""

    re: int | None
    ok: bool
    result: dict[str, Any]
    error: ProtocolError | None = None

    def unwrap(self) -> dict[str, Any]:
        """The result of a successful reply; raises its ``ProtocolError`` otherwise."""
        if self.error is not None:
            raise self.error
        return self.result


@dataclass(frozen=True, slots=True)
class Push:
    """An event the server sent unasked."""

    name: str
    fields: dict[str, Any]


def parse_reply(msg: Mapping[str, Any]) -> Reply | Push:
    """A decoded server frame as a :class:`Reply` or a :class:`Push`; raises
    ``ProtocolError(bad_request)`` when it is neither."""
    if "ev" in msg:
        name = msg["ev"]
        if not isinstance(name, str):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "an event's 'ev' is a string")
        return Push(name, {k: v for k, v in msg.items() if k != "ev"})
    re_, ok_ = msg.get("re"), msg.get("ok")
    re_ok = re_ is None or (isinstance(re_, int) and not isinstance(re_, bool))
    if not isinstance(ok_, bool) or not re_ok:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a reply has an integer 're' and a boolean 'ok'")
    result = {k: v for k, v in msg.items() if k not in ("re", "ok")}
    if ok_:
        return Reply(re_, True, result)
    err = msg.get("error")
    if not isinstance(err, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a failed reply has an 'error' map")
    try:
        code = ErrorCode(str(err.get("code")))
    except ValueError:
        code = ErrorCode.INTERNAL
    message = err.get("message")
    extra = {k: v for k, v in err.items() if k not in ("code", "message", "key", "params")}
    key, params = err.get("key"), err.get("params")
    exc = ProtocolError(
        code,
        message if isinstance(message, str) else "",
        key=key if isinstance(key, str) else None,
        params=params if isinstance(params, dict) else None,
        **extra,
    )
    return Reply(re_, False, result, exc)
