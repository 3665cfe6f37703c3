"""``Tuning.weight``: the weight of the A* that looks for a win, per game (default
``FIND_WEIGHT``)."""

from __future__ import annotations

from server.patience import registry
from server.solver import TUNING, Tuning, solve
from server.solver.search import FIND_WEIGHT, _rollout, _search


def test_the_tuned_weight_is_the_a_stars() -> None:
    """With no dive and no beam the search is the rollout, then the A* with the
    game's weight: the same nodes as that A* run by hand."""
    game = registry.get("carpet")
    state = game.deal(3)
    budget = 800  # enough for the rollout and the A* both to run (carpet's nodes are dear)
    rollout = _rollout(game, state, max(1, min(budget // 10, 2_000)))
    for weight in (None, FIND_WEIGHT, 3.0):
        result = solve(
            game, state, max_nodes=budget, shorten=False, tuned=Tuning(dive=0, weight=weight)
        )
        alone = _search(game, state, weight or FIND_WEIGHT, budget - rollout.nodes, 1e18)
        assert result.nodes == rollout.nodes + alone.nodes
        assert result.best_founded == max(rollout.best_founded, alone.best_founded)
    assert TUNING["carpet"].weight == 2.0
    assert Tuning().weight is None
