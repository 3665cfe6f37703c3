"""Classic Travellers (Путешественники, классический, seed 004 б): rows counted A…Q, K
with plays between them, the spread kings' reserve, journeys, unshuffled regathering."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import KING
from server.patience.engine import IllegalMove, Move, State, as_stock, shuffled
from server.patience.games.travellers_classic import GAME
from server.patience.travel import TravelVars
from server.solver import solve
from tests.server.patience.test_travel import build, codes, rederive

G = GAME
assert registry.get("travellers_classic") is G
COUNT = tuple(range(1, 14))
KINGS = {f"F{k}": ("SHDC"[(k - 1) % 4], 1) for k in range(1, 9)}
# Seed: 6 onto Q, onto 5, J, 4, 10, 7, A, 8, 2, 9, 3: turned over, pile 3 deals first.
GATHER = (3, 9, 2, 8, 1, 7, 10, 4, 11, 5, 12, 6)

GOLDEN = {
    0: {
        "P1": "8H",
        "P2": "JH",
        "P3": "7H",
        "P4": "9C",
        "P5": "3C",
        "P6": "5D",
        "P7": "3C",
        "P8": "3D",
        "P9": "3H",
        "P10": "5S",
        "P11": "QH",
        "P12": "2D",
        "T": "6H 6D",
        "R": "2S",
        "S": (
            "8D QD QH 5S QC 5H TC 3D 4D 6H 8S 6C 4H QS 4D 8C 6S 8D 7D AC 4C 7S 9S 8H "
            "TS AD 9H 2H 7H AS 2S 9D AS 7C 4S TH 6C 2C 4C AH JS 9D 3H 4S 4H 2C AH 5D "
            "TD 9C 2H 7C 9H 7D AD 5C TS TC JH 8C AC 5C QC 6S 7S 6D 8S 5H JC TD 9S TH "
            "2D JS JC 3S JD JD QD 3S QS"
        ),
        "F1": "KS",
        "F2": "KH",
        "F3": "KD",
        "F4": "KC",
        "F5": "KS",
        "F6": "KH",
        "F7": "KD",
        "F8": "KC",
    },
    2**64 - 1: {
        "P1": "7S",
        "P2": "7H",
        "P3": "AH",
        "P4": "5H",
        "P5": "6D",
        "P6": "3D",
        "P7": "AS",
        "P8": "TD",
        "P9": "4D",
        "P10": "JH",
        "P11": "TC",
        "P12": "7H",
        "T": "",
        "R": "5C",
        "S": (
            "9D 4C 2C TH JD 3D 8S 9C 5D 2H JC QC 8S 5H 4S 2S QH JH 4D JD 6S TS 8H TS "
            "7C 8C 9S 6D 5S 5C JC 8D 2C 3H 2D 6H AD QD 2D QS 8H 3C QS 9S JS 6S 7C QD "
            "6C AS 8D 3C TD 4S 7D TH 9H 3H JS 2S 9H QC AH 4H 7D 4C QH 6C 3S 4H TC 6H "
            "7S 9C 5S AC 5D 8C 3S 2H AC 9D AD"
        ),
        "F1": "KS",
        "F2": "KH",
        "F3": "KD",
        "F4": "KC",
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


@pytest.mark.parametrize("seed", [0, 4, 2**64 - 1])
def test_rows_follow_the_rules_order(seed: int) -> None:
    """Deck-0 kings then deck-1 kings onto F1..F8; the 96 others dealt one row per
    count cycle A, 2, …, Q, K (the K card to R), with ``next_row`` between rows."""
    state = G.deal(seed)
    aside, pack, rng = shuffled(2, seed, set_aside=[(KING, s) for s in range(4)] * 2)
    assert [G.pile(state, f"F{k}") for k in range(1, 9)] == [(c,) for c in aside]
    piles: list[list[int]] = [[] for _ in range(12)]
    trav: list[int] = []
    res: list[int] = []
    rows = 0
    while pack:
        dealt, t, r, _, used = rederive(pack, COUNT, reserve_at=12, row=True)
        for pile, more in zip(piles, dealt, strict=False):
            pile.extend(more)
        trav += t
        res += r
        pack = pack[used:]
        rows += 1
        assert [G.pile(state, f"P{i}") for i in range(1, 13)] == [tuple(p) for p in piles]
        assert (G.pile(state, "T"), G.pile(state, "R")) == (tuple(trav), tuple(res))
        assert G.pile(state, "S") == as_stock(pack)
        assert state.vars.row == rows and state.rng == rng
        # play nothing: jump straight to the next row, as the rules would after plays
        if pack:
            state = G.play(state, Move.act("next_row"))
    assert rows >= 7


def test_view_hides_deck_reserve_and_travellers() -> None:
    state = G.deal(1)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert [view[f"P{i}"]["label"] for i in range(1, 13)] == [
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
    ]
    for pid in ("S", "R", "T"):
        assert set(view[pid]["cards"]) <= {None}
    assert view["S"]["kind"] == "stock" and len(view["S"]["cards"]) > 60
    info = G.view(state)["info"]
    assert info["row"] == 1 and info["stock"] == len(view["S"]["cards"])


def test_the_view_does_not_depend_on_the_decks_order() -> None:
    state = G.deal(2)
    s, t = G.at["S"], G.at["T"]
    piles = list(state.piles)
    piles[s] = tuple(reversed(piles[s]))
    piles[t] = tuple(reversed(piles[t]))
    other = State(tuple(piles), state.vars, state.rng ^ 1)
    assert other != state and G.view(other) == G.view(state)


def position(
    table: dict[str, str],
    found: dict[str, tuple[str, int]] | None = None,
    *,
    spread: bool = True,
    deal: int = 1,
) -> State[TravelVars]:
    return build(
        G, table, {**KINGS, **(found or {})}, rest="P2", vars=TravelVars(deal=deal, spread=spread)
    )


def test_forced_steps_come_in_the_seeds_order() -> None:
    """Rows first, then the kings' reserve is spread, then the travellers."""
    state = position({"P2": "7C", "T": "9H", "R": "5S 8C", "S": "4D"}, spread=False)
    assert G.legal_moves(state) == [Move.act("next_row")]
    state = position({"P2": "7C", "T": "9H", "R": "5S 8C"}, spread=False)
    assert G.legal_moves(state) == [Move.act("spread")]
    with pytest.raises(IllegalMove, match="spread"):
        G.apply(state, Move.act("travel"))
    state = G.apply(state, Move.act("spread"))
    assert G.view(state)["piles"][G.at["R"]]["cards"] == ["5S", "8C"]
    assert G.legal_moves(state) == [Move.act("travel")]


def test_seed_example_of_the_journey() -> None:
    """Seed (б), with a jack (a queen always fits a king's foundation here): the jack
    goes under pile J; its top, an ace, goes under pile A; pile A's top is already an
    ace: the journey stops."""
    state = position({"P2": "7C", "P11": "3C AH", "P1": "7D AD", "T": "JS"})
    state = G.apply(state, Move.act("travel"))
    assert codes(G, state, "P11") == "JS 3C"
    assert codes(G, state, "P1") == "AH 7D AD"
    assert codes(G, state, "T") == ""
    assert G.legal_moves(state) == [Move.act("redeal")]


def test_redeal_regathers_in_the_seeds_order_without_shuffling() -> None:
    tops = "2C 3C|4C 5C|6C 7C|8C 9C|TC JC|2D 3D|4D 5D|6D 7D|8D 9D|TD JD|2H 3H|4H 6H"
    table = {f"P{i}": text for i, text in enumerate(tops.split("|"), start=1)}
    state = build(G, {**table, "R": "5H 8C"}, KINGS, rest="P2", vars=TravelVars(spread=True))
    state = state._replace(rng=5)
    assert G.legal_moves(state) == [Move.act("redeal")]
    after = G.apply(state, Move.act("redeal"))
    pack = [c for r in GATHER for c in G.pile(state, f"P{r}")] + list(G.pile(state, "R"))
    dealt, trav, res, _, used = rederive(pack, COUNT, reserve_at=12, row=True)
    assert [G.pile(after, f"P{i}") for i in range(1, 13)] == [tuple(p) for p in dealt[:12]]
    assert (G.pile(after, "T"), G.pile(after, "R")) == (tuple(trav), tuple(res))
    assert G.pile(after, "S") == as_stock(pack[used:])
    assert after.vars == TravelVars(deal=2, row=1) and after.rng == 5


def test_near_won_position_is_won() -> None:
    full = {f: (s, 13) for f, (s, _) in KINGS.items()}
    state = position({"P1": "AC"}, {**full, "F8": ("C", 12)})
    assert G.legal_moves(state) == [Move.card("P1", "F8")]
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(G.apply(state, Move.card("P1", "F8"))) == "won"


def test_third_deal_stuck_is_lost() -> None:
    state = position({"P2": "7C"}, deal=3)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"
    with pytest.raises(IllegalMove, match="over"):
        G.apply(state, Move.act("redeal"))


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("S", "F1"), "next_row"),
        (Move.card("R", "F3", index=0), "face down until it is spread"),
        (Move.act("travel"), "first next row"),
    ],
)
def test_illegal_moves_say_why(move: Move, reason: str) -> None:
    state = position({"P2": "7C", "T": "9H", "R": "QD", "S": "4D"}, spread=False)
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)
