"""Every patience by slug, in the catalogue's stable order.

A game lives in ``server/patience/games/<slug>.py`` and exposes ``GAME``, an
instance of its :class:`~server.patience.engine.Game` subclass. Modules are
imported on first use, so a slug whose module does not exist yet is simply not
listed.
"""

from __future__ import annotations

import importlib
import importlib.util

from .engine import Game, UnknownGame

#: The catalogue in the order of the seed documents (000 → 004).
CATALOGUE: tuple[str, ...] = (
    "crescent",
    "picture_gallery",
    "first_and_last",
    "short",
    "st_helena",
    "fifteen",
    "hemispheres",
    "hand_reserve",
    "carpet",
    "squaring_circle",
    "parade",
    "travellers",
    "travellers_aces",
    "cotillion",
    "travellers_classic",
    "little_packs",
)

_games: dict[str, Game] = {}


def _module_exists(slug: str) -> bool:
    return importlib.util.find_spec(f"{__package__}.games.{slug}") is not None


def get(slug: str) -> Game:
    """The game called ``slug``; raises :class:`UnknownGame` for any other string."""
    game = _games.get(slug)
    if game is not None:
        return game
    if slug not in CATALOGUE or not _module_exists(slug):
        raise UnknownGame(slug)
    module = importlib.import_module(f"{__package__}.games.{slug}")
    game = module.GAME
    if not isinstance(game, Game) or game.slug != slug:
        raise TypeError(f"games/{slug}.py must define GAME, a Game with slug {slug!r}")
    _games[slug] = game
    return game


def slugs() -> list[str]:
    """Every registered slug, in catalogue order."""
    return [slug for slug in CATALOGUE if slug in _games or _module_exists(slug)]


def games() -> list[Game]:
    return [get(slug) for slug in slugs()]
