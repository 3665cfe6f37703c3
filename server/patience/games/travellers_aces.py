"""Путешественники, первоначальный вариант — Travellers, eight aces (seed 004 а, note;
RULES.md Part B §7).

As Travellers, but nothing is taken out: all 104 cards are dealt by counting, and the
eight aces are laid as bases when they come free. The first ace of a suit opens the
leftmost free pair of foundations, building up (A→K, left) or down (A, K, Q…2, right)
as the player chooses; the second ace takes the other one.
"""

from __future__ import annotations

from ..cards import ACE, KING
from ..travel import DOWN_FROM_ACE, UP_FROM_ACE, Count, TravelGame, travel_layout

COUNT = Count((ACE, KING, *range(12, 1, -1)))
# Seed: «на четырех из них … в восходящем, на четырех – в масть в нисходящем порядке».
DIRECTIONS = (UP_FROM_ACE, DOWN_FROM_ACE) * 4


class TravellersAces(TravelGame):
    slug = "travellers_aces"
    title_en = "Travellers, eight aces"
    title_ru = "Путешественники, первоначальный вариант"
    summary = ("The original Travellers: all 104 cards dealt by counting; the eight aces "
               "are laid as they come, one up and one down per suit; 3 deals.")
    count = COUNT
    directions = DIRECTIONS
    paired = True
    layout = travel_layout(COUNT.ranks, DIRECTIONS)


GAME = TravellersAces()
