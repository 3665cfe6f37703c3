"""``Game.advance``, the server's one engine call per move: the same position, status,
score and legal moves as ``parse_move``, ``apply``, ``score``, ``status`` and
``legal_moves`` called in turn, and the same errors."""

from __future__ import annotations

import random

import pytest

from server.patience import registry
from server.patience.engine import IllegalMove, InvalidMove, Move


@pytest.mark.parametrize("slug", registry.slugs())
def test_advance_is_the_calls_it_replaces(slug: str) -> None:
    game = registry.get(slug)
    rnd = random.Random(slug)
    endings: set[str] = set()
    for seed in range(6):
        state = game.deal(seed)
        while game.status(state) == "playing":
            wire = rnd.choice(game.legal_moves(state)).to_wire()
            step = game.advance(state, wire)
            move = game.parse_move(wire)
            after = game.apply(state, move)
            assert step.move == move
            assert step.state == after
            assert step.status == game.status(after)
            assert step.foundation == game.score(after)[0]
            assert list(step.legal) == game.legal_moves(after)
            state = step.state
        endings.add(game.status(state))
    if slug in ("hand_reserve", "travellers_classic"):  # random play wins these often
        assert "won" in endings


def test_advance_refuses_as_parse_move_and_apply_do() -> None:
    game = registry.get("crescent")
    state = game.deal(1)
    with pytest.raises(InvalidMove):
        game.advance(state, {"from": "T1"})
    legal = set(game.legal_moves(state))
    illegal = next(
        m for m in (Move.card(a, b) for a in game.ids for b in game.ids) if m not in legal
    )
    with pytest.raises(IllegalMove) as err:
        game.advance(state, illegal.to_wire())
    assert err.value.reason == game._reason(state, illegal)
