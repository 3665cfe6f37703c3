"""The msgpack codec: one binary frame holds one map with string keys.

Every msgpack byte the project writes or reads goes through this module: frames
(:func:`encode`, :func:`decode`), the server's own records (:func:`pack`,
:func:`unpack`: move logs, pub/sub messages, stored lines), and replies assembled from
values encoded earlier (:func:`encode_map`, :func:`encode_array`), byte for byte what
:func:`encode` makes of the same map.

``decode`` is defensive: it is fed untrusted bytes and either returns a ``dict`` with
string keys or raises :class:`~protocol.errors.ProtocolError`. Nesting depth is left
to msgpack's own limit (it refuses absurd depths) and to the validators, which read
every field's shape. It does not validate
the message itself (see :mod:`protocol.requests`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

import msgpack

from .errors import ErrorCode, ProtocolError

#: Largest request id (and any id a reply echoes).
MAX_ID = 2**63 - 1

#: Largest frame either side accepts, in bytes.
MAX_FRAME = 64 * 1024


def encode(msg: dict[str, Any]) -> bytes:
    """The msgpack bytes of a message ``msg`` (a frame)."""
    return pack(msg)


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
    if not all(map(isinstance, msg, repeat(str))):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "every key of a message is a string")
    return msg


def pack(value: object) -> bytes:
    """The msgpack bytes of any value (a move, a list, a stored record)."""
    data: bytes = msgpack.packb(value)  # use_bin_type=True: msgpack's default since 1.0
    return data


def unpack(data: bytes) -> Any:
    """The value of msgpack bytes the server wrote itself (``pack``): trusted, so no
    limits; a peer's frame goes through :func:`decode`."""
    return msgpack.unpackb(data, raw=False)


class Encoded(NamedTuple):
    """A map entry whose value is already msgpack bytes (``pack`` of it), to splice
    into :func:`encode_map` as it is."""

    key: str
    value: bytes


def _map_header(n: int) -> bytes:
    return bytes((0x80 | n,)) if n < 16 else _long_header(n, b"\xde", b"\xdf")


def _array_header(n: int) -> bytes:
    return bytes((0x90 | n,)) if n < 16 else _long_header(n, b"\xdc", b"\xdd")


def _long_header(n: int, b16: bytes, b32: bytes) -> bytes:
    return b16 + n.to_bytes(2, "big") if n < 0x10000 else b32 + n.to_bytes(4, "big")


def encode_map(*parts: Mapping[str, Any] | Encoded) -> bytes:
    """One map of ``parts`` in order: a mapping's entries are encoded here, an
    :class:`Encoded` entry is put in as it is. ``encode_map(a, Encoded(k, pack(v)),
    b) == encode({**a, k: v, **b})`` when the keys are distinct. (The server's hot
    path: a move's reply is assembled with it.)"""
    n = 0
    out: list[bytes] = []
    for part in parts:
        if isinstance(part, Encoded):
            n += 1
            out += (_KEYS.get(part.key) or _packed_key(part.key), part.value)
        elif part:
            size = len(part)
            n += size
            # pack(part) less its map header: 1, 3 or 5 bytes
            out.append(pack(part)[1 if size < 16 else 3 if size < 0x10000 else 5 :])
    return _map_header(n) + b"".join(out)


_KEYS: dict[str, bytes] = {}


def _packed_key(key: str) -> bytes:
    """``pack(key)``, kept: the keys of encoded entries are the program's own few."""
    packed = _KEYS.get(key)
    if packed is None:
        if len(_KEYS) >= 1024:
            _KEYS.clear()
        packed = _KEYS[key] = pack(key)
    return packed


def encode_array(items: Sequence[bytes]) -> bytes:
    """One array of values each already msgpack bytes (``pack`` of each)."""
    return b"".join((_array_header(len(items)), *items))


def usable_id(value: object) -> int | None:
    """``value`` when it is a request id (an integer in ``[0, MAX_ID]``, not a bool),
    else None: the one check of an id, for parsing a request and for echoing one."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    return None


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
    return usable_id(msg.get("id")) if isinstance(msg, dict) else None
