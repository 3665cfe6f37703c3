"""The msgpack codec: one binary frame, one map with string keys, size-limited."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import MAX_FRAME, ErrorCode, ProtocolError, decode, encode, peek_id


def code_of(data: bytes | str) -> ErrorCode:
    with pytest.raises(ProtocolError) as err:
        decode(data)
    return err.value.code


def test_round_trip() -> None:
    msg = {"id": 1, "op": "move", "move": {"from": "T1", "to": "T2"}, "b": b"\x00"}
    assert decode(encode(msg)) == msg


def test_text_frames_are_refused() -> None:
    assert code_of('{"id": 1}') is ErrorCode.BAD_REQUEST


@pytest.mark.parametrize("value", [[1, 2], "op", 3, None, True, 1.5, b"raw"])
def test_non_maps_are_refused(value: object) -> None:
    assert code_of(msgpack.packb(value)) is ErrorCode.BAD_REQUEST


def test_non_string_keys_are_refused() -> None:
    assert code_of(msgpack.packb({1: "x"})) is ErrorCode.BAD_REQUEST
    assert code_of(msgpack.packb({b"id": 1})) is ErrorCode.BAD_REQUEST


@pytest.mark.parametrize(
    "data", [b"", b"\xc1", b"\x81", b"\x81\xa2id", b"\x80\x80", b"\xd4\x01\x00"]
)
def test_bad_msgpack_is_refused(data: bytes) -> None:
    assert code_of(data) is ErrorCode.BAD_REQUEST


def test_oversized_frames_are_too_large() -> None:
    frame = encode({"id": 7, "op": "games", "pad": "x" * MAX_FRAME})
    assert code_of(frame) is ErrorCode.TOO_LARGE
    assert peek_id(frame) == 7


def test_frame_at_the_limit_is_accepted() -> None:
    base = len(encode({"p": ""}))
    pad = MAX_FRAME - base - 4
    frame = encode({"p": "x" * pad})
    assert len(frame) <= MAX_FRAME
    assert decode(frame)["p"] == "x" * pad


def test_deep_nesting_does_not_crash() -> None:
    frame = b"\x81\xa1x" + b"\x91" * 30_000 + b"\x01"  # {"x": [[[...1...]]]}
    assert code_of(frame) is ErrorCode.BAD_REQUEST


@given(st.binary(max_size=200))
def test_decode_never_raises_anything_else(data: bytes) -> None:
    try:
        assert isinstance(decode(data), dict)
    except ProtocolError as exc:
        assert exc.code in (ErrorCode.BAD_REQUEST, ErrorCode.TOO_LARGE)
