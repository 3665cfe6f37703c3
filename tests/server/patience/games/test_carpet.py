"""Carpet (Ковер): the deal, free cards, foundations both ways, packing on the waste,
the single unshuffled redeal, the end, and what the player sees."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import KING, RANKS, SUITS, card, code
from server.patience.engine import IllegalMove, Move, State, as_stock, shuffled
from server.patience.games.carpet import DOWN, UP
from server.patience.grid import CELLS, INITIALLY_FREE, cell_id
from server.patience.grid import CarpetVars as Vars
from server.solver import solve
from tests.server.patience.games.positions import Pack

G = registry.get("carpet")
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def row(state: State[Vars], r: int) -> str:
    return " ".join(codes(state, cell_id(r, c)) or "--" for c in range(8))


def position(
    cells: dict[str, str],
    *,
    up: int | dict[str, int] = 1,
    down: int | dict[str, int] = 13,
    waste: str = "",
    stock: str = "",
    redeals_left: int = 1,
) -> State[Vars]:
    """A hand-built position: the named carpet cells (one code each; the rest gaps),
    the waste (bottom first) and the stock (top first); FA-s holds A..up[s] and FK-s
    holds K..down[s]. A second copy of a code is deck 1; cards not named anywhere are
    left out (they play no part)."""
    ups = up if isinstance(up, dict) else dict.fromkeys(SUITS, up)
    downs = down if isinstance(down, dict) else dict.fromkeys(SUITS, down)
    pack = Pack()
    take = pack.take

    piles: dict[str, list[int]] = {}
    for s in SUITS:
        piles[f"FA-{s}"] = [take(RANKS[r - 1] + s) for r in range(1, ups[s] + 1)]
        piles[f"FK-{s}"] = [take(RANKS[r - 1] + s) for r in range(13, downs[s] - 1, -1)]
    for pid, text in cells.items():
        piles[pid] = [take(text)]
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
                0: "TH 2D TH TC 7C 8H 8D 7D",
                3: "KH TS QD 3S 8H QS 9D JS",
                7: "3H 5C 6C 7C QH 5S JC 5S",
            },
            "JD 6S 2S 9H 5H JH 4D AH",
        ),
        (
            2**64 - 1,
            {
                0: "JS 9H 3H 8H 9D 5D 2S 2C",
                3: "9H JC 7H 4S TC 2D 5C 9D",
                7: "3H 5D AC 4D 8H 4D 5H 3C",
            },
            "JD 3S 9C 9S 8D KS QC JC",
        ),
    ],
)
def test_golden_deals(seed: int, rows: dict[int, str], stock: str) -> None:
    state = G.deal(seed)
    for r, text in rows.items():
        assert row(state, r) == text
    s = G.pile(state, "S")
    assert len(s) == 32
    assert " ".join(code(c) for c in reversed(s[-8:])) == stock  # turned in this order
    for s_, suit_ in enumerate(SUITS):
        assert G.pile(state, f"FA-{suit_}") == (card(1, s_),)
        assert G.pile(state, f"FK-{suit_}") == (card(KING, s_),)
    assert G.pile(state, "X") == ()


def test_the_whole_of_deal_zero() -> None:
    state = G.deal(0)
    assert [row(state, r) for r in range(8)] == [
        "TH 2D TH TC 7C 8H 8D 7D",
        "4C 5D 6H 9S 2D 4D 3S 3H",
        "4S AC KD 3C 7S QC 2H 5D",
        "KH TS QD 3S 8H QS 9D JS",
        "TS 4S 6C 5C QC AD 2S JS",
        "9C 3D 9D QH 8C 4H AS 2C",
        "8D 4H 3C 7H 8S 5H QD QS",
        "3H 5C 6C 7C QH 5S JC 5S",
    ]
    assert " ".join(code(c) for c in reversed(G.pile(state, "S"))) == (
        "JD 6S 2S 9H 5H JH 4D AH JH KS 8S 8C 2C TD JD 7S "
        "9C 7D 2H 6H TC 9S 9H 6D 6D JC 7H KC 6S 3D 4C TD"
    )
    assert [codes(state, f) for f in UP + DOWN] == ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC"]


def test_deal_follows_the_rules_order() -> None:
    """Deck-0 aces then kings set aside; cards 0..63 fill the carpet row by row
    (G00, G01, …); cards 64.. are the stock, 64 turned first."""
    seed = 31337
    state = G.deal(seed)
    aside, pack, rng = shuffled(
        2, seed, set_aside=[(1, s) for s in range(4)] + [(KING, s) for s in range(4)]
    )
    assert aside == [0, 13, 26, 39, 12, 25, 38, 51]
    assert [G.pile(state, f) for f in UP + DOWN] == [(c,) for c in aside]
    for k in range(64):
        assert G.pile(state, f"G{k // 8}{k % 8}") == (pack[k],)
    assert G.pile(state, "S") == as_stock(pack[64:])
    assert state.rng == rng and state.vars == Vars(redeals_left=1)
    after = G.apply(state, DEAL)
    assert G.pile(after, "X") == (pack[64],)
    assert G.apply(after, DEAL).piles[G.at["X"]] == (pack[64], pack[65])


def test_sixteen_cards_are_free_at_the_start() -> None:
    state = G.deal(4)
    info = G.view(state)["info"]
    assert info["free"] == [CELLS[r * 8 + c] for r, c in sorted(INITIALLY_FREE)]
    assert info["redeals_left"] == 1 and info["pass"] == 1
    sources = {m.src for m in G.legal_moves(state) if m.action is None}
    assert sources <= set(info["free"])


def test_layout_has_the_rules_pile_ids_and_orientations() -> None:
    view = {p["id"]: p for p in G.view(G.deal(0))["piles"]}
    assert {"S", "X", *UP, *DOWN, *CELLS} == set(view)
    assert view["G00"]["kind"] == "grid" and view["G00"]["orient"] == "v"
    assert view["G01"]["orient"] == "h" and view["G10"]["orient"] == "h"
    assert view["FA-H"]["kind"] == "foundation" and view["FK-C"]["kind"] == "foundation"
    assert view["S"]["kind"] == "stock" and view["X"]["kind"] == "waste"
    assert len({(p["x"], p["y"]) for p in view.values()}) == len(view)


# -- free cards -----------------------------------------------------------------------


def test_only_free_cards_leave_the_carpet() -> None:
    # G11 (upright) is boxed in by G01 above and G21 below; G01 (across) by G00 and G02.
    state = position({"G00": "9C", "G01": "9C", "G02": "9D", "G11": "2S", "G21": "9D"}, stock="5C")
    legal = G.legal_moves(state)
    assert Move.card("G11", "FA-S") not in legal
    with pytest.raises(IllegalMove, match=r"G11 is not free.*north and south"):
        G.apply(state, Move.card("G11", "FA-S"))
    with pytest.raises(IllegalMove, match="G05 is a gap"):
        G.apply(state, Move.card("G05", "FA-S"))
    # Take the card below it away: G21 (across) has a gap at G20, so it is free.
    state = position(
        {"G00": "9C", "G01": "9C", "G02": "9D", "G11": "2S", "G21": "9D"},
        down={"S": 13, "H": 13, "D": 10, "C": 13},
    )
    state = G.apply(state, Move.card("G21", "FK-D"))
    assert Move.card("G11", "FA-S") in G.legal_moves(state)
    assert "G11" in G.view(state)["info"]["free"]


def test_nothing_goes_onto_the_carpet_and_foundations_keep_their_cards() -> None:
    state = position({"G00": "2S", "G02": "9H"}, waste="2H")
    with pytest.raises(IllegalMove, match="onto the carpet"):
        G.apply(state, Move.card("X", "G01"))
    with pytest.raises(IllegalMove, match="onto the carpet"):
        G.apply(state, Move.card("G00", "G02"))
    with pytest.raises(IllegalMove, match="never leave the foundations"):
        G.apply(state, Move.card("FA-S", "X"))
    with pytest.raises(IllegalMove, match="deal action"):
        G.apply(state, Move.card("S", "FA-S"))


# -- foundations ------------------------------------------------------------------------


def test_foundations_build_up_from_the_ace_and_down_from_the_king_in_suit() -> None:
    state = position({"G00": "2S", "G02": "QS", "G04": "2H", "G06": "3S"})
    legal = G.legal_moves(state)
    assert Move.card("G00", "FA-S") in legal and Move.card("G02", "FK-S") in legal
    assert Move.card("G04", "FA-H") in legal
    assert Move.card("G06", "FA-S") not in legal
    with pytest.raises(IllegalMove, match="FA-S needs 2♠ next, not 3♠"):
        G.apply(state, Move.card("G06", "FA-S"))
    with pytest.raises(IllegalMove, match="FA-H takes only ♥"):
        G.apply(state, Move.card("G00", "FA-H"))
    state = G.apply(state, Move.card("G00", "FA-S"))
    assert Move.card("G06", "FA-S") in G.legal_moves(state)


def test_a_card_that_fits_both_foundations_offers_both() -> None:
    state = position(
        {"G00": "7D"}, up={"S": 1, "H": 1, "D": 6, "C": 1}, down={"S": 13, "H": 13, "D": 8, "C": 13}
    )
    assert [m for m in G.legal_moves(state) if m.src == "G00"] == [
        Move.card("G00", "FA-D"),
        Move.card("G00", "FK-D"),
    ]
    after = G.apply(state, Move.card("G00", "FK-D"))
    assert codes(after, "FK-D").endswith("8D 7D") and codes(after, "FA-D").endswith("6D")


def test_a_complete_foundation_takes_nothing() -> None:
    state = position({"G00": "QS"}, up={"S": 13, "H": 1, "D": 1, "C": 1})
    assert G.legal_moves(state) == [Move.card("G00", "FK-S")]
    with pytest.raises(IllegalMove, match="FA-S is complete"):
        G.apply(state, Move.card("G00", "FA-S"))


# -- the stock, the waste and packing ------------------------------------------------


def test_seed_turned_card_goes_up_if_it_fits_else_onto_the_waste_whose_top_plays() -> None:
    """Seed: «Если можно, кладем их на базовые, если нет — …»: a turned card that fits a
    base goes there; the rest lie on the open packet, whose top card is free."""
    state = position({"G00": "9C"}, stock="2S 5H 3S")
    state = G.apply(state, DEAL)  # 2♠ fits FA-S: it goes there, not to the waste
    assert codes(state, "FA-S") == "AS 2S" and codes(state, "X") == ""
    state = G.apply(state, DEAL)  # 5♥ fits nothing: onto the waste
    assert codes(state, "X") == "5H"
    with pytest.raises(IllegalMove, match="FA-H needs 2♥ next, not 5♥"):
        G.apply(state, Move.card("X", "FA-H"))
    state = G.apply(state, DEAL)
    assert codes(state, "FA-S") == "AS 2S 3S" and codes(state, "X") == "5H"


def test_a_turned_card_that_fits_two_foundations_waits_for_the_players_pick() -> None:
    state = position(
        {"G00": "9C"},
        up={"S": 6, "H": 1, "D": 1, "C": 1},
        down={"S": 8, "H": 13, "D": 13, "C": 13},
        stock="7S 5H",
    )
    state = G.apply(state, DEAL)  # 7♠ goes up on 6♠ or down on 8♠
    assert codes(state, "X") == "7S" and G.view(state)["info"]["pending"] is True
    assert G.legal_moves(state) == [Move.card("X", "FA-S"), Move.card("X", "FK-S")]
    with pytest.raises(IllegalMove, match="fits a foundation and goes there first"):
        G.apply(state, DEAL)
    state = G.apply(state, Move.card("X", "FK-S"))
    assert codes(state, "FK-S").endswith("8S 7S") and G.view(state)["info"]["pending"] is False
    assert DEAL in G.legal_moves(state)


def test_seed_a_turned_card_that_fits_is_never_packed_on() -> None:
    """Seed: a turned card goes onto the packet only «если нет» — if it fits no base.
    A turned card that fits used to lie on the waste, where a free carpet card could be
    packed on it: now it is on its way up and nothing goes onto it."""
    # 2♠ fits FA-S alone: it goes up, so 3♠ follows it there, not onto the waste.
    state = G.apply(position({"G00": "3S"}, stock="2S 9C"), DEAL)
    assert codes(state, "X") == "" and G.legal_moves(state) == [Move.card("G00", "FA-S"), DEAL]
    # 7♠ fits FA-S (on 6♠) and FK-S (on 8♠): it waits for the pick; 6♠ is not packed on it.
    state = G.apply(
        position(
            {"G00": "6S"},
            up={"S": 6, "H": 1, "D": 1, "C": 1},
            down={"S": 8, "H": 13, "D": 13, "C": 13},
            stock="7S 9C",
        ),
        DEAL,
    )
    assert G.legal_moves(state) == [Move.card("X", "FA-S"), Move.card("X", "FK-S")]
    with pytest.raises(
        IllegalMove, match="the turned 7♠ fits a foundation and goes there first: FA-S or FK-S"
    ):
        G.apply(state, Move.card("G00", "X"))


def test_seed_on_the_second_pass_a_turned_card_that_now_fits_goes_up() -> None:
    """The packet turned over is looked through again «снова»: a card that fitted no base
    on the first pass goes up when it comes round and fits."""
    state = position({"G00": "2D"}, stock="3D 9C")
    state = G.apply(G.apply(state, DEAL), DEAL)  # 3♦ does not fit yet: onto the waste
    assert codes(state, "X") == "3D 9C"
    state = G.apply(G.apply(state, Move.card("G00", "FA-D")), REDEAL)
    state = G.apply(state, DEAL)
    assert codes(state, "FA-D") == "AD 2D 3D" and codes(state, "X") == ""


def test_seed_packing_a_free_card_one_rank_up_or_down_in_the_waste_suit() -> None:
    """Seed: onto the packet's top go free carpet cards "one higher or one lower, in
    the same suit as the top card of the packet"."""
    state = position({"G00": "6H", "G02": "8H", "G04": "7S", "G06": "9H", "G07": "QH"}, waste="7H")
    packs = [m for m in G.legal_moves(state) if m.dst == "X"]
    assert packs == [Move.card("G00", "X"), Move.card("G02", "X")]
    with pytest.raises(IllegalMove, match="packs only onto a waste top of its suit"):
        G.apply(state, Move.card("G04", "X"))
    with pytest.raises(IllegalMove, match="not onto 7♥"):
        G.apply(state, Move.card("G06", "X"))
    state = G.apply(state, Move.card("G02", "X"))
    assert codes(state, "X") == "7H 8H" and G.pile(state, "G02") == ()
    state = G.apply(state, Move.card("G06", "X"))  # now 9♥ follows 8♥
    assert codes(state, "X") == "7H 8H 9H"


def test_no_packing_round_the_corner_nor_on_an_empty_waste() -> None:
    state = position({"G00": "KH", "G02": "2H"}, up=2, down=12, waste="AH")
    assert [m for m in G.legal_moves(state) if m.dst == "X"] == [Move.card("G02", "X")]
    with pytest.raises(IllegalMove, match="never a king on an ace"):
        G.apply(state, Move.card("G00", "X"))
    state = position({"G00": "KH"}, up=2, down=12, stock="5C")
    with pytest.raises(IllegalMove, match="not an empty waste"):
        G.apply(state, Move.card("G00", "X"))


def test_seed_the_packet_is_turned_over_once_first_card_first() -> None:
    """Seed: "after the stock runs out we turn the packet over and look through the new
    stock once more; if the goal is not reached this time, the patience has failed"."""
    state = position({"G00": "9C"}, up=5, down=9, stock="2C 3D 4H")
    for _ in range(3):
        assert REDEAL not in G.legal_moves(state)
        state = G.apply(state, DEAL)
    with pytest.raises(IllegalMove, match="the stock is empty: turn the waste over"):
        G.apply(state, DEAL)
    assert G.legal_moves(state) == [REDEAL]
    assert G.forced_move(state) == REDEAL
    state = G.apply(state, REDEAL)
    assert G.pile(state, "X") == () and G.view(state)["info"] == {
        "redeals_left": 0,
        "pass": 2,
        "free": ["G00"],
        "pending": False,
    }
    turned = []
    while DEAL in G.legal_moves(state):
        state = G.apply(state, DEAL)
        turned.append(codes(state, "X").split()[-1])
    assert turned == ["2C", "3D", "4H"]  # the order of the first pass
    assert G.legal_moves(state) == [] and G.status(state) == "lost"


def test_there_is_no_second_redeal() -> None:
    state = position({"G00": "6C"}, up=5, down=9, waste="2C 3D", redeals_left=0)
    assert G.legal_moves(state) == [Move.card("G00", "FA-C")]
    with pytest.raises(IllegalMove, match="only once"):
        G.apply(state, REDEAL)
    with pytest.raises(IllegalMove, match=r"the stock is empty$"):
        G.apply(state, DEAL)


def test_redeal_waits_for_the_end_of_the_stock() -> None:
    state = position({"G00": "9C"}, stock="2C 3D", waste="5H")
    with pytest.raises(IllegalMove, match="turn the whole stock"):
        G.apply(state, REDEAL)


# -- the end ----------------------------------------------------------------------------


def test_a_near_won_position_is_won() -> None:
    # Everything is home but the two last hearts: K♥ in the carpet and A♥ on the waste.
    state = position(
        {"G33": "KH"},
        up={"S": 13, "H": 12, "D": 13, "C": 13},
        down={"S": 1, "H": 2, "D": 1, "C": 1},
        waste="AH",
        redeals_left=0,
    )
    assert sum(len(p) for p in state.piles) == 104
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(state) == "playing"
    state = G.apply(state, Move.card("X", "FK-H"))
    assert G.status(state) == "playing"
    state = G.apply(state, Move.card("G33", "FA-H"))
    assert G.status(state) == "won" and G.score(state) == (104, 104)
    assert G.legal_moves(state) == []


def test_a_dead_position_is_lost() -> None:
    # 7♠ fits neither FA-S (needs 6) nor FK-S (needs 8) nor the waste top 3♥.
    state = position({"G00": "7S"}, up=5, down=9, waste="3H", redeals_left=0)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"
    with pytest.raises(IllegalMove, match="game is over"):
        G.apply(state, Move.card("G00", "FA-S"))


# -- hidden information ---------------------------------------------------------------


def test_the_stock_order_is_hidden_and_the_waste_shows_what_was_turned() -> None:
    state = G.deal(77)
    for _ in range(5):
        state = G.apply(state, DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * 27
    assert view["X"]["cards"] == [code(c) for c in G.pile(state, "X")]
    assert all(view[g]["cards"] == [codes(state, g)] for g in CELLS)
    # Another stock order, same view.
    stock = G.pile(state, "S")
    other = state._replace(
        piles=tuple(tuple(reversed(p)) if i == G.at["S"] else p for i, p in enumerate(state.piles))
    )
    assert stock != G.pile(other, "S")
    assert G.view(other) == G.view(state)
