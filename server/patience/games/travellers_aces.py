"""Путешественники, первоначальный вариант — Travellers, eight aces (seed 004 а, note;
docs/games/travellers_aces.md).

As Travellers, but nothing is taken out: all 104 cards are dealt by counting, and the
eight aces are laid as bases when they come free. Four foundations build up (A→K,
F1–F4) and four down round the corner (A, K, Q … 2, F5–F8); the player chooses the
direction of each ace as it is laid, into the leftmost free foundation of that
direction. No pairing by suit: two aces of one suit may both build up.
"""

from __future__ import annotations

from ..cards import ACE, KING
from ..travel import DOWN_FROM_ACE, UP_FROM_ACE, Count, TravelGame, travel_layout

COUNT = Count((ACE, KING, *range(12, 1, -1)))
# Seed: «На четырех из них карты собирают в масть в восходящем, на четырех - в масть в
# нисходящем порядке». Which four is the player's choice as each ace is laid.
DIRECTIONS = (UP_FROM_ACE,) * 4 + (DOWN_FROM_ACE,) * 4


class TravellersAces(TravelGame):
    slug = "travellers_aces"
    title_en = "Travellers, eight aces"
    title_ru = "Путешественники, первоначальный вариант"
    summary = (
        "The original Travellers: all 104 cards dealt by counting; the eight aces "
        "are laid as they come, four building up and four down; 3 deals."
    )
    count = COUNT
    directions = DIRECTIONS
    layout = travel_layout(COUNT.ranks, DIRECTIONS)


GAME = TravellersAces()
