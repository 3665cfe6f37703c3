"""Hemispheres (RULES.md §6), written again."""

from __future__ import annotations

from ..reference import A, C, D, Deal, H, K, Reference, S, each, ids, pack_after, stock

# §6.2: "Set aside, in this order (lowest c each time): A♥, A♥, A♦, A♦ → FR1..FR4;
# K♠, K♠, K♣, K♣ → FB1..FB4; then the barriers K♥, A♠, K♦, A♣" (BW=K♥, BN=A♠,
# BE=K♦, BS=A♣).
ASIDE = [
    (A, H),
    (A, H),
    (A, D),
    (A, D),
    (K, S),
    (K, S),
    (K, C),
    (K, C),
    (K, H),
    (A, S),
    (K, D),
    (A, C),
]


def deal(seed: int) -> Deal:
    # §6.2: … "Cards 1–12 go to P1..P12 … Cards 13–92 are the stock."
    aside, p = pack_after(2, seed, ASIDE)
    where = [*ids("FR", 4), *ids("FB", 4), "BW", "BN", "BE", "BS"]
    out: Deal = {w: [c] for w, c in zip(where, aside, strict=True)}
    out.update({pid: [c] for pid, c in zip(ids("P", 12), p[:12], strict=True)})
    out.update(S=stock(p[12:]), X=[])
    return out


REFERENCE = Reference(
    "hemispheres",
    deal,
    kinds={
        **each(ids("FR", 4) + ids("FB", 4), "foundation"),
        **each(["BW", "BN", "BE", "BS"], "reserve"),
        **each(ids("P", 12), "tableau"),
        "S": "stock",
        "X": "waste",
    },
    actions=frozenset({"deal", "swap"}),
    hidden=frozenset({"S"}),
    aside=ASIDE,
)
