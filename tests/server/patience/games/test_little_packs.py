"""Little Packs (Маленькие пачки, seed 004 в): counting A…K with exiles, the spread
thirteenth pile, eight kings down or up round the corner, one unshuffled redeal."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import KING, code, parse, rank
from server.patience.engine import IllegalMove, Move, State, shuffled
from server.patience.games.little_packs import GAME
from server.patience.travel import TravelVars, count_deal
from server.solver import solve
from tests.server.patience.test_travel import build, cards, codes, rederive

G = GAME
assert registry.get("little_packs") is G
COUNT = tuple(range(1, 14))

GOLDEN = {
    0: {
        "P1": "3H KC 3D 2S 8S QC 2C TC",
        "P2": "8C JD JD 6C AH 5H JS 9C",
        "P3": "JS KH 2S KS 7S KH KD KS",
        "P4": "6S 5H AS AS 7H 3C QH 5C",
        "P5": "4H 9H 9S QC 8H 4D 9C QH",
        "P6": "2D 5C KC JH TC 7S 4D TD",
        "P7": "TS 9S KD 8D 4C 4H 6C",
        "P8": "7H 3D 4C 4S QS JC 4S",
        "P9": "AD QD 7D 5D 2H 3C AH",
        "P10": "8H 5D 5S 3H 7D 7C 7C",
        "P11": "TH QS 9D 6D 2C 3S TD",
        "P12": "6S TH 6H 5S 2D TS AC",
        "P13": "AD 8S 2H 6H 9H JH 8D",
        "T": "JC 3S 9D QD 6D 8C AC",
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
        "P1": "9D 9D 7D JS 5C JH 9C 7S",
        "P2": "3S 5H QS KS KD KH QC KC",
        "P3": "9S QD 8H KC AS JC 8C TS",
        "P4": "AS JH 6D 9S 8S 7H AH 6S",
        "P5": "6H 4H 8H 2S JS JC 6C",
        "P6": "TC 3D TD QC KS 7S 2D",
        "P7": "2C AD 8C 3H AC 4C 8D",
        "P8": "QS QH 2C 2S TH 6C TD",
        "P9": "KD 6S 5D 2H JD QH 3C",
        "P10": "6H 7D 3C 4H 9H 4D 4C",
        "P11": "5C 5H 4D AD 6D AH 7C",
        "P12": "5D KH 2H 4S 3D 3S 7C",
        "P13": "2D 3H 9C TS 5S 8S 4S",
        "T": "TC TH QD AC 7H 8D 9H JD 5S",
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


@pytest.mark.parametrize("seed", [0, 3, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """All 104 cards dealt by counting A, 2, …, K over P1..P13; matches exiled to T."""
    state = G.deal(seed)
    _, pack, rng = shuffled(2, seed)
    piles, exiles, _, _, _ = rederive(pack, COUNT)
    assert [G.pile(state, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(state, "T") == tuple(exiles)
    assert state.rng == rng and sum(map(len, state.piles)) == 104
    assert all(rank(c) != KING for c in G.pile(state, "P13"))


def test_pile_13_lies_spread_and_the_others_squared() -> None:
    state = G.deal(0)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["P13"]["cards"] == [code(c) for c in G.pile(state, "P13")]
    assert view["P13"]["label"] == "K" and view["P13"]["fan"] == "down"
    assert view["P1"]["cards"][:-1] == [None] * 7 and view["P1"]["fan"] == "none"
    assert view["T"]["label"] == "exiles" and set(view["T"]["cards"]) == {None}
    assert [view[f"F{k}"]["label"] for k in range(1, 9)] == ["K→A", "K→Q"] * 4


def position(
    table: dict[str, str], found: dict[str, tuple[str, int]] | None = None, *, deal: int = 1
) -> State[TravelVars]:
    return build(G, table, found, rest="P1", vars=TravelVars(deal=deal))


def test_any_card_of_the_spread_pile_plays() -> None:
    state = position({"P1": "7C", "P13": "5D KH 9S KH", "T": "4S"})
    assert G.legal_moves(state) == [
        Move.card("P13", "F1", index=1),
        Move.card("P13", "F2", index=1),
        Move.card("P13", "F1", index=3),
        Move.card("P13", "F2", index=3),
    ]
    state = G.apply(state, Move.card("P13", "F2", index=1))  # the up pile: K, A, 2, …
    assert codes(G, state, "P13") == "5D 9S KH"
    assert G.legal_moves(state) == [Move.card("P13", "F1", index=2)]
    with pytest.raises(IllegalMove, match="index"):
        G.apply(state, Move.card("P13", "F1"))


def test_the_up_foundation_turns_the_corner() -> None:
    state = position(
        {"P1": "7C", "P3": "AH", "P5": "QH", "T": "4S"}, {"F1": ("H", 1), "F2": ("H", 1)}
    )
    assert G.legal_moves(state) == [Move.card("P3", "F2"), Move.card("P5", "F1")]
    state = G.apply(state, Move.card("P3", "F2"))
    assert codes(G, state, "F2") == "KH AH"


def test_an_exiled_king_is_always_playable() -> None:
    state = position({"P1": "7C", "T": "4S KC"}, {"F1": ("S", 1), "F2": ("S", 1)})
    assert G.legal_moves(state) == [Move.act("travel")]
    state = G.apply(state, Move.act("travel"))
    assert G.legal_moves(state) == [Move.card("T", "F3"), Move.card("T", "F4")]


def test_exiles_journey_and_stop_at_a_playable_card() -> None:
    """Seed (в): the exile goes under the pile of its rank; that pile's top goes under
    the pile of its own rank, and so on until a card can go to a base."""
    state = position({"P1": "7C", "P4": "KD 9C", "P9": "6H", "T": "4S"})
    state = G.apply(state, Move.act("travel"))
    assert codes(G, state, "P4") == "4S KD"
    assert codes(G, state, "P9") == "9C 6H"
    assert G.legal_moves(state) == [Move.card("P4", "F1"), Move.card("P4", "F2")]


def test_redeal_gathers_piles_1_to_13_without_shuffling() -> None:
    state = position({"P1": "7C", "P13": "5D 9S", "P4": "3C"})._replace(rng=77)
    assert G.legal_moves(state) == [Move.act("redeal")]
    after = G.apply(state, Move.act("redeal"))
    pack = [c for i in range(1, 14) for c in G.pile(state, f"P{i}")]
    piles, exiles, _, _, _ = rederive(pack, COUNT)
    assert [G.pile(after, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(after, "T") == tuple(exiles)
    assert after.vars == TravelVars(deal=2) and after.rng == 77


def test_two_deals_only() -> None:
    state = position({"P1": "7C"}, deal=2)
    assert G.status(state) == "lost"
    with pytest.raises(IllegalMove, match="over"):
        G.apply(state, Move.act("redeal"))


def test_near_won_position_is_won() -> None:
    full = {f"F{k}": ("SHDC"[(k - 1) // 2], 13) for k in range(1, 9)}
    state = position({"P13": "QD"}, {**full, "F6": ("D", 12)})
    assert G.legal_moves(state) == [Move.card("P13", "F6", index=0)]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(G.apply(state, Move.card("P13", "F6", index=0))) == "won"


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("P13", "F5", index=1), "does not fit F5: new foundations open from"),
        (Move.card("P13", "F1", index=9), "no card at index 9"),
        (Move.card("P1", "F1", index=0), "squared"),
        (Move.card("T", "F1"), "exiles lie face down"),
        (Move.act("travel"), "waits until no card"),
    ],
)
def test_illegal_moves_say_why(move: Move, reason: str) -> None:
    state = position({"P1": "7C", "P13": "5D KH", "T": "4S"})
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)


def test_seed_example_a_queen_at_queen_is_exiled_and_queen_is_counted_again() -> None:
    """Seed (в): counting "queen", a queen turns up: it is put aside and the next card
    goes on the same place, again counted "queen"."""
    deck = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS QH 5D 3D AC")
    dealt = count_deal(deck, G.count)
    assert dealt.piles[10] == [parse("QS")]  # counted "jack"
    assert dealt.piles[11] == [parse("5D")]  # pile Q: QH went aside, 5D is "queen" again
    assert dealt.piles[12] == [parse("3D")]  # pile K, the spread one
    assert dealt.travellers == [parse("QH"), parse("AC")]  # AC came at "ace"
