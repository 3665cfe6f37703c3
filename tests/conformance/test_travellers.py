"""Conformance of the travellers' family: the table piles' labels (Decision 10) and
every journey (Part B §5.2) against :mod:`tests.conformance.games.travellers`, written
again from the rules."""

from __future__ import annotations

import random

import pytest

from server.patience import registry

from .games.travellers import DOWN_COUNT, FAMILY, UP_COUNT, fits_somewhere, journey_by_rules
from .reference import RANK_CODE


@pytest.mark.parametrize("slug", sorted(FAMILY))
def test_travel_pile_labels(slug: str) -> None:
    """Decision 10: "table piles P1..P13 … each with its rank in label"; foundations
    "each with its direction in base/label"."""
    game = registry.get(slug)
    view = {p["id"]: p for p in game.view(game.deal(0))["piles"]}
    calls = DOWN_COUNT if slug in {"travellers", "travellers_aces", "cotillion"} else UP_COUNT
    n = 12 if slug == "travellers_classic" else 13
    for i in range(n):
        r = calls[i]
        names = {RANK_CODE[r - 1], {10: "10", 11: "J", 12: "Q", 13: "K", 1: "A"}.get(r, str(r))}
        assert view[f"P{i + 1}"]["label"] in names, (slug, i)
    for k in range(1, 9):
        assert view[f"F{k}"]["label"] or view[f"F{k}"].get("base")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("slug", sorted(FAMILY))
def test_journeys_follow_the_rules(slug: str, seed: int) -> None:
    game = registry.get(slug)
    rnd = random.Random(f"travel:{slug}:{seed}")
    state = game.deal(seed)
    journeys = 0
    while legal := game.legal_moves(state):
        move = rnd.choice(legal)
        if move.action == "travel":
            before = {pid: list(game.pile(state, pid)) for pid in game.ids}
            # §5.2 precondition: "no foundation move exists"
            tops = [before[f"P{i}"][-1:] for i in range(1, 14) if f"P{i}" in before]
            f = [before[f"F{k}"] for k in range(1, 9)]
            assert not any(fits_somewhere(slug, f, c) for top in tops for c in top)
            state = game.apply(state, move)
            want = journey_by_rules(slug, before)
            for pid in game.ids:
                assert list(game.pile(state, pid)) == want[pid], (slug, seed, journeys, pid)
            turned = game.view(state)["info"]["drawn"]
            assert turned == fits_somewhere(slug, f, before["T"][-1])
            journeys += 1
        else:
            state = game.apply(state, move)
    assert journeys
