"""First and Last (RULES.md §3), written again."""

from __future__ import annotations

from ..reference import (
    Deal,
    Reference,
    SplitMix64,
    copy,
    each,
    fisher_yates,
    ids,
    pack_after,
    stock,
)


def deal(seed: int) -> Deal:
    # §3.2: "shuffle all 104 cards. Cards 1–8 (top first) go to T1..T8 and cards 9–16
    # to B1..B8 … The remaining 88 cards are the stock; the waste starts empty."
    _, p = pack_after(2, seed)
    out: Deal = {t: [c] for t, c in zip(ids("T", 8), p[:8], strict=True)}
    out.update({b: [c] for b, c in zip(ids("B", 8), p[8:16], strict=True)})
    out.update({f: [] for f in ids("P", 8)})
    out.update(S=stock(p[16:]), X=[])
    return out


def redeal(before: Deal, g: SplitMix64) -> Deal:
    # §3.3: "The waste, listed bottom to top, is shuffled with the continuing
    # generator and becomes the new stock (index 0 on top)."
    out = copy(before)
    out["S"], out["X"] = stock(fisher_yates(out["X"], g)), []
    return out


REFERENCE = Reference(
    "first_and_last",
    deal,
    kinds={
        **each(ids("P", 8), "foundation"),
        "S": "stock",
        "X": "waste",
        **each(ids("T", 8) + ids("B", 8), "reserve"),
    },
    actions=frozenset({"deal", "redeal"}),
    hidden=frozenset({"S"}),
    redeal=redeal,
)
