"""Котильон — Cotillion (seed 004 а, note; RULES.md Part B §8, a reading of one sentence).

All 104 cards are dealt by counting "ace, king, queen, …, two". Every king goes
straight to the base row as it comes (the count stays); the card dealt at the count
"king" goes face down to the kings' reserve R instead of pile P2. The eight kings build
down in suit. When the travellers are used up and play stops, the reserve is spread
and each of its cards is playable. Three deals, reshuffled between them.
"""

from __future__ import annotations

from ..cards import ACE, KING
from ..travel import DOWN_FROM_KING, Count, TravelGame, travel_layout

# Seed: «котильон» со сбором на базовых королей, которых в процессе раскладки
# выкладывают в базовый ряд.
COUNT = Count((ACE, KING, *range(12, 1, -1)), reserve_at=1, bases=KING)
DIRECTIONS = (DOWN_FROM_KING,) * 8


class Cotillion(TravelGame):
    slug = "cotillion"
    title_en = "Cotillion"
    title_ru = "Котильон"
    summary = ("Travellers with kings: kings go to the base row during the deal, the "
               "king slot feeds a reserve that is spread at the end; 3 deals.")
    count = COUNT
    directions = DIRECTIONS
    spread_reserve = "after"
    layout = travel_layout(COUNT.ranks, DIRECTIONS, reserve=True)


GAME = Cotillion()
