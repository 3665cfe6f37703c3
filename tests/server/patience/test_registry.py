"""The registry: the sixteen games in the seed documents' order, each found by its
slug and by nothing else."""

import pytest

from server.patience import registry
from server.patience.engine import UnknownGame

#: the seed documents' order, which the catalogue (and every list a player sees) keeps
SEED_ORDER = (
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


def test_catalogue_is_stable_and_complete() -> None:
    assert registry.CATALOGUE == SEED_ORDER
    assert registry.slugs() == list(SEED_ORDER)
    assert [game.slug for game in registry.games()] == list(SEED_ORDER)
    for slug in SEED_ORDER:
        assert registry.get(slug).slug == slug


@pytest.mark.parametrize("slug", ["", "nope", "CRESCENT", "../crescent", "engine"])
def test_unknown_games_raise(slug: str) -> None:
    with pytest.raises(UnknownGame):
        registry.get(slug)


def test_get_returns_one_instance() -> None:
    slug = registry.slugs()[0]
    assert registry.get(slug) is registry.get(slug)
