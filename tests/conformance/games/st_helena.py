"""St Helena (RULES.md §5), written again."""

from __future__ import annotations

from ..reference import Deal, Reference, each, ids, pack_after, rowwise, stock


def deal(seed: int) -> Deal:
    # §5.2: "Cards 1–40 go row-wise, 4 rows over columns C1..C10 … Cards 41–104 are
    # the stock. 8 foundations F1..F8, empty."
    _, p = pack_after(2, seed)
    out = rowwise(p[:40], ids("C", 10))
    out.update({f: [] for f in ids("F", 8)})
    out.update(S=stock(p[40:]), X=[])
    return out


REFERENCE = Reference(
    "st_helena",
    deal,
    kinds={
        **each(ids("F", 8), "foundation"),
        **each(ids("C", 10), "tableau"),
        "S": "stock",
        "X": "waste",
    },
    actions=frozenset({"deal"}),
    hidden=frozenset({"S"}),
)
