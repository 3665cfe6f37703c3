"""The shared specs of every deal, written again for the conformance tests.

Nothing in tests/conformance imports the project's generator or dealing helpers
(``server.patience.rng``, ``engine.shuffled``, ``rows``, ``as_stock``, ``cards``,
``travel``): the generator, the shuffle, the set-aside and the dealing conventions are
written again here straight from DESIGN.md ("Cards and deals") and RULES.md
(Conventions, Decisions 1–11); each game's dealing order, pile kinds and redeal are
written again in its own module of :mod:`tests.conformance.games` as a
:class:`Reference`, which the tests compare with ``registry.get(slug)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

MASK = (1 << 64) - 1
#: the seeds every opening is compared on: small, large, both ends of the range
SEEDS = (0, 1, 2, 3, 12345, 0xDEADBEEF, 2**63, 2**64 - 1)

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


def each(pids: Sequence[str], kind: str) -> dict[str, str]:
    """Every pile of ``pids`` of one kind (Decision 10, each game's components table)."""
    return dict.fromkeys(pids, kind)


SUITS_FA = [f"FA-{s}" for s in SUIT_CODE]
SUITS_FK = [f"FK-{s}" for s in SUIT_CODE]
#: the A and K of each suit (copy 0), set aside before the shuffle by several games
ACES_AND_KINGS = [(A, s) for s in range(4)] + [(K, s) for s in range(4)]

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


# -- one game, written again ----------------------------------------------------------

Deal = dict[str, list[int]]


def copy(deal: Deal) -> Deal:
    return {pid: list(cards) for pid, cards in deal.items()}


def waste_turned_over(before: Deal, g: SplitMix64) -> Deal:
    """The waste, unshuffled, becomes the stock: the card that entered the waste
    first is drawn first (short §4.3, carpet §2.4, the circle §3.4)."""
    out = copy(before)
    out["S"], out["X"] = stock(out["X"]), []
    return out


@dataclass(frozen=True)
class Reference:
    """What RULES.md says of one game's opening and its redeal, written again."""

    slug: str
    #: the opening deal of a seed: every pile id, its cards bottom first
    deal: Callable[[int], Deal]
    #: every pile's kind (Decision 10, the game's components table)
    kinds: dict[str, str]
    #: its action names (Decision 8)
    actions: frozenset[str]
    #: piles whose every card is face down at the opening
    hidden: frozenset[str] = frozenset()
    #: squared piles: only the top card shows (Decision 1; Part B §5.1, §10)
    squared: frozenset[str] = frozenset()
    #: piles whose cards move by position ({"from", "index", "to"}), Decision 10
    spread_sources: frozenset[str] = frozenset()
    #: the cards set aside before the opening shuffle (the generator goes on after it)
    aside: Sequence[tuple[int, int]] = ()
    #: the position after a redeal (or shift) of ``before``, the generator as the
    #: opening shuffle (and earlier redeals) left it; None: the game never redeals
    redeal: Callable[[Deal, SplitMix64], Deal] | None = None
