import pytest

from server.patience import registry
from server.patience.engine import UnknownGame


def test_catalogue_is_stable_and_complete() -> None:
    assert len(registry.CATALOGUE) == 16
    assert registry.slugs() == [s for s in registry.CATALOGUE if s in registry.slugs()]


@pytest.mark.parametrize("slug", ["", "nope", "CRESCENT", "../crescent", "engine"])
def test_unknown_games_raise(slug: str) -> None:
    with pytest.raises(UnknownGame):
        registry.get(slug)


def test_get_returns_one_instance() -> None:
    slug = registry.slugs()[0]
    assert registry.get(slug) is registry.get(slug)
