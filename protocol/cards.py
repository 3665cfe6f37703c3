"""Wire card codes for clients: ``"TD"`` → rank 10, suit ``"D"``, text ``"10♦"``.

A card on the wire is two characters, rank from ``A23456789TJQK`` and suit from
``SHDC``; a face-down card is ``None``.
"""

from __future__ import annotations

from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")


class WireCard(NamedTuple):
    """A face-up card as a client sees it: rank 1 (ace) … 13 (king), suit 0..3 in
    the order spades, hearts, diamonds, clubs."""

    rank: int
    suit: int

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    @property
    def red(self) -> bool:
        return self.suit in (1, 2)

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return pretty(self.code)

    def __repr__(self) -> str:
        return f"parse({self.code!r})"


def is_code(text: object) -> bool:
    return isinstance(text, str) and len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def parse(code: str) -> WireCard:
    """The card of a wire code; raises ValueError for anything else."""
    if not is_code(code):
        raise ValueError(f"not a card code: {code!r}")
    return WireCard(RANKS.index(code[0]) + 1, SUITS.index(code[1]))


def pretty(code: str | None, *, hidden: str = "??") -> str:
    """Terminal text of a wire card: ``"TD"`` → ``"10♦"``, ``None`` → ``hidden``."""
    if code is None:
        return hidden
    card = parse(code)
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS[card.suit]
