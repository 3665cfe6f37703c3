"""Travellers, eight aces (seed 004 а, the original variant): aces laid in play, one up
and one down (round the corner) per suit, chosen by the first ace."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.engine import IllegalMove, Move, State, shuffled
from server.patience.games.travellers_aces import GAME
from server.patience.travel import TravelVars
from server.solver import solve
from tests.server.patience.test_travel import build, codes, rederive

G = GAME
assert registry.get("travellers_aces") is G
COUNT = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)

GOLDEN = {
    0: {
        "P1": "3H JD JD 3S 7H 5H KD 5C",
        "P2": "8C 5H 2S AS 8H 3C QH QH",
        "P3": "JS 9H AS JH 6D 4D 9C TD",
        "P4": "6S 5C 9S 8D TC 7S 4D",
        "P5": "4H 9S KC 4S 4C 4H 6C",
        "P6": "2D 3D KD 5D 8C JC 4S",
        "P7": "TS QD 4C 3H QS 3C AH",
        "P8": "AD 5D 5S 6D 2H 3S TD",
        "P9": "8H JC 9D QD 7D TS AC",
        "P10": "TH QS 6H 6H 2C JH 8D",
        "P11": "6S TH 2H 8S 2D AC TC",
        "P12": "AD 8S 2S AH 9H 2C 9C",
        "P13": "KC 3D 6C 7S QC JS KS",
        "T": "7H KH 7D KS QC 9D 5S KH 7C 7C",
        "F1": "",
        "F2": "",
        "F3": "",
        "F4": "",
        "F5": "",
        "F6": "",
        "F7": "",
        "F8": "",
    },
    2**64 - 1: {
        "P1": "9D 5H 8H KS 5C JC 6C 7S",
        "P2": "3S QD 6D 9S AS 7S 2D TS",
        "P3": "9S JH 8H 2S 8S 4C 7H 6S",
        "P4": "AS 4H TD QC KS 6C 8D 5S",
        "P5": "6H 3D 8C 3H AC QH 8D",
        "P6": "TC AD 2C 2S TH 4D TD",
        "P7": "2C QH 5D 2H JD AH 9H",
        "P8": "QS 6S TC TH 9H 3S 3C",
        "P9": "KD 7D 3C 4H 3D 8S 4C",
        "P10": "6H KH 4D AD JH AC JD",
        "P11": "5C 3H 2H QD KH 9C 7C",
        "P12": "5D 7D 9C 4S JC QC 7C",
        "P13": "9D QS JS TS 7H 8C 4S",
        "T": "2D 5H KC KD JS 6D 5S AH KC",
        "F1": "",
        "F2": "",
        "F3": "",
        "F4": "",
        "F5": "",
        "F6": "",
        "F7": "",
        "F8": "",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    assert {pid: codes(G, state, pid) for pid in G.ids} == GOLDEN[seed]


@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """Nothing set aside: all 104 cards dealt by counting A, K, Q, …, 2."""
    state = G.deal(seed)
    _, pack, rng = shuffled(2, seed)
    piles, trav, _, _, _ = rederive(pack, COUNT)
    assert [G.pile(state, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(state, "T") == tuple(trav)
    assert all(G.pile(state, f"F{k}") == () for k in range(1, 9))
    assert state.rng == rng and sum(map(len, state.piles)) == 104
    assert not any(c % 13 == 0 for c in G.pile(state, "P1")), "an ace at 'ace' travels"


def test_four_foundations_build_up_and_four_down_round_the_corner() -> None:
    """Seed: «На четырех из них карты собирают в масть в восходящем, на четырех - в масть
    в нисходящем порядке»."""
    view = G.view(G.deal(0))["piles"]
    assert [p["label"] for p in view if p["kind"] == "foundation"] == ["A→K"] * 4 + ["A→2"] * 4


def position(
    table: dict[str, str],
    found: dict[str, tuple[str, int]] | None = None,
    t: str = "",
    deal: int = 1,
) -> State[TravelVars]:
    """Piles as given (P1 also holds every card placed nowhere else, below its top)."""
    return build(G, {"T": t, **table}, found, rest="P1", vars=TravelVars(deal=deal))


def test_the_player_chooses_each_aces_direction() -> None:
    state = position({"P1": "7C", "P4": "AS", "P9": "AS"}, t="5D")
    assert G.legal_moves(state) == [
        Move.card("P4", "F1"),
        Move.card("P4", "F5"),
        Move.card("P9", "F1"),
        Move.card("P9", "F5"),
    ]
    state = G.apply(state, Move.card("P4", "F5"))  # down: A, K, Q, …, 2
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["F5"]["base"] == "AS" and view["F5"]["label"] == "A→2"
    # No pairing by suit: the second A♠ may build down too, or up.
    assert G.legal_moves(state) == [Move.card("P9", "F1"), Move.card("P9", "F6")]
    with pytest.raises(IllegalMove, match="build down goes to the leftmost free one, F6"):
        G.apply(state, Move.card("P9", "F7"))
    state = G.apply(state, Move.card("P9", "F6"))
    assert codes(G, state, "F5") == codes(G, state, "F6") == "AS"


def test_at_most_four_aces_build_each_way() -> None:
    """«На четырех из них … в восходящем, на четырех - … в нисходящем»: a fifth ace may
    not build up, nor a fifth down."""
    up = {f"F{k}": ("SHDC"[k - 1], 1) for k in range(1, 5)}
    state = position({"P1": "7C", "P4": "AH"}, up, t="5D")
    assert G.legal_moves(state) == [Move.card("P4", "F5")]  # the four up are taken
    with pytest.raises(IllegalMove, match="four aces already build up"):
        G.apply(state, Move.card("P4", "F1"))
    down = {f"F{k}": ("SHDC"[k - 5], 1) for k in range(5, 9)}
    state = position({"P1": "7C", "P4": "AH"}, {**down, "F1": ("S", 3)}, t="5D")
    assert G.legal_moves(state) == [Move.card("P4", "F2")]  # the four down are taken
    with pytest.raises(IllegalMove, match="four aces already build down"):
        G.apply(state, Move.card("P4", "F8"))


def test_only_an_ace_starts_a_foundation() -> None:
    state = position({"P1": "7C", "P4": "2H"}, {"F1": ("S", 1)}, t="5D")
    with pytest.raises(IllegalMove, match="F2: it is empty: only an ace starts it"):
        G.apply(state, Move.card("P4", "F2"))
    with pytest.raises(IllegalMove, match="F5: it is empty: only an ace starts it"):
        G.apply(state, Move.card("P4", "F5"))


def test_an_ace_laid_up_and_one_laid_down_are_different_positions() -> None:
    """The direction is the player's choice: the two moves lead to two positions (the
    solver must not take one for the other), though both put A♠ on a foundation."""
    state = position({"P1": "7C", "P4": "AS"}, t="5D")
    up, down = G.apply(state, Move.card("P4", "F1")), G.apply(state, Move.card("P4", "F5"))
    assert codes(G, up, "F1") == codes(G, down, "F5") == "AS"
    assert G.position_key(up) != G.position_key(down)
    # Foundations of one direction are alike: which of them holds an ace is no matter.
    other = position({"P1": "7C"}, {"F2": ("S", 1)}, t="5D")
    assert G.position_key(other) == G.position_key(up)


def test_the_down_foundation_turns_the_corner() -> None:
    state = position({"P1": "7C", "P2": "KS", "P3": "2S"}, {"F1": ("S", 1), "F5": ("S", 1)}, t="5D")
    assert G.legal_moves(state) == [Move.card("P2", "F5"), Move.card("P3", "F1")]
    state = G.apply(state, Move.card("P2", "F5"))
    assert codes(G, state, "F5") == "AS KS"


def test_a_drawn_ace_is_always_playable() -> None:
    state = position({"P1": "7C"}, {"F1": ("H", 2), "F5": ("H", 1)}, t="5D AD")
    assert G.legal_moves(state) == [Move.act("travel")]
    state = G.apply(state, Move.act("travel"))
    assert G.legal_moves(state) == [Move.card("T", "F2"), Move.card("T", "F6")]
    state = G.apply(state, Move.card("T", "F2"))
    assert codes(G, state, "F2") == "AD" and codes(G, state, "T") == "5D"


def test_journey_runs_as_in_the_main_variant() -> None:
    state = position({"P1": "7C", "P6": "2S 4C", "P11": "6S"}, {"F1": ("S", 1)}, t="9H")
    state = G.apply(state, Move.act("travel"))
    assert codes(G, state, "P6") == "9H 2S"  # 4C travels under pile 4; 2S uncovered
    assert codes(G, state, "P11") == "4C 6S"
    assert G.legal_moves(state) == [Move.card("P6", "F1")]


def test_near_won_position_is_won() -> None:
    full = {f"F{k}": ("SHDC"[(k - 1) % 4], 13) for k in range(1, 9)}
    state = position({"P7": "2C"}, {**full, "F8": ("C", 12)})
    assert G.legal_moves(state) == [Move.card("P7", "F8")]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(G.apply(state, Move.card("P7", "F8"))) == "won"


def test_stuck_in_the_third_deal_is_lost() -> None:
    state = position({"P1": "7C"}, deal=3)
    assert G.status(state) == "lost"
    assert G.legal_moves(position({"P1": "7C"}, deal=2)) == [Move.act("redeal")]
