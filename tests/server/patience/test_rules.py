"""Shared mechanics of server/patience/rules.py on hand-built piles."""

from __future__ import annotations

from server.patience.cards import ACE, CLUBS, JACK, code, parse
from server.patience.rules import (
    DOWN_FROM_KING,
    FA,
    FK,
    UP_FROM_ACE,
    UP_FROM_KING,
    Foundation,
    Foundations,
    aces_and_kings_aside,
    exposed,
)


def test_exposed_cards_of_a_row_of_columns() -> None:
    ks, ks2, qh = parse("KS"), parse("KS", deck_=1), parse("QH")
    piles = ((qh, ks), (), (parse("2D"), ks2), (qh,))
    got = exposed(piles, [("C1", 0), ("C2", 1), ("C3", 2), ("C4", 3)])
    assert got.cards == [("C1", ks % 52), ("C3", ks % 52), ("C4", qh)]
    assert got.tops == {ks % 52: ["C1", "C3"], qh: ["C4"]}  # both decks' K♠ together
    assert got.empty == ["C2"]
    assert exposed(piles, [("C2", 1)]) == ([], {}, ["C2"])


def test_foundations_want_the_next_card_of_each_and_name_the_empty_ones() -> None:
    """What each foundation takes next (card % 52 → names, in entry order): a started
    pile its top's neighbour in suit (round the corner where it wraps), an empty one
    with its suit set its first card, an empty one of any suit is listed apart, and
    a complete one nothing."""
    c = parse
    piles = (
        (c("AS"), c("2S")),  # up from the ace: wants 3♠
        (c("KH"),),  # down from the king: wants Q♥
        (c("KD", deck_=1),),  # up from the king, round the corner: wants A♦
        (),  # up from the ace of clubs: wants A♣
        (),  # up from any ace: listed as free
        tuple(c(f"{r}C") for r in "A23456789TJ"),  # ace to jack: complete
        (c("AS", deck_=1), c("2S", deck_=1)),  # the other 2♠: also wants 3♠
    )
    foundations = Foundations(
        [
            ("F1", 0, UP_FROM_ACE),
            ("F2", 1, DOWN_FROM_KING),
            ("F3", 2, UP_FROM_KING),
            ("F4", 3, Foundation(ACE, 1, suit=CLUBS)),
            ("F5", 4, UP_FROM_ACE),
            ("F6", 5, Foundation(ACE, 1, size=JACK)),
            ("F7", 6, UP_FROM_ACE),
        ]
    )
    needs, free = foundations.wants(piles)
    assert needs == {
        c("3S"): ["F1", "F7"],
        c("QH"): ["F2"],
        c("AD"): ["F3"],
        c("AC"): ["F4"],
    }
    assert free == ["F5"]
    assert UP_FROM_KING.takes(piles[2]) == c("AD") and UP_FROM_ACE.takes(piles[5]) == c("QC")
    assert Foundation(ACE, 1, size=JACK).takes(piles[5]) == -1


def test_aces_and_kings_found_their_piles_before_the_shuffle() -> None:
    piles, pack, _ = aces_and_kings_aside(7)
    assert list(piles) == [*FA, *FK]
    assert [code(c) for (c,) in piles.values()] == [
        *(f"A{s}" for s in "SHDC"),
        *(f"K{s}" for s in "SHDC"),
    ]
    assert len(pack) == 96 and not set(pack) & {c for (c,) in piles.values()}
