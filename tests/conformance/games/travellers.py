"""The travellers' family (RULES.md Part B §5–§10), written again: Travellers,
Travellers with Aces, Cotillion, the Classic Travellers and Little Packs share the
count deal (§5.1), the journey (§5.2) and the gathering redeal."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..reference import (
    ACES_AND_KINGS,
    A,
    Deal,
    J,
    K,
    Q,
    Reference,
    SplitMix64,
    copy,
    each,
    fisher_yates,
    ids,
    pack_after,
    rank_of,
    stock,
    suit_of,
)

FAMILY = ("travellers", "travellers_aces", "cotillion", "travellers_classic", "little_packs")


def count_deal(
    deck: Sequence[int],
    calls: Sequence[int],
    *,
    king_slot: int | None = None,
    kings_to_bases: bool = False,
    stop_after_cycle: bool = False,
) -> tuple[list[list[int]], list[int], list[int], list[int], int]:
    """Part B §5.1 written again: (piles, travellers, kings' reserve, bases, used).

    "if card.rank == C[i]: travellers.push(card) … count does NOT advance; else
    pile[i].push(card); i = (i+1) mod 13", with the per-game hooks: Cotillion (§8)
    "any king drawn goes straight to the base row (count does not advance)" and
    "Count position "K" (pile 1): the card goes face down to a separate kings'
    reserve (count advances)"; the Classic (§9) "at count K the card always goes to R
    and the row ends".
    """
    piles: list[list[int]] = [[] for _ in calls]
    travellers: list[int] = []
    reserve: list[int] = []
    bases: list[int] = []
    i = 0
    for n, c in enumerate(deck, 1):
        if kings_to_bases and rank_of(c) == K:
            bases.append(c)
            continue
        if i == king_slot:
            reserve.append(c)
        elif rank_of(c) == calls[i]:
            travellers.append(c)
            continue
        else:
            piles[i].append(c)
        i = (i + 1) % len(calls)
        if stop_after_cycle and i == 0:
            return piles, travellers, reserve, bases, n
    return piles, travellers, reserve, bases, len(deck)


# §6: "C = A,K,Q,J,10,9,8,7,6,5,4,3,2 (pile 0 = "A", pile 1 = "K", …, pile 12 = "2")"
DOWN_COUNT = [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]
UP_COUNT = list(range(1, 14))  # §9, §10: A,2,…,Q,K


def travel_out(
    piles: list[list[int]],
    travellers: list[int],
    f: Sequence[list[int]],
    reserve: list[int] | None = None,
) -> Deal:
    # Decision 10: "table piles P1..P13 (Classic P1..P12) in dealing order …
    # travellers/exiles T (face down); Classic/Cotillion kings' reserve R; foundations
    # F1..F8 in the order they are founded or set aside". Decision 6: T is used from
    # its top (last set aside first), so the last traveller is the last element.
    out: Deal = {f"P{i + 1}": p for i, p in enumerate(piles)}
    out["T"] = travellers
    if reserve is not None:
        out["R"] = reserve
    out.update({f"F{k + 1}": list(x) for k, x in enumerate(f)})
    return out


def travellers(seed: int) -> Deal:
    # §6: "pre-extract A and K of each suit (copy 0): 4 up-from-A, 4 down-from-K …
    # shuffle the other 96; countDeal with C = A,K,Q,…,2 … No plays during the deal".
    aside, p = pack_after(2, seed, ACES_AND_KINGS)
    piles, trav, _, _, _ = count_deal(p, DOWN_COUNT)
    return travel_out(piles, trav, [[c] for c in aside])


def travellers_aces(seed: int) -> Deal:
    # §7: "104 cards, nothing pre-extracted; count C as in §6 … Bases are the 8 aces,
    # laid into the base row whenever available" (so none at the opening).
    _, p = pack_after(2, seed)
    piles, trav, _, _, _ = count_deal(p, DOWN_COUNT)
    return travel_out(piles, trav, [[] for _ in range(8)])


def cotillion(seed: int) -> Deal:
    # §8: "104 cards, nothing pre-extracted, C as §6"; kings to the base row during the
    # deal (F1.. in the order they come); the cards dealt at the call "K" form the kings'
    # pile P2, spread into R only after the last traveller (the 2026 correction).
    _, p = pack_after(2, seed)
    piles, trav, res, bases, _ = count_deal(p, DOWN_COUNT, kings_to_bases=True)
    assert len(bases) == 8 and piles[1] and not res
    return travel_out(piles, trav, [[c] for c in bases], res)


CLASSIC_ASIDE = [(K, s) for s in range(4)] * 2


def travellers_classic(seed: int) -> Deal:
    # §9: "pre-extract all 8 kings → 8 foundations down from K" (lowest c each time,
    # i.e. in increasing id); "shuffle 96. Deal in rows; each row is one count cycle
    # A,2,…,Q,K … at count K the card always goes to R and the row ends"; "after each
    # finished row … play tops … then forced nextRow. No plays inside a row". Seed
    # 004 б: «Только после того, как выложены карты на перечисляемые достоинства от
    # туза до короля, начинается сбор карт на базовые» — the opening shows row 1
    # dealt, the rest of the deck in S (the Conventions' stock id), top dealt next.
    aside, p = pack_after(2, seed, CLASSIC_ASIDE)
    assert aside == sorted(aside)
    piles, trav, res, _, used = count_deal(p, UP_COUNT, king_slot=12, stop_after_cycle=True)
    assert not piles[12]
    out = travel_out(piles[:12], trav, [[c] for c in aside], res)
    out["S"] = stock(p[used:])
    return out


def little_packs(seed: int) -> Deal:
    # §10: "2 × 52, all 104 shuffled … countDeal with C = A,2,…,10,J,Q,K over 13
    # piles; matches become exiles (face down, LIFO)"; kings laid only when available.
    _, p = pack_after(2, seed)
    piles, trav, _, _, _ = count_deal(p, UP_COUNT)
    return travel_out(piles, trav, [[] for _ in range(8)])


def redeal(slug: str, before: Deal, g: SplitMix64) -> Deal:
    out = copy(before)
    n = 12 if slug == "travellers_classic" else 13
    if slug == "travellers_classic":
        # §9: "deal order … = pile 3, 9, 2, 8, A, 7, 10, 4, J, 5, Q, 6 (each
        # bottom→top), then R leftovers"; pile of rank r is P<r>.
        order = [3, 9, 2, 8, 1, 7, 10, 4, 11, 5, 12, 6]
    else:
        order = list(range(1, 14))  # §6: "gather piles 0..12 (each bottom→top)"; §10 too
    gathered = [c for i in order for c in out[f"P{i}"]] + out.get("R", [])
    assert not out["T"]
    if slug in {"travellers", "travellers_aces", "cotillion"}:
        gathered = fisher_yates(gathered, g)  # §6 "shuffle (continuing …, Decision 6)"
    calls = DOWN_COUNT if slug in {"travellers", "travellers_aces", "cotillion"} else UP_COUNT
    king_slot = {"travellers_classic": 12}.get(slug)
    piles, trav, res, bases, used = count_deal(
        gathered,
        calls,
        king_slot=king_slot,
        kings_to_bases=slug == "cotillion",
        stop_after_cycle=slug == "travellers_classic",
    )
    assert not bases  # every king is on a foundation since the first deal
    out.update({f"P{i + 1}": piles[i] for i in range(n)})
    out["T"] = trav
    if "R" in out:
        out["R"] = res
    if slug == "travellers_classic":
        out["S"] = stock(gathered[used:])
    return out


# -- the journey (Part B §5.2), written again -----------------------------------------

#: per game, each foundation's (first rank, step) — §5.3, §6–10; wrap where it turns
#: the corner (A,K,Q…2 and K,A,2…Q)
F_RULES: dict[str, list[tuple[int, int]]] = {
    "travellers": [(A, 1)] * 4 + [(K, -1)] * 4,
    # four aces up, four down round the corner, each direction chosen as the ace is laid
    "travellers_aces": [(A, 1)] * 4 + [(A, -1)] * 4,
    "cotillion": [(K, -1)] * 8,
    "travellers_classic": [(K, -1)] * 8,
    "little_packs": [(K, -1), (K, 1)] * 4,
}
PAIRED = {"little_packs"}
#: games whose empty foundations take a base of any suit during play
OPEN = {"travellers_aces"}


def fits_somewhere(slug: str, f: list[list[int]], c: int) -> bool:
    """Whether card ``c`` fits one of the foundations ``f`` (F1..F8) now."""
    rules = F_RULES[slug]
    claimed = {suit_of(p[0]) for p in f if p}
    for k, (first, step) in enumerate(rules):
        pile = f[k]
        if len(pile) == 13:
            continue
        if pile:
            want_suit = suit_of(pile[0])
            want_rank = (rank_of(pile[-1]) - 1 + step) % 13 + 1
        elif slug in OPEN:
            want_suit, want_rank = suit_of(c), first
        else:
            if slug not in PAIRED:
                continue  # a base of these games is laid at the deal
            twin = f[k ^ 1]
            if twin:
                want_suit = suit_of(twin[0])
            elif suit_of(c) not in claimed:
                want_suit = suit_of(c)
            else:
                continue
            want_rank = first
        if suit_of(c) == want_suit and rank_of(c) == want_rank:
            return True
    return False


def journey_by_rules(slug: str, before: Deal) -> Deal:
    out = copy(before)
    n = 12 if slug == "travellers_classic" else 13
    calls = DOWN_COUNT if slug in {"travellers", "travellers_aces", "cotillion"} else UP_COUNT
    label = {f"P{i + 1}": calls[i] for i in range(n)}
    pile_of = {r: p for p, r in label.items()}
    spread = {"P13"} if slug == "little_packs" else set()
    f = [out[f"F{k}"] for k in range(1, 9)]

    def fits(c: int) -> bool:
        return fits_somewhere(slug, f, c)

    t = out["T"][-1]  # "T = travellers.pop(); reveal T"
    if fits(t):
        return out  # it stays turned up on T until the player plays it
    out["T"].pop()
    p = pile_of[rank_of(t)]
    if p in spread:
        out[p].append(t)
        return out
    out[p].insert(0, t)  # "put T under P"
    while True:
        x = out[p][-1]
        if rank_of(x) == label[p]:
            return out  # (b)
        out[p].pop()
        y = out[p][-1] if out[p] else None
        q = pile_of[rank_of(x)]
        if q in spread:
            out[q].append(x)
        else:
            out[q].insert(0, x)
        if y is not None and fits(y):
            return out  # (a)
        if q in spread and fits(x):
            return out
        p = q


def _reference(
    slug: str,
    deal: Callable[[int], Deal],
    table: int,
    *,
    extra: dict[str, str],
    actions: set[str],
    hidden: set[str],
    spread_sources: frozenset[str] = frozenset(),
    aside: Sequence[tuple[int, int]] = (),
) -> Reference:
    """One game of the family: ``table`` piles P1.. (Decision 10), the travellers T,
    ``extra`` piles, foundations F1..F8; the table piles lie squared but for a spread
    one."""
    return Reference(
        slug,
        deal,
        kinds={
            **each(ids("P", table), "tableau"),
            "T": "reserve",
            **extra,
            **each(ids("F", 8), "foundation"),
        },
        actions=frozenset(actions),
        hidden=frozenset(hidden),
        squared=frozenset(ids("P", table)) - spread_sources,
        spread_sources=spread_sources,
        aside=aside,
        redeal=functools.partial(redeal, slug),
    )


REFERENCES = (
    _reference(
        "travellers",
        travellers,
        13,
        extra={},
        actions={"travel", "redeal"},
        hidden={"T"},
        aside=ACES_AND_KINGS,
    ),
    _reference(
        "travellers_aces",
        travellers_aces,
        13,
        extra={},
        actions={"travel", "redeal"},
        hidden={"T"},
    ),
    _reference(
        "cotillion",
        cotillion,
        13,
        extra={"R": "reserve"},
        actions={"travel", "spread", "redeal"},
        hidden={"T", "R"},
        spread_sources=frozenset({"R"}),
    ),
    _reference(
        "travellers_classic",
        travellers_classic,
        12,
        extra={"R": "reserve", "S": "stock"},
        actions={"travel", "next_row", "spread", "redeal"},
        hidden={"T", "R", "S"},
        spread_sources=frozenset({"R"}),
        aside=CLASSIC_ASIDE,
    ),
    _reference(
        "little_packs",
        little_packs,
        13,
        extra={},
        actions={"travel", "redeal"},
        hidden={"T"},
        spread_sources=frozenset({"P13"}),  # P13 lies spread: every card shows
    ),
)
