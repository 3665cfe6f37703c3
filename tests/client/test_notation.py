from __future__ import annotations

import pytest

from client.notation import NotationError, forced, format_move, parse, resolve

PILES = ["T3", "FA-H", "R", "F3", "S", "X"]


@pytest.mark.parametrize(
    ("line", "wire"),
    [
        ("T3 FA-H", {"from": "T3", "to": "FA-H"}),
        ("t3 fa-h", {"from": "T3", "to": "FA-H"}),
        ("T3>FA-H", {"from": "T3", "to": "FA-H"}),
        ("  R[2]   F3 ", {"from": "R", "index": 2, "to": "F3"}),
        ("deal", {"action": "deal"}),
        ("swap a=P1 b=P4", {"action": "swap", "a": "P1", "b": "P4"}),
        ("grace ace=C3 king=-", {"action": "grace", "ace": "C3", "king": None}),
        ("pick n=3", {"action": "pick", "n": 3}),
    ],
)
def test_parse(line: str, wire: dict[str, object]) -> None:
    assert parse(line, PILES) == wire


@pytest.mark.parametrize("line", ["", "T3", "T3 FA-H F1", "T3 F1[2]", "swap a", "3 4"])
def test_parse_refuses(line: str) -> None:
    with pytest.raises(NotationError):
        parse(line, PILES)


@pytest.mark.parametrize(
    "wire",
    [
        {"from": "T3", "to": "FA-H"},
        {"from": "R", "index": 2, "to": "F3"},
        {"action": "deal"},
        {"action": "swap", "a": "P1", "b": "P4"},
        {"action": "grace", "ace": None, "king": "C7"},
    ],
)
def test_format_round_trips(wire: dict[str, object]) -> None:
    assert parse(format_move(wire), [*PILES, "P1", "P4"]) == wire


def test_resolve_picks_the_legal_entry() -> None:
    legal: list[dict[str, object]] = [
        {"from": "T3", "to": "FA-H"},
        {"from": "R", "index": 1, "to": "F3"},
        {"action": "grace", "ace": None, "king": "C7"},
    ]
    assert resolve({"from": "T3", "to": "FA-H"}, legal) is legal[0]
    # an index left out names the one legal move between the two piles
    assert resolve({"from": "R", "to": "F3"}, legal) is legal[1]
    # a parameter left out is null
    assert resolve({"action": "grace", "king": "C7"}, legal) is legal[2]
    assert resolve({"from": "T3", "to": "F3"}, legal) is None
    assert resolve({"action": "deal"}, legal) is None


def test_forced_is_a_single_action() -> None:
    assert forced([{"action": "deal"}]) == {"action": "deal"}
    assert forced([{"action": "deal"}, {"from": "X", "to": "F1"}]) is None
    assert forced([{"from": "X", "to": "F1"}]) is None
    assert forced([]) is None
