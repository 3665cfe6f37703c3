"""Scanning candidate deals for a daily: the first one the solver certifies.

Candidate ``k`` (0, 1, 2, …) has the seed ``seeds(k)``; for the server's dailies that is
the daily service's own derivation (:func:`daily_seeds`). Each candidate is searched
within ``per_candidate_seconds`` (and ``candidate_nodes``, if given) until one is
certified or ``budget_seconds`` are spent. If none is, the daily is the candidate whose
search founded most cards, with ``certified=False`` — the caller must say so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..patience.engine import AnyGame, Move
from .search import Result, certify, solve

Seeds = Callable[[int], int]
Progress = Callable[[int, int, Result], None]


@dataclass(frozen=True)
class Daily:
    """The chosen candidate: its ``k`` and seed, whether a winning line is certified,
    the par line (shortest found) and the most cards founded in any line seen."""

    k: int
    seed: int
    certified: bool
    par: int | None
    line: tuple[Move, ...] | None
    best_founded: int
    #: candidates searched
    tried: int
    seconds: float


def daily_seeds(secret: bytes, date: str, slug: str) -> Seeds:
    """The daily service's candidate seeds of ``slug`` on ``date``."""
    from ..services.daily import candidate_seed  # the one derivation, kept there

    return lambda k: candidate_seed(secret, date, slug, k)


def certify_daily(
    game: AnyGame,
    seeds: Seeds,
    *,
    budget_seconds: float,
    per_candidate_seconds: float,
    candidate_nodes: int | None = None,
    max_candidates: int = 10_000,
    progress: Progress | None = None,
    search: Callable[..., Result] = solve,
) -> Daily:
    """Scan candidates k = 0, 1, … (see the module docstring). ``search`` is the
    solver (a test may pass a fake); ``progress(k, seed, result)`` after each one."""
    began = time.monotonic()
    best: Daily | None = None
    k = 0
    while k < max_candidates:
        left = budget_seconds - (time.monotonic() - began)
        if k > 0 and left <= 0:
            break
        seed = seeds(k)
        start = game.deal(seed)
        result = search(
            game,
            start,
            max_seconds=max(0.01, min(per_candidate_seconds, left)),
            max_nodes=candidate_nodes,
        )
        k += 1
        if progress is not None:
            progress(k - 1, seed, result)
        if result.line is not None and certify(game, start, result.line):
            return Daily(
                k - 1,
                seed,
                True,
                len(result.line),
                result.line,
                game.total,
                k,
                time.monotonic() - began,
            )
        if best is None or result.best_founded > best.best_founded:
            best = Daily(k - 1, seed, False, None, None, result.best_founded, k, 0.0)
    assert best is not None
    return Daily(
        best.k, best.seed, False, None, None, best.best_founded, k, time.monotonic() - began
    )
