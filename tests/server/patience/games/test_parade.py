"""Parade (Парад): the deal and its aces, the seed's opening, building by threes, gaps
and misplaced cards, the depots, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import RANKS, SUITS, code, parse, rank
from server.patience.engine import IllegalMove, InvalidMove, Move, NoVars, State, as_stock, shuffled
from server.patience.games.parade import DEPOTS, GAME, SLOTS
from server.solver import solve

G = GAME
assert registry.get("parade") is G
DEAL = Move.act("deal")


def codes(state: State[NoVars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def parade_row(state: State[NoVars], k: int) -> str:
    return " ".join(codes(state, f"P{k}{c}") or "--" for c in range(8))


class Cards:
    """Card ids from wire codes: the first use of a code is deck 0, the second deck 1."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, text: str) -> int:
        c = parse(text)
        if c in self.used:
            c += 52
        assert c not in self.used, f"three copies of {text}"
        self.used.add(c)
        return c

    def rest(self) -> list[int]:
        return [c for c in range(104) if c not in self.used]


def position(piles: dict[str, str], *, stock: str = "") -> State[NoVars]:
    """Named piles (bottom first), the stock (top first); unnamed cards are left out."""
    take = Cards()
    spec = {pid: [take(t) for t in text.split()] for pid, text in piles.items()}
    spec["S"] = list(as_stock([take(t) for t in stock.split()]))
    return G.new_state(spec)


def complete(slot: str) -> str:
    """A complete pile of spades for ``slot``'s row (2 5 8 J, 3 6 9 Q, 4 7 T K)."""
    base = 2 + int(slot[1])
    return " ".join(RANKS[r - 1] + "S" for r in range(base, 14, 3))


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "rows", "aces", "stock"),
    [
        (
            0,
            ("3H 8C JS 6S 4H 2D TS 7H", "-- 8H TH 6S -- KC JD KH", "5H 9H 5C 9S 3D QD 5D JC"),
            "AD AD",
            "QS TH 8S 3D JD 2S AS 9S",
        ),
        (
            2**64 - 1,
            ("9D 3S 9S -- 6H TC 2C QS", "KD 6H 5C 5D 2D 9D 5H QD", "JH 4H 3D -- QH 6S 7D 5H"),
            "AS AD",
            "KH 3H 7D QS 8H 6D 8H TD",
        ),
    ],
)
def test_golden_deals(seed: int, rows: tuple[str, ...], aces: str, stock: str) -> None:
    state = G.deal(seed)
    assert tuple(parade_row(state, k) for k in range(3)) == rows
    assert codes(state, "X") == aces
    s = G.pile(state, "S")
    assert len(s) == 80
    assert " ".join(code(c) for c in reversed(s[-8:])) == stock
    assert all(G.pile(state, d) == () for d in DEPOTS)


def test_the_whole_of_deal_zero() -> None:
    """The same shuffle as Squaring the Circle's deal 0: its first three carpet rows,
    aces gone, then the stock from its fourth row on."""
    state = G.deal(0)
    assert [parade_row(state, k) for k in range(3)] == [
        "3H 8C JS 6S 4H 2D TS 7H",
        "-- 8H TH 6S -- KC JD KH",
        "5H 9H 5C 9S 3D QD 5D JC",
    ]
    assert codes(state, "X") == "AD AD"
    assert " ".join(code(c) for c in reversed(G.pile(state, "S"))) == (
        "QS TH 8S 3D JD 2S AS 9S KC KD 4C 7D 5S 9D 6H 2H 2S 6C 3S KS AS QC JH 8D "
        "4S 9D 5D 3H 6D QD 5S 6H 8S AH 7S 7H 8H 6D TC 4C "
        "8C QS 2H 7D 2C 2D 9H QC 5H KH 3C 4D 7S 4H JC 3C 7C 3S TS JH "
        "AC 2C JS KD QH 9C 4D 6C 4S AH 7C TD AC 8D TC 9C KS 5C QH TD"
    )


def test_deal_follows_the_rules_order() -> None:
    """104 shuffled cards: 0..23 into the parade row by row (P00..P07, P10, …), its aces
    out at once (in slot order), 24..103 the stock, 24 dealt first."""
    for seed in (5, 6, 7, 8):
        state = G.deal(seed)
        _, pack, rng = shuffled(2, seed)
        for k, c in enumerate(pack[:24]):
            assert G.pile(state, SLOTS[k]) == (() if rank(c) == 1 else (c,))
        assert G.pile(state, "X") == tuple(c for c in pack[:24] if rank(c) == 1)
        assert G.pile(state, "S") == as_stock(pack[24:])
        assert state.rng == rng
        assert G.opening(pack, rng) == state


def test_layout_ids_kinds_and_fans() -> None:
    view = {p["id"]: p for p in G.view(G.deal(0))["piles"]}
    assert set(view) == {
        *(f"P{k}{c}" for k in range(3) for c in range(8)),
        *(f"D{i}" for i in range(1, 9)),
        "S",
        "X",
    }
    assert view["X"]["kind"] == "discard" and view["S"]["kind"] == "stock"
    assert view["D1"]["fan"] == "down" and view["P00"]["kind"] == "foundation"
    assert len({(p["x"], p["y"]) for p in view.values()}) == len(view)
    assert G.view(G.deal(0))["info"] == {"deals_left": 10, "aces_out": 2}


# -- the seed's opening -----------------------------------------------------------------


#: a parade like fig. 271: A♦ and A♥ in the second row, 3♥ and 3♣ in the third, 4♠ and
#: 4♦ in the second, a 2 already in the first row, a 6♦ with no 3♦ out
FIG_271 = (
    "2S 7C 9H JD 6D 8C TH QC",
    "KH AD 4S 9C AH 4D 8D TC",
    "5H 3H QD 7H JS 3C KC 9D",
)


def test_seed_opening_the_aces_go_and_the_threes_and_fours_change_rows() -> None:
    """Seed: after the aces (♦ and ♥) are removed, 3♥ and 3♣ move from the third row to
    the second and 4♠ and 4♦ from the second to the third: five bases are in place
    (the 2 was there from the start), and nothing can be built yet."""
    take = Cards()
    parade = [take(t) for line in FIG_271 for t in line.split()]
    state = G.opening(parade + take.rest())
    assert codes(state, "X") == "AD AH"
    assert G.pile(state, "P11") == () and G.pile(state, "P14") == ()
    assert G.score(state) == (1, 96)
    legal = G.legal_moves(state)
    assert legal == [
        Move.card("P21", "P11"),
        Move.card("P21", "P14"),
        Move.card("P25", "P11"),
        Move.card("P25", "P14"),
        DEAL,
    ]
    with pytest.raises(IllegalMove, match="P21 holds 3♥, which is not a base"):
        G.apply(state, Move.card("P12", "P21"))  # no gap in the fours' row yet
    state = G.apply(state, Move.card("P21", "P11"))
    state = G.apply(state, Move.card("P25", "P14"))
    assert parade_row(state, 2) == "5H -- QD 7H JS -- KC 9D"
    state = G.apply(state, Move.card("P12", "P21"))
    state = G.apply(state, Move.card("P15", "P25"))
    assert parade_row(state, 1) == "KH 3H -- 9C 3C -- 8D TC"
    assert parade_row(state, 2) == "5H 4S QD 7H JS 4D KC 9D"
    assert G.score(state) == (5, 96)
    assert G.legal_moves(state) == [DEAL]  # "none of them fits: no 3♦ for the 6♦"


# -- building -----------------------------------------------------------------------------


def test_founded_slots_build_up_by_three_in_suit() -> None:
    state = position(
        {"P00": "2S", "P10": "3H 6H 9H", "D1": "5S", "D2": "5H", "D3": "QH", "D4": "6S"}, stock="KC"
    )
    legal = G.legal_moves(state)
    assert Move.card("D1", "P00") in legal and Move.card("D3", "P10") in legal
    assert Move.card("D2", "P00") not in legal
    with pytest.raises(IllegalMove, match="P00 builds in ♠, not 5♥"):
        G.apply(state, Move.card("D2", "P00"))
    with pytest.raises(IllegalMove, match=r"P00 needs 5♠ next \(up by three\), not 6♠"):
        G.apply(state, Move.card("D4", "P00"))
    state = G.apply(state, Move.card("D3", "P10"))
    assert codes(state, "P10") == "3H 6H 9H QH"


def test_a_complete_pile_takes_nothing_and_its_cards_never_leave() -> None:
    state = position({"P00": complete("P00"), "P01": "2S", "D1": "5S"}, stock="KC")
    assert Move.card("D1", "P00") not in G.legal_moves(state)
    with pytest.raises(IllegalMove, match="P00 is complete"):
        G.apply(state, Move.card("D1", "P00"))
    with pytest.raises(IllegalMove, match="never leave a pile built"):
        G.apply(state, Move.card("P00", "P10"))
    with pytest.raises(IllegalMove, match="2♠ is a base in its own row"):
        G.apply(state, Move.card("P01", "P10"))


def test_a_gap_takes_only_the_base_of_its_row_in_any_suit() -> None:
    state = position({"D1": "2H", "D2": "3C", "D3": "4D", "D4": "5S"}, stock="KC")
    legal = set(G.legal_moves(state))
    assert {Move.card("D1", "P00"), Move.card("D2", "P17"), Move.card("D3", "P23")} <= legal
    assert Move.card("D1", "P10") not in legal and Move.card("D3", "P00") not in legal
    with pytest.raises(IllegalMove, match="gap in the twos' row takes only a 2"):
        G.apply(state, Move.card("D3", "P00"))
    with pytest.raises(IllegalMove, match="gap in the fours' row takes only a 4"):
        G.apply(state, Move.card("D4", "P20"))


def test_a_misplaced_card_moves_into_a_gap_or_onto_a_pile_and_takes_nothing() -> None:
    state = position({"P00": "2S", "P01": "4H", "P20": "5S", "P21": "7D", "D1": "8S"}, stock="KC")
    legal = G.legal_moves(state)
    assert Move.card("P20", "P00") in legal  # 5♠ misplaced in the fours' row builds on 2♠
    assert Move.card("P01", "P22") in legal  # 4♥ misplaced in the twos' row fills a gap
    assert Move.card("D1", "P20") not in legal
    with pytest.raises(IllegalMove, match="P20 holds 5♠, which is not a base of this row"):
        G.apply(state, Move.card("D1", "P20"))
    state = G.apply(state, Move.card("P20", "P00"))
    assert codes(state, "P00") == "2S 5S" and G.pile(state, "P20") == ()
    state = G.apply(state, Move.card("D1", "P00"))
    assert codes(state, "P00") == "2S 5S 8S"
    assert G.score(state) == (3, 96)  # the misplaced 4♥ and 7♦ are not on a foundation


def test_nothing_goes_onto_depots_stock_or_aces_and_there_is_no_swap() -> None:
    state = position({"P10": "4S", "P20": "3H", "D1": "9C", "D2": "8C", "X": "AS"}, stock="KC")
    with pytest.raises(IllegalMove, match="nothing may be put onto a depot"):
        G.apply(state, Move.card("D1", "D2"))
    with pytest.raises(IllegalMove, match="the aces are out of play"):
        G.apply(state, Move.card("X", "P00"))
    with pytest.raises(IllegalMove, match="deal action"):
        G.apply(state, Move.card("S", "D1"))
    with pytest.raises(IllegalMove, match="no action 'swap'"):
        G.apply(state, Move.act("swap", a="P10", b="P20"))
    with pytest.raises(InvalidMove):
        G.parse_move({"action": "swap", "a": "P10", "b": "P20"})
    # The swap is made through a gap instead: 3♥ has none in the threes' row here.
    assert Move.card("P20", "P10") not in G.legal_moves(state)


# -- the depots and the stock ---------------------------------------------------------------


def test_deal_puts_eight_cards_on_the_depots_and_discards_aces_at_once() -> None:
    state = position({"D1": "KC", "P00": "2S 5S"}, stock="9S AH 7D 6C 5H 8S AC QD TC JH 8S")
    assert G.view(state)["info"] == {"deals_left": 2, "aces_out": 0}
    state = G.apply(state, DEAL)
    assert [codes(state, d) for d in DEPOTS] == ["KC 9S", "", "7D", "6C", "5H", "8S", "", "QD"]
    assert codes(state, "X") == "AH AC"
    assert G.view(state)["info"] == {"deals_left": 1, "aces_out": 2}
    state = G.apply(state, DEAL)  # the last three cards
    assert [codes(state, d) for d in DEPOTS[:4]] == ["KC 9S TC", "JH", "7D 8S", "6C"]
    assert G.pile(state, "S") == ()
    with pytest.raises(IllegalMove, match="the stock is empty"):
        G.apply(state, DEAL)


def test_deal_is_allowed_at_any_time_and_depots_show_every_card() -> None:
    state = position({"P00": "2S", "D1": "5S 7H"}, stock="3C 4C")
    assert Move.card("D1", "P00") not in G.legal_moves(state)  # 7♥ covers the 5♠
    assert DEAL in G.legal_moves(state)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["D1"]["cards"] == ["5S", "7H"]
    with pytest.raises(IllegalMove, match="only top cards move"):
        G.apply(state, Move.card("D1", "P00", index=0))


# -- the end ----------------------------------------------------------------------------


def test_a_near_won_position_is_won() -> None:
    piles = {}
    for k in range(3):
        for c in range(8):
            slot = f"P{k}{c}"
            suit_ = SUITS[c % 4]
            base = 2 + k
            piles[slot] = " ".join(RANKS[r - 1] + suit_ for r in range(base, 14, 3))
    piles["P27"] = "4C 7C TC"
    piles["D8"] = "KC"
    piles["X"] = "AS AH AD AC AS AH AD AC"
    state = position(piles)
    assert sum(len(p) for p in state.piles) == 104
    assert G.score(state) == (95, 96) and G.status(state) == "playing"
    assert G.legal_moves(state) == [Move.card("D8", "P27")]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    state = G.apply(state, Move.card("D8", "P27"))
    assert G.status(state) == "won" and G.score(state) == (96, 96)


def test_a_dead_position_is_lost() -> None:
    # The stock is out; 5♠ would go onto 2♠ but lies under 8♠; 5♥ is misplaced in the
    # threes' row with no pile to go to, and 6♥ has no 3♥ to build on.
    state = position({"P00": "2S", "P10": "5H", "D1": "5S 8S", "D2": "6H"})
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


# -- hidden information ---------------------------------------------------------------


def test_only_the_stock_is_hidden() -> None:
    state = G.apply(G.deal(3), DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * len(G.pile(state, "S"))
    for pid in (*SLOTS, *DEPOTS, "X"):
        assert view[pid]["cards"] == [code(c) for c in G.pile(state, pid)]
    other = state._replace(
        piles=tuple(tuple(reversed(p)) if i == G.at["S"] else p for i, p in enumerate(state.piles))
    )
    assert other.piles != state.piles and G.view(other) == G.view(state)
