"""Путешественники, классический — Classic Travellers (seed 004 б;
docs/games/travellers_classic.md).

The eight kings are taken out as bases, building down in suit. The other 96 cards are
dealt in rows onto twelve piles A, 2, …, Q while counting "ace, two, …, queen, king":
a card that matches the count goes to the travellers T, the card at "king" goes face
down to the reserve R and ends the row. Plays happen between rows. After the deck,
the reserve is spread; then the travellers journey. Two redeals, gathered in the
seed's fixed order without shuffling.
"""

from __future__ import annotations

from ..cards import KING
from ..travel import DOWN_FROM_KING, Count, TravelGame, travel_layout

COUNT = Count(tuple(range(1, 14)), reserve_at=12)
DIRECTIONS = (DOWN_FROM_KING,) * 8
# Seed: «б» на «Д», их вместе на «5», все вместе на «В», далее … «4», «10», «7», «Т»,
# «8», «2», «9», «3» — so the packet, turned over, deals from pile 3 first.
GATHER = tuple(r - 1 for r in (3, 9, 2, 8, 1, 7, 10, 4, 11, 5, 12, 6))


class TravellersClassic(TravelGame):
    slug = "travellers_classic"
    title_en = "Classic Travellers"
    title_ru = "Путешественники, классический"
    summary = (
        "Kings as bases; rows dealt while counting A…Q, K; the king slot feeds a "
        "reserve spread at the end; travellers journey; 3 deals, not shuffled."
    )
    count = COUNT
    directions = DIRECTIONS
    set_aside = tuple((KING, s) for s in range(4)) * 2
    in_rows = True
    spread_reserve = "before"
    gather_order = GATHER
    reshuffle = False
    layout = travel_layout(COUNT.ranks[:12], DIRECTIONS, reserve=True, stock=True)


GAME = TravellersClassic()
