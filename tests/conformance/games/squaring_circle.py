"""Squaring the Circle (RULES.md Part B §3), written again (its carpet is
:mod:`.carpet`'s)."""

from __future__ import annotations

from ..reference import SUIT_CODE, Deal, Reference, each, pack_after, stock, waste_turned_over
from .carpet import GRID_CELLS, grid

#: the circle's slots B<base><suit><n>, base one of K A 5 9 (Decision 10)
SLOTS = [f"B{b}{s}{n}" for b in "KA59" for s in SUIT_CODE for n in "12"]


def deal(seed: int) -> Deal:
    # Part B §3.2: "nothing pre-extracted. Shuffle; cards 0..63 → carpet exactly as
    # §2.2 … Cards 64..103 → stock, draw order 64, 65, …"; Decision 10: circle slots
    # B<base><suit><n>, base one of K A 5 9.
    _, p = pack_after(2, seed)
    out = grid(p[:64])
    out.update({slot: [] for slot in SLOTS})
    out.update(S=stock(p[64:]), X=[])
    return out


REFERENCE = Reference(
    "squaring_circle",
    deal,
    kinds={
        **each(GRID_CELLS, "grid"),
        "S": "stock",
        "X": "waste",
        **each(SLOTS, "foundation"),
    },
    actions=frozenset({"deal", "redeal"}),
    hidden=frozenset({"S"}),
    # §3.4: the waste turned over as the carpet's (§2.4)
    redeal=waste_turned_over,
)
