"""``Game.shown_cards``: the ``cards`` of a pile's view, alone (what a move's delta
compares in a game whose piles' views depend on their cards alone)."""

from __future__ import annotations

import random

import pytest

from server.patience import registry
from server.patience.engine import Game

PLAIN = [s for s in registry.slugs() if type(registry.get(s)).pile_view is Game.pile_view]


def test_some_games_have_plain_pile_views() -> None:
    assert "crescent" in PLAIN and "hemispheres" not in PLAIN


@pytest.mark.parametrize("slug", PLAIN)
def test_shown_cards_are_the_views_cards(slug: str) -> None:
    game = registry.get(slug)
    rnd = random.Random(slug)
    state = game.deal(7)
    for _ in range(40):
        for i in range(len(game.layout)):
            assert game.shown_cards(state, i) == game.view_pile(state, i)["cards"]
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, rnd.choice(legal))
