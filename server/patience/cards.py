"""Cards as small ints, and their two-character wire codes.

A card is an int ``c`` in ``[0, 52 * decks)``: ``deck = c // 52``,
``suit = (c % 52) // 13`` in the order spades, hearts, diamonds, clubs, and
``rank = c % 13 + 1`` (ace 1 … king 13). On the wire a card is two characters,
rank from ``A23456789TJQK`` and suit from ``SHDC`` (``"TD"``, ``"QS"``); the deck
number is not shown.
"""

from __future__ import annotations

from collections.abc import Iterable

# The wire's card alphabet, written once (in protocol) and re-exported here.
from protocol.cards import RANKS as RANKS
from protocol.cards import SUIT_SYMBOLS as SUIT_SYMBOLS
from protocol.cards import SUITS as SUITS

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

Card = int


def rank(c: Card) -> int:
    """Rank 1 (ace) … 13 (king)."""
    return c % 13 + 1


def suit(c: Card) -> int:
    """Suit index 0..3 in the order spades, hearts, diamonds, clubs."""
    return (c % 52) // 13


#: ``(suit, rank)`` of every card of two decks, by id: a lookup for the hot loops of
#: move generation and search, where calling :func:`suit` and :func:`rank` costs more
SUIT_RANK = tuple((suit(c), rank(c)) for c in range(104))


def deck(c: Card) -> int:
    return c // 52


def is_red(c: Card) -> bool:
    return suit(c) in (HEARTS, DIAMONDS)


def card(rank_: int, suit_: int, deck_: int = 0) -> Card:
    """The card id of ``rank_`` (1..13) of ``suit_`` (0..3) in deck ``deck_``."""
    return deck_ * 52 + suit_ * 13 + rank_ - 1


def code(c: Card) -> str:
    """Wire code, e.g. ``"TD"`` for the ten of diamonds."""
    return RANKS[c % 13] + SUITS[(c % 52) // 13]


def pretty(c: Card) -> str:
    """Terminal form, e.g. ``"10♦"``."""
    r = RANKS[c % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[suit(c)]


def parse(text: str, deck_: int = 0) -> Card:
    """The card of a wire code (``"QS"``) in deck ``deck_``; raises ValueError."""
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card code: {text!r}")
    return card(RANKS.index(text[0]) + 1, SUITS.index(text[1]), deck_)


def pack(decks: int) -> list[Card]:
    """The unshuffled pack: every card in increasing id."""
    return list(range(52 * decks))


def take_out(cards: list[Card], wanted: Iterable[tuple[int, int]]) -> list[Card]:
    """Remove, for each ``(rank, suit)`` in order, the lowest matching id; return them.

    This is the deal's set-aside rule (docs/architecture.md, Deals): cards set aside
    before the shuffle are the lowest matching ids, in the order the rules list them.
    """
    taken = []
    for r, s in wanted:
        for i, c in enumerate(cards):
            if rank(c) == r and suit(c) == s:
                taken.append(cards.pop(i))
                break
        else:
            raise ValueError(f"no {RANKS[r - 1]}{SUITS[s]} left to set aside")
    return taken
