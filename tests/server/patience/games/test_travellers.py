"""Travellers (Путешественники, seed 004 а): the deal, the journey, redeals, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import ACE, KING, code, parse
from server.patience.engine import IllegalMove, Move, State, shuffled
from server.patience.games.travellers import GAME
from server.patience.rng import shuffle
from server.patience.travel import TravelVars
from server.solver import solve
from tests.server.patience.test_travel import build, codes, rederive

G = GAME
assert registry.get("travellers") is G
COUNT = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
BASES = {
    "F1": ("S", 1),
    "F2": ("H", 1),
    "F3": ("D", 1),
    "F4": ("C", 1),
    "F5": ("S", 1),
    "F6": ("H", 1),
    "F7": ("D", 1),
    "F8": ("C", 1),
}

# -- the deal -------------------------------------------------------------------------

GOLDEN = {
    0: {
        "P1": "TH 3S 8H 9D 3H JH TC",
        "P2": "2D 3H QS QH 5C 4D 9S",
        "P3": "TH 4S 9D 8C 6C AH 9H",
        "P4": "TC AC TS 4H 7C KS 6D",
        "P5": "7C KD 4S AS QH 8S 6D",
        "P6": "8H 3C 6C 2C 5S 8C JC",
        "P7": "7D 7S 5C 4H JC 2C 7H",
        "P8": "4C QC QC 3C 5S TD KC",
        "P9": "5D 2H AD 7H JD JD 3D",
        "P10": "6H KH 2S 8S 6S 7S 4C",
        "P11": "9S TS JS 5H 2S 9C TD",
        "P12": "2D QD 9C QD 9H 7D",
        "P13": "4D 3S 3D QS 5H 6H",
        "T": "8D 5D JS 8D JH 2H 6S",
        "F1": "AS",
        "F2": "AH",
        "F3": "AD",
        "F4": "AC",
        "F5": "KS",
        "F6": "KH",
        "F7": "KD",
        "F8": "KC",
    },
    2**64 - 1: {
        "P1": "JS 3D 4S QH TH 8D 5H",
        "P2": "9H JD TC TD 3H QC 8D",
        "P3": "3H 5C 2D 5S 5D JC TC",
        "P4": "8H 4H 5C QD AC AH QS",
        "P5": "9D 7S 9D 7C 4D 3C 6D",
        "P6": "5D 7D 6H TD 8H 6D KD",
        "P7": "2S 2C 4H 5S 4D 2D KH",
        "P8": "2C 6S 4S 4C 5H 3D 6C",
        "P9": "7D AS JH 8C 3C 8S 8C",
        "P10": "AD 8S 3S 7S JD 7H QD",
        "P11": "2S 9H 2H QS 3S 9S",
        "P12": "TH JC 6H TS 9C KC",
        "P13": "6C 7H QH 4C 9S QC",
        "T": "9C 7C 2H KS JS JH TS 6S",
        "F1": "AS",
        "F2": "AH",
        "F3": "AD",
        "F4": "AC",
        "F5": "KS",
        "F6": "KH",
        "F7": "KD",
        "F8": "KC",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    assert {pid: codes(G, state, pid) for pid in G.ids} == GOLDEN[seed]


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """Deck-0 aces then kings set aside onto F1..F8; the other 96 dealt by counting
    A, K, Q, …, 2 over P1..P13, matches face down in T (first set aside at the bottom)."""
    state = G.deal(seed)
    aside, pack, rng = shuffled(
        2, seed, set_aside=[(ACE, s) for s in range(4)] + [(KING, s) for s in range(4)]
    )
    piles, trav, _, _, _ = rederive(pack, COUNT)
    assert [G.pile(state, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(state, "T") == tuple(trav)
    assert [G.pile(state, f"F{k}") for k in range(1, 9)] == [(c,) for c in aside]
    assert state.rng == rng and state.vars == TravelVars(deal=1)
    assert sum(map(len, state.piles)) == 104


def test_view_shows_only_pile_tops_and_hides_the_travellers() -> None:
    state = G.deal(3)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    labels = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for i, rank_ in enumerate(labels, start=1):
        pile = view[f"P{i}"]
        assert pile["label"] == rank_ and pile["kind"] == "tableau"
        assert pile["cards"][:-1] == [None] * (len(pile["cards"]) - 1)
        assert pile["cards"][-1] == code(G.pile(state, f"P{i}")[-1])
    assert view["T"]["cards"] == [None] * len(G.pile(state, "T"))
    assert [view[f"F{k}"]["label"] for k in range(1, 9)] == ["A→K"] * 4 + ["K→A"] * 4
    assert [view[f"F{k}"]["base"] for k in range(1, 9)] == [
        "AS",
        "AH",
        "AD",
        "AC",
        "KS",
        "KH",
        "KD",
        "KC",
    ]
    assert G.view(state)["info"] == {
        "deal": 1,
        "deals": 3,
        "redeals_left": 2,
        "travellers": len(G.pile(state, "T")),
        "drawn": False,
    }


# -- the journey ----------------------------------------------------------------------


def stuck(t: str, **table: str) -> State[TravelVars]:
    """Bases only on the foundations (they want 2s and queens); ``table`` piles; T."""
    return build(G, {"T": t, **table}, BASES, rest="P1")


def test_travel_waits_while_a_card_can_be_played() -> None:
    state = stuck("5D 9H", P1="7C", P6="4C QS")
    assert G.legal_moves(state) == [Move.card("P6", "F5")]
    with pytest.raises(IllegalMove, match="waits until no card"):
        G.apply(state, Move.act("travel"))


def test_a_stuck_game_offers_only_travel() -> None:
    state = stuck("5D 9H", P1="7C", P6="QS 4C", P11="6S")
    assert G.legal_moves(state) == [Move.act("travel")]
    assert G.forced_move(state) == Move.act("travel")


def test_journey_stops_when_a_playable_card_is_uncovered() -> None:
    """Seed: the traveller goes under the pile of its rank, that pile's top card travels
    under its own pile; the journey stops when a card that fits a base is uncovered."""
    state = G.apply(stuck("5D 9H", P1="7C", P6="QS 4C", P11="6S"), Move.act("travel"))
    assert codes(G, state, "P6") == "9H QS"  # 9H under pile "9"; 4C left, QS uncovered
    assert codes(G, state, "P11") == "4C 6S"  # 4C under pile "4"
    assert codes(G, state, "T") == "5D"
    assert G.legal_moves(state) == [Move.card("P6", "F5")]


def test_journey_stops_at_a_pile_already_topped_by_its_rank() -> None:
    """Seed: … or when the traveller is of the same rank as the pile it lies in."""
    state = G.apply(stuck("5D 9H", P1="7C", P6="JD 4C", P11="3S 4S"), Move.act("travel"))
    assert codes(G, state, "P6") == "9H JD"
    assert codes(G, state, "P11") == "4C 3S 4S"
    assert G.legal_moves(state) == [Move.act("travel")]


def test_kings_travel_like_any_card() -> None:
    state = G.apply(stuck("KD", P1="7C", P2="8S 5H", P10="JC"), Move.act("travel"))
    # KD (the bases want QD) goes under pile K; 5H travels to pile 5, whose top JC
    # goes to pile J, which is empty: JC stays there on its own
    assert codes(G, state, "P2") == "KD 8S"
    assert codes(G, state, "P10") == "5H"
    assert codes(G, state, "P4") == "JC"


def test_a_drawn_traveller_that_fits_must_be_played() -> None:
    state = stuck("5D QC", P1="7C")
    state = G.apply(state, Move.act("travel"))
    assert state.vars.drawn
    assert G.legal_moves(state) == [Move.card("T", "F8")]
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["T"]["cards"] == [None, "QC"]
    with pytest.raises(IllegalMove, match="turned-up traveller Q♣ must first go"):
        G.apply(state, Move.act("travel"))
    state = G.apply(state, Move.card("T", "F8"))
    assert codes(G, state, "F8") == "KC QC" and not state.vars.drawn
    assert G.legal_moves(state) == [Move.act("travel")]


# -- redeals and the end --------------------------------------------------------------


def test_redeal_gathers_shuffles_and_counts_again() -> None:
    state = build(G, {"P1": "7C", "P6": "JD 4C"}, BASES, rest="P1", vars=TravelVars(deal=1))
    state = state._replace(rng=12345)
    assert G.legal_moves(state) == [Move.act("redeal")]
    after = G.apply(state, Move.act("redeal"))
    pack = [c for i in range(1, 14) for c in G.pile(state, f"P{i}")]
    rng = shuffle(pack, 12345)
    piles, trav, _, _, _ = rederive(pack, COUNT)
    assert [G.pile(after, f"P{i}") for i in range(1, 14)] == [tuple(p) for p in piles]
    assert G.pile(after, "T") == tuple(trav)
    assert after.rng == rng and after.vars == TravelVars(deal=2)
    assert [G.pile(after, f"F{k}") for k in range(1, 9)] == [
        G.pile(state, f"F{k}") for k in range(1, 9)
    ]


def test_the_third_deal_ending_stuck_is_lost() -> None:
    state = build(G, {"P1": "7C"}, BASES, rest="P1", vars=TravelVars(deal=3))
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"
    with pytest.raises(IllegalMove, match="over"):
        G.apply(state, Move.act("redeal"))


def test_near_won_position_is_won() -> None:
    full = {f: (s, 13) for f, (s, _) in BASES.items()}
    state = build(G, {"P3": "KS"}, {**full, "F1": ("S", 12)})
    assert G.legal_moves(state) == [Move.card("P3", "F1")]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    state = G.apply(state, Move.card("P3", "F1"))
    assert G.status(state) == "won" and G.score(state) == (104, 104)


def test_a_whole_game_runs_through_three_deals() -> None:
    state = G.deal(11)
    for _ in range(2000):
        legal = G.legal_moves(state)
        if not legal:
            break
        state = G.apply(state, legal[0])
    assert G.status(state) == "lost" and state.vars.deal == 3
    assert G.pile(state, "T") == ()


# -- illegal moves --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("F1", "F2"), "never leave a foundation"),
        (Move.card("P6", "P1"), "only to the foundations"),
        (Move.card("T", "F8"), "face down"),
        (Move.card("P6", "F5", index=1), "squared"),
        (Move.card("P1", "F1"), "needs the 2♠"),
        (Move.act("redeal"), "the deal is not over"),
        (Move.act("spread"), "no action 'spread'"),
        (Move.act("next_row"), "no action 'next_row'"),
    ],
)
def test_illegal_moves_say_why(move: Move, reason: str) -> None:
    state = stuck("5D 9H", P1="7C", P6="QS 4C", P11="6S")
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)


def test_a_card_that_fits_nowhere_names_what_the_foundation_wants() -> None:
    state = build(G, {"P1": "7C", "P6": "QS"}, BASES, rest="P1")
    with pytest.raises(IllegalMove, match="Q♠ does not fit F1: it needs the 2♠"):
        G.apply(state, Move.card("P6", "F1"))
    assert parse("QS") in G.pile(state, "P6")
