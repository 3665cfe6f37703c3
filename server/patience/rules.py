"""Shared mechanics: rank sequences, foundations, builds, stock and waste.

Pure functions over card ids and pile tuples, so a game module can say what its
rules are ("build down in suit", "turn three", "the waste turned over becomes the
stock") instead of re-implementing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import rank

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


UP_FROM_ACE = Foundation(1, 1)
DOWN_FROM_KING = Foundation(13, -1)


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
