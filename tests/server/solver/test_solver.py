"""The solver (server/solver): wins are certified, a searched-out space is "none", a
budget that runs out is "unknown"; the winnability bench runs.

Every game's hand-built near-won position is solved in its own test module
(tests/server/patience/games/test_<slug>.py); here the two games without one, and the verdicts."""

from __future__ import annotations

import json

import pytest

from bench import winnability
from server.patience import registry
from server.patience.engine import Move
from server.solver import certify, hint, solve


#: Short's deal 2 is won within 29,000 nodes (deal 0, this test's until issue 45: 42,000)
@pytest.mark.parametrize(("slug", "seed"), [("short", 2), ("travellers_classic", 0)])
def test_a_position_near_the_end_of_a_winning_line_is_won(slug: str, seed: int) -> None:
    game = registry.get(slug)
    start = game.deal(seed)
    found = solve(game, start, max_nodes=100_000, shorten=False)
    assert found.outcome == "win" and found.line is not None
    state = start
    for move in found.line[:-8]:
        state = game.apply(state, move)
    near = solve(game, state, max_nodes=5_000)
    assert near.outcome == "win" and near.line is not None and len(near.line) <= 8
    assert certify(game, state, near.line)
    assert near.best_founded == game.total


def test_a_searched_out_deal_is_none() -> None:
    """The Travellers' deal 0 is searched out in 600 positions (Travellers with eight
    aces, the deal this test took until issue 45, now takes 37,000: 2 CPU s)."""
    game = registry.get("travellers")
    result = solve(game, game.deal(0), max_nodes=50_000)
    assert result.outcome == "none" and result.line is None
    assert 0 < result.best_founded < game.total and result.nodes < 50_000


def test_a_budget_that_runs_out_is_unknown() -> None:
    game = registry.get("crescent")
    result = solve(game, game.deal(0), max_nodes=200)
    assert result.outcome == "unknown" and result.line is None and result.nodes == 200


def test_a_line_that_does_not_win_is_no_certificate() -> None:
    game = registry.get("travellers_classic")
    start = game.deal(0)
    line = solve(game, start, max_nodes=20_000).line
    assert line is not None and certify(game, start, line)
    assert not certify(game, start, line[:-1])
    assert not certify(game, start, [Move.card("P1", "P2"), *line])


def test_the_par_pass_never_lengthens_a_line() -> None:
    """Fifteen's deal 1: a first line of 510 moves the par pass takes to 130 (deal 0,
    170 to 152, took 4 CPU s; issue 45)."""
    game = registry.get("fifteen")
    quick = solve(game, game.deal(1), max_nodes=30_000, shorten=False)
    par = solve(game, game.deal(1), max_nodes=30_000)
    assert quick.line is not None and par.line is not None
    assert len(par.line) <= len(quick.line)


def test_hint_is_the_first_move_of_a_win() -> None:
    game = registry.get("travellers_classic")
    move = hint(game, game.deal(0), max_seconds=2)
    assert move is not None and move in game.legal_moves(game.deal(0))
    lost = registry.get("travellers")  # deal 0: no win, proven in 600 nodes
    assert hint(lost, lost.deal(0)) is None


def test_the_winnability_bench_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        winnability.main(
            ["--games", "travellers_classic", "--deals", "2", "--seconds", "1", "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    row = out["games"][0]
    assert row["game"] == "travellers_classic" and row["deals"] == 2
    assert row["certified"] + row["unwinnable"] + row["unknown"] == 2


def test_the_dailies_bench_runs_the_servers_scan(capsys: pytest.CaptureFixture[str]) -> None:
    """bench.dailies measures the one scan the server runs (server.solver.daily)."""
    from bench import dailies

    assert dailies.main(["--games", "travellers_classic", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["certified"] == out["summary"]["of"] == 1
    (row,) = out["rows"]
    assert row["game"] == "travellers_classic"
