"""Cotillion (Котильон, seed 004 а, note): kings to the bases during the deal, the king
slot feeding the reserve R, spread once the travellers are used up."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import KING, code
from server.patience.engine import IllegalMove, Move, State, shuffled
from server.patience.games.cotillion import GAME
from server.patience.rng import shuffle
from server.patience.travel import TravelVars
from server.solver import solve
from tests.server.patience.test_travel import build, codes, rederive

G = GAME
assert registry.get("cotillion") is G
COUNT = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
KINGS = {f"F{k}": ("SHDC"[(k - 1) % 4], 1) for k in range(1, 9)}

GOLDEN = {
    0: {
        "P1": "3H 5H 9S 4S 6D 4D 4D",
        "P2": "8C 9H 4C 9D TC 7S 6C",
        "P3": "JS 5C 7D 5D 4C 4H 4S",
        "P4": "6S 9S 5S 3H 8C 3C AH",
        "P5": "4H 3D 9D 6D QS 7C 7C",
        "P6": "2D QD 6H QD 2H 3S TD",
        "P7": "TS 5D 2H 5S 7D TS AC",
        "P8": "AD JC 2S 6H 2C JH 8D",
        "P9": "8H QS 3S 8S 2D AC TC",
        "P10": "TH TH AS AH 9H 2C 9C",
        "P11": "6S 8S QC 7S QC JS 5C",
        "P12": "AD JD JH 7H 5H QH QH",
        "P13": "JD AS 8D 8H 3C 9C TD",
        "T": "7H 3D 2S 6C JC",
        "R": "",
        "F1": "KC",
        "F2": "KH",
        "F3": "KC",
        "F4": "KD",
        "F5": "KS",
        "F6": "KH",
        "F7": "KD",
        "F8": "KS",
    },
    2**64 - 1: {
        "P1": "9D JH 8H 3H TH QH 8D",
        "P2": "3S 4H TD 2S JD 4D 8D",
        "P3": "9S 3D 8C 2H 9H AH TD",
        "P4": "AS AD 2C TH 6D 3S 9H",
        "P5": "6H QH 5D 4H 3D 8S 3C",
        "P6": "TC 6S TC AD 5S AC 4C",
        "P7": "2C 7D 3C QD JH 9C JD",
        "P8": "QS 5H 4D 4S JC QC 4S",
        "P9": "5C 3H 2H TS 7H 8C 7S",
        "P10": "2D 7D 9C AS JC AH TS",
        "P11": "9D QS JS 8S 7S 6C 6S",
        "P12": "5H 8H 9S JS 4C 2D 5S",
        "P13": "QD 6D QC AC 6C 7H",
        "T": "6H 5D 2S 5C 7C 7C",
        "R": "",
        "F1": "KD",
        "F2": "KH",
        "F3": "KS",
        "F4": "KC",
        "F5": "KD",
        "F6": "KS",
        "F7": "KH",
        "F8": "KC",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    assert {pid: codes(G, state, pid) for pid in G.ids} == GOLDEN[seed]


@pytest.mark.parametrize("seed", [0, 9, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """All 104 dealt by counting A, K, Q, …, 2; kings go to F1..F8 as they come (the
    count stays); the cards at the call "king" form the kings' pile P2."""
    state = G.deal(seed)
    _, pack, rng = shuffled(2, seed)
    piles, trav, res, bases, _ = rederive(pack, COUNT, bases=KING)
    assert [G.pile(state, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(state, "P2") and not res
    assert G.pile(state, "T") == tuple(trav)
    assert G.pile(state, "R") == tuple(res)
    assert [G.pile(state, f"F{k}") for k in range(1, 9)] == [(c,) for c in bases]
    assert state.rng == rng and sum(map(len, state.piles)) == 104


def test_the_kings_pile_is_a_table_pile_until_spread() -> None:
    """«распределяют карты из стопки «королей»»: the kings' pile P2 lies squared in the
    row like the others; R is empty until the spread."""
    state = G.deal(0)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["R"]["cards"] == [] and view["R"]["kind"] == "reserve"
    assert view["P2"]["label"] == "K" and view["P2"]["cards"] == [None] * 6 + ["6C"]
    assert all(view[f"F{k}"]["label"] == "K→A" for k in range(1, 9))
    assert G.view(state)["info"]["reserve_spread"] is False


def position(
    table: dict[str, str],
    found: dict[str, tuple[str, int]] | None = None,
    *,
    spread: bool = False,
    deal: int = 1,
) -> State[TravelVars]:
    return build(
        G, table, {**KINGS, **(found or {})}, rest="P1", vars=TravelVars(deal=deal, spread=spread)
    )


def test_the_kings_pile_plays_its_top_before_the_spread() -> None:
    """The kings' pile P2 is one of the thirteen piles, its top played like any other;
    only the cards left in it when the travellers are out are distributed."""
    state = position({"P1": "7C", "T": "9H", "P2": "5S 8C QD"})
    assert G.legal_moves(state) == [Move.card("P2", "F3"), Move.card("P2", "F7")]
    state = G.apply(state, Move.card("P2", "F3"))
    assert codes(G, state, "P2") == "5S 8C" and codes(G, state, "R") == ""
    with pytest.raises(IllegalMove, match="index"):
        G.apply(state, Move.card("P2", "F3", index=0))


def test_travellers_first_then_the_kings_pile_is_spread() -> None:
    """«После выхода всех «путешественников» распределяют карты из стопки «королей»»."""
    state = position({"P1": "7C", "T": "9H", "P2": "5S QD 8C"})
    assert G.legal_moves(state) == [Move.act("travel")]
    with pytest.raises(IllegalMove, match="spread later: now travel"):
        G.apply(state, Move.act("spread"))
    state = G.apply(state, Move.act("travel"))  # 9H under the empty pile 9: stop
    assert codes(G, state, "P6") == "9H"
    assert G.legal_moves(state) == [Move.act("spread")]
    state = G.apply(state, Move.act("spread"))
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["R"]["cards"] == ["5S", "QD", "8C"] and view["P2"]["cards"] == []
    assert G.legal_moves(state) == [Move.card("R", "F3", index=1), Move.card("R", "F7", index=1)]
    with pytest.raises(IllegalMove, match="index"):
        G.apply(state, Move.card("R", "F3"))
    state = G.apply(state, Move.card("R", "F7", index=1))
    assert codes(G, state, "R") == "5S 8C" and codes(G, state, "F7") == "KD QD"
    assert G.legal_moves(state) == [Move.act("redeal")]


def test_redeal_gathers_piles_and_reserve_and_shuffles() -> None:
    state = position({"P1": "7C", "R": "5S 8C"}, spread=True)._replace(rng=99)
    after = G.apply(state, Move.act("redeal"))
    pack = [c for i in range(1, 14) for c in G.pile(state, f"P{i}")] + list(G.pile(state, "R"))
    rng = shuffle(pack, 99)
    piles, trav, res, bases, _ = rederive(pack, COUNT, bases=KING)
    assert bases == [] and res == []
    assert [G.pile(after, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert (G.pile(after, "T"), G.pile(after, "R")) == (tuple(trav), tuple(res))
    assert after.rng == rng and after.vars == TravelVars(deal=2)


def test_near_won_from_the_spread_reserve() -> None:
    full = {f: (s, 13) for f, (s, _) in KINGS.items()}
    state = position({"R": "AH"}, {**full, "F6": ("H", 12)}, spread=True)
    assert G.pile(state, "P1") == ()
    assert G.legal_moves(state) == [Move.card("R", "F6", index=0)]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    state = G.apply(state, Move.card("R", "F6", index=0))
    assert G.status(state) == "won"


def test_third_deal_stuck_is_lost() -> None:
    state = position({"P1": "7C", "R": "5S"}, spread=True, deal=3)
    assert G.status(state) == "lost"
    assert code(G.pile(state, "R")[0]) == "5S"
