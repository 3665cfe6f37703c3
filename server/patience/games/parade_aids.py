"""Parade for the solver and for ``auto``: the estimate of the work left, the
positions that can never be won, and the moves that can never hurt (parade.py holds
the rules; docs/solver.md the measurements behind each choice). :class:`ParadeAids` is
told where the game's piles lie, its rows' bases and how many cards complete a pile,
and imports nothing of the game, which asks it (``Parade.heuristic``, ``stuck``,
``deadlocked``, ``safe_moves``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..cards import SUIT_RANK
from ..engine import Move, NoVars, State

#: the solver's estimate of a position that cannot be won (:meth:`ParadeAids.heuristic`)
DEAD = 1000.0
#: the estimate's weight of one stuck depot card (docs/solver.md)
STUCK = 1.0
#: (suit, rank) of every card id as one index, 16 * suit + rank
IDX = tuple(16 * s + r for s, r in SUIT_RANK)


class Layout(Protocol):
    """Where Parade's piles lie (parade.py), and what it counts as founded."""

    @property
    def ids(self) -> tuple[str, ...]: ...
    @property
    def total(self) -> int: ...
    #: (slot id, pile index, row base) of every slot of the parade, row by row
    @property
    def slots(self) -> tuple[tuple[str, int, int], ...]: ...
    #: the eight depots' pile indices
    @property
    def depots(self) -> tuple[int, ...]: ...
    def score(self, state: State[NoVars]) -> tuple[int, int]: ...


class ParadeAids:
    """What the solver (and ``auto``) is told about Parade's positions, for a game
    laid out as ``game`` whose rows want the ranks ``base`` (twos, threes, fours),
    each built up in suit by three to ``full`` cards."""

    def __init__(self, game: Layout, *, base: Sequence[int], full: int) -> None:
        self.game = game
        self.slots, self.depots = game.slots, game.depots
        self.names = tuple(game.ids[i] for i in game.depots)
        self.total = game.total
        self.base = tuple(base)
        self.full = full
        #: index (:data:`IDX`) -> the indices of the lower cards of its build (same
        #: suit and row)
        self.lower = tuple(
            tuple(16 * (x // 16) + q for q in range(self.base[(x % 16 - 2) % 3], x % 16, 3))
            if x % 16 >= 2
            else ()
            for x in range(64)
        )
        #: a depot's pile -> what :meth:`_stuck_in` finds in it (piles recur: a move
        #: changes one depot at most)
        self._stuck: dict[tuple[int, ...], tuple[int, bool, list[tuple[int, int, int]]]] = {}

    def stuck(self, state: State[NoVars]) -> tuple[int, bool]:
        """Depot cards lying on a card of their own build (same suit, same row, lower
        rank): ``(how many, whether one of them can never move)``.

        A depot card leaves only for a built pile of its suit in its row (a base, for
        a gap), and such a pile takes a card only after every lower card of its build.
        A card lying on both copies of a lower card of its build therefore never moves
        (each pile needs its own copy, and neither is free while the card covers
        them); nor does one lying on one copy when its twin is built already (the
        other pile, the only one left for it, needs that very copy)."""
        piles = state.piles
        n = 0
        watch: list[tuple[int, int, int]] = []
        cache = self._stuck
        for i in self.depots:
            pile = piles[i]
            if len(pile) < 2:
                continue
            entry = cache.get(pile)
            if entry is None:
                entry = self._stuck_in(pile)
                if len(cache) >= 200_000:
                    cache.clear()
                cache[pile] = entry
            if entry[1]:
                return n + entry[0], True
            n += entry[0]
            watch += entry[2]
        if watch:
            high: dict[tuple[int, int], int] = {}  # (suit, base) -> highest top built
            for _, i, base in self.slots:
                pile = piles[i]
                if pile and SUIT_RANK[pile[0]][1] == base:
                    s, r = SUIT_RANK[pile[-1]]
                    if r > high.get((s, base), 0):
                        high[(s, base)] = r
            for s, base, r in watch:
                if high.get((s, base), 0) >= r:
                    return n, True
        return n, False

    def _stuck_in(self, pile: tuple[int, ...]) -> tuple[int, bool, list[tuple[int, int, int]]]:
        """For :meth:`stuck`, one depot: the cards lying on a lower card of their
        own build, whether one lies on both copies of such a card, and ``(suit, base,
        rank)`` of each that lies on one copy only (it never moves once its twin is built)."""
        below: dict[tuple[int, int], int] = {}  # (suit, rank) -> copies lower down
        n = 0
        dead = False
        watch: list[tuple[int, int, int]] = []
        for c in pile:
            s, r = SUIT_RANK[c]
            base = self.base[(r - 2) % 3]
            lower = 0
            for q in range(base, r, 3):
                lower = max(lower, below.get((s, q), 0))
            if lower:
                n += 1
                if lower == 2:
                    dead = True
                else:
                    watch.append((s, base, r))
            below[(s, r)] = below.get((s, r), 0) + 1
        return n, dead, watch

    def heuristic(self, state: State[NoVars]) -> float:
        """For the solver: the cards not yet founded plus one for each depot card
        lying on a lower card of its own build (:meth:`stuck`: it waits for the other
        copy, or for its depot to be dug out from the top), and :data:`DEAD` for a
        position in which such a card can never move, or which is :meth:`deadlocked`
        (no win from it: dropped by the search, ``Tuning.dead``). Measured against
        the plain count in docs/solver.md."""
        n, dead = self.stuck(state)
        if dead or self.deadlocked(state):
            return DEAD
        return self.total - self.game.score(state)[0] + STUCK * n

    def deadlocked(self, state: State[NoVars]) -> bool:
        """Whether some card can never reach its pile, even were every card still in
        the stock free at once (the stock and the gaps are left out: a relaxation).

        A card of rank ``r`` goes only onto a pile of its build whose top is ``r - 3``,
        which holds one copy of each lower card of that build; once one copy of
        ``r`` is built, the other goes onto the other pile, which needs the other
        copies. So the ``k``-th copy of a card to be built needs ``k`` copies of each
        lower card of its build built before it, and a depot card moves only after
        every card above it. Cards are let go in any order these allow (a least
        fixpoint): what is left can never move."""
        piles = state.piles
        #: by (suit, rank) index (:data:`IDX`): copies built, and copies left in
        #: depots or misplaced (not yet let go)
        built = [0] * 64
        held = [0] * 64
        loose: list[int] = []  # misplaced cards
        for _, i, base in self.slots:
            pile = piles[i]
            if not pile:
                continue
            if SUIT_RANK[pile[0]][1] == base:
                for c in pile:
                    built[IDX[c]] += 1
            else:
                loose.append(pile[0])
                held[IDX[pile[0]]] += 1
        stacks: list[list[int]] = []
        for i in self.depots:
            pile = piles[i]
            if pile:
                stacks.append(list(pile))
                for c in pile:
                    held[IDX[c]] += 1

        def free(c: int) -> bool:
            x = IDX[c]
            need = 1 if built[x] else 0  # the lower copies let go must exceed it
            return all(2 - held[y] > need for y in self.lower[x])

        moved = True
        while moved:
            moved = False
            rest = []
            for c in loose:
                if free(c):
                    held[IDX[c]] -= 1
                    moved = True
                else:
                    rest.append(c)
            loose = rest
            for stack in stacks:
                while stack and free(stack[-1]):
                    held[IDX[stack.pop()]] -= 1
                    moved = True
        return bool(loose) or any(stacks)

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        """A card onto a built pile it continues, when its twin (the other deck's copy)
        is founded already or the two piles of its suit in its row both want it; and a
        row's base into a gap of its row while no misplaced card lies in that row.

        Why these never hurt: nothing is ever packed on a depot card or a misplaced
        card, so where such a card lies it only covers another (or holds a gap), and a
        pile that takes it only offers more moves. The twins of a card compete for
        one pile when only one wants them now: taking the copy that covers nothing
        can bury the other for good (a J♠ in a depot on its 8♠), so then nothing is
        listed. A row without misplaced cards has a gap for each of its bases still
        out, so a base taking one leaves a place for every other; a base while its row
        holds a misplaced card is not listed (another base might want the one gap)."""
        piles = state.piles
        builds: dict[tuple[int, int], str] = {}
        #: (suit, rank): founded piles of that suit whose top is that rank or higher
        #: in the rank's row, and those whose top is three below it
        tops: dict[tuple[int, int], list[int]] = {}
        gaps: dict[int, str] = {}
        crowded: set[int] = set()  # rows (by base) holding a misplaced card
        sources: list[tuple[str, int]] = []
        for p, i, base in self.slots:
            pile = piles[i]
            if not pile:
                gaps.setdefault(base, p)
            elif SUIT_RANK[pile[0]][1] != base:
                crowded.add(base)
                sources.append((p, pile[0]))
            else:
                s, r = SUIT_RANK[pile[-1]]
                tops.setdefault((s, base), []).append(r)
                if len(pile) < self.full:
                    builds.setdefault((s, r + 3), p)
        for d, i in zip(self.names, self.depots, strict=True):
            if piles[i]:
                sources.append((d, piles[i][-1]))
        safe: list[Move] = []
        for src, c in sources:
            s, r = key = SUIT_RANK[c]
            if key in builds:
                row = tops[(s, self.base[(r - 2) % 3])]
                if any(t >= r for t in row) or row.count(r - 3) == 2:
                    safe.append(Move(src, builds[key]))
            elif r in gaps and r not in crowded:
                safe.append(Move(src, gaps[r]))
        return safe
