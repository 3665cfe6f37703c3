"""Parade (RULES.md Part B §4), written again."""

from __future__ import annotations

from ..reference import A, Deal, Reference, each, ids, pack_after, rank_of, stock


def deal(seed: int) -> Deal:
    # Part B §4.2: "shuffle (aces included). Cards 0..23 → the Parade: slot (row k,
    # col c), k = i div 8, c = i mod 8 … Forced: every ace in the Parade goes to the
    # dead pile … Cards 24..103 (80) → stock … 8 depots, empty"; Decision 10: P<k><c>,
    # D1..D8, S, X (kind discard). The aces go out in dealing order.
    _, p = pack_after(2, seed)
    out: Deal = {f"P{i // 8}{i % 8}": [] if rank_of(c) == A else [c] for i, c in enumerate(p[:24])}
    out["X"] = [c for c in p[:24] if rank_of(c) == A]
    out.update({d: [] for d in ids("D", 8)})
    out["S"] = stock(p[24:])
    return out


REFERENCE = Reference(
    "parade",
    deal,
    kinds={
        **each([f"P{k}{c}" for k in range(3) for c in range(8)], "foundation"),
        **each(ids("D", 8), "tableau"),
        "S": "stock",
        "X": "discard",
    },
    actions=frozenset({"deal"}),
    hidden=frozenset({"S"}),
)
