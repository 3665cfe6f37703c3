"""The Hemispheres (Полушария, Cadogan's rules): the deal and its set-aside order,
proper colours, races, exchanges, refills by dealing, the end phase, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import code
from server.patience.engine import IllegalMove, InvalidMove, Move, NoVars, State, shuffled
from server.solver import solve
from tests.server.patience.games.positions import position, run

G = registry.get("hemispheres")
CIRCLE = [f"P{i}" for i in range(1, 13)]
DEAL = Move.act("deal")
START = {
    "FR1": "AH",
    "FR2": "AH",
    "FR3": "AD",
    "FR4": "AD",
    "FB1": "KS",
    "FB2": "KS",
    "FB3": "KC",
    "FB4": "KC",
    "BW": "KH",
    "BN": "AS",
    "BE": "KD",
    "BS": "AC",
}


def build(spec: dict[str, str], rest: str = "S") -> State[NoVars]:
    """Over the opening foundations and barriers."""
    return position(G, {**START, **spec}, rest=rest)


def codes(state: State[NoVars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


# -- the deal -------------------------------------------------------------------------

GOLDEN = {
    0: ("QS 9C 6H JC 9D 3C 8S 9D 3H TS 7H 9C", "5H 7C 2S QH 3C"),
    2**64 - 1: ("5D QH 4D 9H 4H QC 4D JS 8S 3C TC 8D", "7D JH TD 5D TH"),
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    circle, turned = GOLDEN[seed]
    assert " ".join(codes(state, p) for p in CIRCLE) == circle
    for pid, text in START.items():
        assert codes(state, pid) == text
    assert len(G.pile(state, "S")) == 80 and G.pile(state, "X") == ()
    out = []
    for _ in range(5):
        state = G.apply(state, DEAL)
        out.append(code(G.pile(state, "X")[-1]))
    assert " ".join(out) == turned


@pytest.mark.parametrize("seed", [0, 12, 2**33 + 1, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """Set aside A♥ A♥ A♦ A♦ K♠ K♠ K♣ K♣ (foundations), K♥ A♠ K♦ A♣ (barriers W N E S);
    shuffle 92; one card to each of P1..P12; the other 80 are the stock."""
    state = G.deal(seed)
    ids = {pid: G.pile(state, pid) for pid in START}
    assert ids == {
        "FR1": (13,),
        "FR2": (65,),
        "FR3": (26,),
        "FR4": (78,),
        "FB1": (12,),
        "FB2": (64,),
        "FB3": (51,),
        "FB4": (103,),
        "BW": (25,),
        "BN": (0,),
        "BE": (38,),
        "BS": (39,),
    }
    aside, pack, rng = shuffled(
        2,
        seed,
        set_aside=[
            (1, 1),
            (1, 1),
            (1, 2),
            (1, 2),
            (13, 0),
            (13, 0),
            (13, 3),
            (13, 3),
            (13, 1),
            (1, 0),
            (13, 2),
            (1, 3),
        ],
    )
    assert [ids[p][0] for p in START] == aside
    for i, p in enumerate(CIRCLE):
        assert G.pile(state, p) == (pack[i],)
    assert state.rng == rng
    for _ in range(80):  # no vacancy: every turned card goes to the waste
        state = G.apply(state, DEAL)
    assert list(G.pile(state, "X")) == pack[12:]


def test_only_the_stock_is_hidden() -> None:
    state = G.apply(G.deal(4), DEAL)
    piles = {p["id"]: p for p in G.view(state)["piles"]}
    assert piles["S"]["cards"] == [None] * 79
    assert all(None not in p["cards"] for pid, p in piles.items() if pid != "S")
    stock = G.at["S"]
    other = State(
        tuple(p[::-1] if i == stock else p for i, p in enumerate(state.piles)),
        state.vars,
        state.rng ^ 7,
        state.moves,
    )
    assert G.view(other) == G.view(state)


# -- play -----------------------------------------------------------------------------


def table() -> State[NoVars]:
    """North: 7♥ (P1) and 8♥ (P2) in race NW, 8♥ (P4) in race NE, a lone Q♣ in P3
    (wrong colour). South: 5♠ (P7) and 4♠ (P8) in race SE, a lone J♦ in P9 (wrong
    colour). The waste shows 7♥; the stock holds the rest."""
    return build(
        {
            "P1": "7H",
            "P2": "8H",
            "P3": "QC",
            "P4": "8H",
            "P5": "5D",
            "P6": "3D",
            "P7": "5S",
            "P8": "4S",
            "P9": "JD",
            "P10": "9C",
            "P11": "7C",
            "P12": "TS",
            "X": "7H",
        }
    )


def test_marriages_stay_inside_a_race() -> None:
    state = table()
    legal = set(G.legal_moves(state))
    assert Move.card("P1", "P2") in legal  # north: red down in suit
    assert Move.card("P1", "P4") not in legal  # same suit, other race
    with pytest.raises(IllegalMove, match="inside a race of three piles"):
        G.apply(state, Move.card("P1", "P4"))
    assert Move.card("P7", "P8") in legal  # south: black up in suit (5♠ on 4♠)
    assert Move.card("P8", "P7") not in legal
    with pytest.raises(IllegalMove, match="in the south a black card goes on the same suit"):
        G.apply(state, Move.card("P8", "P7"))
    state = G.apply(state, Move.card("P7", "P8"))
    assert codes(state, "P8") == "4S 5S" and G.pile(state, "P7") == ()


def test_the_waste_top_marries_into_any_race() -> None:
    legal = set(G.legal_moves(table()))
    assert Move.card("X", "P2") in legal and Move.card("X", "P4") in legal


def test_a_wrong_coloured_card_is_not_available() -> None:
    """The Q♣ in the north would fit FB3 (K♣), but only its exchange is possible."""
    state = table()
    legal = set(G.legal_moves(state))
    assert Move.card("P3", "FB3") not in legal
    with pytest.raises(IllegalMove, match="wrong colour for the north"):
        G.apply(state, Move.card("P3", "FB3"))
    with pytest.raises(IllegalMove, match="nothing is built on a wrong-coloured card"):
        G.apply(state, Move.card("P1", "P3"))


def test_exchange_a_lone_black_in_the_north_for_a_lone_red_in_the_south() -> None:
    state = table()
    swap = Move.act("swap", a="P3", b="P9")
    assert [m for m in G.legal_moves(state) if m.action == "swap"] == [swap]
    assert G.parse_move({"action": "swap", "a": "P9", "b": "P3"}) == swap
    assert swap.to_wire() == {"action": "swap", "a": "P3", "b": "P9"}
    with pytest.raises(IllegalMove, match="P1 must hold a black card alone"):
        G.apply(state, Move.act("swap", a="P1", b="P9"))
    with pytest.raises(InvalidMove):
        G.parse_move({"action": "swap", "a": "P3", "b": "P9", "c": "P1"})
    # Named the other way round, it is the same exchange.
    assert G.apply(state, Move.act("swap", a="P9", b="P3")) == G.apply(state, swap)
    state = G.apply(state, swap)
    assert codes(state, "P3") == "JD" and codes(state, "P9") == "QC"
    # Now both are proper: the Q♣ goes down onto its king.
    assert Move.card("P9", "FB3") in G.legal_moves(state)


def test_foundations_take_proper_cards_and_the_waste_top() -> None:
    state = build({"P1": "2H", "P7": "QS", "X": "2D"}, rest="P12")
    legal = set(G.legal_moves(state))
    assert {Move.card("P1", "FR1"), Move.card("P1", "FR2")} <= legal
    assert {Move.card("X", "FR3"), Move.card("X", "FR4")} <= legal
    assert {Move.card("P7", "FB1"), Move.card("P7", "FB2")} <= legal
    with pytest.raises(IllegalMove, match="black cards go down on the black foundations"):
        G.apply(state, Move.card("P7", "FR1"))
    with pytest.raises(IllegalMove, match="never leave"):
        G.apply(state, Move.card("FR1", "P1"))


def test_turned_cards_fill_the_first_empty_pile_then_the_waste() -> None:
    spec = {
        "P1": "5H",
        "P2": "6H",
        "P4": "5D",
        "P5": "6D",
        "P6": "7D",
        "P7": "5S",
        "P9": "6C",
        "P10": "5C",
        "P11": "6S",
        "P12": "7S",
    }  # P3 and P8 empty
    state = build({**spec, "S": "4D 9C 2C"}, rest="X")
    legal = set(G.legal_moves(state))
    # The player never fills a vacancy by hand.
    assert Move.card("X", "P3") not in legal and Move.card("P4", "P3") not in legal
    with pytest.raises(IllegalMove, match="refilled only from the stock"):
        G.apply(state, Move.card("P4", "P3"))
    state = G.apply(state, DEAL)
    assert codes(state, "P3") == "2C"  # whatever its colour
    state = G.apply(state, DEAL)
    assert codes(state, "P8") == "9C"
    waste = len(G.pile(state, "X"))
    state = G.apply(state, DEAL)
    assert codes(state, "X").endswith("4D") and len(G.pile(state, "X")) == waste + 1
    assert DEAL not in G.legal_moves(state)


# -- the end phase and the end ----------------------------------------------------------


def end_table(stock: str = "") -> State[NoVars]:
    return build(
        {
            "FR1": run("H", 1, 12),
            "P1": "5S",
            "P2": "",
            "P5": "JH",
            "P8": "4S",
            "P9": "",
            "P10": "9D",
            "S": stock,
        },
        rest="P5",
    )


def test_the_end_phase_transfers_strays_home_and_frees_the_barriers() -> None:
    state = end_table()
    assert G.info(state) == {"stock": 0, "end_phase": True}
    legal = set(G.legal_moves(state))
    assert Move.card("P1", "P8") in legal  # married onto 4♠, any race of the south
    assert Move.card("P1", "P9") in legal  # an empty pile of the south
    assert Move.card("P10", "P2") in legal  # a red card home to the north
    assert Move.card("P1", "P2") not in legal
    with pytest.raises(IllegalMove, match="only cross to its own hemisphere, the south"):
        G.apply(state, Move.card("P1", "P2"))
    assert Move.card("BW", "FR1") in legal  # K♥ closes the hearts at Q
    assert Move.card("BN", "FB1") not in legal  # A♠ waits for a 2♠ on FB1
    state = G.apply(state, Move.card("BW", "FR1"))
    assert codes(state, "FR1") == run("H", 1, 13) and G.pile(state, "BW") == ()


def test_barriers_wait_for_the_end_phase() -> None:
    state = end_table(stock="2C")
    assert G.info(state)["end_phase"] is False
    legal = set(G.legal_moves(state))
    assert Move.card("BW", "FR1") not in legal and Move.card("P1", "P8") not in legal
    with pytest.raises(IllegalMove, match="barriers go to the foundations only"):
        G.apply(state, Move.card("BW", "FR1"))
    with pytest.raises(IllegalMove, match="wrong colour for the north"):
        G.apply(state, Move.card("P1", "P9"))


def test_a_near_won_position_is_won_with_the_barriers() -> None:
    state = build(
        {
            "FR1": run("H", 1, 12),
            "FR2": run("H", 1, 13),
            "FR3": run("D", 1, 12),
            "FR4": run("D", 1, 13),
            "FB1": run("S", 13, 2),
            "FB2": run("S", 13, 1),
            "FB3": run("C", 13, 2),
            "FB4": run("C", 13, 1),
        }
    )
    assert G.pile(state, "S") == () and G.score(state) == (100, 104)
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    for move in (("BW", "FR1"), ("BN", "FB1"), ("BE", "FR3"), ("BS", "FB3")):
        assert G.status(state) == "playing"
        state = G.apply(state, Move.card(*move))
    assert G.status(state) == "won" and G.score(state) == (104, 104)


def test_a_dead_position_is_lost() -> None:
    # The stock is out, the waste shows 7♥ (nothing to marry, no foundation wants it),
    # the circle is empty and no vacancy is refilled once the stock is gone.
    state = build({"X": "7H"}, rest="X")
    assert G.pile(state, "S") == () and G.pile(state, "P1") == ()
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_no_second_deal() -> None:
    state = build({"P1": "7H"}, rest="X")
    with pytest.raises(IllegalMove, match="not dealt a second time"):
        G.apply(state, DEAL)


def test_the_end_phase_starts_when_the_stock_is_out_whatever_lies_on_the_waste() -> None:
    """The end phase waits for the stock only: cards left on the waste do not hold the
    barriers and the strays back (waiting for the waste too deadlocked most games)."""
    state = build(
        {
            "FR1": run("H", 1, 12),
            "P1": "5S",
            "P2": "",
            "P8": "4S",
            "P9": "",
            "P10": "9D",
            "X": "2C",
        },
        rest="P5",
    )
    assert G.pile(state, "S") == () and codes(state, "X").endswith("2C")
    assert G.info(state)["end_phase"] is True
    legal = set(G.legal_moves(state))
    assert Move.card("BW", "FR1") in legal and Move.card("P1", "P9") in legal
    assert G.status(state) == "playing"


def test_no_marriage_only_swaps_two_piles() -> None:
    """8♥ 7♥ onto a lone 8♥ of the same race would leave the piles as they were, named
    the other way round: not a move."""
    state = build({"P1": "8H 7H", "P2": "8H", "P3": "8D 7D"}, rest="S")
    legal = set(G.legal_moves(state))
    assert Move.card("P1", "P2") not in legal
    with pytest.raises(IllegalMove, match="only swap them"):
        G.apply(state, Move.card("P1", "P2"))
    assert Move.card("P3", "P2") not in legal  # another suit: no marriage at all
