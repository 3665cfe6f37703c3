"""The Fifteen (Пятнадцать): the deal, seed 002's worked example of a run reversed
through a lane, marriages, the opening grace, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import SUITS, card, code, parse, rank
from server.patience.engine import IllegalMove, InvalidMove, Move, State, shuffled
from server.patience.games.fifteen import FifteenVars as Vars
from server.solver import solve
from tests.server.patience.games.positions import position, run

G = registry.get("fifteen")
COLUMNS = [f"C{i}" for i in range(1, 16)]
UP = [f"FA-{s}" for s in SUITS]
DOWN = [f"FK-{s}" for s in SUITS]


def build(spec: dict[str, str], rest: str | None = None, vars: Vars | None = None) -> State[Vars]:
    return position(G, spec, rest=rest, vars=vars)


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def home(**ranks: tuple[int, int]) -> dict[str, str]:
    """Foundations: ``S=(a, k)`` puts A..a of spades on FA-S and K..k on FK-S
    (``a = 0`` or ``k = 14``: not founded); suits not named are complete."""
    out = {}
    for s in SUITS:
        a, k = ranks.get(s, (13, 1))
        if a:
            out[f"FA-{s}"] = run(s, 1, a)
        if k <= 13:
            out[f"FK-{s}"] = run(s, 13, k)
    return out


# -- the deal -------------------------------------------------------------------------

GOLDEN = {
    0: {
        "C1": "3H KH AS QC 8H 4D 4D",
        "C2": "8C 5H 9S JH 6D 7S 6C",
        "C3": "JS 9H KC 8D TC 4H 4S",
        "C4": "6S 5C KD 4S 4C JC AH",
        "C5": "4H 9S 4C 9D 8C 3C 7C",
        "C6": "2D 3D 7D 5D QS 7C TD",
        "C7": "TS QD 5S 3H 2H 3S AC",
        "C8": "7H 5D 9D 6D 7D TS 8D",
        "C9": "AD JC 6H QD 2C JH TC",
        "C10": "8H QS 2H 5S 2D AC 9C",
        "C11": "TH TH 2S 6H 9H 2C KS",
        "C12": "6S 8S 6C 8S QC JS 5C",
        "C13": "AD 3D 3S AH 5H KD QH",
        "C14": "KC JD KS 7S KH QH TD",
        "C15": "JD 2S AS 7H 3C 9C",
    },
    2**64 - 1: {
        "C1": "9D QD 8H QC KS 6C 8D",
        "C2": "3S JH TD 3H AC QH TD",
        "C3": "9S 4H 8C 2S TH 4D 9H",
        "C4": "AS 3D 2C 2H JD AH 3C",
        "C5": "6H AD 5D TH 9H 3S 4C",
        "C6": "TC QH TC 4H 6D 8S JD",
        "C7": "2C 6S 3C AD 3D AC 7C",
        "C8": "QS 7D 4D QD 5S 9C 7C",
        "C9": "KD 5H 2H 4S JH QC 4S",
        "C10": "6H KH 9C TS KH 8C 7S",
        "C11": "5C 3H JS 5C JC AH KC",
        "C12": "5D 7D KS KD 7H 6C TS",
        "C13": "2D QS KC AS JC 2D 6S",
        "C14": "9D 8H 9S 8S 7S 7H 5S",
        "C15": "5H 6D 2S JS 4C 8D",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed: int) -> None:
    state = G.deal(seed)
    assert {c: codes(state, c) for c in COLUMNS} == GOLDEN[seed]
    assert all(G.pile(state, f) == () for f in UP + DOWN)
    # The sixth row is remembered at the deal: the only cards the grace may take.
    sixth = " ".join(GOLDEN[seed][c].split()[5] for c in COLUMNS)
    assert " ".join(code(c) for c in state.vars.sixth_row) == sixth
    assert state.vars.sixth_row == tuple(G.pile(state, c)[5] for c in COLUMNS)
    assert not state.vars.grace_used
    assert G.loads(G.dumps(state)).vars == state.vars


@pytest.mark.parametrize("seed", [0, 5, 2**40 + 3, 2**64 - 1])
def test_deal_follows_the_rules_order(seed: int) -> None:
    """104 cards row-wise, fifteen to a row: six full rows, the seventh of fourteen."""
    _, pack, rng = shuffled(2, seed)
    state = G.deal(seed)
    for k, c in enumerate(pack):
        row, col = divmod(k, 15)
        assert G.pile(state, COLUMNS[col])[row] == c
    assert [len(G.pile(state, c)) for c in COLUMNS] == [7] * 14 + [6]
    assert state.rng == rng


def test_everything_is_visible() -> None:
    view = G.view(G.deal(9))
    assert all(None not in p["cards"] for p in view["piles"])


# -- seed 002: foundations, marriages, lanes ----------------------------------------------


def test_exposed_aces_and_kings_found_their_foundations() -> None:
    """«четыре туза и четыре короля составляютъ основныя карты; тузы восходятъ ...,
    короли нисходятъ»; the foundations are found during play."""
    state = build({"C1": "9D AS", "C2": "9D KH", "C3": "2S", "C4": "QH"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "FA-S") in legal and Move.card("C2", "FK-H") in legal
    assert Move.card("C1", "FK-S") not in legal and Move.card("C2", "FA-H") not in legal
    assert Move.card("C3", "FA-S") not in legal  # not founded yet
    with pytest.raises(IllegalMove, match="founded by an ace of spades"):
        G.apply(state, Move.card("C3", "FA-S"))
    state = G.apply(state, Move.card("C1", "FA-S"))
    state = G.apply(state, Move.card("C2", "FK-H"))
    state = G.apply(state, Move.card("C3", "FA-S"))
    state = G.apply(state, Move.card("C4", "FK-H"))
    assert codes(state, "FA-S") == "AS 2S" and codes(state, "FK-H") == "KH QH"


def test_the_second_ace_can_only_end_the_descending_foundation() -> None:
    spec = home(S=(5, 2))
    state = build({**spec, "C1": "AS", "C2": "6S"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "FK-S") in legal and Move.card("C1", "FA-S") not in legal
    # With the ascending pile not founded yet, the ace may choose: two legal moves.
    spec = home(S=(0, 2))
    state = build({**spec, "C1": "AS"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert {Move.card("C1", "FK-S"), Move.card("C1", "FA-S")} <= legal


def test_marriages_are_in_suit_either_way_without_wrap() -> None:
    state = build(
        {"C1": "5H", "C2": "6H", "C3": "4H", "C4": "5D", "C5": "KC", "C6": "AC", "C7": "QC"},
        rest="C15",
    )
    legal = set(G.legal_moves(state))
    assert {
        Move.card("C1", "C2"),
        Move.card("C1", "C3"),
        Move.card("C2", "C1"),
        Move.card("C3", "C1"),
    } <= legal
    assert Move.card("C1", "C4") not in legal and Move.card("C4", "C2") not in legal
    assert Move.card("C5", "C6") not in legal and Move.card("C6", "C5") not in legal
    assert Move.card("C7", "C5") in legal and Move.card("C5", "C7") in legal
    with pytest.raises(IllegalMove, match="marriage is in suit"):
        G.apply(state, Move.card("C4", "C2"))
    with pytest.raises(IllegalMove, match="one rank up or down"):
        G.apply(state, Move.card("C5", "C6"))
    # The direction may change inside a column: 5H on 6H, then 4H on 5H... or 6H.
    state = G.apply(state, Move.card("C1", "C2"))
    state = G.apply(state, Move.card("C3", "C2"))
    assert codes(state, "C2") == "6H 5H 4H"


def test_a_lane_takes_any_exposed_card() -> None:
    """«выбираютъ какую-нибудь подходящую карту и кладутъ ее на верху дорожки»."""
    state = build({"C1": "", "C2": "4D QC", "C3": "KH"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert Move.card("C2", "C1") in legal and Move.card("C15", "C1") in legal


def test_a_columns_only_card_does_not_move_to_another_lane() -> None:
    """Moving the only card of a column into an empty column changes nothing, so it is
    no move (it used to be offered: an endless to-and-fro for a player or a solver)."""
    state = build({"C1": "", "C2": "4D QC", "C3": "KH"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert Move.card("C3", "C1") not in legal
    assert Move.card("C3", "FK-H") in legal  # the king itself is not stuck
    with pytest.raises(IllegalMove, match="only card of a column into an empty column"):
        G.apply(state, Move.card("C3", "C1"))


def test_a_marriage_that_only_swaps_two_columns_is_no_move() -> None:
    """C1 = 9♠ 8♠ and C2 = 9♠: the 8♠ onto C2 would leave C1 as C2 was and C2 as C1
    was, the same position; the 9♠ of C2 onto the 8♠ is a real move."""
    state = build({"C1": "9S 8S", "C2": "9S", "C3": "3D 7S"}, rest="C15")
    legal = set(G.legal_moves(state))
    assert Move.card("C1", "C2") not in legal
    assert Move.card("C2", "C1") in legal and Move.card("C3", "C1") in legal
    with pytest.raises(IllegalMove, match="only swap the two columns"):
        G.apply(state, Move.card("C1", "C2"))
    # A column under the moved card unlike the target: a real marriage.
    other = build({"C1": "9H 8S", "C2": "9S"}, rest="C15")
    assert Move.card("C1", "C2") in set(G.legal_moves(other))


def test_seed_example_a_run_is_reversed_through_a_lane() -> None:
    """Seed 002: a run from the ten down to the three, the ten wanted on a foundation:
    the three goes to the head of an empty lane, the others follow, until the ten is
    exposed and fits."""
    run_ten_to_three = run("S", 10, 3)
    spec = home(S=(9, 14))  # FA-S at 9: it wants a ten of spades
    state = build({**spec, "C1": "KS QS " + run_ten_to_three, "C2": ""}, rest="C15")
    assert Move.card("C1", "FA-S") not in G.legal_moves(state)
    for _ in range(8):
        state = G.apply(state, Move.card("C1", "C2"))
    assert codes(state, "C2") == run("S", 3, 10)  # reversed: the ten is now exposed
    assert codes(state, "C1") == "KS QS"
    state = G.apply(state, Move.card("C2", "FA-S"))
    assert codes(state, "FA-S") == run("S", 1, 10)


# -- the grace ------------------------------------------------------------------------


SPACED = "3S 5S 7S 9S JS 3H 5H 7H 9H JH 3D 5D 7D 9D JD"


def stuck_opening(exposed: str = SPACED) -> State[Vars]:
    """A full opening (no foundation, no ace or king exposed) whose sixth row holds
    A♥ in C3 and K♣ in C7; by default no exposed cards marry (15 spaced tops)."""
    tops = exposed.split()
    fixed = {(2, 5): "AH", (6, 5): "KC"}
    used: set[int] = set()

    def take(t: str) -> int:
        c = parse(t)
        c = c if c not in used else c + 52
        used.add(c)
        return c

    grid: dict[tuple[int, int], int] = {}
    for col, t in enumerate(tops):
        grid[(col, 6 if col < 14 else 5)] = take(t)
    for pos, t in fixed.items():
        grid[pos] = take(t)
    left = [c for c in range(104) if c not in used]
    # Aces and kings first so they land in rows 0..4, away from the grace row.
    left.sort(key=lambda c: rank(c) not in (1, 13))
    slots = [
        (col, row)
        for row in range(7)
        for col in range(15)
        if (col, row) not in grid and not (col == 14 and row == 6)
    ]
    for pos, c in zip(slots, left, strict=True):
        grid[pos] = c
    piles = {
        COLUMNS[col]: [grid[(col, row)] for row in range(7) if (col, row) in grid]
        for col in range(15)
    }
    return G.new_state(piles, Vars(sixth_row=tuple(piles[c][5] for c in COLUMNS)))


def test_grace_lists_every_combination() -> None:
    state = stuck_opening()
    assert G.legal_moves(state) == [
        Move.act("grace", ace="C3", king=None),
        Move.act("grace", ace=None, king="C7"),
        Move.act("grace", ace="C3", king="C7"),
    ]
    assert Move.act("grace", ace="C3", king="C7").to_wire() == {
        "action": "grace",
        "ace": "C3",
        "king": "C7",
    }


def test_grace_takes_the_sixth_card_and_the_cards_below_close_up() -> None:
    """«позволяется взять изъ шестого ряда одного туза и одного короля ... немедленно
    пополняя образовавшіяся ... свободныя мђста нижними картами»."""
    state = stuck_opening()
    c3, c7 = G.pile(state, "C3"), G.pile(state, "C7")
    after = G.apply(state, Move.act("grace", ace="C3", king="C7"))
    assert codes(after, "FA-H") == "AH" and codes(after, "FK-C") == "KC"
    assert G.pile(after, "C3") == c3[:5] + c3[6:]
    assert G.pile(after, "C7") == c7[:5] + c7[6:]
    assert after.vars.grace_used and G.info(after) == {"grace_used": True}
    # «Если и это средство окажется безполезнымъ, тогда пасьянсъ считается вполнђ
    # неудавшимся»: nothing fits now, and the grace is not given twice.
    assert G.legal_moves(after) == []
    assert G.status(after) == "lost"


def swapped(state: State[Vars], a: tuple[str, int], b: tuple[str, int]) -> State[Vars]:
    """``state`` with two cards (column, index) exchanged; the variables kept."""
    piles = {c: list(G.pile(state, c)) for c in COLUMNS}
    (ca, ia), (cb, ib) = a, b
    piles[ca][ia], piles[cb][ib] = piles[cb][ib], piles[ca][ia]
    return G.new_state(piles, state.vars)


def test_grace_takes_only_cards_dealt_into_the_sixth_row() -> None:
    """The sixth row is the row as dealt: a king that came to C4's sixth place later
    (a column emptied and built again in a lane) is not in it, nor is the other deck's
    A♥ lying where the dealt one lay. The engine remembers the dealt cards; it used
    to take whatever lay sixth in a column."""
    state = stuck_opening()
    king = next((c, i) for c in COLUMNS for i in range(5) if rank(G.pile(state, c)[i]) == 13)
    moved_in = swapped(state, ("C4", 5), king)
    assert rank(G.pile(moved_in, "C4")[5]) == 13
    assert G.legal_moves(moved_in) == G.legal_moves(state)  # no grace from C4
    with pytest.raises(IllegalMove, match="not the one dealt there"):
        G.apply(moved_in, Move.act("grace", ace=None, king="C4"))
    # The twin: both aces of hearts swap places; the one now sixth in C3 was not dealt
    # there, so only the king's grace is left.
    twin = next((c, i) for c in COLUMNS for i in range(5) if code(G.pile(state, c)[i]) == "AH")
    assert G.pile(state, twin[0])[twin[1]] != G.pile(state, "C3")[5]
    twins = swapped(state, ("C3", 5), twin)
    assert code(G.pile(twins, "C3")[5]) == "AH"
    assert G.legal_moves(twins) == [Move.act("grace", ace=None, king="C7")]
    with pytest.raises(IllegalMove, match="not the one dealt there"):
        G.apply(twins, Move.act("grace", ace="C3", king=None))


def test_the_remembered_sixth_row_survives_persistence_and_the_grace() -> None:
    state = stuck_opening()
    again = G.loads(G.dumps(state))
    assert again == state and G.legal_moves(again) == G.legal_moves(state)
    after = G.apply(state, Move.act("grace", ace="C3", king=None))
    assert after.vars == Vars(grace_used=True, sixth_row=state.vars.sixth_row)
    assert G.loads(G.dumps(after)) == after


def test_grace_with_only_an_ace() -> None:
    state = stuck_opening()
    after = G.apply(state, G.parse_move({"action": "grace", "ace": "C3"}))
    assert codes(after, "FA-H") == "AH" and G.pile(after, "FK-C") == ()
    assert len(G.pile(after, "C7")) == 7
    assert G.apply(state, Move.act("grace", ace="C3")) == after


def test_grace_is_refused_with_reasons() -> None:
    state = stuck_opening()
    with pytest.raises(IllegalMove, match="sixth card of C4 is"):
        G.apply(state, Move.act("grace", ace="C4", king=None))
    with pytest.raises(IllegalMove, match="name the column"):
        G.apply(state, Move.act("grace", ace=None, king=None))
    # With a marriage possible (4S on 3S) the game goes on, but the grace is used.
    used = stuck_opening(SPACED.replace("5S", "4S"))._replace(vars=Vars(grace_used=True))
    assert set(G.legal_moves(used)) == {Move.card("C2", "C1"), Move.card("C1", "C2")}
    with pytest.raises(IllegalMove, match="once a game"):
        G.apply(used, Move.act("grace", ace="C3", king=None))
    # An ace available: the game can start, no grace.
    deal = G.deal(0)  # C4 ends with AH
    assert not [m for m in G.legal_moves(deal) if m.action == "grace"]
    with pytest.raises(IllegalMove, match="is available: play it instead"):
        G.apply(deal, Move.act("grace", ace="C1", king=None))
    # A foundation founded: too late for the grace.
    founded = G.apply(deal, Move.card("C4", "FA-H"))
    with pytest.raises(IllegalMove, match="a foundation is founded"):
        G.apply(founded, Move.act("grace", ace="C1", king=None))


def test_grace_wire_form() -> None:
    assert G.parse_move({"action": "grace", "king": "C7"}) == Move.act("grace", ace=None, king="C7")
    with pytest.raises(InvalidMove):
        G.parse_move({"action": "grace", "ace": "C3", "queen": "C1"})


# -- the end --------------------------------------------------------------------------


def test_a_near_won_position_is_won() -> None:
    state = build({**home(S=(12, 1)), "C9": "KS"})
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(state) == "playing" and G.score(state) == (103, 104)
    state = G.apply(state, Move.card("C9", "FA-S"))
    assert G.status(state) == "won" and G.legal_moves(state) == []


def test_a_dead_position_is_lost() -> None:
    # Spades and hearts wait for their fives (up) and nines (down); every column is
    # occupied and no two exposed cards marry.
    spec = home(S=(4, 10), H=(4, 10))
    spec.update(
        {
            "C1": "2S 4S AS",
            "C2": "5S 5S 3S",
            "C3": "7S 7S 6S",
            "C4": "9S 9S 6S",
            "C5": "JS KS 8S",
            "C6": "8S",
            "C7": "TS",
            "C8": "QS",
            "C9": "2H 4H AH",
            "C10": "5H 5H 3H",
            "C11": "7H 7H 6H",
            "C12": "9H 9H 6H",
            "C13": "JH QH 8H",
            "C14": "KH 8H",
            "C15": "TH",
        }
    )
    state = build(spec, vars=Vars(grace_used=True))
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"
    # With the grace unused it is still lost: an ace is founded already.
    assert G.legal_moves(state._replace(vars=Vars())) == []


def test_cards_never_leave_the_foundations() -> None:
    state = build({**home(S=(5, 14)), "C1": "7S 9S"}, rest="C2")
    with pytest.raises(IllegalMove, match="never leave"):
        G.apply(state, Move.card("FA-S", "C1"))
    with pytest.raises(IllegalMove, match="FA-S needs 6♠, not 9♠"):
        G.apply(state, Move.card("C1", "FA-S"))


def test_card_sanity() -> None:
    assert card(1, 1) == parse("AH")
