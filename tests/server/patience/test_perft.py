"""Perft: every game's move sequences and distinct positions, some moves deep from a
few deals and positions of a fixed playout, as ``tests/server/patience/perft.json``
keeps them (python-chess keeps perft results for every variant the same way). A
change to what a game's moves are, or to what they do, changes a figure here; a
deliberate one is written again with ``python -m tools.perft --write`` (the
definitions are in tools/perft.py)."""

from __future__ import annotations

import pytest

from server.patience import registry
from tools.perft import DATA, STARTS, check, load, name

KEPT = load()


def test_the_file_holds_every_game_of_the_registry_and_nothing_else() -> None:
    missing = [slug for slug in registry.slugs() if slug not in KEPT]
    assert not missing, f"no perft figures for {missing}: python -m tools.perft --write"
    assert list(KEPT) == registry.slugs(), f"{DATA.name} lists games the registry has not"
    for slug, figures in KEPT.items():
        assert list(figures) == [name(seed, plies) for seed, plies in STARTS], slug
        for rows in figures.values():
            assert [d.depth for d in rows] == list(range(1, len(rows) + 1)), slug


@pytest.mark.parametrize("slug", registry.slugs())
def test_the_engine_reproduces_the_perft_figures(slug: str) -> None:
    assert slug in KEPT, f"no perft figures for {slug}: python -m tools.perft --write"
    now = check(registry.get(slug), KEPT[slug])
    for start, rows in KEPT[slug].items():
        for kept, got in zip(rows, now[start], strict=True):
            assert got == kept, (
                f"{slug} from {start}, depth {kept.depth}: {got.sequences} sequences to "
                f"{got.positions} positions, the file says {kept.sequences} to "
                f"{kept.positions} (python -m tools.perft --games {slug})"
            )
