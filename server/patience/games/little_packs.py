"""Маленькие пачки — Little Packs (seed 004 в; docs/games/little_packs.md).

All 104 cards are dealt onto thirteen piles while counting "ace, two, …, king"; a card
that matches the count is exiled. Piles 1–12 are squared; pile 13 lies spread, every
card playable. The eight kings are laid as bases when they come free: per suit one
builds down (K→A, left of the pair) and one up round the corner (K, A, 2…Q, right).
When stuck, the exiles journey. One redeal, gathered pile 1 to 13 without shuffling.
"""

from __future__ import annotations

from ..travel import DOWN_FROM_KING, UP_FROM_KING, Count, TravelGame, travel_layout

COUNT = Count(tuple(range(1, 14)))
# Seed: «На четырех из них разной масти собирают … в нисходящем, на четырех – в восходящем».
DIRECTIONS = (DOWN_FROM_KING, UP_FROM_KING) * 4


class LittlePacks(TravelGame):
    slug = "little_packs"
    title_en = "Little Packs"
    title_ru = "Маленькие пачки"
    summary = (
        "Thirteen piles dealt while counting A…K, the last one spread; exiles "
        "journey; eight kings build down or up round the corner; 2 deals."
    )
    count = COUNT
    directions = DIRECTIONS
    paired = True
    spread_piles = frozenset({12})
    deals = 2
    reshuffle = False
    word = "exile"
    layout = travel_layout(COUNT.ranks, DIRECTIONS, spread={12}, travellers="exiles")


GAME = LittlePacks()
