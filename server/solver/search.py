"""A game-agnostic search for a winning line, over the engine's API alone.

The budget is shared by phases, each cheaper and blinder than the next:

1. a **rollout**: one greedy game (a move onto a foundation first, never back to a
   position already seen) — it alone wins the easy deals of some games;
2. a **greedy dive** (a quarter of the budget, or the game's ``dive`` in
   :mod:`.tuning`; none where that is 0): best-first on the fewest cards missing
   from the foundations (or the game's :meth:`Game.heuristic`), the deepest among
   equals, which follows long lines through moves that found nothing (dealing,
   exchanging);
3. **weighted A\\***: a position's priority is the moves made to reach it plus
   ``weight`` times the heuristic.

Positions are merged by :meth:`Game.position_key` (piles of one kind renamed, the two
decks' twins alike, path history left out), so a position is expanded once however it
was reached; the key of a child is built from its parent's, re-encoding only the piles
the move changed (:class:`Keys`). When a win is found, an **anytime par pass** shortens
it: cycles on the line are cut, a position whose successor is a later position of the
line jumps there (:func:`cut_line`), a card moved twice goes straight to its second
place (:func:`merge_card_moves`), and, budget left, a low-weight A\\* bounded by the
line's length looks for a shorter one.

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
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from operator import is_
from typing import Generic, Literal

from ..patience.engine import MOVE_CAP, Game, IllegalMove, Move, State, V
from .tuning import Tuning, tuning

Outcome = Literal["win", "none", "unknown"]

#: the weights of the A* pass (find a win) and of the par pass (shorten it); ``DIVE``
#: stands for the greedy dive (cards missing first, then the deepest)
DIVE = -1.0
FIND_WEIGHT = 5.0
PAR_WEIGHT = 2.0
#: the share of the budget left after a win that the bounded par search may use
PAR_SHARE = 1 / 2
#: ``bytes.translate`` table mapping a card id of either deck to its first-deck id
_MOD52 = bytes(c % 52 for c in range(256))


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
    #: seconds until the first certified line (before the par pass), else None
    found_seconds: float | None = None

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


#: the clock is read every this many nodes + 1 (a mask): a node costs ~100 µs, a read
#: ~0.1 µs; on a busy host a nice-19 worker gets ~1 % of a core, and reading it every
#: 256 nodes overshot a 2 s hint by seconds
CLOCK_EVERY = 15


def certify(game: Game[V], state: State[V], line: Sequence[Move]) -> bool:
    """Whether ``line`` replays through the rules from ``state`` to ``won``."""
    try:
        for move in line:
            state = game.apply(state, move)
    except IllegalMove:
        return False
    return game.status(state) == "won"


Encoded = list[bytes]


class Keys(Generic[V]):
    """:meth:`Game.position_key`, built incrementally: a child's key reuses its
    parent's encoding of every pile the move left alone (the engine's ``play`` keeps
    an untouched pile as the same tuple object) and the sorted group of any alike
    group none of whose piles changed. Equal to ``game.position_key`` (a test checks)."""

    def __init__(self, game: Game[V]) -> None:
        self.groups: tuple[tuple[int, ...], ...] = game._alike
        self.placed: tuple[int, ...] = game._placed
        self.kept: tuple[int, ...] = game._kept_vars
        self.twins = game.decks > 1
        group_of = [-1] * len(game.layout)
        for g, ix in enumerate(self.groups):
            for i in ix:
                group_of[i] = g
        self.group_of = tuple(group_of)

    def encode(self, state: State[V]) -> Encoded:
        if self.twins:
            return [bytes(p).translate(_MOD52) for p in state.piles]
        return [bytes(p) for p in state.piles]

    def key_of(self, enc: Encoded, state: State[V]) -> tuple[Hashable, ...]:
        vars_ = state.vars
        return (
            tuple(tuple(sorted([enc[i] for i in ix])) for ix in self.groups),
            tuple(enc[i] for i in self.placed),
            tuple(vars_[i] for i in self.kept),
        )

    def child(
        self, parent: State[V], enc: Encoded, pkey: tuple[Hashable, ...], child: State[V]
    ) -> tuple[Hashable, ...]:
        """The key of ``child`` given its parent's encoding and key."""
        cp = child.piles
        changed = [i for i, same in enumerate(map(is_, cp, parent.piles)) if not same]
        if len(changed) * 3 > len(cp):
            return self.key_of(self.encode(child), child)
        enc = enc.copy()
        touched: set[int] = set()
        placed_changed = False
        for i in changed:
            p = bytes(cp[i])
            enc[i] = p.translate(_MOD52) if self.twins else p
            g = self.group_of[i]
            if g < 0:
                placed_changed = True
            else:
                touched.add(g)
        groups = pkey[0]
        assert isinstance(groups, tuple)
        if touched:
            groups = tuple(
                tuple(sorted([enc[i] for i in ix])) if g in touched else groups[g]
                for g, ix in enumerate(self.groups)
            )
        placed = tuple(enc[i] for i in self.placed) if placed_changed else pkey[1]
        vars_ = child.vars
        kept = pkey[2] if vars_ is parent.vars else tuple(vars_[i] for i in self.kept)
        return (groups, placed, kept)


def _heuristic(game: Game[V]) -> Callable[[State[V]], float] | None:
    """The game's own estimate of the work left, when it overrides the default (the
    search computes the default itself, from the score it already has)."""
    if type(game).heuristic is Game.heuristic:
        return None
    return game.heuristic


def _beam_estimate(game: Game[V]) -> Callable[[State[V]], float] | None:
    """How a beam ranks a layer: the game's :meth:`Game.beam_estimate` where it
    overrides it, else what the other phases follow (:func:`_heuristic`)."""
    if type(game).beam_estimate is Game.beam_estimate:
        return _heuristic(game)
    return game.beam_estimate


Expand = Callable[[State[V]], Iterable[tuple[Move, State[V]]]]


def _expander(game: Game[V]) -> Expand[V]:
    """A position's children for the search: only the first of the game's
    :meth:`Game.safe_moves` when it lists one (it cannot turn a winnable position
    into a lost one, so its siblings need no search), else every legal move."""
    if type(game).safe_moves is Game.safe_moves:
        return game.successors
    safe_moves, play, successors, is_lost = (
        game.safe_moves,
        game.play,
        game.successors,
        game.is_lost,
    )

    def expand(state: State[V]) -> Iterable[tuple[Move, State[V]]]:
        # a position the search expands is never won; past the cap nothing is legal
        safe = safe_moves(state) if state.moves < MOVE_CAP and not is_lost(state) else ()
        if not safe:
            return successors(state)
        after = play(state, safe[0])
        return ((safe[0], State(after.piles, after.vars, after.rng, state.moves + 1)),)

    return expand


def _foundation_ids(game: Game[V]) -> frozenset[str]:
    return frozenset(p.id for p in game.layout if p.kind == "foundation")


def _rollout(
    game: Game[V], start: State[V], max_moves: int, deadline: float = float("inf")
) -> _Pass:
    """One greedy game: a move onto a foundation first, then the rest in the engine's
    order, never to a position already seen; stops when stuck, out of moves or past
    ``deadline`` (a deal of Hand Reserve's 2,000 moves took 3 s)."""
    key = game.position_key
    to_foundation = _foundation_ids(game)
    total = game.total
    state = start
    seen = {key(state)}
    line: list[Move] = []
    best = game.score(state)[0]
    nodes = 0
    expand = _expander(game)
    while nodes < max_moves:
        if nodes & CLOCK_EVERY == 0 and time.monotonic() > deadline:
            break
        nodes += 1
        nxt: tuple[Move, State[V]] | None = None
        fallback: tuple[Move, State[V]] | None = None
        for move, child in expand(state):
            k = key(child)
            if k in seen:
                continue
            if move.dst in to_foundation:
                nxt = (move, child)
                break
            if fallback is None:
                fallback = (move, child)
        nxt = nxt or fallback
        if nxt is None:
            break
        move, state = nxt
        seen.add(key(state))
        line.append(move)
        f = game.score(state)[0]
        best = max(best, f)
        if f == total:
            return _Pass("win", tuple(line), nodes, total)
    return _Pass("unknown", None, nodes, best)


def _search(
    game: Game[V],
    start: State[V],
    weight: float,
    max_nodes: int,
    deadline: float,
    bound: int | None = None,
    dead: float | None = None,
) -> _Pass:
    """One best-first pass. ``bound``: ignore lines of that many moves or more;
    ``dead``: drop a child whose estimate is that or more (it cannot be won: its
    subtree holds no win, so ``none`` stays exact)."""
    total = game.total
    keys = Keys(game)
    score = game.score
    h = _heuristic(game)
    founded = score(start)[0]
    if founded == total:
        return _Pass("win", (), 0, founded)
    best = founded
    enc0 = keys.encode(start)
    key0 = keys.key_of(enc0, start)
    seen: set[Hashable] = {key0}
    parents: list[tuple[int, Move | None]] = [(-1, None)]
    depths: list[int] = [0]
    tie = itertools.count()
    dive = weight == DIVE
    h0 = h(start) if h is not None else total - founded
    frontier: list[tuple[float, int, int, int, State[V], tuple[Hashable, ...]]] = [
        (h0 if dive else weight * h0, 0, next(tie), 0, start, key0)
    ]
    child_key = keys.child
    encode = keys.encode
    expand = _expander(game)
    push = heapq.heappush
    pop = heapq.heappop
    nodes = 0
    complete = True
    while frontier:
        if nodes >= max_nodes or (nodes & CLOCK_EVERY == 0 and time.monotonic() > deadline):
            complete = False
            break
        _, _, _, node, state, pkey = pop(frontier)
        depth = depths[node] + 1
        nodes += 1
        if bound is not None and depth >= bound:
            complete = False  # pruned, not exhausted: "none" would be a lie
            continue
        enc = encode(state)
        for move, child in expand(state):
            k = child_key(state, enc, pkey, child)
            if k in seen:
                continue
            seen.add(k)
            parents.append((node, move))
            depths.append(depth)
            child_id = len(parents) - 1
            f = score(child)[0]
            if f == total:
                return _Pass("win", _line(parents, child_id), nodes, total)
            if f > best:
                best = f
            est = h(child) if h is not None else total - f
            if dead is not None and est >= dead:
                continue
            if dive:  # fewest missing, then the deepest
                push(frontier, (est, -depth, next(tie), child_id, child, k))
            else:
                push(frontier, (depth + weight * est, 0, next(tie), child_id, child, k))
    return _Pass("none" if complete else "unknown", None, nodes, best)


#: positions reached from one beam position without a step (its closure), at most
BEAM_CLOSURE = 100
#: nodes a greedy dive may spend on each of the beam's last positions (no step left)
BEAM_FINISH = 500


def _beam(
    game: Game[V],
    start: State[V],
    width: int,
    max_nodes: int,
    deadline: float,
    closure: int = BEAM_CLOSURE,
    best_first: bool = False,
) -> _Pass:
    """A beam search over the game's steps (its :attr:`Game.forced_actions`, e.g.
    turning a card from the stock, which nothing undoes): from each kept position every
    position reachable without a step (up to :data:`BEAM_CLOSURE`) is searched, each
    of them steps once, and the ``width`` best of those (by :meth:`Game.beam_estimate`)
    are the next layer. When no step is left, the best positions are finished by a
    short dive.
    Decisions made long before their effect shows are compared side by side instead of
    backtracked one by one. A position is searched once a layer, whichever kept
    position reaches it first (Hemispheres: 35–40 % fewer nodes, the same layers).
    ``closure``: the most positions searched from one kept position; ``best_first``:
    those positions taken best first by the heuristic (else breadth first)."""
    total = game.total
    keys = Keys(game)
    encode, child_key = keys.encode, keys.child
    score = game.score
    h = _beam_estimate(game)
    steps = game.forced_actions
    expand = _expander(game)
    parents: list[tuple[int, Move | None]] = [(-1, None)]
    layer = [(0, start, keys.key_of(encode(start), start))]
    best = score(start)[0]
    nodes = 0
    while layer:
        nxt: dict[Hashable, tuple[float, int, State[V], tuple[Hashable, ...]]] = {}
        last: list[tuple[float, int, int, State[V]]] = []
        # One set for the whole layer: a position reached from two kept positions (a
        # move made before the step by one, after it by the other) is searched once.
        seen: set[Hashable] = set()
        for node0, state0, key0 in layer:
            if key0 in seen:
                continue
            seen.add(key0)
            queue = [(node0, state0, key0)]
            heap = [(0.0, 0, node0, state0, key0)]
            added = 1
            # breadth first: the list grows while it is read; best first: a heap
            for node, state, pkey in _drain(heap) if best_first else queue:
                if nodes >= max_nodes or (nodes & CLOCK_EVERY == 0 and time.monotonic() > deadline):
                    return _Pass("unknown", None, nodes, best)
                nodes += 1
                stepped = False
                enc = encode(state)
                for move, child in expand(state):
                    k = child_key(state, enc, pkey, child)
                    if move.action in steps:
                        stepped = True
                        if k in nxt:
                            continue
                    elif k in seen or added >= closure:
                        continue
                    parents.append((node, move))
                    child_id = len(parents) - 1
                    f = score(child)[0]
                    if f == total:
                        return _Pass("win", _line(parents, child_id), nodes, total)
                    best = max(best, f)
                    if move.action in steps:
                        est = h(child) if h is not None else total - f
                        nxt[k] = (est, child_id, child, k)
                    else:
                        seen.add(k)
                        added += 1
                        if best_first:
                            est = h(child) if h is not None else total - f
                            heapq.heappush(heap, (est, added, child_id, child, k))
                        else:
                            queue.append((child_id, child, k))
                if not stepped:
                    est = h(state) if h is not None else total - score(state)[0]
                    last.append((est, len(last), node, state))
        if not nxt:  # no step left anywhere: finish the most promising positions
            for _, _, node, state in sorted(last)[:width]:
                left = min(BEAM_FINISH, max_nodes - nodes)
                if left <= 0:
                    break
                found = _search(game, state, DIVE, left, deadline)
                nodes += found.nodes
                best = max(best, found.best_founded)
                if found.line is not None:
                    return _Pass("win", _line(parents, node) + found.line, nodes, total)
            return _Pass("unknown", None, nodes, best)
        kept = sorted(nxt.values(), key=lambda e: (e[0], e[1]))[:width]
        layer = [(node, state, k) for _, node, state, k in kept]
    return _Pass("unknown", None, nodes, best)


def _drain(
    heap: list[tuple[float, int, int, State[V], tuple[Hashable, ...]]],
) -> Iterable[tuple[int, State[V], tuple[Hashable, ...]]]:
    """The entries of ``heap``, best first, while it is pushed to between them."""
    while heap:
        _, _, node, state, key = heapq.heappop(heap)
        yield node, state, key


def _line(parents: list[tuple[int, Move | None]], node: int) -> tuple[Move, ...]:
    moves: list[Move] = []
    while node > 0:
        node, move = parents[node]
        assert move is not None
        moves.append(move)
    return tuple(reversed(moves))


def cut_line(game: Game[V], start: State[V], line: Sequence[Move]) -> tuple[Move, ...]:
    """A line no longer than ``line`` to the same end: cycles cut (a position met
    twice), and shortcuts taken (a position one of whose successors is a later
    position of the line), until neither applies. Positions are compared exactly
    (piles by name, variables, generator), not by :meth:`Game.position_key`: after
    a renaming the rest of the line would name the wrong piles. Each pass after a cut
    at ``i`` looks from ``i`` on: the same line as looking from the start again."""

    def key(state: State[V]) -> Hashable:
        return (state.piles, state.vars, state.rng)

    moves = list(line)
    states = [start]
    keys = [key(start)]
    begin = 0  # no cycle nor shortcut starts before it (nor will after a cut there)
    while True:
        del states[begin + 1 :], keys[begin + 1 :]
        for move in moves[begin:]:
            after = game.play(states[-1], move)
            states.append(State(after.piles, after.vars, after.rng, states[-1].moves + 1))
            keys.append(key(states[-1]))
        last = {k: i for i, k in enumerate(keys)}
        jump: tuple[int, int, Move | None] | None = None
        for i in range(begin, len(keys)):
            k = keys[i]
            j = last[k]
            if j > i:  # a cycle: drop the moves from i to j
                jump = (i, j, None)
                break
            for move, child in game.successors(states[i]):
                j = last.get(key(child), -1)
                if j > i + 1:
                    jump = (i, j, move)
                    break
            if jump is not None:
                break
        if jump is None:
            return tuple(moves)
        i, j, step = jump
        moves = moves[:i] + ([step] if step is not None else []) + moves[j:]
        # The positions before i are those of the new line too, and every later
        # position of the new line was a later one of the old: none of them starts a
        # cycle or a shortcut now either, so the next pass begins at i.
        begin = i


def merge_card_moves(
    game: Game[V], start: State[V], line: Sequence[Move], deadline: float
) -> tuple[Move, ...]:
    """A line no longer than ``line`` that still wins: a card moved ``A → B`` and later,
    uncovered all along, ``B → C`` goes ``A → C`` once, at the first move's turn or
    the second's, wherever the rest of the line still replays to ``won`` (``B → A``:
    both moves go). Search lines shuffle cards between columns long before they are
    needed; this takes the detours out (a St Helena daily: 845 -> 462 moves).
    Only plain moves (no index, no action) are merged; every edit is replayed through
    :meth:`Game.apply`, so the rules alone decide what may be merged."""
    moves = list(line)
    states = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))

    def replay(i: int, tail: list[Move], join: int, to: int) -> list[State[V]] | None:
        """The positions along ``tail`` from ``states[i]`` if it wins, else None. After
        ``join`` moves the tail goes on as the old line from ``states[to]``: once it is
        in that very position (piles, variables, generator), the old positions are
        taken as they are (the same moves from the same position), their move counts
        corrected, instead of replaying the rest of the line for every edit tried
        (a Fifteen daily spent 2 of its 3 CPU minutes there)."""
        state = states[i]
        out: list[State[V]] = []
        for n, move in enumerate(tail):
            if n == join:
                old = states[to]
                if state.piles == old.piles and state.vars == old.vars and state.rng == old.rng:
                    shift = old.moves - state.moves
                    out.extend(
                        State(s.piles, s.vars, s.rng, s.moves - shift) for s in states[to + 1 :]
                    )
                    return out
            try:
                state = game.apply(state, move)
            except IllegalMove:
                return None
            out.append(state)
        return out if game.status(state) == "won" else None

    i = 0
    while i < len(moves) and time.monotonic() < deadline:
        first = moves[i]
        then = _next_move_of_card(game, states, moves, i) if _plain(first) else None
        if then is None:
            i += 1
            continue
        rest = moves[i + 1 : then]
        tail_after = moves[then + 1 :]
        assert first.src is not None
        direct = Move(first.src, moves[then].dst)
        if direct.src == direct.dst:  # there and back: neither move is needed
            tails = [rest + tail_after]
        else:
            tails = [[direct, *rest, *tail_after], [*rest, direct, *tail_after]]
        for tail in tails:
            new = replay(i, tail, len(tail) - len(tail_after), then + 1)
            if new is not None:
                moves[i:] = tail
                del states[i + 1 :]
                states.extend(new)
                break
        else:
            i += 1
    return tuple(moves)


def _plain(move: Move) -> bool:
    return move.action is None and move.index is None and move.src is not None


def _next_move_of_card(
    game: Game[V], states: Sequence[State[V]], moves: Sequence[Move], i: int
) -> int | None:
    """The index of the next move taking the card that ``moves[i]`` put on its target,
    if that card stays uncovered until then; else None."""
    first = moves[i]
    assert first.src is not None and first.dst is not None
    src, dst = game.at[first.src], game.at[first.dst]
    if not states[i].piles[src]:
        return None
    card = states[i].piles[src][-1]
    for t in range(i + 1, len(moves)):
        move = moves[t]
        if move.action is not None:
            continue
        if move.src == first.dst:
            pile = states[t].piles[dst]
            return t if _plain(move) and pile and pile[-1] == card else None
        if move.dst == first.dst:  # covered
            return None
    return None


def solve(
    game: Game[V],
    state: State[V],
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    shorten: bool = True,
    par_nodes: int | None = None,
    tuned: Tuning | None = None,
) -> Result:
    """Search ``state`` for a win within the budget (see the module docstring);
    ``shorten``: spend what is left of it on a shorter line (par), at most
    ``par_nodes`` of it when given; ``tuned``: the phases' settings (default: the
    game's row of :mod:`.tuning`)."""
    tuned = tuned if tuned is not None else tuning(game)
    began = time.monotonic()
    deadline = began + (max_seconds if max_seconds is not None else 1e9)
    budget = max_nodes if max_nodes is not None else 1 << 62
    found = _rollout(game, state, max(1, min(budget // 10, 2_000)), deadline)
    nodes, best = found.nodes, found.best_founded
    if found.line is not None and not certify(game, state, found.line):
        found = _Pass("unknown", None, found.nodes, found.best_founded)
    for width in (tuned.beam, *tuned.rebeam) if tuned.beam > 0 else ():
        if found.outcome != "unknown" or nodes >= budget:
            break
        closure = BEAM_CLOSURE if tuned.beam_closure is None else tuned.beam_closure
        found = _beam(game, state, width, budget - nodes, deadline, closure, tuned.beam_best_first)
        nodes += found.nodes
        best = max(best, found.best_founded)
        if found.line is not None and not certify(game, state, found.line):
            found = _Pass("unknown", None, found.nodes, found.best_founded)
    share = tuned.dive
    if found.outcome == "unknown" and nodes < budget and share > 0:
        # The dive's share of a node budget is counted in nodes, so a search bounded by
        # nodes is the same on a busy machine (the seconds then only a backstop).
        dive_deadline = deadline
        if max_seconds is not None and max_nodes is None:
            dive_deadline = began + max_seconds * share
        dive_nodes = max(1, min(int(budget * share), budget - nodes))
        found = _search(game, state, DIVE, dive_nodes, dive_deadline, dead=tuned.dead)
        nodes += found.nodes
        best = max(best, found.best_founded)
        if found.line is not None and not certify(game, state, found.line):
            found = _Pass("unknown", None, found.nodes, found.best_founded)
    if found.outcome == "unknown" and nodes < budget:
        weight = FIND_WEIGHT if tuned.weight is None else tuned.weight
        found = _search(game, state, weight, budget - nodes, deadline, dead=tuned.dead)
        nodes += found.nodes
        best = max(best, found.best_founded)
    line = found.line
    outcome: Outcome = found.outcome
    if line is not None and not certify(game, state, line):
        # a line through positions merged despite their history (a repetition rule)
        line, outcome = None, "unknown"
    found_at = None if line is None else time.monotonic() - began
    if line is not None and shorten:
        left = budget - nodes
        par_budget = left if par_nodes is None else min(left, int(par_nodes / PAR_SHARE))
        line, spent = _par(game, state, line, par_budget, deadline)
        nodes += spent
    if line is not None:
        best = game.total
    return Result(outcome, line, nodes, time.monotonic() - began, best, found_at)


def _par(
    game: Game[V], state: State[V], line: tuple[Move, ...], budget: int, deadline: float
) -> tuple[tuple[Move, ...], int]:
    """The anytime par pass: cut cycles and shortcuts, then a bounded low-weight
    search with part of the budget left; every candidate is certified. Returns the
    line and the nodes the search expanded."""
    short = cut_line(game, state, line)
    while time.monotonic() < deadline:  # each pass may open the way for the other
        merged = cut_line(game, state, merge_card_moves(game, state, short, deadline))
        if len(merged) == len(short):
            break
        short = merged
    if len(short) < len(line) and certify(game, state, short):
        line = short
    nodes = int(budget * PAR_SHARE)
    spent = 0
    if nodes > 0 and time.monotonic() < deadline:
        found = _search(game, state, PAR_WEIGHT, nodes, deadline, bound=len(line))
        spent = found.nodes
        if found.line is not None and len(found.line) < len(line):
            better = cut_line(game, state, found.line)
            for candidate in (better, found.line):
                if certify(game, state, candidate):
                    line = min(line, candidate, key=len)
                    break
    return line, spent


def hint(
    game: Game[V], state: State[V], *, max_seconds: float = 2.0, max_nodes: int | None = None
) -> Move | None:
    """The first move of a winning line found from ``state`` within the budget, or
    None ("no win found from here")."""
    result = solve(game, state, max_seconds=max_seconds, max_nodes=max_nodes, shorten=False)
    return result.line[0] if result.line else None
