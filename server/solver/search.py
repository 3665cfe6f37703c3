"""A game-agnostic search for a winning line, over the engine's API alone.

Two passes of best-first search share the budget. First a greedy dive (a quarter of the
budget): the position with the fewest cards missing from the foundations comes first,
the deepest among equals, which finds long lines in games where progress needs many
moves that found nothing (dealing, exchanging). Then weighted A*: a position's priority
is the number of moves made to reach it plus ``weight`` times the cards still missing,
so a high weight plays almost greedily and a low one looks for short lines. Positions are
merged by :meth:`Game.position_key` (piles of one kind renamed, the two decks' twins
alike), so a position is expanded once however it was reached. When a win is found and
budget is left, a second pass with a lower weight looks for a shorter line (par).

Budgets are counted in expanded positions (``max_nodes``), which makes a search
reproducible on any machine; ``max_seconds`` is a wall-clock guard on top. The outcome
is ``"win"`` only for a line that replays through :meth:`Game.apply` from the start to
``won`` (a certificate), ``"none"`` when every reachable position was expanded without
a win, ``"unknown"`` when the budget ran out first.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..patience.engine import Game, IllegalMove, Move, State

Outcome = Literal["win", "none", "unknown"]

#: the weights of the A* pass (find a win) and of the par pass (shorten it); ``DIVE``
#: stands for the greedy dive (cards missing first, then the deepest)
DIVE = -1.0
FIND_WEIGHT = 5.0
PAR_WEIGHT = 2.0
#: the share of the budget the greedy dive may use
DIVE_SHARE = 1 / 4


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    #: the moves of a certified win from the position searched, else None
    line: tuple[Move, ...] | None
    #: positions expanded
    nodes: int
    seconds: float
    #: the most cards on the foundations in any position seen
    best_founded: int

    @property
    def par(self) -> int | None:
        """The length of the winning line, counted as ``moves`` counts moves."""
        return None if self.line is None else len(self.line)


@dataclass
class _Pass:
    outcome: Outcome
    line: tuple[Move, ...] | None
    nodes: int
    best_founded: int


def certify(game: Game, state: State, line: Sequence[Move]) -> bool:
    """Whether ``line`` replays through the rules from ``state`` to ``won``."""
    try:
        for move in line:
            state = game.apply(state, move)
    except IllegalMove:
        return False
    return game.status(state) == "won"


def _search(
    game: Game, start: State, weight: float, max_nodes: int, deadline: float,
    bound: int | None = None,
) -> _Pass:
    """One best-first pass. ``bound``: ignore lines of that many moves or more."""
    total = game.total
    key = game.position_key
    founded = game.score(start)[0]
    if founded == total:
        return _Pass("win", (), 0, founded)
    best = founded
    seen: set[Hashable] = {key(start)}
    parents: list[tuple[int, Move | None]] = [(-1, None)]
    depths: list[int] = [0]
    tie = itertools.count()
    dive = weight == DIVE
    frontier: list[tuple[float, int, int, int, State]] = [
        (total - founded if dive else weight * (total - founded), 0, next(tie), 0, start)
    ]
    nodes = 0
    complete = True
    while frontier:
        if nodes >= max_nodes or (nodes & 255 == 0 and time.monotonic() > deadline):
            complete = False
            break
        _, _, _, node, state = heapq.heappop(frontier)
        depth = depths[node]
        nodes += 1
        if bound is not None and depth + 1 >= bound:
            complete = False  # pruned, not exhausted: "none" would be a lie
            continue
        for move, child in game.successors(state):
            k = key(child)
            if k in seen:
                continue
            seen.add(k)
            parents.append((node, move))
            depths.append(depth + 1)
            child_id = len(parents) - 1
            f = game.score(child)[0]
            if f == total:
                return _Pass("win", _line(parents, child_id), nodes, total)
            best = max(best, f)
            entry: tuple[float, int, int, int, State]
            if dive:  # fewest missing, then the deepest
                entry = (total - f, -depth - 1, next(tie), child_id, child)
            else:
                entry = (depth + 1 + weight * (total - f), 0, next(tie), child_id, child)
            heapq.heappush(frontier, entry)
    return _Pass("none" if complete else "unknown", None, nodes, best)


def _line(parents: list[tuple[int, Move | None]], node: int) -> tuple[Move, ...]:
    moves: list[Move] = []
    while node > 0:
        node, move = parents[node]
        assert move is not None
        moves.append(move)
    return tuple(reversed(moves))


def solve(
    game: Game,
    state: State,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    shorten: bool = True,
) -> Result:
    """Search ``state`` for a win within the budget (see the module docstring)."""
    began = time.monotonic()
    deadline = began + (max_seconds if max_seconds is not None else 1e9)
    budget = max_nodes if max_nodes is not None else 1 << 62
    dive_deadline = began + (max_seconds * DIVE_SHARE if max_seconds is not None else 1e9)
    found = _search(game, state, DIVE, max(1, int(budget * DIVE_SHARE)), dive_deadline)
    nodes, best = found.nodes, found.best_founded
    if found.outcome == "unknown":
        found = _search(game, state, FIND_WEIGHT, max(1, budget - nodes), deadline)
        nodes += found.nodes
        best = max(best, found.best_founded)
    line = found.line
    if line is not None and shorten and nodes < budget:
        shorter = _search(game, state, PAR_WEIGHT, budget - nodes, deadline, bound=len(line))
        nodes += shorter.nodes
        if shorter.line is not None and len(shorter.line) < len(line):
            line = shorter.line
    outcome: Outcome = found.outcome
    if line is not None and not certify(game, state, line):  # pragma: no cover - a bug
        raise AssertionError(f"{game.slug}: a found line does not replay to a win")
    return Result(outcome, line, nodes, time.monotonic() - began, best)


def hint(game: Game, state: State, *, max_seconds: float = 2.0,
         max_nodes: int | None = None) -> Move | None:
    """The first move of a winning line found from ``state`` within the budget, or
    None ("no win found from here")."""
    result = solve(game, state, max_seconds=max_seconds, max_nodes=max_nodes, shorten=False)
    return result.line[0] if result.line else None
