"""Crescent for the solver and for ``auto``: the estimate of the work left, the
positions that can never be won, and the moves that can never hurt (crescent.py holds
the rules; docs/solver.md the measurements behind each choice). Every answer is a
function of a position's piles and shifts left: :class:`CrescentAids` is told where
the game's piles lie and how many shifts it allows, and imports nothing of the game,
which asks it (``Crescent.heuristic``, ``stuck``, ``safe_moves``).
"""

from __future__ import annotations

from typing import Protocol

from ..engine import Move, Piles
from ..rules import FA as UP
from ..rules import FK as DOWN

#: the solver's estimate of a position that can no longer be won
#: (:meth:`CrescentAids.stuck`): its ``Tuning.dead``, so the search drops such positions
DEAD = 1000.0

#: what a shift spent costs in the solver's estimate, in cards still to found
SHIFT_COST = 5


class Layout(Protocol):
    """Where Crescent's piles lie in a position (crescent.py)."""

    @property
    def ids(self) -> tuple[str, ...]: ...
    @property
    def total(self) -> int: ...
    #: the sixteen piles T1…T16
    @property
    def tableau(self) -> tuple[int, ...]: ...
    #: by suit, the foundations up from the aces, down from the kings, the waiting cells
    @property
    def up(self) -> tuple[int, ...]: ...
    @property
    def down(self) -> tuple[int, ...]: ...
    @property
    def wait(self) -> tuple[int, ...]: ...


class CrescentAids:
    """What the solver (and ``auto``) is told about Crescent's positions, for a game
    laid out as ``game`` that allows ``shifts`` shifts."""

    def __init__(self, game: Layout, *, shifts: int) -> None:
        self.tableau, self.up, self.down, self.wait = game.tableau, game.up, game.down, game.wait
        self.names = tuple(game.ids[i] for i in game.tableau)
        self.foundations = (*game.up, *game.down)
        self.total = game.total
        self.shifts = shifts

    def heuristic(self, piles: Piles, shifts_left: int) -> float:
        """The cards not yet founded plus :data:`SHIFT_COST` for every shift spent, or
        :data:`DEAD` when some card can never leave its pile (:meth:`stuck`). A
        shift turns all sixteen piles at once, so it nearly always uncovers a card a
        foundation wants: on cards founded alone the search spends all three early
        and is left with piles it can no longer turn (the cost chosen, measured:
        docs/solver.md)."""
        if self.stuck(piles, shifts_left):
            return DEAD
        founded = sum(len(piles[i]) for i in self.foundations)
        return self.total - founded + SHIFT_COST * (self.shifts - shifts_left)

    def stuck(self, piles: Piles, shifts_left: int) -> bool:
        """Whether some pile card can never leave its pile, so the game cannot be won
        (every card must reach a foundation). A yes is exact, a no proves nothing: it
        lets cards go in every order the rules could allow and more (a least
        fixpoint) and says yes only for a card left over.

        With ``k`` shifts left, a card lying on ``j`` cards of its pile (``j`` from
        the bottom, 0 for the bottom card) may **go** (leave its place for the first
        time) once

        * it can be on top: every card lying on it when the position was reached has
          gone, or ``j < k``. Seed 000: only the top card moves; a shift takes "the
          bottom card" of a pile to its top, the others keeping their order, so the
          cards above it stay above until they go, and it reaches the top by shifts
          only after ``j`` cards below it have been turned and one more shift, ``j +
          1 <= k``. Cards packed on it later must go too (left out: a relaxation);
        * and it has somewhere to go: a foundation, if some copy of each rank
          between that foundation's top and its own has gone (is in the waiting cell)
          — "up on the aces or down on the kings", one rank at a time, in suit (the
          waiting cell takes a card fitting both, which is such a card); or onto a pile
          top of its suit one rank away: a copy of such a card that has gone (it may
          lie anywhere), or one in another pile that can be on top as above without
          going. A neighbour lying in its own pile and never going cannot be a top
          of another pile while it waits there.

        Take the cards of any winning line in the order they first go: each meets
        these conditions from cards that went before it (a card founded before it went
        first; a neighbour it is packed on either went before or lies on top of its
        own pile, never the pile the card leaves). So each is let go by the
        fixpoint, and a card it leaves is one no line moves."""
        k = shifts_left
        tab = [piles[i] for i in self.tableau]
        # gone[c]: some copy of card c (c % 52) has gone (or waits in its cell)
        gone = [False] * 52
        # per suit, a card of rank r goes up when lo < r <= upto, down when
        # downto <= r < hi: the ranks between are all founded or gone
        lo, hi, upto, downto = [0] * 4, [0] * 4, [0] * 4, [0] * 4
        for s in range(4):
            base = 13 * s
            if waiting := piles[self.wait[s]]:
                gone[waiting[0] % 52] = True
            a, d = piles[self.up[s]][-1] % 13 + 1, piles[self.down[s]][-1] % 13 + 1
            lo[s], hi[s] = a, d
            q = a + 1
            while q <= 13 and gone[base + q - 1]:
                q += 1
            upto[s] = q
            q = d - 1
            while q >= 1 and gone[base + q - 1]:
                q -= 1
            downto[s] = q
        # per pile, the highest card not gone yet (-1: all gone) and those below it
        # that went by shifts
        top = [len(pile) - 1 for pile in tab]
        below: list[set[int]] = [set() for _ in tab]
        where: list[list[tuple[int, int]]] | None = None  # card -> (pile, j), built lazily
        changed = True
        while changed:
            changed = False
            for p, pile in enumerate(tab):
                b = top[p]
                j = b
                while j >= 0:
                    if j != b:  # under a card that cannot go: only shifts bring it up
                        if j >= k:
                            j = k - 1
                            continue
                        if j in below[p]:
                            j -= 1
                            continue
                    c = pile[j] % 52
                    s = c // 13
                    r = c - 13 * s + 1
                    ok = lo[s] < r <= upto[s] or downto[s] <= r < hi[s]
                    if not ok:
                        if where is None:
                            where = [[] for _ in range(52)]
                            for pz, pz_cards in enumerate(tab):
                                for jz, z in enumerate(pz_cards):
                                    where[z % 52].append((pz, jz))
                        for z in (c - 1 if r > 1 else -1, c + 1 if r < 13 else -1):
                            if z >= 0:
                                for pz, jz in where[z]:
                                    tz = top[pz]
                                    if (
                                        jz > tz
                                        or jz in below[pz]
                                        or (pz != p and (jz == tz or jz < k))
                                    ):
                                        ok = True
                                        break
                                if ok:
                                    break
                    if not ok:
                        j -= 1
                        continue
                    changed = True
                    if not gone[c]:
                        gone[c] = True
                        base = 13 * s
                        if r == upto[s]:
                            q = r + 1
                            while q <= 13 and gone[base + q - 1]:
                                q += 1
                            upto[s] = q
                        if r == downto[s]:
                            q = r - 1
                            while q >= 1 and gone[base + q - 1]:
                                q -= 1
                            downto[s] = q
                    if j == b:
                        b -= 1
                        while b >= 0 and b in below[p]:
                            below[p].discard(b)
                            b -= 1
                        top[p] = b
                        j = b
                    else:
                        below[p].add(j)
                        j -= 1
        return any(b >= 0 for b in top)

    def safe_moves(self, piles: Piles, shifts_left: int) -> list[Move]:
        """Pile tops that can only go to the one foundation they fit (never into the
        wait cell: no card of their suit waits), in two cases.

        **Nothing can be packed on it.** Every copy of both cards of its suit one rank
        away (``X ± 1``) lies on the foundations, and ``X`` lies on at least as many
        cards as shifts are left. Seed 000: a top goes onto its foundation or "onto
        another pile top of the same suit one rank apart"; with no such card left,
        ``X`` neither hosts nor moves again, so its only use is the foundation, and
        founding it now uncovers its pile at once. A shift takes the bottom card of
        "every pile of two or more" to its top: the pile below ``X`` turns exactly as
        it would with ``X`` in it until ``X`` itself reached the bottom, which takes
        more shifts than cards lie below it (a lone ``X`` never turns). Rare before
        the end: going up needs both copies of the rank above founded, which only the
        king's foundation can hold.

        **Its suit has crossed, and no shift is left.** Once the ace's foundation (at
        ``a``) and the king's (at ``d``) have met, ``d <= a + 1``, every rank of the
        suit still out has one copy left, and its way is fixed: above ``a`` up in
        order, below ``d`` down in order (no card fits both, so nothing waits). ``X``
        of rank ``a + 1`` (or ``d - 1``) is the next card up (down). Any winning line
        ``L`` is followed as well after founding ``X`` now: play ``L``'s moves, with
        each pile ``L``'s pile less the cards of the suit founded early. A move of a
        card founded early is skipped; a card ``L`` packs onto a card founded early is
        one rank from it, so it is founded already or is the next card of that
        foundation, and is founded instead; a move that would now only swap two piles
        is skipped with the piles' names swapped; every other move is played as it
        is. With no shift left nothing reorders a pile, so ``L``'s last position, every
        card founded, is reached too."""
        shifts = shifts_left
        # per suit: card % 52 of the next card up and down when that card is safe by
        # the second case, or (a, d) to test the first
        wanted: dict[int, str] = {}
        ends: list[tuple[int, int] | None] = []
        for s in range(4):
            if piles[self.wait[s]]:
                ends.append(None)
                continue
            a = piles[self.up[s]][-1] % 13 + 1
            d = piles[self.down[s]][-1] % 13 + 1
            ends.append((a, d))
            if not shifts and d <= a + 1:
                if a < 13:
                    wanted[s * 13 + a] = UP[s]  # rank a + 1
                if d > 1:
                    wanted[s * 13 + d - 2] = DOWN[s]  # rank d - 1
        out: list[Move] = []
        for t, i in zip(self.names, self.tableau, strict=True):
            pile = piles[i]
            if not pile:
                continue
            c = pile[-1] % 52
            if target := wanted.get(c):
                out.append(Move(t, target))
                continue
            s, r = c // 13, c % 13 + 1
            ad = ends[s]
            if ad is None or 1 < len(pile) <= shifts:  # a lone card never turns
                continue
            a, d = ad
            if r == a + 1 == d - 1 or (r != a + 1 and r != d - 1):
                continue  # into the wait cell, or no foundation
            # both copies of rank q are founded when the ace's pile reached q (one
            # copy) and the king's pile came down to q (the other)
            if all(not 1 <= q <= 13 or d <= q <= a for q in (r - 1, r + 1)):
                out.append(Move(t, UP[s] if r == a + 1 else DOWN[s]))
        return out
