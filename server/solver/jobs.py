"""The solver's work as a worker process receives it: plain data in and out.

A job names its game by slug and its position by the state's bytes
(:meth:`Game.dumps`), and answers with the line's wire moves, so it crosses a pipe
cheaply and the worker needs nothing of the server. Every line a job returns has
replayed through the rules from the position it was asked about (a certificate), so
the server plays it without searching again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..patience import registry
from .search import Outcome, certify, solve

#: the par search's nodes for a line a player waits for (a hint, a finish): on the
#: deals measured it found the same short line as 48,000 nodes did (hand_reserve's 430
#: moves cut to 57), in a tenth of the time (crescent's deal: 1 s, not 10 s)
PLAYER_PAR_NODES = 4_000


@dataclass(frozen=True)
class Found:
    """What a search of one position found: a certified winning line (wire moves),
    or None; the nodes it expanded; the solver's verdict."""

    line: tuple[dict[str, Any], ...] | None
    nodes: int
    outcome: Outcome


def find_line(slug: str, state: bytes, nodes: int, seconds: float) -> Found:
    """A winning line from the position ``state`` of ``slug`` within ``nodes`` expanded
    positions (``seconds``: a wall-clock backstop only), shortened with what is left of
    the budget, at most :data:`PLAYER_PAR_NODES` of it (a player follows it: a short
    line reads better; a player waits for it too)."""
    game = registry.get(slug)
    start = game.loads(state)
    result = solve(game, start, max_nodes=nodes, max_seconds=seconds, par_nodes=PLAYER_PAR_NODES)
    line = result.line if result.line and certify(game, start, result.line) else None
    wire = None if line is None else tuple(m.to_wire() for m in line)
    outcome: Outcome = "win" if line else ("none" if result.outcome == "none" else "unknown")
    return Found(wire, result.nodes, outcome)


def trivial_line(slug: str, state: bytes) -> Found:
    """The rest of a trivially won game from ``state`` (:meth:`Game.trivial_line`: its
    safe moves win it, no search), or None: the one finish a ranked game accepts."""
    game = registry.get(slug)
    line = game.trivial_line(game.loads(state))
    wire = None if line is None else tuple(m.to_wire() for m in line)
    return Found(wire, 0, "win" if line is not None else "unknown")


def replay_to(slug: str, seed: int, line: tuple[dict[str, Any], ...]) -> bytes:
    """The position after ``line`` (wire moves) from the deal of ``seed``, as the
    state's bytes: a long replay's work, off the server's event loop."""
    game = registry.get(slug)
    state = game.deal(seed)
    for wire in line:
        state = game.apply(state, game.parse_move(wire))
    return game.dumps(state)
