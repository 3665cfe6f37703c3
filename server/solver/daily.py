"""Choosing a daily: candidate deals ``k = 0, 1, 2, …`` of a game and date, the first
the solver **certifies** (it found a winning line, and the line replays through the
rules to ``won``); if none is within the budget, the candidate whose best line founded
most cards, marked not certified — never silently.

The seed of candidate ``k`` is ``uint64(HMAC-SHA256(secret, f"{date}:{slug}:{k}")[:8])``
(big-endian); the commitment shown before the day is over is
``sha256(seed as 8 big-endian bytes + f"{date}:{slug}")``. The budget is counted in
solver nodes, so every machine makes the same choice. :class:`Scan` is the one scan:
:func:`choose` runs it in this process (the benchmarks, a test), the daily service
runs the same bookkeeping with each candidate searched in a worker process
(``server/services/daily.py``). Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol import pack, unpack

from ..patience import registry
from .search import Result, certify, solve
from .tuning import candidate_nodes


@dataclass(frozen=True)
class Budget:
    """Solver nodes per candidate (the game's own cap when smaller) and per daily in
    all (reproducible budgets: the same choice on any machine). The default is the one
    budget of every daily, whether chosen a day ahead or while players wait."""

    candidate_nodes: int = 30_000
    total_nodes: int = 2_500_000


DEFAULT_BUDGET = Budget()
#: candidates looked at most, whatever the budget (a bound on a day's work)
MAX_CANDIDATES = 10_000


@dataclass(frozen=True)
class Choice:
    """A daily as chosen: the candidate, whether it is certified, its par line."""

    seed: int
    k: int
    certified: bool
    par: int | None
    best_founded: int
    #: the par line as wire moves (empty when not certified)
    line: tuple[dict[str, Any], ...] = ()
    #: candidates looked at
    tried: int = 1
    #: solver nodes spent on the scan in all
    nodes: int = 0
    #: solver nodes the chosen candidate's search spent (0: not known, a choice
    #: stored before it was noted)
    win_nodes: int = 0

    def fields(self, date: str, slug: str) -> dict[str, int | str | bytes]:
        return {
            f"seed:{slug}": self.seed,
            f"k:{slug}": self.k,
            f"commitment:{slug}": commitment(self.seed, date, slug),
            f"certified:{slug}": int(self.certified),
            f"par:{slug}": -1 if self.par is None else self.par,
            f"best_founded:{slug}": self.best_founded,
            f"line:{slug}": pack(list(self.line)),
            f"tried:{slug}": self.tried,
            f"nodes:{slug}": self.nodes,
            f"win_nodes:{slug}": self.win_nodes,
        }

    @classmethod
    def from_fields(cls, stored: dict[str, bytes], slug: str) -> Choice:
        def num(name: str, default: int) -> int:
            raw = stored.get(f"{name}:{slug}")
            return default if raw is None else int(raw)

        par = num("par", -1)
        line = stored.get(f"line:{slug}")
        return cls(
            seed=num("seed", 0),
            k=num("k", 0),
            certified=bool(num("certified", 0)),
            par=None if par < 0 else par,
            best_founded=num("best_founded", 0),
            line=tuple(unpack(line)) if line else (),
            tried=num("tried", 1),
            nodes=num("nodes", 0),
            win_nodes=num("win_nodes", 0),
        )

    def label(self, slug: str) -> str | None:
        """What every surface says of a daily not proven winnable (None if it is)."""
        if self.certified:
            return None
        return unproven_label(self.best_founded, registry.get(slug).total)


def unproven_label(best_founded: int, total: int) -> str:
    return f"not proven winnable (best line founds {best_founded} of {total})"


@dataclass(frozen=True)
class Candidate:
    """One candidate searched: what a scan keeps of the solver's result."""

    k: int
    seed: int
    nodes: int
    best_founded: int
    par: int | None
    #: the winning line as wire moves, None if none was found
    line: tuple[dict[str, Any], ...] | None


class Scan:
    """The bookkeeping of a scan of candidates k = 0, 1, … within a budget: the same
    whether the candidates are searched in this process (:func:`choose`) or one at a
    time in the solver's workers (:class:`Dailies`), so both choose the same daily."""

    def __init__(self, slug: str, budget: Budget) -> None:
        game = registry.get(slug)
        self.per = candidate_nodes(game, budget.candidate_nodes)  # the game's own, when smaller
        self.total = game.total
        self.budget = budget
        self.k = 0
        self.spent = 0
        self.best: Choice | None = None
        self.chosen: Choice | None = None

    def next_nodes(self) -> int | None:
        """The nodes for candidate :attr:`k`, or None when the scan is over."""
        if self.chosen is not None:
            return None
        if self.k >= MAX_CANDIDATES or (self.k > 0 and self.spent >= self.budget.total_nodes):
            assert self.best is not None
            self.chosen = dataclasses.replace(self.best, tried=self.k, nodes=self.spent)
            return None
        return max(1, min(self.per, self.budget.total_nodes - self.spent))

    def feed(self, c: Candidate) -> None:
        self.spent += max(c.nodes, 1)
        self.k += 1
        if c.line is not None:
            self.chosen = Choice(
                c.seed,
                c.k,
                True,
                c.par,
                self.total,
                c.line,
                self.k,
                nodes=self.spent,
                win_nodes=max(c.nodes, 1),
            )
        elif self.best is None or c.best_founded > self.best.best_founded:
            self.best = Choice(c.seed, c.k, False, None, c.best_founded)


Chooser = Callable[[str, bytes, str, Budget], Choice]
Search = Callable[..., Result]


def candidate_seed(secret: bytes, date: str, slug: str, k: int) -> int:
    mac = hmac.new(secret, f"{date}:{slug}:{k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "big")


def commitment(seed: int, date: str, slug: str) -> str:
    return hashlib.sha256(seed.to_bytes(8, "big") + f"{date}:{slug}".encode()).hexdigest()


def search_candidate(
    slug: str, secret: bytes, date: str, k: int, nodes: int, search: Search = solve
) -> Candidate:
    """Search candidate ``k`` within ``nodes`` (CPU-bound: a worker process runs it)."""
    game = registry.get(slug)
    seed = candidate_seed(secret, date, slug, k)
    start = game.deal(seed)
    result = search(game, start, max_nodes=nodes)
    # A win counts only when its line replays through the rules to ``won``.
    won = result.line is not None and certify(game, start, result.line)
    line = tuple(m.to_wire() for m in result.line) if won and result.line else None
    return Candidate(k, seed, max(result.nodes, 1), result.best_founded, result.par, line)


def choose(
    slug: str, secret: bytes, date: str, budget: Budget, *, search: Search = solve
) -> Choice:
    """Scan candidates k = 0, 1, … within ``budget``: the first certified one, else the
    one whose best line founded most cards. CPU-bound: run it off the event loop."""
    scan = Scan(slug, budget)
    while (nodes := scan.next_nodes()) is not None:
        scan.feed(search_candidate(slug, secret, date, scan.k, nodes, search))
    assert scan.chosen is not None
    return scan.chosen
