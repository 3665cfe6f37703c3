"""Squaring the Circle (Квадратура круга): the deal, the circle of 32 bases with the
seed's release order, building by suit, two unshuffled redeals, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import RANKS, SUITS, code
from server.patience.engine import IllegalMove, Move, State, as_stock, shuffled
from server.patience.games.squaring_circle import SLOTS
from server.patience.grid import CELLS, cell_id
from server.patience.grid import CarpetVars as Vars
from server.solver import solve
from tests.server.patience.games.positions import Pack

G = registry.get("squaring_circle")
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def row(state: State[Vars], r: int) -> str:
    return " ".join(codes(state, cell_id(r, c)) or "--" for c in range(8))


def complete(slot: str) -> str:
    """The cards of a complete slot, e.g. ``A S 1`` → ``AS 2S 3S 4S``."""
    base, s = RANKS.index(slot[1]) + 1, slot[2]
    if base == 13:
        return "K" + s
    return " ".join(RANKS[r - 1] + s for r in range(base, base + 4))


def position(
    circle: dict[str, str],
    cells: dict[str, str] | None = None,
    *,
    waste: str = "",
    stock: str = "",
    redeals_left: int = 2,
) -> State[Vars]:
    """Named slots (bottom first), carpet cells (one code each), waste (bottom first)
    and stock (top first); the second copy of a code is deck 1; unnamed cards are left
    out."""
    pack = Pack()
    take = pack.take

    piles: dict[str, list[int]] = {}
    for pid, text in {**circle, **(cells or {})}.items():
        piles[pid] = [take(t) for t in text.split()]
    piles["X"] = [take(t) for t in waste.split()]
    piles["S"] = list(as_stock([take(t) for t in stock.split()]))
    return G.new_state(piles, Vars(redeals_left))


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "rows", "stock"),
    [
        (
            0,
            {
                0: "3H 8C JS 6S 4H 2D TS 7H",
                4: "KC KD 4C 7D 5S 9D 6H 2H",
                7: "8S AH 7S 7H 8H 6D TC 4C",
            },
            "8C QS 2H 7D 2C 2D 9H QC",
        ),
        (
            2**64 - 1,
            {
                0: "9D 3S 9S AS 6H TC 2C QS",
                4: "8C 2C 5D TC 3C 4D 2H 9C",
                7: "KD AS 8S JS KS AC TH JD",
            },
            "9H 6D 3D 5S JH KH JC 7H",
        ),
    ],
)
def test_golden_deals(seed: int, rows: dict[int, str], stock: str) -> None:
    state = G.deal(seed)
    for r, text in rows.items():
        assert row(state, r) == text
    s = G.pile(state, "S")
    assert len(s) == 40
    assert " ".join(code(c) for c in reversed(s[-8:])) == stock
    assert all(G.pile(state, b) == () for b in SLOTS) and G.pile(state, "X") == ()


def test_the_whole_of_deal_zero() -> None:
    state = G.deal(0)
    assert [row(state, r) for r in range(8)] == [
        "3H 8C JS 6S 4H 2D TS 7H",
        "AD 8H TH 6S AD KC JD KH",
        "5H 9H 5C 9S 3D QD 5D JC",
        "QS TH 8S 3D JD 2S AS 9S",
        "KC KD 4C 7D 5S 9D 6H 2H",
        "2S 6C 3S KS AS QC JH 8D",
        "4S 9D 5D 3H 6D QD 5S 6H",
        "8S AH 7S 7H 8H 6D TC 4C",
    ]
    assert " ".join(code(c) for c in reversed(G.pile(state, "S"))) == (
        "8C QS 2H 7D 2C 2D 9H QC 5H KH 3C 4D 7S 4H JC 3C 7C 3S TS JH "
        "AC 2C JS KD QH 9C 4D 6C 4S AH 7C TD AC 8D TC 9C KS 5C QH TD"
    )


def test_deal_follows_the_rules_order() -> None:
    """Nothing set aside; cards 0..63 fill the carpet row by row; 64..103 the stock."""
    seed = 4242
    state = G.deal(seed)
    _, pack, rng = shuffled(2, seed)
    assert [G.pile(state, g) for g in CELLS] == [(c,) for c in pack[:64]]
    assert G.pile(state, "S") == as_stock(pack[64:])
    assert state.rng == rng and state.vars == Vars(redeals_left=2)
    assert G.pile(G.apply(state, DEAL), "X") == (pack[64],)


def test_the_circle_has_32_slots_named_by_base_suit_and_copy() -> None:
    assert len(SLOTS) == 32
    assert set(SLOTS) == {f"B{b}{s}{n}" for b in "KA59" for s in SUITS for n in "12"}
    view = {p["id"]: p for p in G.view(G.deal(1))["piles"]}
    assert all(view[b]["kind"] == "foundation" for b in SLOTS)
    assert view["G00"]["orient"] == "v" and view["G01"]["orient"] == "h"
    assert len({(p["x"], p["y"]) for p in view.values()}) == len(view)
    assert G.view(G.deal(1))["info"]["free"] == [
        "G00",
        "G02",
        "G04",
        "G06",
        "G07",
        "G10",
        "G27",
        "G30",
        "G47",
        "G50",
        "G67",
        "G70",
        "G71",
        "G73",
        "G75",
        "G77",
    ]


# -- the circle -------------------------------------------------------------------------


def test_seed_kings_and_aces_come_out_at_any_time() -> None:
    state = position({}, {"G00": "KS", "G02": "AH", "G04": "5D", "G06": "9C"}, stock="2C")
    legal = G.legal_moves(state)
    # The two slots of a base are alike: a base enters the first empty one.
    assert [m for m in legal if m.src == "G00"] == [Move.card("G00", "BKS1")]
    assert [m for m in legal if m.src == "G02"] == [Move.card("G02", "BAH1")]
    assert not [m for m in legal if m.src in ("G04", "G06")]


def test_seed_fives_follow_the_aces_and_nines_the_fives_one_for_one() -> None:
    """Seed: a five only after the ace of its suit, the second five after the second
    ace; a nine once a five is out, the second nine after the second five."""
    state = position(
        {"BAS1": "AS"},
        {"G00": "5S", "G02": "5S", "G04": "9S", "G06": "9S", "G07": "AS"},
        stock="2C",
    )
    legal = G.legal_moves(state)
    assert Move.card("G00", "B5S1") in legal and Move.card("G04", "B9S1") not in legal
    with pytest.raises(IllegalMove, match="needs another five of ♠"):
        G.apply(state, Move.card("G04", "B9S1"))
    state = G.apply(state, Move.card("G00", "B5S1"))
    # One ace, one five: the second five waits for the second ace; a nine may come.
    assert Move.card("G02", "B5S2") not in G.legal_moves(state)
    with pytest.raises(IllegalMove, match=r"needs another ace of ♠ in the circle first"):
        G.apply(state, Move.card("G02", "B5S2"))
    state = G.apply(state, Move.card("G04", "B9S1"))
    assert Move.card("G06", "B9S2") not in G.legal_moves(state)
    state = G.apply(state, Move.card("G07", "BAS2"))
    state = G.apply(state, Move.card("G02", "B5S2"))
    state = G.apply(state, Move.card("G06", "B9S2"))
    assert [codes(state, b) for b in ("BAS1", "BAS2", "B5S1", "B5S2", "B9S1", "B9S2")] == [
        "AS",
        "AS",
        "5S",
        "5S",
        "9S",
        "9S",
    ]


def test_release_counts_are_per_suit() -> None:
    state = position({"BAS1": "AS"}, {"G00": "5H"}, stock="2C")
    assert not [m for m in G.legal_moves(state) if m.src == "G00"]


def test_aces_fives_and_nines_build_three_cards_up_in_suit_kings_nothing() -> None:
    state = position(
        {"BAS1": "AS 2S 3S", "B5H1": "5H", "B9D1": "9D TD JD", "BKC1": "KC", "BAS2": "AS 2S 3S 4S"},
        {"G00": "4S", "G02": "6H", "G04": "QD", "G06": "QC", "G07": "6D"},
        stock="2C",
    )
    legal = G.legal_moves(state)
    assert Move.card("G00", "BAS1") in legal and Move.card("G00", "BAS2") not in legal
    assert Move.card("G02", "B5H1") in legal and Move.card("G04", "B9D1") in legal
    assert not [m for m in legal if m.src in ("G06", "G07")]
    with pytest.raises(IllegalMove, match="BAS2 is complete"):
        G.apply(state, Move.card("G00", "BAS2"))
    with pytest.raises(IllegalMove, match="king's slot holds its king alone"):
        G.apply(state, Move.card("G06", "BKC1"))
    with pytest.raises(IllegalMove, match="B5H1 is a ♥ slot"):
        G.apply(state, Move.card("G07", "B5H1"))
    with pytest.raises(IllegalMove, match="the empty B5D1 takes only its base 5♦, not 6♦"):
        G.apply(state, Move.card("G07", "B5D1"))
    state = G.apply(state, Move.card("G04", "B9D1"))
    assert codes(state, "B9D1") == "9D TD JD QD"


def test_nothing_is_packed_on_the_waste_and_nothing_enters_the_carpet() -> None:
    state = position({}, {"G00": "6H"}, waste="7H", stock="2C")
    assert G.legal_moves(state) == [DEAL]
    with pytest.raises(IllegalMove, match="nothing is packed onto the waste"):
        G.apply(state, Move.card("G00", "X"))
    with pytest.raises(IllegalMove, match="onto the carpet"):
        G.apply(state, Move.card("X", "G01"))
    with pytest.raises(IllegalMove, match="G11 is not free"):
        G.apply(
            position({}, {"G01": "2S", "G11": "AS", "G21": "3S"}, stock="2C"),
            Move.card("G11", "BAS1"),
        )


# -- the stock ----------------------------------------------------------------------------


def test_seed_the_waste_is_turned_over_twice_unshuffled() -> None:
    """Seed: when the stock runs out, turn the packet over and go on; "this may be
    repeated once more" — three passes in all."""
    state = position({}, {"G00": "7C"}, stock="2C 3D 4H")
    for expected_pass in (1, 2, 3):
        assert G.view(state)["info"]["pass"] == expected_pass
        turned = []
        while DEAL in G.legal_moves(state):
            state = G.apply(state, DEAL)
            turned.append(codes(state, "X").split()[-1])
        assert turned == ["2C", "3D", "4H"]
        if expected_pass < 3:
            assert G.legal_moves(state) == [REDEAL]
            state = G.apply(state, REDEAL)
    assert G.view(state)["info"]["redeals_left"] == 0
    assert G.status(state) == "lost"


def test_waste_top_plays_into_the_circle() -> None:
    state = position({"BAH1": "AH 2H"}, waste="5C 3H", stock="4C", redeals_left=0)
    assert G.legal_moves(state) == [Move.card("X", "BAH1"), DEAL]
    with pytest.raises(IllegalMove, match="the empty BAH2 takes only its base A♥, not 3♥"):
        G.apply(state, Move.card("X", "BAH2"))
    state = G.apply(state, Move.card("X", "BAH1"))
    assert codes(state, "BAH1") == "AH 2H 3H" and codes(state, "X") == "5C"


def test_seed_a_turned_card_that_fits_goes_into_the_circle() -> None:
    """Seed: «Если можно, кладем их на базовые, если нет — …»."""
    state = position({"BAH1": "AH 2H"}, waste="5C", stock="3H 4C", redeals_left=0)
    state = G.apply(state, DEAL)  # 3♥ fits BAH1: it goes there
    assert codes(state, "BAH1") == "AH 2H 3H" and codes(state, "X") == "5C"
    state = G.apply(state, DEAL)  # 4♣ fits nothing: onto the waste
    assert codes(state, "X") == "5C 4C"


def test_a_turned_card_that_fits_two_alike_slots_goes_into_the_first() -> None:
    """A turned 3♠ fits both ace slots of ♠, each holding A♠ 2♠: the two are the same
    choice, so it goes into the first at once (it used to wait for a pick that changed
    nothing)."""
    state = position({"BAS1": "AS 2S", "BAS2": "AS 2S"}, stock="3S 4C")
    state = G.apply(state, DEAL)
    assert codes(state, "BAS1") == "AS 2S 3S" and codes(state, "BAS2") == "AS 2S"
    assert codes(state, "X") == "" and G.view(state)["info"]["pending"] is False
    # A carpet or waste card may still go onto either of two alike slots.
    state = position({"BAS1": "AS 2S", "BAS2": "AS 2S"}, {"G00": "3S"}, stock="4C")
    assert [m for m in G.legal_moves(state) if m.src == "G00"] == [
        Move.card("G00", "BAS1"),
        Move.card("G00", "BAS2"),
    ]


def test_seed_on_a_later_pass_a_turned_card_that_now_fits_goes_into_the_circle() -> None:
    """Seed: turn the packet over «и продолжаем раскладку»: a card that fitted nowhere
    on the first pass goes into the circle when it comes round and fits."""
    state = position({}, {"G00": "AH"}, stock="2H 5C")
    state = G.apply(G.apply(state, DEAL), DEAL)  # 2♥ before any ace of ♥: onto the waste
    assert codes(state, "X") == "2H 5C"
    state = G.apply(G.apply(state, Move.card("G00", "BAH1")), REDEAL)
    state = G.apply(state, DEAL)
    assert codes(state, "BAH1") == "AH 2H" and codes(state, "X") == ""


# -- the end ----------------------------------------------------------------------------


def test_a_near_won_position_is_won() -> None:
    circle = {b: complete(b) for b in SLOTS}
    circle["B9C2"] = "9C TC JC"
    state = position(circle, {"G34": "QC"}, redeals_left=0)
    assert sum(len(p) for p in state.piles) == 104
    assert G.legal_moves(state) == [Move.card("G34", "B9C2")]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    state = G.apply(state, Move.card("G34", "B9C2"))
    assert G.status(state) == "won" and G.score(state) == (104, 104)


def test_a_dead_position_is_lost() -> None:
    state = position({"BAS1": "AS"}, {"G00": "9S", "G02": "3S"}, waste="KH 5C", redeals_left=0)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


# -- hidden information ---------------------------------------------------------------


def test_the_stock_order_is_hidden() -> None:
    state = G.apply(G.apply(G.deal(12), DEAL), DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * 38
    assert view["X"]["cards"] == [code(c) for c in G.pile(state, "X")]
    other = state._replace(
        piles=tuple(tuple(reversed(p)) if i == G.at["S"] else p for i, p in enumerate(state.piles))
    )
    assert other.piles != state.piles and G.view(other) == G.view(state)
