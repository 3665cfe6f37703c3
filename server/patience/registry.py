"""Every patience by slug, in the catalogue's order (the seed documents, 000 → 004).

An explicit tuple of the sixteen games: a reader (and mypy) sees every one, and nothing
is imported by name at run time. A game lives in ``server/patience/games/<slug>.py`` and
exposes ``GAME``, an instance of its :class:`~server.patience.engine.Game` subclass.
"""

from __future__ import annotations

from .engine import AnyGame, UnknownGame
from .games import (
    carpet,
    cotillion,
    crescent,
    fifteen,
    first_and_last,
    hand_reserve,
    hemispheres,
    little_packs,
    parade,
    picture_gallery,
    short,
    squaring_circle,
    st_helena,
    travellers,
    travellers_aces,
    travellers_classic,
)

GAMES: tuple[AnyGame, ...] = (
    crescent.GAME,
    picture_gallery.GAME,
    first_and_last.GAME,
    short.GAME,
    st_helena.GAME,
    fifteen.GAME,
    hemispheres.GAME,
    hand_reserve.GAME,
    carpet.GAME,
    squaring_circle.GAME,
    parade.GAME,
    travellers.GAME,
    travellers_aces.GAME,
    cotillion.GAME,
    travellers_classic.GAME,
    little_packs.GAME,
)

#: The catalogue's slugs, in order.
CATALOGUE: tuple[str, ...] = tuple(game.slug for game in GAMES)

_BY_SLUG: dict[str, AnyGame] = {game.slug: game for game in GAMES}


def get(slug: str) -> AnyGame:
    """The game called ``slug``; raises :class:`UnknownGame` for any other string."""
    game = _BY_SLUG.get(slug) if isinstance(slug, str) else None
    if game is None:
        raise UnknownGame(slug)
    return game


def slugs() -> list[str]:
    """Every slug, in catalogue order."""
    return list(CATALOGUE)


def games() -> list[AnyGame]:
    return list(GAMES)
