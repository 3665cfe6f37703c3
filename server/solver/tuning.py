"""How the solver spends its budget on each game: settings measured, not rules.

A game's module says what its rules are (and what a position is worth, in
:meth:`Game.heuristic`, and which moves cannot hurt, in :meth:`Game.safe_moves`, which
a game with much to say answers from ``<slug>_aids.py`` beside it); how hard the
search leans on each phase for that game lives here, one row a game, with the
measurements behind each figure in docs/solver.md ("Per-game tuning").
A game not listed searches with the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import overload

from ..patience.engine import AnyGame
from ..patience.games.crescent_aids import DEAD as CRESCENT_DEAD
from ..patience.games.parade_aids import DEAD as PARADE_DEAD


@dataclass(frozen=True)
class Tuning:
    #: the share of a solver's budget its greedy dive may use before the weighted A*
    #: (search.py); 0 where the game's wins come only from the A*
    dive: float = 1 / 4
    #: the width of a beam search run before the dive (0: none): layers of positions
    #: one step (a ``forced_actions`` move, e.g. a deal) apart, the ``beam`` best by
    #: :meth:`Game.heuristic` kept at each (search.py)
    beam: int = 0
    #: further beams, of these widths, each run in turn with the budget left when the
    #: one before found nothing (only with ``beam``): another width keeps other lines
    rebeam: tuple[int, ...] = ()
    #: the most positions a beam searches from one kept position before its step
    #: (search.py's ``BEAM_CLOSURE``, 100, where None): a game with many steps (St
    #: Helena's 64 deals) needs a cheaper layer to reach the end within the budget
    beam_closure: int | None = None
    #: a beam searches the positions before its step best first by the heuristic
    #: (else breadth first, the first ``beam_closure`` reached)
    beam_best_first: bool = False
    #: the most nodes a daily's scan spends on one candidate deal (None: the server's
    #: budget; a smaller budget given wins): where wins come quickly or not at all,
    #: many cheap candidates find a certified deal sooner than a few long searches
    candidate_nodes: int | None = None
    #: the weight of the heuristic in the weighted A* that finds a win (search.py's
    #: ``FIND_WEIGHT``, 5, where None): higher is greedier
    weight: float | None = None
    #: an estimate (:meth:`Game.heuristic`) at or above which a position cannot be won:
    #: the search drops such a child instead of queueing it (None: queue everything).
    #: Only for a game whose estimate says so exactly (search.py)
    dead: float | None = None


DEFAULT = Tuning()

#: slug → its tuning (docs/solver.md, "Per-game tuning", says why and what was measured)
TUNING: Mapping[str, Tuning] = {
    "crescent": Tuning(dive=0.0, candidate_nodes=3_000, dead=CRESCENT_DEAD),
    "short": Tuning(candidate_nodes=3_000),
    "carpet": Tuning(candidate_nodes=1_000, weight=2.0),
    "parade": Tuning(candidate_nodes=1_000, dead=PARADE_DEAD),
    "hemispheres": Tuning(beam=50, rebeam=(20,), candidate_nodes=30_000),
    "st_helena": Tuning(beam=20, beam_closure=200, beam_best_first=True),
}


def tuning(game: AnyGame) -> Tuning:
    """The tuning of ``game`` (by its slug), or :data:`DEFAULT`."""
    return TUNING.get(game.slug, DEFAULT)


@overload
def candidate_nodes(game: AnyGame, budget: int) -> int: ...
@overload
def candidate_nodes(game: AnyGame, budget: None) -> int | None: ...
def candidate_nodes(game: AnyGame, budget: int | None) -> int | None:
    """The nodes a daily scan spends on one candidate of ``game``: the game's own
    figure when smaller than ``budget`` (None: no budget given)."""
    own = tuning(game).candidate_nodes
    if own is None:
        return budget
    return own if budget is None else min(budget, own)
