"""Napoleon at St Helena (Наполеон на острове Святой Елены): the deal, seed 002's
second half played as tests, the end, hidden information."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import code
from server.patience.engine import IllegalMove, Move, NoVars, State, shuffled
from server.solver import solve
from tests.server.patience.games.positions import position, run

G = registry.get("st_helena")
COLUMNS = [f"C{i}" for i in range(1, 11)]
DEAL = Move.act("deal")


def build(spec: dict[str, str], rest: str = "S") -> State[NoVars]:
    return position(G, spec, rest=rest)


def codes(state: State[NoVars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


FULL = {f"F{i}": run(s, 1, 13) for i, s in enumerate("SSHHDDCC", start=1)}


# -- the deal -------------------------------------------------------------------------

GOLDEN = {
    0: {
        "C1": "3H TH 3D AS",
        "C2": "8C 6S QD 9S",
        "C3": "JS AD 5D KC",
        "C4": "6S KC JC KD",
        "C5": "4H JD QS 4C",
        "C6": "2D KH TH 7D",
        "C7": "TS 5H 8S 5S",
        "C8": "7H 9H 3D 9D",
        "C9": "AD 5C JD 6H",
        "C10": "8H 9S 2S 2H",
        "next": "2S 6C 3S KS AS",
    },
    2**64 - 1: {
        "C1": "9D 5C QH 8H",
        "C2": "3S 5D 6S TD",
        "C3": "9S 2D 7D 8C",
        "C4": "AS 9D 5H 2C",
        "C5": "6H 5H KH 5D",
        "C6": "TC QD 3H TC",
        "C7": "2C JH 7D 3C",
        "C8": "QS 4H QS 4D",
        "C9": "KD 3D 8H 2H",
        "C10": "6H AD 6D 9C",
        "next": "JS KS KC 9S 2S",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    want = GOLDEN[seed]
    for pid in COLUMNS:
        assert codes(state, pid) == want[pid], pid
    assert len(G.pile(state, "S")) == 64 and G.pile(state, "X") == ()
    for i in range(1, 9):
        assert G.pile(state, f"F{i}") == ()
    # The stock's top is the next card dealt.
    turned = []
    for _ in range(5):
        state = G.apply(state, DEAL)
        turned.append(code(G.pile(state, "X")[-1]))
    assert " ".join(turned) == want["next"]


@pytest.mark.parametrize("seed", [0, 1, 77, 2**63, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """Cards 1–40 row-wise over C1..C10 (four rows), cards 41–104 the stock, dealt in
    that order one at a time."""
    _, pack, rng = shuffled(2, seed)
    state = G.deal(seed)
    for k in range(40):
        row, col = divmod(k, 10)
        assert G.pile(state, COLUMNS[col])[row] == pack[k]
    assert all(len(G.pile(state, c)) == 4 for c in COLUMNS)
    assert state.rng == rng
    for _ in range(64):
        state = G.apply(state, DEAL)
    assert list(G.pile(state, "X")) == pack[40:]
    assert G.pile(state, "S") == ()


def test_the_stock_order_is_hidden_and_the_waste_shown() -> None:
    state = G.deal(3)
    state = G.apply(state, DEAL)
    state = G.apply(state, DEAL)
    piles = {p["id"]: p for p in G.view(state)["piles"]}
    assert piles["S"]["cards"] == [None] * 62
    assert piles["X"]["cards"] == [code(c) for c in G.pile(state, "X")]
    assert all(None not in piles[c]["cards"] for c in COLUMNS)
    # Reordering the stock changes nothing a player sees.
    stock = G.at["S"]
    other = State(
        tuple(p[::-1] if i == stock else p for i, p in enumerate(state.piles)),
        state.vars,
        state.rng ^ 1,
        state.moves,
    )
    assert G.view(other) == G.view(state)


# -- seed 002: the second half of the rules ----------------------------------------------


def test_an_exposed_ace_founds_any_empty_foundation() -> None:
    """«Если въ нижнемъ ряду покажутся тузы, то ихъ кладутъ на опредђленное для нихъ
    мђсто»: an ace at the bottom of a column starts a foundation."""
    state = build({"C1": "5D AS", "C2": "KD 9C", "F1": run("H", 1, 4)})
    legal = G.legal_moves(state)
    assert {Move.card("C1", f"F{i}") for i in range(2, 9)} <= set(legal)
    assert Move.card("C1", "F1") not in legal
    state = G.apply(state, Move.card("C1", "F5"))
    assert codes(state, "F5") == "AS" and codes(state, "C1") == "5D"


def test_foundations_build_up_in_suit_from_the_column_or_the_waste() -> None:
    state = build({"C1": "5H", "C2": "5D", "X": "6H", "F1": run("H", 1, 4)})
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "F1") in legal
    assert Move.card("C2", "F1") not in legal  # wrong suit
    assert Move.card("X", "F1") not in legal  # 6H must wait for 5H
    with pytest.raises(IllegalMove, match="F1 needs 5♥, not 5♦"):
        G.apply(state, Move.card("C2", "F1"))
    state = G.apply(state, Move.card("C1", "F1"))
    state = G.apply(state, Move.card("X", "F1"))
    assert codes(state, "F1") == run("H", 1, 6)


def test_marriages_go_down_in_suit_one_card_at_a_time() -> None:
    """«съ помощью марьяжа (въ нисходящемъ порядкђ ...)»: a card goes onto the same
    suit one rank higher, never lower, never another suit."""
    state = build({"C1": "2C 8S", "C2": "3C 9S", "C3": "4C 7S", "C4": "5C 9H", "C5": "6C 8S"})
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "C2") in legal  # 8S on 9S
    assert Move.card("C3", "C1") in legal and Move.card("C3", "C5") in legal  # 7S on 8S
    assert Move.card("C2", "C1") not in legal  # up: 9S on 8S
    assert Move.card("C1", "C4") not in legal  # 8S on 9H: not in suit
    with pytest.raises(IllegalMove, match="only 8♠ goes on 9♠"):
        G.apply(state, Move.card("C3", "C2"))
    with pytest.raises(IllegalMove, match="only 8♥ goes on 9♥"):
        G.apply(state, Move.card("C1", "C4"))
    state = G.apply(state, Move.card("C1", "C2"))
    assert codes(state, "C2") == "3C 9S 8S" and codes(state, "C1") == "2C"


def test_a_vacancy_takes_any_card_from_the_layout_or_the_talon_but_need_not_be_filled() -> None:
    """«Свободное мђсто можетъ быть занято какою-нибудь подходящею картою при
    раскладкђ или изъ талона; но ... необязательно занимать»."""
    state = build({"C1": "", "C2": "4D QC", "C3": "KH", "X": "7S", "S": "2D"}, rest="C4")
    legal = set(G.legal_moves(state))
    assert Move.card("C2", "C1") in legal
    assert Move.card("X", "C1") in legal
    assert DEAL in legal  # not compulsory: the stock may be turned with a gap open
    after = G.apply(state, Move.card("X", "C1"))
    assert codes(after, "C1") == "7S" and G.pile(after, "X") == ()
    # The card in the gap plays like any other: 6S may now go on it.
    after = build({"C1": "7S", "C2": "4D 6S"}, rest="C4")
    assert Move.card("C2", "C1") in set(G.legal_moves(after))


def test_a_columns_only_card_does_not_move_to_another_vacancy() -> None:
    """C3's only card into the empty C1 would leave the same position (the audit saw
    C3→C2 offered): it is no move. The waste's last card may still fill the gap."""
    state = build({"C1": "", "C2": "4D QC", "C3": "KH", "X": "7S", "S": "2D"}, rest="C4")
    legal = set(G.legal_moves(state))
    assert Move.card("C3", "C1") not in legal
    assert Move.card("C2", "C1") in legal
    with pytest.raises(IllegalMove, match="only card of a column into an empty column"):
        G.apply(state, Move.card("C3", "C1"))
    lone_waste = build({"C1": "", "X": "7S", "S": ""}, rest="C4")
    assert Move.card("X", "C1") in set(G.legal_moves(lone_waste))


def test_a_marriage_that_only_swaps_two_columns_is_no_move() -> None:
    """C1 = 9♠ 8♠, C2 = 9♠: the 8♠ onto C2 leaves C1 as C2 was and C2 as C1 was."""
    state = build({"C1": "9S 8S", "C2": "9S", "C3": "KD 8S"}, rest="C4")
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "C2") not in legal
    assert Move.card("C3", "C2") in legal  # the other 8♠ sits on another card
    with pytest.raises(IllegalMove, match="only swap the two columns"):
        G.apply(state, Move.card("C1", "C2"))


def test_the_talon_is_turned_one_card_at_a_time_and_its_top_is_playable() -> None:
    """«переворачиваютъ одну карту за другою, ставятъ каждую годную карту на мђсто
    основныхъ или же кладутъ ее въ серіи раскладки ... откладываются въ ... талонъ»."""
    state = build({"C1": "KS 9D", "C2": "JD 6S", "F1": run("C", 1, 4), "S": "8D 5C"}, rest="C3")
    state = G.apply(state, DEAL)
    assert codes(state, "X") == "5C" and codes(state, "S") == "8D"
    state = G.apply(state, Move.card("X", "F1"))
    state = G.apply(state, DEAL)
    assert codes(state, "X") == "8D"
    state = G.apply(state, Move.card("X", "C1"))
    assert codes(state, "C1") == "KS 9D 8D"


def test_a_deal_with_no_alternative_is_a_forced_move() -> None:
    tops = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "KC", "5S", "5H"]
    state = build(dict(zip(COLUMNS, tops, strict=True)))
    assert G.legal_moves(state) == [DEAL]
    assert G.forced_move(state) == DEAL
    assert G.forced_move(G.deal(0)) is None  # an ace is exposed: a real choice


def test_no_redeal() -> None:
    """«Пасьянсъ этотъ не раскладывается вторично»."""
    state = build({"C1": "KS 9D", "X": "4H 3H"}, rest="C2")
    assert DEAL not in G.legal_moves(state)
    with pytest.raises(IllegalMove, match="not dealt a second time"):
        G.apply(state, DEAL)
    assert G.info(state) == {"stock": 0, "redeals_left": 0}


def test_cards_never_leave_the_foundations() -> None:
    state = build({"C1": "6S 8D", "F1": run("D", 1, 9)}, rest="C2")
    with pytest.raises(IllegalMove, match="never leave"):
        G.apply(state, Move.card("F1", "C1"))
    with pytest.raises(IllegalMove, match="only an ace"):
        G.apply(state, Move.card("C1", "F2"))
    with pytest.raises(IllegalMove, match="deal action"):
        G.apply(state, Move.card("S", "C1"))


# -- the end --------------------------------------------------------------------------


def test_a_near_won_position_is_won() -> None:
    spec = dict(FULL)
    spec["F8"] = run("C", 1, 12)
    state = build({**spec, "C1": "KC", "S": ""}, rest="C2")
    assert G.pile(state, "C2") == ()
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(state) == "playing" and G.score(state) == (103, 104)
    state = G.apply(state, Move.card("C1", "F8"))
    assert G.status(state) == "won" and G.score(state) == (104, 104)
    assert G.legal_moves(state) == []


def test_a_game_played_out_from_the_waste_is_won() -> None:
    spec = dict(FULL)
    spec["F2"] = run("S", 1, 10)
    state = build({**spec, "S": "KS QS JS"}, rest="C1")
    for _ in range(3):
        state = G.apply(state, DEAL)
        state = G.apply(state, Move.card("X", "F2"))
    assert G.status(state) == "won"


def test_a_dead_position_is_lost() -> None:
    # Every foundation is founded; spades and hearts wait for their sixes, buried
    # under tops that cannot move: no two tops marry, no gap, the waste top is a king.
    spec = {
        "F1": run("S", 1, 5),
        "F2": run("S", 1, 5),
        "F3": run("H", 1, 5),
        "F4": run("H", 1, 5),
        "F5": run("D", 1, 13),
        "F6": run("D", 1, 13),
        "F7": run("C", 1, 13),
        "F8": run("C", 1, 13),
        "C1": "6S 7S",
        "C2": "6S 7S",
        "C3": "8S 9S",
        "C4": "8S 9S",
        "C5": "TS JS",
        "C6": "6H 7H",
        "C7": "6H 7H",
        "C8": "8H 9H",
        "C9": "8H 9H",
        "C10": "JS TS QS QS KS JH",
        "X": "TH TH JH QH QH KH KH KS",
        "S": "",
    }
    state = build(spec, rest="X")
    assert codes(state, "X") == spec["X"]  # every card is placed by hand
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_illegal_moves_have_reasons() -> None:
    state = G.deal(0)
    with pytest.raises(IllegalMove) as err:
        G.apply(state, Move.card("C2", "C5"))
    assert err.value.reason
    with pytest.raises(IllegalMove, match="onto the stock"):
        G.apply(state, Move.card("C2", "S"))
    with pytest.raises(IllegalMove, match="no action"):
        G.apply(state, Move.act("redeal"))


def test_parse_move_round_trips() -> None:
    assert G.parse_move({"from": "X", "to": "C3"}) == Move.card("X", "C3")
    assert G.parse_move({"action": "deal"}) == DEAL


# -- the solver's estimate --------------------------------------------------------------


def test_the_estimate_counts_half_a_card_for_each_married_card() -> None:
    """Cards not founded, less half for each card lying on its suit's next rank up at
    the foot of a column: 9♠ 8♠ 7♠ holds two marriages; 5♥ under them breaks no run
    above it; a king on the next suit's ace is no marriage."""
    plain = build({"C1": "7S 9S 8S"})
    assert G.heuristic(plain) == 104 - 0.5
    married = build({"C1": "5H 9S 8S 7S", "C2": "AH KS", "F1": "AD"})
    assert G.heuristic(married) == 104 - 1 - 2 * 0.5


def test_the_beam_estimate_charges_a_quarter_card_for_each_waste_card() -> None:
    """The beam compares positions after the same deals: the one that placed a dealt
    card (8♠ married onto 9♠) ranks above the one that left it on the waste; the A*'s
    estimate sees only the marriage."""
    placed = build({"C1": "7S 9S 8S", "X": "KH"})
    buried = build({"C1": "7S 9S", "X": "KH 8S"})
    assert G.heuristic(buried) == 104
    assert G.beam_estimate(buried) == 104 + 2 * 0.25
    assert G.beam_estimate(placed) == 104 - 0.5 + 0.25 < G.beam_estimate(buried)
