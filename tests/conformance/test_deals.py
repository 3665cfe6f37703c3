"""Conformance: every opening deal, derived independently from the shared specs.

Nothing here imports the project's generator or dealing helpers
(``server.patience.rng``, ``engine.shuffled``, ``rows``, ``as_stock``, ``cards``,
``travel``): the generator, the shuffle, the set-aside and every game's dealing order
are written again below straight from DESIGN.md ("Cards and deals") and RULES.md
(Conventions, Decisions 1–11 and each game's section), and compared pile by pile with
``registry.get(slug).deal(seed)``. The other checks: pile ids and kinds, action names
on the wire, and what a view of the opening may show (PROTOCOL.md pile objects).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgpack
import pytest

from server.patience import registry

MASK = (1 << 64) - 1
SEEDS = (0, 1, 2, 3, 12345, 0xDEADBEEF, 2**63, 2**64 - 1)
SLUGS = (
    "crescent",
    "picture_gallery",
    "first_and_last",
    "short",
    "st_helena",
    "fifteen",
    "hemispheres",
    "hand_reserve",
    "carpet",
    "squaring_circle",
    "parade",
    "travellers",
    "travellers_aces",
    "cotillion",
    "travellers_classic",
    "little_packs",
)

# -- DESIGN.md "Cards and deals", written again ---------------------------------------

S, H, D, C = range(4)  # "suit = (c % 52) // 13 in the order spades, hearts, diamonds, clubs"
A, J, Q, K = 1, 11, 12, 13
RANK_CODE = "A23456789TJQK"
SUIT_CODE = "SHDC"


def rank_of(c: int) -> int:
    return c % 13 + 1  # "rank = c % 13 + 1 (ace 1 … king 13)"


def suit_of(c: int) -> int:
    return (c % 52) // 13


def code(c: int) -> str:
    return RANK_CODE[c % 13] + SUIT_CODE[(c % 52) // 13]


class SplitMix64:
    """ "SplitMix64 on a 64-bit state initialised to the seed. Each draw adds
    0x9E3779B97F4A7C15 to the state (mod 2^64) and mixes …"."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def draw(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z ^= z >> 30
        z = (z * 0xBF58476D1CE4E5B9) & MASK
        z ^= z >> 27
        z = (z * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        return z

    def uniform(self, m: int) -> int:
        """ "draw x; reject while x >= 2**64 - (2**64 % m); return x % m"."""
        while True:
            x = self.draw()
            if x < 2**64 - (2**64 % m):
                return x % m


def pack_after(
    decks: int, seed: int, aside: Sequence[tuple[int, int]] = ()
) -> tuple[list[int], list[int]]:
    """(the set-aside cards in order, the shuffled rest with index 0 dealt first).

    "The unshuffled pack is all cards in increasing c. A game that sets cards aside
    before the shuffle … removes, for each such card, the lowest c that matches, then
    shuffles the rest." "Fisher–Yates from the end: for i from n-1 down to 1,
    j = uniform(i+1), swap a[i], a[j]." "Index 0 of the shuffled list is the top of
    the pack, dealt first."
    """
    a = list(range(52 * decks))
    taken = []
    for r, s in aside:
        c = min(x for x in a if rank_of(x) == r and suit_of(x) == s)
        a.remove(c)
        taken.append(c)
    g = SplitMix64(seed)
    for i in range(len(a) - 1, 0, -1):
        j = g.uniform(i + 1)
        a[i], a[j] = a[j], a[i]
    return taken, a


def stock(cards: Sequence[int]) -> list[int]:
    """A face-down stock, bottom first: its top (last element) is dealt first."""
    return list(cards)[::-1]


def rowwise(cards: Sequence[int], ids: Sequence[str]) -> dict[str, list[int]]:
    """Conventions: "card k … goes to pile k mod P, row k div P. The last card dealt
    to a pile is its top"."""
    out: dict[str, list[int]] = {p: [] for p in ids}
    for k, c in enumerate(cards):
        out[ids[k % len(ids)]].append(c)
    return out


def ids(prefix: str, n: int, start: int = 1) -> list[str]:
    return [f"{prefix}{i}" for i in range(start, start + n)]


SUITS_FA = [f"FA-{s}" for s in SUIT_CODE]
SUITS_FK = [f"FK-{s}" for s in SUIT_CODE]


def test_generator_anchor() -> None:
    """Our own SplitMix64 against the published reference outputs for seed 0."""
    g = SplitMix64(0)
    assert [g.draw() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    g = SplitMix64(MASK)  # wraps mod 2**64
    g.draw()
    assert g.state == (MASK + 0x9E3779B97F4A7C15) & MASK


# -- each game's opening, from RULES.md ----------------------------------------------

Deal = dict[str, list[int]]


def crescent(seed: int) -> Deal:
    # §1.2: "Set aside A♠ A♥ A♦ A♣ into FA-S..FA-C, then K♠ K♥ K♦ K♣ into FK-S..FK-C
    # … Shuffle the remaining 96 … Deal them row-wise, 6 rows over T1..T16."
    aside, p = pack_after(2, seed, [(A, s) for s in range(4)] + [(K, s) for s in range(4)])
    out: Deal = {f: [c] for f, c in zip(SUITS_FA + SUITS_FK, aside, strict=True)}
    out.update({f"W-{s}": [] for s in SUIT_CODE})
    out.update(rowwise(p, ids("T", 16)))
    return out


def picture_gallery(seed: int) -> Deal:
    # §2.2: "Set aside K♠ (lowest c) as the head of pile K1 … Shuffle the other 103
    # cards; they are the stock."
    aside, p = pack_after(2, seed, [(K, S)])
    out: Deal = {"Q": [], "S": stock(p), "K1": aside}
    out.update({k: [] for k in ids("K", 7, 2)})
    out.update({a: [] for a in ids("A", 8)})
    return out


def first_and_last(seed: int) -> Deal:
    # §3.2: "shuffle all 104 cards. Cards 1–8 (top first) go to T1..T8 and cards 9–16
    # to B1..B8 … The remaining 88 cards are the stock; the waste starts empty."
    _, p = pack_after(2, seed)
    out: Deal = {t: [c] for t, c in zip(ids("T", 8), p[:8], strict=True)}
    out.update({b: [c] for b, c in zip(ids("B", 8), p[8:16], strict=True)})
    out.update({f: [] for f in ids("P", 8)})
    out.update(S=stock(p[16:]), X=[])
    return out


def short(seed: int) -> Deal:
    # §4.2: "Deal cards 1–24 row-wise, 4 rows over C1..C6. Card 25 goes to F1 …
    # Cards 26–52 form the stock, face down (card 26 on top)."
    _, p = pack_after(1, seed)
    out = rowwise(p[:24], ids("C", 6))
    out.update(F1=[p[24]], F2=[], F3=[], F4=[], S=stock(p[25:]), X=[])
    return out


def st_helena(seed: int) -> Deal:
    # §5.2: "Cards 1–40 go row-wise, 4 rows over columns C1..C10 … Cards 41–104 are
    # the stock. 8 foundations F1..F8, empty."
    _, p = pack_after(2, seed)
    out = rowwise(p[:40], ids("C", 10))
    out.update({f: [] for f in ids("F", 8)})
    out.update(S=stock(p[40:]), X=[])
    return out


def fifteen(seed: int) -> Deal:
    # §7.2: "shuffle 104 cards and deal them row-wise, 15 per row … C1–C14 hold 7
    # cards and C15 holds 6."
    _, p = pack_after(2, seed)
    out = rowwise(p, ids("C", 15))
    assert [len(out[c]) for c in ids("C", 15)] == [7] * 14 + [6]
    out.update({f: [] for f in SUITS_FA + SUITS_FK})
    return out


def hemispheres(seed: int) -> Deal:
    # §6.2: "Set aside, in this order (lowest c each time): A♥, A♥, A♦, A♦ → FR1..FR4;
    # K♠, K♠, K♣, K♣ → FB1..FB4; then the barriers K♥, A♠, K♦, A♣" (BW=K♥, BN=A♠,
    # BE=K♦, BS=A♣). "Cards 1–12 go to P1..P12 … Cards 13–92 are the stock."
    order = [
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
    aside, p = pack_after(2, seed, order)
    where = [*ids("FR", 4), *ids("FB", 4), "BW", "BN", "BE", "BS"]
    out: Deal = {w: [c] for w, c in zip(where, aside, strict=True)}
    out.update({pid: [c] for pid, c in zip(ids("P", 12), p[:12], strict=True)})
    out.update(S=stock(p[12:]), X=[])
    return out


def hand_reserve(seed: int) -> Deal:
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


def grid(cards: Sequence[int]) -> Deal:
    # Part B §2.2: "Cards 0..63 → carpet cell (r,c) = (i div 8, i mod 8)";
    # Decision 10: "G<r><c> … G00 top left, G07 top right".
    return {f"G{i // 8}{i % 8}": [c] for i, c in enumerate(cards)}


def carpet(seed: int) -> Deal:
    # Part B §2.2: "Remove A and K of each suit (copy 0) → 8 foundations … Shuffle the
    # other 96 … Cards 64..95 → stock, face down; draw order 64, 65, …"; Decision 10:
    # FA-S FA-H FA-D FA-C, FK-S FK-H FK-D FK-C.
    aside, p = pack_after(2, seed, [(A, s) for s in range(4)] + [(K, s) for s in range(4)])
    out: Deal = {f: [c] for f, c in zip(SUITS_FA + SUITS_FK, aside, strict=True)}
    out.update(grid(p[:64]))
    out.update(S=stock(p[64:]), X=[])
    return out


def squaring_circle(seed: int) -> Deal:
    # Part B §3.2: "nothing pre-extracted. Shuffle; cards 0..63 → carpet exactly as
    # §2.2 … Cards 64..103 → stock, draw order 64, 65, …"; Decision 10: circle slots
    # B<base><suit><n>, base one of K A 5 9.
    _, p = pack_after(2, seed)
    out = grid(p[:64])
    out.update({f"B{b}{s}{n}": [] for b in "KA59" for s in SUIT_CODE for n in "12"})
    out.update(S=stock(p[64:]), X=[])
    return out


def parade(seed: int) -> Deal:
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
    aside, p = pack_after(2, seed, [(A, s) for s in range(4)] + [(K, s) for s in range(4)])
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


def travellers_classic(seed: int) -> Deal:
    # §9: "pre-extract all 8 kings → 8 foundations down from K" (lowest c each time,
    # i.e. in increasing id); "shuffle 96. Deal in rows; each row is one count cycle
    # A,2,…,Q,K … at count K the card always goes to R and the row ends"; "after each
    # finished row … play tops … then forced nextRow. No plays inside a row". Seed
    # 004 б: «Только после того, как выложены карты на перечисляемые достоинства от
    # туза до короля, начинается сбор карт на базовые» — the opening shows row 1
    # dealt, the rest of the deck in S (the Conventions' stock id), top dealt next.
    aside, p = pack_after(2, seed, [(K, s) for s in range(4)] * 2)
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


EXPECTED: dict[str, Callable[[int], Deal]] = {
    f.__name__: f
    for f in (
        crescent,
        picture_gallery,
        first_and_last,
        short,
        st_helena,
        fifteen,
        hemispheres,
        hand_reserve,
        carpet,
        squaring_circle,
        parade,
        travellers,
        travellers_aces,
        cotillion,
        travellers_classic,
        little_packs,
    )
}


def test_every_game_is_covered() -> None:
    assert sorted(EXPECTED) == sorted(SLUGS)
    assert sorted(registry.slugs()) == sorted(SLUGS)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", SLUGS)
def test_opening_deal(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    want = EXPECTED[slug](seed)
    assert sorted(game.ids) == sorted(want), "pile ids"
    for pid in game.ids:
        assert list(game.pile(state, pid)) == want[pid], f"{slug} seed {seed} pile {pid}"
    every = sorted(c for p in want.values() for c in p)
    assert every == list(range(52 * game.decks))  # Decision 11: every card in a pile


# -- pile ids and kinds (Decision 10, each game's components table) -------------------


def kinds(slug: str) -> dict[str, str]:
    def each(pids: Sequence[str], kind: str) -> dict[str, str]:
        return dict.fromkeys(pids, kind)

    grid_cells = each([f"G{r}{c}" for r in range(8) for c in range(8)], "grid")
    travel_f = each(ids("F", 8), "foundation")
    return {
        "crescent": {
            **each(SUITS_FA + SUITS_FK, "foundation"),
            **each(ids("T", 16), "tableau"),
            **each([f"W-{s}" for s in SUIT_CODE], "cell"),
        },
        "picture_gallery": {
            "Q": "discard",
            "S": "stock",
            **each(ids("K", 8), "tableau"),
            **each(ids("A", 8), "foundation"),
        },
        "first_and_last": {
            **each(ids("P", 8), "foundation"),
            "S": "stock",
            "X": "waste",
            **each(ids("T", 8) + ids("B", 8), "reserve"),
        },
        "short": {
            **each(ids("F", 4), "foundation"),
            **each(ids("C", 6), "tableau"),
            "S": "stock",
            "X": "waste",
        },
        "st_helena": {
            **each(ids("F", 8), "foundation"),
            **each(ids("C", 10), "tableau"),
            "S": "stock",
            "X": "waste",
        },
        "fifteen": {**each(SUITS_FA + SUITS_FK, "foundation"), **each(ids("C", 15), "tableau")},
        "hemispheres": {
            **each(ids("FR", 4) + ids("FB", 4), "foundation"),
            **each(["BW", "BN", "BE", "BS"], "reserve"),
            **each(ids("P", 12), "tableau"),
            "S": "stock",
            "X": "waste",
        },
        # the hand has no limit: one spread pile H (docs/games/hand_reserve.md)
        "hand_reserve": {
            **each(ids("C", 9), "tableau"),
            "H": "reserve",
            **each(ids("F", 4), "foundation"),
        },
        "carpet": {
            **grid_cells,
            **each(SUITS_FA + SUITS_FK, "foundation"),
            "S": "stock",
            "X": "waste",
        },
        "squaring_circle": {
            **grid_cells,
            "S": "stock",
            "X": "waste",
            **each([f"B{b}{s}{n}" for b in "KA59" for s in SUIT_CODE for n in "12"], "foundation"),
        },
        "parade": {
            **each([f"P{k}{c}" for k in range(3) for c in range(8)], "foundation"),
            **each(ids("D", 8), "tableau"),
            "S": "stock",
            "X": "discard",
        },
        "travellers": {**each(ids("P", 13), "tableau"), "T": "reserve", **travel_f},
        "travellers_aces": {**each(ids("P", 13), "tableau"), "T": "reserve", **travel_f},
        "cotillion": {**each(ids("P", 13), "tableau"), "T": "reserve", "R": "reserve", **travel_f},
        "travellers_classic": {
            **each(ids("P", 12), "tableau"),
            "T": "reserve",
            "R": "reserve",
            "S": "stock",
            **travel_f,
        },
        "little_packs": {**each(ids("P", 13), "tableau"), "T": "reserve", **travel_f},
    }[slug]


PROTOCOL_KINDS = {"foundation", "tableau", "stock", "waste", "reserve", "cell", "grid", "discard"}


@pytest.mark.parametrize("slug", SLUGS)
def test_pile_ids_and_kinds(slug: str) -> None:
    game = registry.get(slug)
    view = game.view(game.deal(0))
    got = {p["id"]: p["kind"] for p in view["piles"]}
    assert list(got) == list(game.ids)
    assert got == kinds(slug)
    assert set(got.values()) <= PROTOCOL_KINDS


# -- the view of the opening: what is hidden (PROTOCOL.md, Decisions 1, 7, 11) -------

#: piles whose every card is face down at the opening
HIDDEN: dict[str, set[str]] = {
    "picture_gallery": {"S"},
    "first_and_last": {"S"},
    "short": {"S"},
    "st_helena": {"S"},
    "hemispheres": {"S"},
    "carpet": {"S"},
    "squaring_circle": {"S"},
    "parade": {"S"},
    "travellers": {"T"},
    "travellers_aces": {"T"},
    "cotillion": {"T", "R"},
    "travellers_classic": {"T", "R", "S"},
    "little_packs": {"T"},
}
#: squared piles: only the top card shows (Decision 1; Part B §5.1, §10)
SQUARED: dict[str, set[str]] = {
    "crescent": set(ids("T", 16)),
    "travellers": set(ids("P", 13)),
    "travellers_aces": set(ids("P", 13)),
    "cotillion": set(ids("P", 13)),
    "travellers_classic": set(ids("P", 12)),
    "little_packs": set(ids("P", 12)),  # P13 lies spread: every card shows
}
TRAVEL_FAMILY = {"travellers", "travellers_aces", "cotillion", "travellers_classic", "little_packs"}


@pytest.mark.parametrize("seed", (0, 2**64 - 1))
@pytest.mark.parametrize("slug", SLUGS)
def test_opening_view(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    view = game.view(state)
    assert set(view) >= {"piles", "info"}
    total = 0
    for pile in view["piles"]:
        pid = pile["id"]
        assert {"id", "kind", "label", "cards", "x", "y", "fan"} <= set(pile), pid
        assert set(pile) <= {"id", "kind", "label", "cards", "x", "y", "fan", "orient", "base"}
        assert isinstance(pile["label"], str)
        assert isinstance(pile["x"], int) and isinstance(pile["y"], int)
        assert pile["fan"] in {"none", "down", "right"}
        cards = list(game.pile(state, pid))
        total += len(pile["cards"])
        assert len(pile["cards"]) == len(cards), pid
        if pid in HIDDEN.get(slug, ()):
            want: list[str | None] = [None] * len(cards)
        elif pid in SQUARED.get(slug, ()):
            want = [None] * (len(cards) - 1) + [code(cards[-1])] if cards else []
        else:
            want = [code(c) for c in cards]
        assert pile["cards"] == want, f"{slug} {pid}"
        if pile["kind"] == "grid":  # Decision 5: vertical where (row+col) is even
            r, c = int(pid[1]), int(pid[2])
            assert pile["orient"] == ("v" if (r + c) % 2 == 0 else "h")
        if pile.get("orient") is not None:
            assert pile["orient"] in {"v", "h"}
    assert total == 52 * game.decks  # Decision 11


@pytest.mark.parametrize("slug", sorted(TRAVEL_FAMILY))
def test_travel_pile_labels(slug: str) -> None:
    """Decision 10: "table piles P1..P13 … each with its rank in label"; foundations
    "each with its direction in base/label"."""
    game = registry.get(slug)
    view = {p["id"]: p for p in game.view(game.deal(0))["piles"]}
    calls = DOWN_COUNT if slug in {"travellers", "travellers_aces", "cotillion"} else UP_COUNT
    n = 12 if slug == "travellers_classic" else 13
    for i in range(n):
        r = calls[i]
        names = {RANK_CODE[r - 1], {10: "10", 11: "J", 12: "Q", 13: "K", 1: "A"}.get(r, str(r))}
        assert view[f"P{i + 1}"]["label"] in names, (slug, i)
    for k in range(1, 9):
        assert view[f"F{k}"]["label"] or view[f"F{k}"].get("base")


# -- action names (Decision 8) and the wire form of moves -----------------------------

ACTIONS: dict[str, set[str]] = {
    "crescent": {"shift"},
    "picture_gallery": {"deal", "redeal"},
    "first_and_last": {"deal", "redeal"},
    "short": {"deal", "redeal"},
    "st_helena": {"deal"},
    "fifteen": {"grace"},
    "hemispheres": {"deal", "swap"},
    "hand_reserve": {"pick_up"},
    "carpet": {"deal", "redeal"},
    "squaring_circle": {"deal", "redeal"},
    "parade": {"deal"},
    "travellers": {"travel", "redeal"},
    "travellers_aces": {"travel", "redeal"},
    "cotillion": {"travel", "spread", "redeal"},
    "travellers_classic": {"travel", "next_row", "spread", "redeal"},
    "little_packs": {"travel", "redeal"},
}
#: piles whose cards move by position ({"from", "index", "to"}), Decision 10
SPREAD_SOURCES = {
    "little_packs": {"P13"},
    "cotillion": {"R"},
    "travellers_classic": {"R"},
    "hand_reserve": {"H"},
}


@pytest.mark.parametrize("slug", SLUGS)
def test_action_names(slug: str) -> None:
    game = registry.get(slug)
    assert set(game.actions) == ACTIONS[slug]
    for name in {
        "deal",
        "redeal",
        "shift",
        "swap",
        "grace",
        "travel",
        "spread",
        "next_row",
        "pick_up",
        "nextRow",
        "pickUp",
        "draw",
    } - ACTIONS[slug]:
        with pytest.raises(ValueError):
            game.parse_move({"action": name})


@pytest.mark.parametrize("seed", (0, 1, 2))
@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_speaks_the_wire(slug: str, seed: int) -> None:
    """Random playouts: every legal move is a PROTOCOL.md move on this game's pile ids
    and action names, and survives the wire round trip."""
    game = registry.get(slug)
    rnd = random.Random(f"{slug}:{seed}")
    state = game.deal(seed)
    seen: set[str] = set()
    for _ in range(400):
        legal = game.legal_moves(state)
        if not legal:
            break
        for move in legal:
            wire = move.to_wire()
            if "action" in wire:
                assert wire["action"] in ACTIONS[slug], wire
                seen.add(wire["action"])
            else:
                assert set(wire) <= {"from", "to", "index"}, wire
                assert wire["from"] in game.ids and wire["to"] in game.ids, wire
                if "index" in wire:
                    assert wire["from"] in SPREAD_SOURCES.get(slug, ()), wire
                else:
                    assert wire["from"] not in SPREAD_SOURCES.get(slug, ()), wire
            assert game.parse_move(wire) == move
        state = game.apply(state, rnd.choice(legal))
        assert sum(len(p) for p in state.piles) == 52 * game.decks
        check_hidden(slug, game, state)


def check_hidden(slug: str, game: Any, state: Any) -> None:
    """During play: the stock never shows (Decision 7), Crescent's piles stay squared
    (Decision 1), the travellers show at most their turned-up top card, the kings'
    reserve nothing until it is spread (Part B §5.4), and the encoded view never
    carries the generator state (DESIGN.md)."""
    view = game.view(state)
    info = view["info"]
    for pile in view["piles"]:
        pid, cards = pile["id"], pile["cards"]
        if pile["kind"] == "stock":
            assert set(cards) <= {None}, (slug, pid)
        if slug == "crescent" and pid.startswith("T"):
            assert set(cards[:-1]) <= {None}, pid
        if slug in TRAVEL_FAMILY:
            if pid == "T":
                assert set(cards[:-1]) <= {None}
                if cards and cards[-1] is not None:
                    assert info.get("drawn") is True
            if pid == "R" and not info.get("reserve_spread"):
                assert set(cards) <= {None}
    blob = msgpack.packb(view)
    assert b"\xcf" + state.rng.to_bytes(8, "big") not in blob or state.rng < 2**32


# -- the carpet's free cards at the opening (Part B §2.3, Decision 5) -----------------


def free_cells(occupied: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Rule `adjacent`: a card is free iff beyond one of its short sides (N/S where
    (r+c) is even, W/E where odd) lies the edge or a gap."""
    out = set()
    for r, c in occupied:
        sides = [(-1, 0), (1, 0)] if (r + c) % 2 == 0 else [(0, -1), (0, 1)]
        for dr, dc in sides:
            n = (r + dr, c + dc)
            if not (0 <= n[0] < 8 and 0 <= n[1] < 8) or n not in occupied:
                out.add((r, c))
    return out


def test_sixteen_free_cards_at_the_opening() -> None:
    """§2.3: "Initially exactly 16 cards are free (any rule): row 0 cols 0,2,4,6 (N
    edge), row 7 cols 1,3,5,7 (S edge), col 0 rows 1,3,5,7 (W edge), col 7 rows
    0,2,4,6 (E edge)"."""
    full = {(r, c) for r in range(8) for c in range(8)}
    want = (
        {(0, c) for c in (0, 2, 4, 6)}
        | {(7, c) for c in (1, 3, 5, 7)}
        | {(r, 0) for r in (1, 3, 5, 7)}
        | {(r, 7) for r in (0, 2, 4, 6)}
    )
    assert free_cells(full) == want


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", ("carpet", "squaring_circle"))
def test_carpet_moves_come_from_free_cells(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    free = {f"G{r}{c}" for r, c in free_cells({(r, c) for r in range(8) for c in range(8)})}
    sources = {m.src for m in game.legal_moves(state) if m.action is None}
    assert sources <= free | {"X"}
    for g in free:
        (card,) = game.pile(state, g)
        r = rank_of(card)
        # Carpet: A and K of each suit wait on the foundations, so every free 2 and Q
        # plays; the circle: every free king and ace is a base that may come out.
        fits = r in (2, Q) if slug == "carpet" else r in (A, K)
        assert (g in sources) == fits, (g, code(card))


# -- redeals and shifts: the gathered order and the continuing generator --------------


def generator_after(decks: int, seed: int, aside: Sequence[tuple[int, int]] = ()) -> SplitMix64:
    """The generator as the opening shuffle leaves it (Decision 6, DESIGN.md: "A
    shuffle during play … continues the same generator")."""
    n = 52 * decks - len(aside)
    g = SplitMix64(seed)
    for i in range(n - 1, 0, -1):
        g.uniform(i + 1)
    return g


def fisher_yates(cards: list[int], g: SplitMix64) -> list[int]:
    a = list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = g.uniform(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def after_redeal(slug: str, before: Deal, g: SplitMix64) -> Deal:
    out = {pid: list(cards) for pid, cards in before.items()}
    if slug == "crescent":
        # §1.3 e: "In every pile holding at least 2 cards, the bottom card is taken out
        # and put on top; the other cards keep their order."
        for t in ids("T", 16):
            if len(out[t]) >= 2:
                out[t] = out[t][1:] + out[t][:1]
        return out
    if slug == "picture_gallery":
        # §2.3: "The new stock, top first, is K1, pile-1 cards from bottom to top, K2,
        # pile-2 cards …, K8, pile-8 cards. No shuffle."
        order = [c for k in ids("K", 8) for c in out[k]]
        out.update({k: [] for k in ids("K", 8)})
        out["S"] = stock(order)
        return out
    if slug == "first_and_last":
        # §3.3: "The waste, listed bottom to top, is shuffled with the continuing
        # generator and becomes the new stock (index 0 on top)."
        out["S"], out["X"] = stock(fisher_yates(out["X"], g)), []
        return out
    if slug in {"short", "carpet", "squaring_circle"}:
        # short §4.3: "the waste is turned over, not shuffled, and becomes the stock";
        # carpet §2.4: "the waste, unshuffled, becomes the stock; the card that entered
        # the waste first is drawn first" (the circle: §3.4, the same).
        out["S"], out["X"] = stock(out["X"]), []
        return out
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


ASIDE: dict[str, list[tuple[int, int]]] = {
    "crescent": [(A, s) for s in range(4)] + [(K, s) for s in range(4)],
    "picture_gallery": [(K, S)],
    "carpet": [(A, s) for s in range(4)] + [(K, s) for s in range(4)],
    "travellers": [(A, s) for s in range(4)] + [(K, s) for s in range(4)],
    "travellers_classic": [(K, s) for s in range(4)] * 2,
}
REDEALING = (
    "crescent",
    "picture_gallery",
    "first_and_last",
    "short",
    "carpet",
    "squaring_circle",
    "travellers",
    "travellers_aces",
    "cotillion",
    "travellers_classic",
    "little_packs",
)


@pytest.mark.parametrize("seed", (0, 1, 7, 2**64 - 1))
@pytest.mark.parametrize("slug", REDEALING)
def test_redeals_follow_the_rules(slug: str, seed: int) -> None:
    game = registry.get(slug)
    g = generator_after(game.decks, seed, ASIDE.get(slug, ()))
    rnd = random.Random(f"redeal:{slug}:{seed}")
    state = game.deal(seed)
    done = 0
    for _ in range(3000):
        legal = game.legal_moves(state)
        if not legal:
            break
        special = [m for m in legal if m.action in {"redeal", "shift"}]
        others = [m for m in legal if m.action not in {"redeal", "shift"}]
        if special and (not others or rnd.random() < 0.05):
            before = {pid: list(game.pile(state, pid)) for pid in game.ids}
            state = game.apply(state, special[0])
            want = after_redeal(slug, before, g)
            for pid in game.ids:
                assert list(game.pile(state, pid)) == want[pid], (slug, seed, done, pid)
            done += 1
        else:
            state = game.apply(state, rnd.choice(others))
    assert done, f"{slug} seed {seed}: no redeal reached"


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
    out = {pid: list(cards) for pid, cards in before.items()}
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


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("slug", sorted(TRAVEL_FAMILY))
def test_journeys_follow_the_rules(slug: str, seed: int) -> None:
    game = registry.get(slug)
    rnd = random.Random(f"travel:{slug}:{seed}")
    state = game.deal(seed)
    journeys = 0
    while legal := game.legal_moves(state):
        move = rnd.choice(legal)
        if move.action == "travel":
            before = {pid: list(game.pile(state, pid)) for pid in game.ids}
            # §5.2 precondition: "no foundation move exists"
            tops = [before[f"P{i}"][-1:] for i in range(1, 14) if f"P{i}" in before]
            f = [before[f"F{k}"] for k in range(1, 9)]
            assert not any(fits_somewhere(slug, f, c) for top in tops for c in top)
            state = game.apply(state, move)
            want = journey_by_rules(slug, before)
            for pid in game.ids:
                assert list(game.pile(state, pid)) == want[pid], (slug, seed, journeys, pid)
            turned = game.view(state)["info"]["drawn"]
            assert turned == fits_somewhere(slug, f, before["T"][-1])
            journeys += 1
        else:
            state = game.apply(state, move)
    assert journeys
