"""Picture Gallery (RULES.md §2), written again."""

from __future__ import annotations

from ..reference import Deal, K, Reference, S, SplitMix64, copy, each, ids, pack_after, stock

ASIDE = [(K, S)]


def deal(seed: int) -> Deal:
    # §2.2: "Set aside K♠ (lowest c) as the head of pile K1 … Shuffle the other 103
    # cards; they are the stock."
    aside, p = pack_after(2, seed, ASIDE)
    out: Deal = {"Q": [], "S": stock(p), "K1": aside}
    out.update({k: [] for k in ids("K", 7, 2)})
    out.update({a: [] for a in ids("A", 8)})
    return out


def redeal(before: Deal, g: SplitMix64) -> Deal:
    # §2.3: "The new stock, top first, is K1, pile-1 cards from bottom to top, K2,
    # pile-2 cards …, K8, pile-8 cards. No shuffle."
    out = copy(before)
    order = [c for k in ids("K", 8) for c in out[k]]
    out.update({k: [] for k in ids("K", 8)})
    out["S"] = stock(order)
    return out


REFERENCE = Reference(
    "picture_gallery",
    deal,
    kinds={
        "Q": "discard",
        "S": "stock",
        **each(ids("K", 8), "tableau"),
        **each(ids("A", 8), "foundation"),
    },
    actions=frozenset({"deal", "redeal"}),
    hidden=frozenset({"S"}),
    aside=ASIDE,
    redeal=redeal,
)
