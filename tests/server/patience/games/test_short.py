"""Short Patience (Короткий пасьянс): the deal and its base card, building round the
corner, the space rule, turning by threes, unlimited redeals and the repetition loss."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import code, parse
from server.patience.engine import IllegalMove, Move, State, as_stock, rows, shuffled
from server.patience.games.short import COLUMNS, FOUNDATIONS, snapshot
from server.patience.games.short import ShortVars as Vars

G = registry.get("short")
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")
TEN_UP = "TJQKA23456789"  # seed: with tens as base cards


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def position(spec: dict[str, str], *, stock: str = "", vars: Vars | None = None) -> State[Vars]:
    """Piles from wire codes (bottom first); ``stock`` lists the stock top first.
    Cards not named are left out (these positions do not need them)."""
    piles = {pid: [parse(t) for t in cards.split()] for pid, cards in spec.items()}
    if stock:
        piles["S"] = list(as_stock([parse(t) for t in stock.split()]))
    every = [c for p in piles.values() for c in p]
    assert len(every) == len(set(every)), "a card named twice"
    return G.new_state(piles, vars or Vars())


def suit_from_ten(s: str, n: int = 13) -> str:
    return " ".join(f"{r}{s}" for r in TEN_UP[:n])


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "f1", "columns", "stock"),
    [
        (
            0,
            "5H",
            [
                "8C 6C 9D 3D",
                "JD TS 8S 5S",
                "9S 3H QC AD",
                "2C AS KD 6S",
                "2H JS 5D 4C",
                "QH 7S 2S TH",
            ],
            "8D 8H AH QD TC QS",
        ),
        (
            2**64 - 1,
            "AS",
            [
                "JS 5H 4H 9D",
                "KC 2D AC QD",
                "7C AD 4C 8H",
                "4S 7H 7D 3C",
                "AH 6H 3H 5C",
                "JD 6C 2H 9C",
            ],
            "8C QH TH 7S QC 9S",
        ),
    ],
)
def test_golden_deals(seed: int, f1: str, columns: list[str], stock: str) -> None:
    state = G.deal(seed)
    assert codes(state, "F1") == f1
    assert [codes(state, c) for c in COLUMNS] == columns
    s = G.pile(state, "S")
    assert len(s) == 27
    assert " ".join(code(c) for c in reversed(s[-6:])) == stock
    assert all(G.pile(state, p) == () for p in ("F2", "F3", "F4", "X"))


def test_deal_follows_the_rules_order() -> None:
    """Cards 1–24 row-wise over C1..C6 (the 4th row on top, available), card 25 to F1,
    26–52 the stock with card 26 on top."""
    seed = 555
    state = G.deal(seed)
    _, pack, rng = shuffled(1, seed)
    assert [list(G.pile(state, c)) for c in COLUMNS] == rows(pack[:24], 6)
    assert G.pile(state, "C1") == (pack[0], pack[6], pack[12], pack[18])
    assert G.pile(state, "F1") == (pack[24],)
    assert G.pile(state, "S") == as_stock(pack[25:])
    assert state.rng == rng
    assert state.vars == Vars(seen=frozenset({snapshot(state.piles)}), repeated=False, passes=1)
    assert G.view(state)["info"]["base"] == code(pack[24])[0]


def test_the_stock_is_hidden_the_rest_is_open() -> None:
    state = G.apply(G.deal(4), DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * 24
    for pid in (*COLUMNS, *FOUNDATIONS, "X"):
        assert view[pid]["cards"] == [code(c) for c in G.pile(state, pid)]
    base = code(G.pile(state, "F1")[0])[0]
    assert all(view[f]["base"] == base for f in FOUNDATIONS)


# -- foundations ------------------------------------------------------------------------


def test_seed_example_tens_are_followed_by_jack_up_to_nine_and_the_game_is_won() -> None:
    """Seed: "if the base cards are tens, then J, Q, K, A, 2 … up to 9 go on them"."""
    state = position(
        {
            "F1": suit_from_ten("H", 12),
            "F2": suit_from_ten("S"),
            "F3": suit_from_ten("D"),
            "F4": suit_from_ten("C"),
            "C3": "9H",
        }
    )
    assert G.score(state) == (51, 52)
    assert G.legal_moves(state) == [Move.card("C3", "F1")]
    state = G.apply(state, Move.card("C3", "F1"))
    assert codes(state, "F1") == suit_from_ten("H")
    assert G.status(state) == "won" and G.legal_moves(state) == []


def test_a_base_card_may_start_any_empty_foundation_and_nothing_else_may() -> None:
    state = position({"F1": "TH", "C1": "TS", "C2": "JS", "X": "JH"}, stock="2C")
    legal = G.legal_moves(state)
    assert [m for m in legal if m.dst in FOUNDATIONS] == [
        Move.card("C1", "F2"),
        Move.card("C1", "F3"),
        Move.card("C1", "F4"),
        Move.card("X", "F1"),
    ]
    with pytest.raises(IllegalMove, match="started only by a 10"):
        G.apply(state, Move.card("C2", "F2"))
    state = G.apply(state, Move.card("C1", "F3"))
    assert Move.card("C2", "F3") in G.legal_moves(state)


def test_foundations_build_in_suit() -> None:
    state = position({"F1": "TH", "C1": "JS", "C2": "QH"}, stock="2C")
    with pytest.raises(IllegalMove, match="F1 builds in ♥ only"):
        G.apply(state, Move.card("C1", "F1"))
    with pytest.raises(IllegalMove, match="F1 needs the J next, not Q♥"):
        G.apply(state, Move.card("C2", "F1"))


# -- the tableau --------------------------------------------------------------------------


def test_columns_build_down_one_card_regardless_of_suit_but_not_round_the_corner() -> None:
    """Seed: «по одной карте в нисходящей последовательности без соблюдения масти»;
    a column never turns the corner: nothing goes on an ace."""
    state = position(
        {
            "F1": "TH",
            "C1": "6D 5D",
            "C2": "4S",
            "C3": "TC",
            "C4": "3S 9S",
            "C5": "AC",
            "C6": "8D",
            "X": "KD",
        },
        stock="2C",
    )
    legal = set(G.legal_moves(state))
    assert Move.card("C2", "C1") in legal  # 4 on 5, any suit
    assert Move.card("C1", "C2") not in legal
    assert Move.card("C4", "C3") in legal  # 9 on 10, though tens are the base
    assert Move.card("C6", "C4") in legal  # 8 on 9
    assert Move.card("X", "C5") not in legal  # no king on an ace
    with pytest.raises(IllegalMove, match="never turns the corner"):
        G.apply(state, Move.card("X", "C5"))
    with pytest.raises(IllegalMove, match=r"on 5♦ only a 4 of any suit"):
        G.apply(state, Move.card("C6", "C1"))


def test_seed_example_only_a_nine_fills_an_empty_column_when_tens_are_base() -> None:
    state = position({"F1": "TH", "C1": "4D 9S", "C2": "8C", "C3": "9D", "X": "9C"}, stock="2C")
    legal = G.legal_moves(state)
    assert Move.card("C1", "C4") in legal and Move.card("X", "C4") in legal
    assert Move.card("C2", "C4") not in legal
    # The lone nine of C3 moving to another empty column would change nothing.
    assert Move.card("C3", "C4") not in legal
    with pytest.raises(IllegalMove, match="only a 9, the rank below the base"):
        G.apply(state, Move.card("C2", "C5"))
    with pytest.raises(IllegalMove, match="is no move"):
        G.apply(state, Move.card("C3", "C4"))


# -- the stock ------------------------------------------------------------------------------


def test_dealing_by_threes_only_the_waste_top_plays() -> None:
    state = position({"F1": "TH", "C1": "KC"}, stock="3S JH 4S 2D QD")
    state = G.apply(state, DEAL)
    assert codes(state, "X") == "3S JH 4S"  # the third card on top
    assert len(G.pile(state, "S")) == 2
    legal = G.legal_moves(state)
    assert Move.card("X", "F1") not in legal  # J♥ fits F1 but lies under the 4♠
    state = G.apply(state, DEAL)
    assert codes(state, "X") == "3S JH 4S 2D QD"  # the last deal holds two cards
    state = G.apply(state, Move.card("X", "C1"))  # Q on K
    assert codes(state, "C1") == "KC QD"
    assert Move.card("X", "F1") not in G.legal_moves(state)  # 2♦ on top now
    assert G.legal_moves(state)[-1] == REDEAL
    with pytest.raises(IllegalMove, match="redeal"):
        G.apply(state, DEAL)


def test_redeal_turns_the_waste_over_unshuffled() -> None:
    # No card of the stock fits anywhere: the passes offer no card move.
    state = position({"F1": "TH", "C1": "5C"}, stock="3S 7H 8S 2D QD", vars=Vars())
    original = G.pile(state, "S")
    state = G.apply(G.apply(state, DEAL), DEAL)
    assert G.legal_moves(state) == [REDEAL]
    state = G.apply(state, REDEAL)
    assert G.pile(state, "S") == original and G.pile(state, "X") == ()
    assert state.vars.passes == 2 and G.status(state) == "playing"
    state = G.apply(G.apply(state, DEAL), DEAL)
    state = G.apply(state, REDEAL)  # the same position again, no card move offered: lost
    assert state.vars.repeated and G.status(state) == "lost"
    assert G.legal_moves(state) == []


def test_a_pass_that_offers_no_card_move_loses_at_once() -> None:
    """Seed: the game fails when «расположение карт в колоде не начнет повторяться»;
    the deal itself is the first snapshot."""
    state = position({"F1": "TH", "C1": "5C"}, stock="3S 7H 8S 2D QD")
    state = state._replace(vars=Vars(seen=frozenset({snapshot(state.piles)})))
    while G.pile(state, "S"):
        state = G.apply(state, DEAL)
    state = G.apply(state, REDEAL)
    assert G.status(state) == "lost" and G.view(state)["info"]["repeated"] is True


def test_a_browsed_pass_does_not_lose() -> None:
    """A pass that offered a card move the player did not take repeats the position,
    but the game goes on: only a pass with nothing to play loses."""
    state = position({"F1": "TH", "C1": "5C"}, stock="3S 8S 4H 2D QD")
    state = G.apply(state, DEAL)
    assert Move.card("X", "C1") in G.legal_moves(state)  # 4♥ on 5♣, not taken
    state = G.apply(G.apply(state, DEAL), REDEAL)
    assert G.status(state) == "playing" and not state.vars.repeated
    # The next pass offers the same move: browsing again is not a loss either.
    state = G.apply(G.apply(G.apply(state, DEAL), DEAL), REDEAL)
    assert G.status(state) == "playing"


def test_progress_during_a_pass_is_not_a_repetition() -> None:
    state = position({"F1": "5H", "C1": "JC"}, stock="9C KD 6H")
    state = G.apply(state, DEAL)
    state = G.apply(state, Move.card("X", "F1"))
    state = G.apply(state, REDEAL)
    assert G.status(state) == "playing" and len(state.vars.seen) == 1
    state = G.apply(state, DEAL)
    state = G.apply(state, REDEAL)
    assert G.status(state) == "lost"


# -- the end and illegal moves ----------------------------------------------------------------


def test_a_dead_position_is_lost() -> None:
    state = position(
        {"F1": "TH", "C1": "KC", "C2": "KD", "C3": "5S", "C4": "8H", "C5": "2C", "C6": "JD"}
    )
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("F1", "C1"), "never leave the foundations"),
        (Move.card("S", "C1"), "deal action"),
        (Move.card("C1", "X"), "only onto the columns and the foundations"),
        (Move.card("C1", "C1"), "its own pile"),
        (REDEAL, "deal out the stock"),
    ],
)
def test_illegal_moves_explain_themselves(move: Move, reason: str) -> None:
    state = position({"F1": "TH", "C1": "KC", "C2": "QD"}, stock="2C")
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)


def test_a_whole_game_ends() -> None:
    state = G.deal(12)
    while G.status(state) == "playing":
        state = G.apply(state, G.legal_moves(state)[0])
    assert G.status(state) in ("won", "lost")
    assert sorted(c for p in state.piles for c in p) == list(range(52))


def test_the_waste_is_shown_in_full_and_fanned() -> None:
    """Every card on the waste was turned face up in front of the player: all show."""
    state = G.apply(G.deal(3), DEAL)
    pile = next(p for p in G.view(state)["piles"] if p["id"] == "X")
    assert pile["fan"] == "right" and len(pile["cards"]) == 3 and None not in pile["cards"]
