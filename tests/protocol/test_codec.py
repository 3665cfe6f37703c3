"""The msgpack codec: one binary frame, one map with string keys, size-limited."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import (
    MAX_FRAME,
    Encoded,
    ErrorCode,
    ProtocolError,
    decode,
    encode,
    encode_array,
    encode_map,
    pack,
    peek_id,
    unpack,
    usable_id,
)


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


# -- the server's own bytes and replies assembled from parts ---------------------------


@given(
    head=st.dictionaries(
        st.text(max_size=4), st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8), max_size=20
    ),
    value=st.lists(st.integers(-(2**63), 2**64 - 1), max_size=20) | st.none(),
    tail=st.dictionaries(st.text(min_size=5, max_size=6), st.booleans(), max_size=3),
)
def test_a_map_assembled_from_encoded_parts_is_its_plain_encoding(
    head: dict[str, object], value: object, tail: dict[str, object]
) -> None:
    head.pop("val", None)
    tail = {k: v for k, v in tail.items() if k not in head}
    spliced = encode_map(head, Encoded("val", pack(value)), tail)
    assert spliced == encode({**head, "val": value, **tail})


@pytest.mark.parametrize("n", [0, 1, 15, 16, 65535, 65536])
def test_an_array_of_encoded_items_is_its_plain_encoding(n: int) -> None:
    items = [i % 7 for i in range(n)]
    assert encode_array([pack(i) for i in items]) == pack(items)
    assert unpack(pack(items)) == items


@pytest.mark.parametrize(
    ("value", "usable"),
    [(0, 0), (2**63 - 1, 2**63 - 1), (2**63, None), (-1, None), (True, None), ("1", None)],
)
def test_one_check_of_a_request_id(value: object, usable: int | None) -> None:
    assert usable_id(value) == usable
    assert peek_id(pack({"id": value})) == usable
