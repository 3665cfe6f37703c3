"""Котильон — Cotillion (seed 004 а, note; docs/games/cotillion.md, a reading of one sentence).

All 104 cards are dealt by counting "ace, king, queen, …, two". Every king goes
straight to the base row as it comes (the count stays); the cards dealt at the call
"king" form the kings' pile P2. The eight kings build down in suit. When the travellers
are used up and play stops, the kings' pile is distributed: its cards are spread in R,
each playable. Three deals, reshuffled between them.
"""

from __future__ import annotations

from ..cards import ACE, KING
from ..travel import DOWN_FROM_KING, Count, TravelGame, travel_layout

# Seed: «котильон» со сбором на базовых королей, которых в процессе раскладки
# выкладывают в базовый ряд.
COUNT = Count((ACE, KING, *range(12, 1, -1)), bases=KING)
DIRECTIONS = (DOWN_FROM_KING,) * 8


class Cotillion(TravelGame):
    slug = "cotillion"
    title_en = "Cotillion"
    title_ru = "Котильон"
    summary = (
        "Travellers with kings: kings go to the base row during the deal; the "
        "kings' pile is spread after the last traveller; 3 deals."
    )
    count = COUNT
    directions = DIRECTIONS
    spread_reserve = "after"
    # Seed: «После выхода всех «путешественников» распределяют карты из стопки
    # «королей»»: the pile dealt at the call "king".
    kings_pile = 1
    layout = travel_layout(COUNT.ranks, DIRECTIONS, reserve=True)


GAME = Cotillion()
