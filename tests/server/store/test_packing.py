"""A finished game packed small (``server/store/packing.py``, issue 50): what goes in
comes out, byte for byte, for any state and log; and a summarised game keeps every
field its history line shows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import pack
from server.services.records import RESIGN, SUMMARY_FIELDS, UNDO
from server.store.packing import SUMMARY_KEEP, CorruptPacked, pack_game, unpack_game

#: log entries as a game writes them: wire moves (few distinct ones), undo, resign
MOVES = st.one_of(
    st.builds(
        lambda a, b: pack({"from": a, "to": b}),
        st.sampled_from(["T1", "T2", "W", "S", "R3"]),
        st.sampled_from(["F1", "F2", "T4", "FA-1"]),
    ),
    st.builds(lambda a: pack({"action": a}), st.sampled_from(["deal", "redeal", "shift"])),
    st.just(UNDO),
    st.just(RESIGN),
)


@given(state=st.binary(max_size=400), log=st.lists(MOVES, max_size=600))
def test_a_packed_game_unpacks_to_what_was_packed(state: bytes, log: list[bytes]) -> None:
    assert unpack_game(pack_game(state, log)) == (state, log)


@given(
    state=st.binary(max_size=50),
    log=st.lists(st.binary(max_size=8), max_size=2000),
)
def test_any_entries_come_back_in_order(state: bytes, log: list[bytes]) -> None:
    """Whatever the entries (more than 256 distinct ones take two bytes an entry)."""
    assert unpack_game(pack_game(state, log)) == (state, log)


def test_many_distinct_entries() -> None:
    log = [i.to_bytes(3, "big") for i in range(70_000)] + [b"x"] * 3
    assert unpack_game(pack_game(b"s", log)) == (b"s", log)


def test_a_long_log_packs_to_a_few_bytes_a_move() -> None:
    log = [pack({"from": f"T{i % 8}", "to": f"F{i % 4}"}) for i in range(500)]
    blob = pack_game(bytes(range(200)), log)
    assert len(blob) < 200 + 500  # the raw entries are 500 × 20 bytes
    assert unpack_game(blob)[1] == log


@pytest.mark.parametrize("blob", [b"", b"\x00abc", b"\x01not deflate", b"\x02"])
def test_what_is_not_a_packed_game_is_refused(blob: bytes) -> None:
    with pytest.raises(CorruptPacked):
        unpack_game(blob)


def test_a_summary_keeps_the_history_line() -> None:
    assert set(SUMMARY_FIELDS) <= set(SUMMARY_KEEP)
