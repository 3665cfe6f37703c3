"""First and Last (Первые и последние): the deal, the strict left-to-right building,
the T8 rule, refills from the waste, the shuffled redeals, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import RANKS, code, rank
from server.patience.engine import IllegalMove, Move, State, as_stock, shuffled
from server.patience.games.first_and_last import BOTTOM, BUILD, TOP
from server.patience.games.first_and_last import FirstAndLastVars as Vars
from server.patience.rng import shuffle
from tests.server.patience.games.positions import Pack

G = registry.get("first_and_last")
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def bottom(cards: str) -> dict[str, str]:
    return dict(zip(BOTTOM, cards.split(), strict=True))


#: a bottom row and T8 that fit nothing while P1 needs a 5, 6, 7 or 8
IDLE = {"T8": "KH", **bottom("9C 9C 9H 9H TD TD TC TC")}


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def position(
    spec: dict[str, str], *, stock: str = "", done: int = 0, redeals_left: int = 3, rng: int = 0
) -> State[Vars]:
    """Piles from wire codes (bottom first; the second copy of a code is deck 1);
    ``stock`` lists the stock top first. P1..P``done`` are filled complete with cards
    not named; any card still unnamed is left out (these tests do not need it)."""
    pack = Pack()
    take = pack.take

    piles = {pid: [take(t) for t in cards.split()] for pid, cards in spec.items()}
    if stock:
        piles["S"] = list(as_stock([take(t) for t in stock.split()]))
    spare = pack.rest()
    for n in range(done):
        piles[BUILD[n]] = spare[13 * n : 13 * n + 13]
    return G.new_state(piles, Vars(redeals_left), rng)


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "top", "bottom", "stock"),
    [
        (0, "3H 8C JS 6S 4H 2D TS 7H", "AD 8H TH 6S AD KC JD KH", "5H 9H 5C 9S 3D QD"),
        (2**64 - 1, "9D 3S 9S AS 6H TC 2C QS", "KD 6H 5C 5D 2D 9D 5H QD", "JH 4H 3D AD QH 6S"),
    ],
)
def test_golden_deals(seed: int, top: str, bottom: str, stock: str) -> None:
    state = G.deal(seed)
    assert " ".join(codes(state, t) for t in TOP) == top
    assert " ".join(codes(state, b) for b in BOTTOM) == bottom
    s = G.pile(state, "S")
    assert len(s) == 88
    assert " ".join(code(c) for c in reversed(s[-6:])) == stock
    assert all(G.pile(state, p) == () for p in (*BUILD, "X"))


def test_deal_follows_the_rules_order() -> None:
    """104 shuffled cards: 1–8 to T1..T8, 9–16 to B1..B8, the rest is the stock."""
    seed = 2024
    state = G.deal(seed)
    _, pack, rng = shuffled(2, seed)
    assert [G.pile(state, t) for t in TOP] == [(c,) for c in pack[:8]]
    assert [G.pile(state, b) for b in BOTTOM] == [(c,) for c in pack[8:16]]
    assert G.pile(state, "S") == as_stock(pack[16:])
    assert state.rng == rng and state.vars == Vars(redeals_left=3)
    assert G.view(state)["info"] == {
        "pile": "P1",
        "needs": RANKS[rank(pack[0]) % 13],
        "redeals_left": 3,
        "pass": 1,
    }


def test_the_stock_order_is_hidden_and_the_rest_is_open() -> None:
    state = G.deal(9)
    while DEAL in G.legal_moves(state) and len(G.pile(state, "X")) < 5:
        state = G.apply(state, DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * len(G.pile(state, "S"))
    for pid in (*TOP, *BOTTOM, *BUILD, "X"):
        assert view[pid]["cards"] == [code(c) for c in G.pile(state, pid)]


# -- building ---------------------------------------------------------------------------


def test_seed_example_a_five_is_followed_by_six_to_four_and_closes_its_pile() -> None:
    """Seed: T1 = 5 → 6, 7, …, K, A, 2, 3, 4 of any suits, then the five itself."""
    state = position(
        {
            "T1": "5S",
            "T2": "2H",
            "T3": "8S",
            "T4": "8S",
            "T5": "9S",
            "T6": "TS",
            "T7": "JS",
            "T8": "5C",
            **bottom("6C 7H 8C 9D TC JH QC KD"),
        },
        stock="AD 2C 3D 4H 9H",
    )
    for b in BOTTOM:
        assert G.legal_moves(state) == [Move.card(b, "P1")]  # no deal while one fits
        state = G.apply(state, Move.card(b, "P1"))
        assert G.pile(state, b) == ()  # the waste is empty: the vacancy waits (F5)
    for _ in range(4):
        assert G.legal_moves(state) == [DEAL]
        state = G.apply(state, DEAL)  # each turned card fits: it goes up at once
    assert codes(state, "P1") == "6C 7H 8C 9D TC JH QC KD AD 2C 3D 4H 5S"
    assert G.pile(state, "T1") == ()
    assert G.view(state)["info"]["pile"] == "P2" and G.view(state)["info"]["needs"] == "3"
    state = G.apply(state, DEAL)  # 9♥ fits nowhere: it fills the vacancy B1
    assert codes(state, "B1") == "9H" and G.pile(state, "X") == ()


def test_suits_are_ignored_and_the_order_wraps_from_king_to_ace() -> None:
    state = position({"T1": "JH", "B1": "KS", "B2": "QD", "B3": "AC"}, stock="2C")
    assert G.legal_moves(state) == [Move.card("B2", "P1")]
    state = G.apply(state, Move.card("B2", "P1"))
    state = G.apply(state, Move.card("B1", "P1"))
    assert G.legal_moves(state) == [Move.card("B3", "P1")]


def test_t8_plays_to_the_current_pile_before_p8_and_is_offered_first() -> None:
    state = position({**IDLE, "T1": "4D", "T8": "5H", "B4": "5C"}, stock="KC")
    assert G.legal_moves(state) == [Move.card("T8", "P1"), Move.card("B4", "P1")]
    with pytest.raises(IllegalMove, match="fitting card must be placed first"):
        G.apply(state, DEAL)


def test_vacancies_are_refilled_at_once_from_the_waste_top_t8_first() -> None:
    state = position({**IDLE, "T1": "4D", "T8": "5H", "B4": "6C", "X": "KC QC JC"})
    state = G.apply(state, Move.card("T8", "P1"))
    assert codes(state, "T8") == "JC"  # never from the bottom row
    assert codes(state, "X") == "KC QC"
    state = G.apply(state, Move.card("B4", "P1"))
    assert codes(state, "B4") == "QC" and codes(state, "X") == "KC"


def test_with_an_empty_waste_the_next_unfitting_cards_fill_t8_then_the_bottom_row() -> None:
    state = position({**IDLE, "T1": "4D", "T8": "5H", "B2": "6S", "B5": "7S"}, stock="9D TD 5S 7D")
    state = G.apply(state, Move.card("T8", "P1"))
    state = G.apply(state, Move.card("B2", "P1"))
    state = G.apply(state, Move.card("B5", "P1"))
    assert [G.pile(state, p) for p in ("T8", "B2", "B5")] == [(), (), ()]
    state = G.apply(state, DEAL)
    state = G.apply(state, DEAL)
    assert codes(state, "T8") == "9D" and codes(state, "B2") == "TD"
    state = G.apply(state, DEAL)
    assert codes(state, "B5") == "5S"
    state = G.apply(state, DEAL)  # 7♦ is not needed (P1 wants an 8) and no vacancy is left
    assert codes(state, "X") == "7D"
    assert G.legal_moves(state) == [REDEAL]


# -- P8 and the end ----------------------------------------------------------------------


def test_a_vacant_t8_is_filled_by_the_next_card_and_becomes_p8s_base() -> None:
    """F8: when P8 becomes current with T8 vacant and the waste empty, the next turned
    card is its base."""
    eleven = "6C 7C 8C 9C TC JC QC KC AC 2C 3C"
    state = position({"T7": "5S", "P7": eleven, "B1": "4H"}, stock="9D TD", done=6)
    state = G.apply(state, Move.card("B1", "P7"))
    assert codes(state, "P7") == eleven + " 4H 5S"
    assert G.view(state)["info"] == {"pile": "P8", "needs": None, "redeals_left": 3, "pass": 1}
    assert G.legal_moves(state) == [DEAL]
    state = G.apply(state, DEAL)
    assert codes(state, "T8") == "9D" and G.pile(state, "P8") == ()
    state = G.apply(state, DEAL)
    assert codes(state, "P8") == "TD"


def test_t8_played_as_the_twelfth_card_is_replaced_from_the_waste_and_closes_p8() -> None:
    eleven = "6C 7C 8C 9C TC JC QC KC AC 2C 3C"
    state = position({"T7": "5S", "P7": eleven, "T8": "4H", "X": "JD"}, stock="2D", done=6)
    assert G.legal_moves(state) == [Move.card("T8", "P7")]
    state = G.apply(state, Move.card("T8", "P7"))
    assert codes(state, "T8") == "JD" and G.pile(state, "X") == ()
    assert G.view(state)["info"]["pile"] == "P8" and G.view(state)["info"]["needs"] == "Q"
    with pytest.raises(IllegalMove, match="base of P8"):
        G.apply(state, Move.card("T8", "P8"))


def test_a_vacant_t8_with_nothing_left_to_turn_is_lost() -> None:
    state = position({"B3": "7H"}, done=7)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_closing_p8_wins() -> None:
    state = position({"T8": "5S", "P8": "6C 7C 8C 9C TC JC QC KC AC 2C 3C", "B2": "4H"}, done=7)
    assert G.score(state) == (102, 104)
    assert G.legal_moves(state) == [Move.card("B2", "P8")]
    state = G.apply(state, Move.card("B2", "P8"))
    assert codes(state, "P8").endswith("3C 4H 5S")
    assert G.status(state) == "won" and G.score(state) == (104, 104)
    assert G.legal_moves(state) == []


# -- redeals ------------------------------------------------------------------------------


def test_redeal_shuffles_the_waste_with_the_game_generator() -> None:
    state = position({**IDLE, "T1": "4D"}, stock="KC QC JC 2S", rng=77)
    for _ in range(4):
        state = G.apply(state, DEAL)
    waste = G.pile(state, "X")
    assert G.legal_moves(state) == [REDEAL]
    assert G.forced_move(state) == REDEAL
    after = G.apply(state, REDEAL)
    cards = list(waste)
    rng = shuffle(cards, 77)
    assert G.pile(after, "S") == as_stock(cards)
    assert after.rng == rng != 77
    assert G.pile(after, "X") == () and after.vars == Vars(redeals_left=2)
    assert G.view(after)["info"]["pass"] == 2


def test_three_redeals_at_most_then_a_dead_position_is_lost() -> None:
    state = position({**IDLE, "T1": "4D"}, stock="KC QC JC 2S")
    for left in (2, 1, 0):
        while G.pile(state, "S"):
            state = G.apply(state, DEAL)
        assert G.legal_moves(state) == [REDEAL]
        state = G.apply(state, REDEAL)
        assert state.vars.redeals_left == left
    while G.pile(state, "S"):
        state = G.apply(state, DEAL)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_redeal_is_offered_when_the_stock_is_empty_even_beside_a_fitting_card() -> None:
    state = position({"T1": "4D", "B1": "5C", "X": "KC"})
    assert G.legal_moves(state) == [Move.card("B1", "P1"), REDEAL]


# -- illegal moves and their reasons --------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("T1", "P1"), "T1 never moves"),
        (Move.card("T3", "P1"), "T3 never moves"),
        (Move.card("X", "P1"), "waste top is not playable"),
        (Move.card("S", "P1"), "deal action"),
        (Move.card("B1", "P2"), r"only P1 is being built now"),
        (Move.card("B2", "P1"), r"P1 needs a 5 \(any suit\), not 9♦"),
        (Move.card("B1", "T2"), "only onto the pile being built"),
        (Move.card("P1", "B3"), "never leave the build piles"),
        (REDEAL, "turn the whole stock"),
        (DEAL, r"fitting card must be placed first \(B1>P1\)"),
    ],
)
def test_illegal_moves_explain_themselves(move: Move, reason: str) -> None:
    state = position(
        {"T1": "3D", "T2": "8H", "T3": "JS", "P1": "4S", "B1": "5C", "B2": "9D", "X": "KH"},
        stock="2H",
    )
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)


def test_spent_redeals_and_an_empty_stock_explain_themselves() -> None:
    state = position({"T1": "3D", "B1": "4C", "X": "KH"}, redeals_left=0)
    with pytest.raises(IllegalMove, match="three times already"):
        G.apply(state, REDEAL)
    with pytest.raises(IllegalMove, match="the stock is empty"):
        G.apply(state, DEAL)


def test_a_whole_game_ends() -> None:
    state = G.deal(31)
    while G.status(state) == "playing":
        state = G.apply(state, G.legal_moves(state)[0])
    assert G.status(state) in ("won", "lost")
    assert state.vars.redeals_left == 0 or G.status(state) == "won"
    assert sum(len(p) for p in state.piles) == 104
