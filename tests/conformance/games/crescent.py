"""Crescent (RULES.md §1), written again."""

from __future__ import annotations

from ..reference import (
    ACES_AND_KINGS,
    SUIT_CODE,
    SUITS_FA,
    SUITS_FK,
    Deal,
    Reference,
    SplitMix64,
    copy,
    each,
    ids,
    pack_after,
    rowwise,
)


def deal(seed: int) -> Deal:
    # §1.2: "Set aside A♠ A♥ A♦ A♣ into FA-S..FA-C, then K♠ K♥ K♦ K♣ into FK-S..FK-C
    # … Shuffle the remaining 96 … Deal them row-wise, 6 rows over T1..T16."
    aside, p = pack_after(2, seed, ACES_AND_KINGS)
    out: Deal = {f: [c] for f, c in zip(SUITS_FA + SUITS_FK, aside, strict=True)}
    out.update({f"W-{s}": [] for s in SUIT_CODE})
    out.update(rowwise(p, ids("T", 16)))
    return out


def shift(before: Deal, g: SplitMix64) -> Deal:
    # §1.3 e: "In every pile holding at least 2 cards, the bottom card is taken out
    # and put on top; the other cards keep their order."
    out = copy(before)
    for t in ids("T", 16):
        if len(out[t]) >= 2:
            out[t] = out[t][1:] + out[t][:1]
    return out


REFERENCE = Reference(
    "crescent",
    deal,
    kinds={
        **each(SUITS_FA + SUITS_FK, "foundation"),
        **each(ids("T", 16), "tableau"),
        **each([f"W-{s}" for s in SUIT_CODE], "cell"),
    },
    actions=frozenset({"shift"}),
    squared=frozenset(ids("T", 16)),
    aside=ACES_AND_KINGS,
    redeal=shift,
)
