"""Fifteen (RULES.md §7), written again."""

from __future__ import annotations

from ..reference import SUITS_FA, SUITS_FK, Deal, Reference, each, ids, pack_after, rowwise


def deal(seed: int) -> Deal:
    # §7.2: "shuffle 104 cards and deal them row-wise, 15 per row … C1–C14 hold 7
    # cards and C15 holds 6."
    _, p = pack_after(2, seed)
    out = rowwise(p, ids("C", 15))
    assert [len(out[c]) for c in ids("C", 15)] == [7] * 14 + [6]
    out.update({f: [] for f in SUITS_FA + SUITS_FK})
    return out


REFERENCE = Reference(
    "fifteen",
    deal,
    kinds={**each(SUITS_FA + SUITS_FK, "foundation"), **each(ids("C", 15), "tableau")},
    actions=frozenset({"grace"}),
)
