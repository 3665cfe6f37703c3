"""Shared mechanics of server/patience/rules.py on hand-built piles."""

from __future__ import annotations

from server.patience.cards import parse
from server.patience.rules import exposed


def test_exposed_cards_of_a_row_of_columns() -> None:
    ks, ks2, qh = parse("KS"), parse("KS", deck_=1), parse("QH")
    piles = ((qh, ks), (), (parse("2D"), ks2), (qh,))
    got = exposed(piles, [("C1", 0), ("C2", 1), ("C3", 2), ("C4", 3)])
    assert got.cards == [("C1", ks % 52), ("C3", ks % 52), ("C4", qh)]
    assert got.tops == {ks % 52: ["C1", "C3"], qh: ["C4"]}  # both decks' K♠ together
    assert got.empty == ["C2"]
    assert exposed(piles, [("C2", 1)]) == ([], {}, ["C2"])
