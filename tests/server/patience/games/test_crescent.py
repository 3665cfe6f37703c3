"""Crescent (Полумесяц): the deal, the waiting card of seed 000, shifts, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import HEARTS, KING, SPADES, card, code
from server.patience.engine import IllegalMove, Move, State, rows, shuffled
from server.patience.games.crescent import Crescent
from server.patience.games.crescent import CrescentVars as Vars
from server.solver import solve
from tests.server.patience.games.positions import Pack

_game = registry.get("crescent")
assert isinstance(_game, Crescent)
G = _game


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "t1", "t2", "t16"),
    [
        (0, "TH 4S TS 8D JD 9C", "2D AC 4S 4H 6S 7D", "3H JS 2C 5S 7S TD"),
        (2**64 - 1, "JS 4H 6H 4C JD 6S", "9H 7S 4H 8C 3S 8S", "5C 9D 7C 3C 3D QD"),
    ],
)
def test_golden_deals(seed: int, t1: str, t2: str, t16: str) -> None:
    state = G.deal(seed)
    assert (codes(state, "T1"), codes(state, "T2"), codes(state, "T16")) == (t1, t2, t16)


def test_deal_follows_the_rules_order() -> None:
    """Deck-0 aces then kings set aside; 96 shuffled cards dealt row-wise over 16."""
    seed = 987654321
    state = G.deal(seed)
    aside, pack, rng = shuffled(
        2, seed, set_aside=[(1, s) for s in range(4)] + [(KING, s) for s in range(4)]
    )
    assert aside == [0, 13, 26, 39, 12, 25, 38, 51]
    for i, pile in enumerate(rows(pack, 16), start=1):
        assert G.pile(state, f"T{i}") == tuple(pile)
        assert len(pile) == 6
    for s, suit_ in enumerate("SHDC"):
        assert G.pile(state, f"FA-{suit_}") == (card(1, s),)
        assert G.pile(state, f"FK-{suit_}") == (card(KING, s),)
        assert G.pile(state, f"W-{suit_}") == ()
    assert state.rng == rng and state.vars == Vars(shifts_left=3)


def test_only_tops_are_visible() -> None:
    state = G.deal(5)
    for pile in G.view(state)["piles"]:
        if pile["kind"] == "tableau":
            assert pile["cards"][:-1] == [None] * 5
            assert pile["cards"][-1] == code(G.pile(state, pile["id"])[-1])


# -- positions built by hand ------------------------------------------------------------


def position(
    tableau: dict[str, list[str]],
    up: dict[str, int],
    down: dict[str, int],
    wait: dict[str, str] | None = None,
    shifts: int = 3,
) -> State[Vars]:
    """Every card not named in the tableau or a waiting cell sits on its foundations
    (up to rank ``up[s]`` on FA, down to rank ``down[s]`` on FK); the rest of the pack
    fills T16 so that no card is lost."""
    piles: dict[str, list[int]] = {}
    pack = Pack()
    take = pack.take

    for pid, cards in tableau.items():
        piles[pid] = [take(t) for t in cards]
    for s in "SHDC":
        if wait and s in wait:
            piles[f"W-{s}"] = [take(wait[s])]
        piles[f"FA-{s}"] = [take(f"{'A23456789TJQK'[r - 1]}{s}") for r in range(1, up[s] + 1)]
        piles[f"FK-{s}"] = [
            take(f"{'A23456789TJQK'[r - 1]}{s}") for r in range(13, down[s] - 1, -1)
        ]
    piles.setdefault("T16", [])
    piles["T16"] = pack.rest() + piles["T16"]
    return G.new_state(piles, Vars(shifts))


def test_seed_example_queen_sends_the_waiting_jack_up() -> None:
    """Seed 000: ♥ foundations at 10 and Q, an exposed J♥ waits between the rows;
    a later Q♥ decides that the jack goes up onto the ten, the queen after it."""
    state = position(
        {"T1": ["JH"], "T2": ["QH"]},
        up={"S": 1, "H": 10, "D": 1, "C": 1},
        down={"S": 13, "H": 12, "D": 13, "C": 13},
    )
    legal = G.legal_moves(state)
    assert Move.card("T1", "W-H") in legal
    assert Move.card("T1", "FA-H") not in legal and Move.card("T1", "FK-H") not in legal
    with pytest.raises(IllegalMove, match="must wait in W-H"):
        G.apply(state, Move.card("T1", "FA-H"))
    state = G.apply(state, Move.card("T1", "W-H"))
    assert codes(state, "W-H") == "JH"
    assert Move.card("T2", "FA-H") in G.legal_moves(state)
    state = G.apply(state, Move.card("T2", "FA-H"))
    assert codes(state, "FA-H").endswith("TH JH QH")
    assert G.pile(state, "W-H") == ()


def test_seed_example_ten_sends_the_waiting_jack_down() -> None:
    state = position(
        {"T1": ["JH"], "T2": ["TH"]},
        up={"S": 1, "H": 10, "D": 1, "C": 1},
        down={"S": 13, "H": 12, "D": 13, "C": 13},
    )
    # The other ten of hearts is already on FA-H; T2 holds the second copy.
    state = G.apply(state, Move.card("T1", "W-H"))
    state = G.apply(state, Move.card("T2", "FK-H"))
    assert codes(state, "FK-H").endswith("QH JH TH")
    assert G.pile(state, "W-H") == ()


def test_the_twin_of_the_waiting_card_fills_both_foundations() -> None:
    state = position(
        {"T1": ["JH"], "T2": ["JH"]},
        up={"S": 1, "H": 10, "D": 1, "C": 1},
        down={"S": 13, "H": 12, "D": 13, "C": 13},
    )
    state = G.apply(state, Move.card("T1", "W-H"))
    assert {Move.card("T2", "FA-H"), Move.card("T2", "FK-H")} <= set(G.legal_moves(state))
    after = G.apply(state, Move.card("T2", "FK-H"))
    assert G.pile(after, "FK-H")[-1] == G.pile(state, "T2")[-1]  # the played card
    assert G.pile(after, "FA-H")[-1] == G.pile(state, "W-H")[0]  # the waiting one
    assert G.pile(after, "W-H") == ()


def test_nothing_else_of_the_suit_goes_up_while_a_card_waits() -> None:
    state = position(
        {"T1": ["JH"], "T2": ["5H"]},
        up={"S": 1, "H": 10, "D": 1, "C": 1},
        down={"S": 13, "H": 12, "D": 13, "C": 13},
    )
    state = G.apply(state, Move.card("T1", "W-H"))
    assert not [m for m in G.legal_moves(state) if m.src == "T2" and m.dst in ("FA-H", "FK-H")]


def test_pile_to_pile_builds_either_way_in_suit_without_wrap() -> None:
    state = position(
        {"T1": ["7S"], "T2": ["8S"], "T3": ["6S"], "T4": ["7H"], "T5": ["KS"], "T6": ["AS"]},
        up={"S": 1, "H": 1, "D": 1, "C": 1},
        down={"S": 13, "H": 13, "D": 13, "C": 13},
    )
    legal = set(G.legal_moves(state))
    assert {Move.card("T1", "T2"), Move.card("T1", "T3"), Move.card("T2", "T1")} <= legal
    assert Move.card("T1", "T4") not in legal  # another suit
    assert Move.card("T5", "T6") not in legal and Move.card("T6", "T5") not in legal  # no wrap


def test_empty_piles_stay_empty() -> None:
    state = position(
        {"T1": ["7S"], "T2": []},
        up={"S": 1, "H": 1, "D": 1, "C": 1},
        down={"S": 13, "H": 13, "D": 13, "C": 13},
    )
    with pytest.raises(IllegalMove, match="stays empty"):
        G.apply(state, Move.card("T1", "T2"))


def test_a_move_that_only_swaps_two_piles_is_no_move() -> None:
    """The audit's empty move (there T6→T16): T2 = 9♣ 10♣ and T13 = 9♣. The 10♣ onto
    T13 would leave T2 as T13 was and T13 as T2 was; the other way round is a move."""
    state = position(
        {"T2": ["9C", "TC"], "T13": ["9C"], "T7": ["5D", "TC"]},
        up={"S": 13, "H": 13, "D": 1, "C": 8},
        down={"S": 1, "H": 1, "D": 13, "C": 11},
    )
    legal = set(G.legal_moves(state))
    assert Move.card("T2", "T13") not in legal
    assert Move.card("T13", "T2") in legal and Move.card("T7", "T13") in legal
    with pytest.raises(IllegalMove, match="only swap the two piles"):
        G.apply(state, Move.card("T2", "T13"))


def test_a_shift_that_changes_nothing_is_not_offered() -> None:
    """Piles of one card stay as they are; a pile of twins (9♣ 9♣) or two piles that
    mirror each other (3♣ 4♣ and 4♣ 3♣) shift into the same layout."""
    singles = {f"T{i}": [c] for i, c in enumerate(["AC", "2C", "JC", "QC", "KC"], start=9)}
    mirrors = {
        "T1": ["3C", "4C"],
        "T2": ["4C", "3C"],
        "T3": ["5C", "6C"],
        "T4": ["6C", "5C"],
        "T5": ["7C", "8C"],
        "T6": ["8C", "7C"],
        "T7": ["9C", "9C"],
        "T8": ["TC", "TC"],
    }
    up = {"S": 13, "H": 13, "D": 13, "C": 2}
    down = {"S": 1, "H": 1, "D": 1, "C": 11}
    state = position({**mirrors, **singles}, up, down)
    assert G.pile(state, "T16") == ()  # every card placed by hand
    assert Move.act("shift") not in G.legal_moves(state)
    with pytest.raises(IllegalMove, match="would change nothing"):
        G.apply(state, Move.act("shift"))
    # Two equal piles (3♣ 4♣ twice) turn into 4♣ 3♣ twice: a real shift.
    unequal = position(
        {**mirrors, "T2": ["3C", "4C"], "T1": ["4C", "3C"][::-1], **singles}, up, down
    )
    assert Move.act("shift") in G.legal_moves(unequal)


def test_shift_moves_each_bottom_card_to_the_top_three_times() -> None:
    state = G.deal(11)
    before = state.piles
    for left in (2, 1, 0):
        state = G.apply(state, Move.act("shift"))
        assert state.vars.shifts_left == left
    for i in G.tableau:
        assert state.piles[i] == before[i][3:] + before[i][:3]
    assert Move.act("shift") not in G.legal_moves(state)
    with pytest.raises(IllegalMove, match="three shifts"):
        G.apply(state, Move.act("shift"))


def test_a_near_won_position_is_won() -> None:
    state = position(
        {"T1": ["KH"]},
        up={"S": 13, "H": 12, "D": 13, "C": 13},
        down={"S": 1, "H": 1, "D": 1, "C": 1},
    )
    # T16 holds the cards the helper could not place: nothing here.
    assert G.pile(state, "T16") == ()
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(state) == "playing"
    state = G.apply(state, Move.card("T1", "FA-H"))
    assert G.status(state) == "won" and G.score(state) == (104, 104)
    assert G.legal_moves(state) == []


def test_a_dead_position_is_lost() -> None:
    # Every other suit is home; the hearts left lie in one pile under a 9♥ that fits
    # neither FA-H (at 5) nor FK-H (at 8), and no shift is left.
    state = position(
        {"T16": ["9H"]},
        up={"S": 13, "H": 5, "D": 13, "C": 13},
        down={"S": 1, "H": 8, "D": 1, "C": 1},
        shifts=0,
    )
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_spades_index_sanity() -> None:
    assert card(1, SPADES) == 0 and card(1, HEARTS) == 13
