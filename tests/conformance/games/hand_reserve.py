"""Hand Reserve (RULES.md Part B §1), written again."""

from __future__ import annotations

from ..reference import Deal, Reference, each, ids, pack_after


def deal(seed: int) -> Deal:
    # Part B §1.2: "Columns j=0..8 get lengths 9,8,…,1. Deal in passes k=0..8: for
    # j=0..8, if len_j > k give the next card to column j … The remaining 7 cards form
    # the hand"; Decision 10: columns C1..C9 (lengths 9..1), foundations F1..F4; the
    # hand, unlimited since Decision 17, is one spread pile H (docs/games/hand_reserve.md).
    _, p = pack_after(1, seed)
    lengths = [9 - j for j in range(9)]
    cols: list[list[int]] = [[] for _ in range(9)]
    k = 0
    for row in range(9):
        for j in range(9):
            if lengths[j] > row:
                cols[j].append(p[k])
                k += 1
    assert k == 45
    out: Deal = dict(zip(ids("C", 9), cols, strict=True))
    out["H"] = sorted(p[45:])  # one spread pile, kept in order of suit and rank
    out.update({f: [] for f in ids("F", 4)})
    return out


REFERENCE = Reference(
    "hand_reserve",
    deal,
    # the hand has no limit: one spread pile H (docs/games/hand_reserve.md)
    kinds={**each(ids("C", 9), "tableau"), "H": "reserve", **each(ids("F", 4), "foundation")},
    actions=frozenset({"pick_up"}),
    spread_sources=frozenset({"H"}),
)
