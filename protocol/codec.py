"""The msgpack codec: one binary frame holds one map with string keys.

``decode`` is defensive: it is fed untrusted bytes and either returns a ``dict`` with
string keys or raises :class:`~protocol.errors.ProtocolError`. Nesting depth is left
to msgpack's own limit (it refuses absurd depths) and to the validators, which read
every field's shape. It does not validate
the message itself (see :mod:`protocol.messages`).
"""

from __future__ import annotations

from typing import Any

import msgpack

from .errors import ErrorCode, ProtocolError

#: Largest frame either side accepts, in bytes.
MAX_FRAME = 64 * 1024

_packer_options: dict[str, Any] = {"use_bin_type": True}


def encode(msg: dict[str, Any]) -> bytes:
    """The msgpack bytes of ``msg`` (``use_bin_type=True``)."""
    data: bytes = msgpack.packb(msg, **_packer_options)
    return data


def decode(data: bytes | str, *, max_size: int = MAX_FRAME) -> dict[str, Any]:
    """The map in a frame; raises ``ProtocolError`` with ``too_large`` for frames over
    ``max_size`` bytes and ``bad_request`` for text frames, bad msgpack, trailing
    bytes, non-map payloads and non-string keys."""
    if isinstance(data, str):
        raise ProtocolError(
            ErrorCode.BAD_REQUEST, "text frames are not accepted: send binary msgpack"
        )
    if len(data) > max_size:
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"frame of {len(data)} bytes is over the {max_size}-byte limit"
        )
    try:
        msg = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=False,
            max_bin_len=max_size,
            max_str_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size,
            max_ext_len=0,
        )
    except msgpack.ExtraData:
        raise ProtocolError(
            ErrorCode.BAD_REQUEST, "one frame holds exactly one msgpack value"
        ) from None
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"not valid msgpack: {exc}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"a message is a msgpack map, not {_kind(msg)}")
    if not all(isinstance(key, str) for key in msg):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "every key of a message is a string")
    return msg


def _kind(value: object) -> str:
    names = {
        list: "an array",
        str: "a string",
        bytes: "binary",
        int: "an integer",
        float: "a float",
        bool: "a boolean",
        type(None): "nil",
    }
    return names.get(type(value), type(value).__name__)


def peek_id(data: bytes) -> int | None:
    """Best effort: the request ``id`` of a frame that ``decode`` refused (so the error
    reply can still carry ``re``); None when there is no usable id."""
    try:
        msg = msgpack.unpackb(data, raw=False, strict_map_key=False, max_ext_len=0)
    except Exception:
        return None
    if isinstance(msg, dict):
        rid = msg.get("id")
        if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid < 2**63:
            return rid
    return None
