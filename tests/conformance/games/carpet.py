"""Carpet (RULES.md Part B §2), written again: its 8×8 grid and which of its cards
are free, which Squaring the Circle deals "exactly as §2.2" too."""

from __future__ import annotations

from collections.abc import Sequence

from ..reference import (
    ACES_AND_KINGS,
    SUITS_FA,
    SUITS_FK,
    Deal,
    Reference,
    each,
    pack_after,
    stock,
    waste_turned_over,
)

#: every cell of the grid, "G<r><c>"
GRID_CELLS = [f"G{r}{c}" for r in range(8) for c in range(8)]


def grid(cards: Sequence[int]) -> Deal:
    # Part B §2.2: "Cards 0..63 → carpet cell (r,c) = (i div 8, i mod 8)";
    # Decision 10: "G<r><c> … G00 top left, G07 top right".
    return {f"G{i // 8}{i % 8}": [c] for i, c in enumerate(cards)}


def free_cells(occupied: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Rule `adjacent`: a card is free iff beyond one of its short sides (N/S where
    (r+c) is even, W/E where odd) lies the edge or a gap (Part B §2.3, Decision 5)."""
    out = set()
    for r, c in occupied:
        sides = [(-1, 0), (1, 0)] if (r + c) % 2 == 0 else [(0, -1), (0, 1)]
        for dr, dc in sides:
            n = (r + dr, c + dc)
            if not (0 <= n[0] < 8 and 0 <= n[1] < 8) or n not in occupied:
                out.add((r, c))
    return out


def deal(seed: int) -> Deal:
    # Part B §2.2: "Remove A and K of each suit (copy 0) → 8 foundations … Shuffle the
    # other 96 … Cards 64..95 → stock, face down; draw order 64, 65, …"; Decision 10:
    # FA-S FA-H FA-D FA-C, FK-S FK-H FK-D FK-C.
    aside, p = pack_after(2, seed, ACES_AND_KINGS)
    out: Deal = {f: [c] for f, c in zip(SUITS_FA + SUITS_FK, aside, strict=True)}
    out.update(grid(p[:64]))
    out.update(S=stock(p[64:]), X=[])
    return out


REFERENCE = Reference(
    "carpet",
    deal,
    kinds={
        **each(GRID_CELLS, "grid"),
        **each(SUITS_FA + SUITS_FK, "foundation"),
        "S": "stock",
        "X": "waste",
    },
    actions=frozenset({"deal", "redeal"}),
    hidden=frozenset({"S"}),
    aside=ACES_AND_KINGS,
    # §2.4: "the waste, unshuffled, becomes the stock; the card that entered the waste
    # first is drawn first"
    redeal=waste_turned_over,
)
