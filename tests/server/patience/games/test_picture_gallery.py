"""Picture Gallery (Картинная галерея): the deal, the routing of dealt cards, the
covering of bare kings, the unshuffled gathering, three passes, the end."""

from __future__ import annotations

import pytest

from server.patience import registry
from server.patience.cards import KING, QUEEN, SPADES, card, code, rank
from server.patience.engine import IllegalMove, Move, State, as_stock, shuffled
from server.patience.games.picture_gallery import ACES, KINGS
from server.patience.games.picture_gallery import PictureGalleryVars as Vars
from server.solver import solve
from tests.server.patience.games.positions import Pack

G = registry.get("picture_gallery")
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def codes(state: State[Vars], pid: str) -> str:
    return " ".join(code(c) for c in G.pile(state, pid))


def position(
    spec: dict[str, str], *, redeals_left: int = 2, rest: str = "Q", stock: str = ""
) -> State[Vars]:
    """Piles from wire codes (bottom first; the second copy of a code is deck 1).
    ``stock`` lists the stock top first. Every card not named lands in ``rest``
    (bottom), so no card is lost."""
    pack = Pack()
    take = pack.take

    piles = {pid: [take(t) for t in cards.split()] for pid, cards in spec.items()}
    if stock:
        piles["S"] = list(as_stock([take(t) for t in stock.split()]))
    piles[rest] = pack.rest() + piles.get(rest, [])
    return G.new_state(piles, Vars(redeals_left))


def jacks_up_except(*missing: str) -> dict[str, str]:
    """Ace foundations A1..A8 built A→J (spades, spades, hearts, …), except for the
    codes named in ``missing`` (each removes the top cards of one foundation)."""
    spec: dict[str, str] = {}
    for n, a in enumerate(ACES):
        s = "SHDC"[n // 2]
        cards = [f"{r}{s}" for r in "A23456789TJ"]
        for m in missing:
            if m[1] == s and n % 2 == 0 and m in cards:
                cards = cards[: cards.index(m)]
        spec[a] = " ".join(cards)
    return spec


# -- the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "first_twelve"),
    [
        (0, "6D JD 2C 2H 9D AC AS 2S JC 8S 9C 4S"),
        (2**64 - 1, "3H 3D 7C AH JS JS TS 4S 9H 3H AD 7C"),
    ],
)
def test_golden_deals(seed: int, first_twelve: str) -> None:
    state = G.deal(seed)
    assert codes(state, "K1") == "KS"
    stock = G.pile(state, "S")
    assert len(stock) == 103
    assert " ".join(code(c) for c in reversed(stock[-12:])) == first_twelve
    for pid in G.ids:
        if pid not in ("K1", "S"):
            assert G.pile(state, pid) == ()


def test_deal_follows_the_rules_order() -> None:
    """K♠ of deck 0 heads K1; the other 103 cards, shuffled, are the stock (top first)."""
    seed = 123456789
    state = G.deal(seed)
    aside, pack, rng = shuffled(2, seed, set_aside=[(KING, SPADES)])
    assert aside == [card(KING, SPADES)] == [12]
    assert G.pile(state, "K1") == (12,)
    stock = G.pile(state, "S")
    assert [stock[-1 - k] for k in range(103)] == pack  # the top is dealt first
    assert state.rng == rng and state.vars == Vars(redeals_left=2)
    assert G.legal_moves(state) == [DEAL]
    assert G.forced_move(state) == DEAL


@pytest.mark.parametrize("seed", [0, 2**64 - 1, 42])
def test_a_first_pass_of_deals_only_matches_an_independent_reading(seed: int) -> None:
    """Deal the whole stock without playing a pile top, then compare every pile with
    rules 1–5 of RULES.md §2.3 applied to the shuffled pack by hand."""
    aside, pack, _ = shuffled(2, seed, set_aside=[(KING, SPADES)])
    kings: list[list[int]] = [aside]
    aces: list[list[int]] = []
    queens: list[int] = []
    for c in pack:
        fits = [a for a in aces if a[-1] % 52 == c % 52 - 1 and rank(c) > 1]
        if rank(c) == 1:
            aces.append([c])
        elif rank(c) == QUEEN:
            queens.append(c)
        elif rank(c) == KING:
            kings.append([c])
        elif fits:
            fits[0].append(c)
        else:
            bare = [k for k in kings if len(k) == 1]
            (bare[0] if bare else kings[-1]).append(c)
    state = G.deal(seed)
    while G.pile(state, "S"):
        state = G.apply(state, DEAL)
    assert [list(G.pile(state, k)) for k in KINGS] == kings
    assert [list(G.pile(state, a)) for a in ACES] == aces
    assert list(G.pile(state, "Q")) == queens


def test_only_the_stock_is_hidden() -> None:
    state = G.deal(7)
    for _ in range(30):
        state = G.apply(state, DEAL)
    view = {p["id"]: p for p in G.view(state)["piles"]}
    assert view["S"]["cards"] == [None] * 73
    for pid in G.ids:
        if pid != "S":
            assert view[pid]["cards"] == [code(c) for c in G.pile(state, pid)]
    # Another stock order is invisible.
    stock = G.pile(state, "S")
    other = state._replace(
        piles=tuple(
            stock[::-1] if pid == "S" else p for pid, p in zip(G.ids, state.piles, strict=True)
        )
    )
    assert G.view(other) == G.view(state)
    current = max(k for k in KINGS if G.pile(state, k))
    assert G.view(state)["info"] == {"pass": 1, "redeals_left": 2, "current": current, "stock": 73}


# -- routing the turned card (RULES.md §2.3, rules 1–5) -------------------------------


def test_routing_aces_queens_kings_and_foundation_cards() -> None:
    state = position({"K1": "KS 9C"}, stock="AH 2H QS 3H AH 2H 5C")
    state = G.apply(state, DEAL)
    assert codes(state, "A1") == "AH"  # rule 1: the leftmost empty slot
    state = G.apply(state, DEAL)
    assert codes(state, "A1") == "AH 2H"  # rule 4: fits, played at once
    queens = len(G.pile(state, "Q"))
    state = G.apply(state, DEAL)
    assert len(G.pile(state, "Q")) == queens + 1 and codes(state, "Q").endswith("QS")
    state = G.apply(state, DEAL)
    assert codes(state, "A1") == "AH 2H 3H"
    state = G.apply(state, DEAL)
    assert codes(state, "A2") == "AH"  # the second ace of hearts takes the next slot
    state = G.apply(state, DEAL)
    assert codes(state, "A2") == "AH 2H"  # the leftmost fitting foundation
    state = G.apply(state, DEAL)
    assert codes(state, "K1") == "KS 9C 5C"  # rule 5: onto the current pile
    assert G.pile(state, "S") == ()


def test_seed_example_kings_in_a_row_each_get_one_card_the_last_the_rest() -> None:
    """Seed: "if two or more kings come together … then one card on each, and on the
    last all the cards up to the next king"."""
    state = position({"K1": "KS 4D"}, stock="KH KD KC 7S 8S 9S 5D KS 6D")
    for _ in range(3):
        state = G.apply(state, DEAL)
    assert [codes(state, k) for k in ("K2", "K3", "K4")] == ["KH", "KD", "KC"]
    assert G.view(state)["info"]["current"] == "K4"
    for _ in range(4):
        state = G.apply(state, DEAL)
    assert codes(state, "K2") == "KH 7S"
    assert codes(state, "K3") == "KD 8S"
    assert codes(state, "K4") == "KC 9S 5D"
    state = G.apply(state, DEAL)
    assert codes(state, "K5") == "KS"
    state = G.apply(state, DEAL)
    assert codes(state, "K5") == "KS 6D"
    assert codes(state, "K1") == "KS 4D"


def test_pile_tops_go_up_between_deals_and_a_bared_king_takes_the_next_card() -> None:
    state = position({"K1": "KS 3C", "K2": "KH 8D 9D", "A1": "AC 2C"}, stock="7H 6H")
    legal = G.legal_moves(state)
    assert legal == [Move.card("K1", "A1"), DEAL]
    state = G.apply(state, Move.card("K1", "A1"))
    assert codes(state, "A1") == "AC 2C 3C" and codes(state, "K1") == "KS"
    state = G.apply(state, DEAL)
    assert codes(state, "K1") == "KS 7H"  # G3: the bare king is covered first
    state = G.apply(state, DEAL)
    assert codes(state, "K2") == "KH 8D 9D 6H"  # then the current pile again


def test_both_fitting_foundations_are_offered_for_a_pile_top() -> None:
    state = position({"K1": "KS 3C", "A1": "AC 2C", "A2": "AC 2C"}, stock="5H")
    assert G.legal_moves(state) == [Move.card("K1", "A1"), Move.card("K1", "A2"), DEAL]


# -- the end of a pass ------------------------------------------------------------------


def test_bare_kings_must_be_covered_before_the_redeal() -> None:
    state = position({"K1": "KS", "K2": "KH 5D 6D", "K3": "KD 7C", "K4": "KC 9H 8H 4S"})
    legal = G.legal_moves(state)
    # Donors hold their king plus two or more cards; K3 (one card) is no donor.
    assert legal == [Move.card("K2", "K1"), Move.card("K4", "K1")]
    with pytest.raises(IllegalMove, match="bare king must be covered"):
        G.apply(state, REDEAL)
    with pytest.raises(IllegalMove, match="keep at least one card"):
        G.apply(state, Move.card("K3", "K1"))
    with pytest.raises(IllegalMove, match="not a bare king"):
        G.apply(state, Move.card("K4", "K2"))
    state = G.apply(state, Move.card("K4", "K1"))
    assert codes(state, "K1") == "KS 4S"
    assert G.legal_moves(state) == [REDEAL]
    assert G.forced_move(state) == REDEAL


def test_no_cover_without_a_donor_and_none_after_the_third_pass() -> None:
    state = position({"K1": "KS", "K2": "KH 5D"})
    assert G.legal_moves(state) == [REDEAL]
    state = position({"K1": "KS", "K2": "KH 5D 6D"}, redeals_left=0)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"


def test_redeal_gathers_the_piles_in_dealing_order_unshuffled() -> None:
    state = position({"K1": "KS 5D 9C", "K2": "KH", "K3": "KD 7C 6C 2H", "K4": "KC 8S"})
    state = G.apply(state, Move.card("K3", "K2"))
    assert codes(state, "K2") == "KH 2H"
    before = [G.pile(state, k) for k in KINGS]
    after = G.apply(state, REDEAL)
    stock = G.pile(after, "S")
    assert [stock[-1 - k] for k in range(len(stock))] == [c for p in before for c in p]
    assert all(G.pile(after, k) == () for k in KINGS)
    assert after.vars == Vars(redeals_left=1) and after.rng == state.rng
    assert G.legal_moves(after) == [DEAL]
    after = G.apply(after, DEAL)
    assert codes(after, "K1") == "KS"  # the first card, K1, starts pile 1 again


def test_three_passes_in_all() -> None:
    state = G.deal(3)
    for passes in (1, 2, 3):
        assert G.view(state)["info"]["pass"] == passes
        while G.pile(state, "S"):
            state = G.apply(state, DEAL)
        # After every full pass the queens are all out and every king heads a pile.
        assert sorted(rank(c) for c in G.pile(state, "Q")) == [QUEEN] * 8
        assert all(rank(G.pile(state, k)[0]) == KING for k in KINGS)
        while G.legal_moves(state) and REDEAL not in G.legal_moves(state):
            state = G.apply(state, G.legal_moves(state)[0])
        if passes < 3:
            # No bare king is left while a donor exists.
            assert all(len(G.pile(state, k)) > 1 for k in KINGS) or not any(
                len(G.pile(state, k)) > 2 for k in KINGS
            )
            state = G.apply(state, REDEAL)
    assert state.vars.redeals_left == 0
    assert G.legal_moves(state) == []
    assert G.status(state) in ("won", "lost")
    with pytest.raises(IllegalMove):
        G.apply(state, REDEAL)


# -- the end ------------------------------------------------------------------------------


def test_a_near_won_position_is_won_with_88_cards() -> None:
    spec = jacks_up_except("JS")
    spec["K1"] = "KS JS"
    spec.update(zip(KINGS[1:], ["KS", "KH", "KH", "KD", "KD", "KC", "KC"], strict=True))
    state = position(spec, redeals_left=0)
    assert G.score(state) == (87, 88)
    assert solve(G, state, max_nodes=2_000).outcome == "win"  # the solver sees it too
    assert G.status(state) == "playing"
    assert G.legal_moves(state) == [Move.card("K1", "A1")]
    state = G.apply(state, Move.card("K1", "A1"))
    assert G.status(state) == "won" and G.score(state) == (88, 88)
    assert G.legal_moves(state) == []
    assert sorted(rank(c) for c in G.pile(state, "Q")) == [QUEEN] * 8


def test_dealing_the_last_card_up_wins() -> None:
    spec = jacks_up_except("JD")
    state = position({**spec, "K1": "KS"}, stock="JD", redeals_left=0)
    # K1 is bare only until the deal: the jack goes up at once (rule 4).
    assert G.score(state) == (87, 88)
    state = G.apply(state, DEAL)
    assert G.status(state) == "won" and G.score(state) == (88, 88)
    assert G.legal_moves(state) == []


def test_a_dead_third_pass_is_lost() -> None:
    state = position({"K1": "KS 4H 3H", "A1": "AH"}, redeals_left=0)
    assert G.legal_moves(state) == []
    assert G.status(state) == "lost"
    with pytest.raises(IllegalMove, match="game is over"):
        G.apply(state, DEAL)


# -- illegal moves and their reasons ------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move.card("K2", "A1"), "kings never move"),
        (Move.card("Q", "K1"), "only decoration"),
        (Move.card("A1", "K1"), "never leave the ace foundations"),
        (Move.card("S", "K1"), "deal action"),
        (Move.card("K1", "A1"), r"A1 needs 3♣, not 9♦"),
        (Move.card("K1", "A2"), "leftmost empty slot"),
        (Move.card("K1", "K2"), "only when the stock is empty"),
        (REDEAL, "deal out the whole stock"),
    ],
)
def test_illegal_moves_explain_themselves(move: Move, reason: str) -> None:
    state = position({"K1": "KS 9D", "K2": "KH", "A1": "AC 2C"}, stock="5H 6H")
    with pytest.raises(IllegalMove, match=reason):
        G.apply(state, move)


def test_complete_foundation_and_spent_passes_explain_themselves() -> None:
    state = position(
        {"K1": "KS 9D", "K2": "KH 3C", "A1": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "A2": "AC 2C"},
        redeals_left=0,
    )
    with pytest.raises(IllegalMove, match="complete"):
        G.apply(state, Move.card("K1", "A1"))
    with pytest.raises(IllegalMove, match="third and last pass"):
        G.apply(state, DEAL)
    with pytest.raises(IllegalMove, match="fourth time"):
        G.apply(state, REDEAL)
