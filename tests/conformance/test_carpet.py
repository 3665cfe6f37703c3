"""Conformance of the carpets (Carpet and Squaring the Circle): which cards of the
opening grid are free (Part B §2.3, Decision 5), against
:func:`tests.conformance.games.carpet.free_cells` written again from the rule."""

from __future__ import annotations

import pytest

from server.patience import registry

from .games.carpet import free_cells
from .reference import SEEDS, A, K, Q, code, rank_of


def test_sixteen_free_cards_at_the_opening() -> None:
    """§2.3: "Initially exactly 16 cards are free (any rule): row 0 cols 0,2,4,6 (N
    edge), row 7 cols 1,3,5,7 (S edge), col 0 rows 1,3,5,7 (W edge), col 7 rows
    0,2,4,6 (E edge)"."""
    full = {(r, c) for r in range(8) for c in range(8)}
    want = (
        {(0, c) for c in (0, 2, 4, 6)}
        | {(7, c) for c in (1, 3, 5, 7)}
        | {(r, 0) for r in (1, 3, 5, 7)}
        | {(r, 7) for r in (0, 2, 4, 6)}
    )
    assert free_cells(full) == want


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", ("carpet", "squaring_circle"))
def test_carpet_moves_come_from_free_cells(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    free = {f"G{r}{c}" for r, c in free_cells({(r, c) for r in range(8) for c in range(8)})}
    sources = {m.src for m in game.legal_moves(state) if m.action is None}
    assert sources <= free | {"X"}
    for g in free:
        (card,) = game.pile(state, g)
        r = rank_of(card)
        # Carpet: A and K of each suit wait on the foundations, so every free 2 and Q
        # plays; the circle: every free king and ace is a base that may come out.
        fits = r in (2, Q) if slug == "carpet" else r in (A, K)
        assert (g in sources) == fits, (g, code(card))
