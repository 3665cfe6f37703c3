"""The registry: the one list of games, in the seed documents' order, each found by
its slug and by nothing else. Everything else that lists the games (the property and
conformance tests, the perft data, README's table) derives from it or is checked
against it."""

import re
import sys

import pytest

from server.patience import registry
from server.patience.engine import AnyGame, UnknownGame

#: what a game module's docstring says of its source: "seed 004 а", "seed 003, game
#: A", "Seed 002 prints only the heading" (the seed documents 000 → 004, and a game's
#: part of its seed where the seed names parts: game A of 003, а, б, в of 004)
SOURCE = re.compile(r"\b[Ss]eed (\d{3})(?:,? game ([A-Z])| ([абв])\b)?")


def source(game: AnyGame) -> tuple[int, int]:
    """The seed document ``game`` comes from and its part there (1 for A or а, 2 for
    б, …; 0 where its docstring names none), as its module's docstring states them."""
    doc = sys.modules[type(game).__module__].__doc__ or ""
    m = SOURCE.search(doc)
    assert m is not None, f"{type(game).__module__}'s docstring names no seed"
    part = m.group(2) or m.group(3)
    return int(m.group(1)), 0 if part is None else "AаBбCв".index(part) // 2 + 1


def test_catalogue_is_stable_and_complete() -> None:
    order = tuple(game.slug for game in registry.GAMES)
    assert len(set(order)) == len(order)
    assert order == registry.CATALOGUE
    assert registry.slugs() == list(order)
    assert [game.slug for game in registry.games()] == list(order)
    for slug in order:
        assert registry.get(slug).slug == slug


def test_the_catalogue_keeps_the_seeds_order() -> None:
    """The registry is the one statement of the catalogue's order (and of every list a
    player sees): the seed documents' order. As each game's module states its source,
    no game comes after one of a later seed, nor after a later part of its own seed."""
    sources = [(source(game), game.slug) for game in registry.games()]
    seeds = [seed for (seed, _), _ in sources]
    assert seeds == sorted(seeds) and set(seeds) == {0, 1, 2, 3, 4}, sources
    for seed in set(seeds):
        parts = [part for (s, part), _ in sources if s == seed and part]
        assert parts == sorted(parts), (seed, sources)


@pytest.mark.parametrize("slug", ["", "nope", "CRESCENT", "../crescent", "engine"])
def test_unknown_games_raise(slug: str) -> None:
    with pytest.raises(UnknownGame):
        registry.get(slug)


def test_get_returns_one_instance() -> None:
    slug = registry.slugs()[0]
    assert registry.get(slug) is registry.get(slug)
