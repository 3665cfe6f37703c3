"""Путешественники — Travellers, the main variant (seed 004 а; docs/games/travellers.md).

Two decks. An ace and a king of each suit are taken out as bases (the aces build up,
the kings down, in suit). The other 96 cards are dealt onto thirteen squared piles
while counting "ace, king, queen, …, two"; a card that matches the count becomes a
traveller. Pile tops go to the bases; when stuck, the travellers journey from pile to
pile. Three deals, reshuffled between them.
"""

from __future__ import annotations

from ..cards import ACE, KING
from ..travel import DOWN_FROM_KING, UP_FROM_ACE, Count, TravelGame, travel_layout

# Seed: «Туз, король, дама, валет, десятка и т. д.»
COUNT = Count((ACE, KING, *range(12, 1, -1)))
DIRECTIONS = (UP_FROM_ACE,) * 4 + (DOWN_FROM_KING,) * 4


class Travellers(TravelGame):
    slug = "travellers"
    title_en = "Travellers"
    title_ru = "Путешественники"
    summary = (
        "Thirteen piles dealt while counting A, K, Q…2; matching cards travel "
        "under the piles of their rank. Build up on aces, down on kings; 3 deals."
    )
    count = COUNT
    directions = DIRECTIONS
    set_aside = tuple((ACE, s) for s in range(4)) + tuple((KING, s) for s in range(4))
    layout = travel_layout(COUNT.ranks, DIRECTIONS)


GAME = Travellers()
