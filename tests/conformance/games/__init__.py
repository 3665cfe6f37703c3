"""Every game's opening and redeal, written again from RULES.md: one module a game
(the travellers' family shares one), each with its :class:`Reference`."""

from __future__ import annotations

from ..reference import Reference
from . import (
    carpet,
    crescent,
    fifteen,
    first_and_last,
    hand_reserve,
    hemispheres,
    parade,
    picture_gallery,
    short,
    squaring_circle,
    st_helena,
    travellers,
)

#: slug → its reference, in the catalogue's order (test_deals.py fails for a registered
#: game that has none here)
GAMES: dict[str, Reference] = {
    r.slug: r
    for r in (
        crescent.REFERENCE,
        picture_gallery.REFERENCE,
        first_and_last.REFERENCE,
        short.REFERENCE,
        st_helena.REFERENCE,
        fifteen.REFERENCE,
        hemispheres.REFERENCE,
        hand_reserve.REFERENCE,
        carpet.REFERENCE,
        squaring_circle.REFERENCE,
        parade.REFERENCE,
        *travellers.REFERENCES,
    )
}
