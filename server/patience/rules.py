"""Shared mechanics: rank sequences, foundations, builds, stock and waste.

Pure functions over card ids and pile tuples, so a game module can say what its
rules are ("build down in suit", "turn three", "the waste turned over becomes the
stock") instead of re-implementing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, NamedTuple, TypeVar

from .cards import ACE, KING, SUITS, rank, suit
from .engine import shuffled

Cards = tuple[int, ...]


def step(r: int, by: int, wrap: bool = False) -> int:
    """The rank ``by`` steps from ``r`` (1..13), or 0 when it falls off the ends
    (with ``wrap``, K is followed by A and A preceded by K)."""
    n = r + by
    if 1 <= n <= 13:
        return n
    return (n - 1) % 13 + 1 if wrap else 0


class Foundation(NamedTuple):
    """A foundation rule: started by rank ``first`` (of ``suit``, or of any suit when
    None, after which the pile keeps the suit of its first card), built in suit by
    ``by`` ranks, ``wrap`` around the ends or not, complete at ``size`` cards."""

    first: int
    by: int = 1
    suit: int | None = None
    wrap: bool = False
    size: int = 13

    def needs(self, pile: Sequence[int]) -> int:
        """The rank this foundation needs next (0 when complete)."""
        if not pile:
            return self.first
        if len(pile) >= self.size:
            return 0
        return step(rank(pile[-1]), self.by, self.wrap)

    def takes(self, pile: Sequence[int]) -> int:
        """The card (``card % 52``) this started foundation takes next; -1 once it
        is complete."""
        if len(pile) >= self.size:
            return -1
        r = step(rank(pile[-1]), self.by, self.wrap)
        return suit(pile[0]) * 13 + r - 1 if r else -1


# The four foundation directions of the seeds (all in suit, 13 cards each).
UP_FROM_ACE = Foundation(ACE, 1)
DOWN_FROM_KING = Foundation(KING, -1)
DOWN_FROM_ACE = Foundation(ACE, -1, wrap=True)  # A, K, Q, …, 2
UP_FROM_KING = Foundation(KING, 1, wrap=True)  # K, A, 2, …, Q

#: The foundations of an ace and a king of each suit (crescent, carpet, fifteen):
#: ``FA-S``… build up from the aces, ``FK-S``… down from the kings.
FA = tuple(f"FA-{s}" for s in SUITS)
FK = tuple(f"FK-{s}" for s in SUITS)
#: an ace and a king of each suit, in the order of ``FA + FK``
ACES_AND_KINGS = tuple((ACE, s) for s in range(4)) + tuple((KING, s) for s in range(4))


def aces_and_kings_aside(seed: int) -> tuple[dict[str, tuple[int, ...]], list[int], int]:
    """Deal two decks with an ace and a king of each suit set aside, each founding
    its pile of :data:`FA` and :data:`FK` (crescent, carpet).

    Returns those eight piles by id, the shuffled rest (``pack[0]`` dealt first) and
    the generator state to continue from."""
    aside, pack, rng = shuffled(2, seed, set_aside=ACES_AND_KINGS)
    return {f: (c,) for f, c in zip(FA + FK, aside, strict=True)}, pack, rng


#: what a game calls a foundation in its moves: a pile id, a pile index…
N = TypeVar("N")


class Foundations(Generic[N]):
    """A game's foundations, each a :class:`Foundation` rule on one pile, asked
    together what they take next (built once per game; :meth:`wants` is on the path
    of every legal-move generation).

    ``entries``: ``(name, pile index, rule)`` of each foundation, in the order a
    choice between them is listed; ``name`` is what the game's moves use."""

    def __init__(self, entries: Iterable[tuple[N, int, Foundation]]) -> None:
        #: per foundation: name, pile index, the card an empty one takes (-1: its
        #: first card may be of any suit), size, step, and the rule when it wraps
        self.entries = tuple(
            (
                name,
                i,
                -1 if rule.suit is None else rule.suit * 13 + rule.first - 1,
                rule.size,
                rule.by,
                rule if rule.wrap else None,
            )
            for name, i, rule in entries
        )

    def wants(self, piles: Sequence[Cards]) -> tuple[dict[int, list[N]], list[N]]:
        """``card % 52`` → the foundations that take that card now (in entry order),
        and the empty foundations a first card of any suit may start (each takes a
        card of its ``rule.first``)."""
        needs: dict[int, list[N]] = {}
        free: list[N] = []
        for name, i, opening, size, by, wrapping in self.entries:
            pile = piles[i]
            if not pile:
                if opening < 0:
                    free.append(name)
                    continue
                key = opening
            elif len(pile) >= size:
                continue
            elif wrapping is None:  # short of its last rank: the top's neighbour is next
                key = pile[-1] % 52 + by
            else:
                key = wrapping.takes(pile)
            if key in needs:
                needs[key].append(name)
            else:
                needs[key] = [name]
        return needs, free


class Exposed(NamedTuple):
    """The exposed (top) cards of a row of columns, as move generation wants them."""

    #: (column id, card % 52) of each non-empty column, in column order
    cards: list[tuple[str, int]]
    #: card % 52 → the columns it lies on top of
    tops: dict[int, list[str]]
    #: the empty columns, in column order
    empty: list[str]


def exposed(piles: Sequence[Cards], columns: Sequence[tuple[str, int]]) -> Exposed:
    """The top cards of ``columns`` (``(pile id, index)`` pairs) of ``piles``."""
    cards: list[tuple[str, int]] = []
    tops: dict[int, list[str]] = {}
    empty: list[str] = []
    for cid, i in columns:
        pile = piles[i]
        if pile:
            c = pile[-1] % 52
            cards.append((cid, c))
            if c in tops:
                tops[c].append(cid)
            else:
                tops[c] = [cid]
        else:
            empty.append(cid)
    return Exposed(cards, tops, empty)


def moved(piles: Sequence[Cards], src: int, dst: int, index: int = -1) -> tuple[Cards, ...]:
    """Piles with one card (the top, or the one at ``index``) moved from ``src`` onto
    the top of ``dst``."""
    out = list(piles)
    pile = out[src]
    if index < 0:
        index = len(pile) - 1
    out[dst] = out[dst] + (pile[index],)
    out[src] = pile[:index] + pile[index + 1 :]
    return tuple(out)


def turned(stock: Cards, waste: Cards, n: int = 1) -> tuple[Cards, Cards]:
    """Turn ``n`` cards (or what remains) from the stock top onto the waste, one by
    one, so the last one turned lies on top."""
    n = min(n, len(stock))
    if n == 0:
        return stock, waste
    return stock[:-n], waste + tuple(reversed(stock[-n:]))


def turned_over(waste: Cards) -> Cards:
    """The waste turned face down as the new stock: the card that entered the waste
    first is dealt first."""
    return tuple(reversed(waste))


def swaps(src: Cards, dst: Cards) -> bool:
    """Whether moving the top card of ``src`` onto ``dst`` only swaps the two piles:
    ``src`` without that card looks exactly like ``dst`` (the two decks' copies alike),
    so the position after it is the one before with two piles renamed. No game offers
    such an empty move; a column's only card going into an empty column is the
    commonest case."""
    return len(src) == len(dst) + 1 and all(
        a % 52 == b % 52 for a, b in zip(src, dst, strict=False)
    )
