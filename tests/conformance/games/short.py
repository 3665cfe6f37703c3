"""Short (RULES.md §4), written again."""

from __future__ import annotations

from ..reference import Deal, Reference, each, ids, pack_after, rowwise, stock, waste_turned_over


def deal(seed: int) -> Deal:
    # §4.2: "Deal cards 1–24 row-wise, 4 rows over C1..C6. Card 25 goes to F1 …
    # Cards 26–52 form the stock, face down (card 26 on top)."
    _, p = pack_after(1, seed)
    out = rowwise(p[:24], ids("C", 6))
    out.update(F1=[p[24]], F2=[], F3=[], F4=[], S=stock(p[25:]), X=[])
    return out


REFERENCE = Reference(
    "short",
    deal,
    kinds={
        **each(ids("F", 4), "foundation"),
        **each(ids("C", 6), "tableau"),
        "S": "stock",
        "X": "waste",
    },
    actions=frozenset({"deal", "redeal"}),
    hidden=frozenset({"S"}),
    # §4.3: "the waste is turned over, not shuffled, and becomes the stock"
    redeal=waste_turned_over,
)
