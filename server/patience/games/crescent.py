"""Полумесяц — Crescent (seed 000; docs/games/crescent.md).

Two decks. An ace and a king of each suit start the foundations; the other 96
cards lie in sixteen squared piles of six around them. Pile tops go up onto the
aces or down onto the kings, or onto another pile top of the same suit one rank
apart. Three times the bottom card of every pile may be shifted to its top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import SUITS, pretty, rank, suit
from ..engine import Game, Move, Pile, Piles, State, rows
from ..rules import FA, FK, aces_and_kings_aside, moved, swaps

#: the foundations up from the aces and down from the kings
UP, DOWN = FA, FK

TABLEAU = tuple(f"T{i}" for i in range(1, 17))
WAIT = tuple(f"W-{s}" for s in SUITS)

#: per card of one deck (suit-major), the cards of its suit one rank below and above
NEIGHBOURS = tuple(tuple(c + k for k in (-1, 1) if 0 <= c % 13 + k < 13) for c in range(52))

#: the solver's estimate of a position that can no longer be won (:meth:`Crescent.stuck`):
#: its ``Tuning.dead``, so the search drops such positions
DEAD = 1000.0


class CrescentVars(NamedTuple):
    shifts_left: int = 3


class Crescent(Game[CrescentVars]):
    slug = "crescent"
    title_en = "Crescent"
    title_ru = "Полумесяц"
    decks = 2
    summary = "Sixteen squared piles round the foundations; build up on aces, down on kings."
    actions = frozenset({"shift"})
    Vars = CrescentVars
    layout = (
        *(Pile(t, "tableau", i, 0, label=t, show="top") for i, t in enumerate(TABLEAU[:8])),
        *(Pile(f, "foundation", 2 + i, 1, label="A↑") for i, f in enumerate(UP)),
        *(Pile(w, "cell", 2 + i, 2, label="wait") for i, w in enumerate(WAIT)),
        *(Pile(f, "foundation", 2 + i, 3, label="K↓") for i, f in enumerate(DOWN)),
        *(Pile(t, "tableau", i, 4, label=t, show="top") for i, t in enumerate(TABLEAU[8:])),
    )

    def __init__(self) -> None:
        super().__init__()
        self.tableau = tuple(self.at[t] for t in TABLEAU)
        self.up = tuple(self.at[f] for f in UP)
        self.down = tuple(self.at[f] for f in DOWN)
        self.wait = tuple(self.at[w] for w in WAIT)
        #: every move of a pile top, looked up, not built, for each position
        self._to = self.card_moves(TABLEAU, (*TABLEAU, *UP, *DOWN, *WAIT))

    def deal(self, seed: int) -> State[CrescentVars]:
        founded, cards, rng = aces_and_kings_aside(seed)
        piles: dict[str, Sequence[int]] = {
            **founded,
            **dict(zip(TABLEAU, rows(cards, 16), strict=True)),
        }
        return self.new_state(piles, CrescentVars(), rng)

    def moves(self, state: State[CrescentVars]) -> list[Move]:
        piles = state.piles
        legal: list[Move] = []
        # This is the hot path (a position's every move, for each reply and each node of
        # a search): cards of one deck (``c % 52``, suit-major) as dict keys, not
        # (suit, rank) tuples, and each move looked up, not built.
        tops: dict[int, list[str]] = {}
        for t, i in zip(TABLEAU, self.tableau, strict=True):
            if pile := piles[i]:
                c = pile[-1] % 52
                if c in tops:
                    tops[c].append(t)
                else:
                    tops[c] = [t]
        at = self.at
        to = self._to
        fits = self._fits(piles)  # each suit's foundations worked out once
        for c, sources in tops.items():
            for target in fits.get(c, ()):
                legal.extend([to[src][target] for src in sources])
            for other in NEIGHBOURS[c]:
                if dsts := tops.get(other):
                    # Never a move that only swaps two piles (T6 = 9♣ 8♣ onto T16 = 9♣).
                    legal.extend(
                        [
                            to[src][dst]
                            for dst in dsts
                            for src in sources
                            if not swaps(piles[at[src]], piles[at[dst]])
                        ]
                    )
        if state.vars.shifts_left and self._shift_changes(piles):
            legal.append(Move.act("shift"))
        return legal

    def _fits(self, piles: Piles) -> dict[int, tuple[str, ...]]:
        """Card of one deck (``c % 52``) → where a pile top of that card may go now
        (:meth:`_foundation_targets` for every card at once)."""
        out: dict[int, tuple[str, ...]] = {}
        for s in range(4):
            card = s * 13 - 1  # + rank: the card of that rank in suit s
            waiting = piles[self.wait[s]]
            if waiting:
                # one rank apart from both foundations' tops: its neighbours exist
                w = card + waiting[0] % 13 + 1
                out[w] = (UP[s], DOWN[s])
                out[w + 1] = (UP[s],)
                out[w - 1] = (DOWN[s],)
                continue
            a = piles[self.up[s]][-1] % 13 + 1
            d = piles[self.down[s]][-1] % 13 + 1
            if a + 1 == d - 1:
                out[card + a + 1] = (WAIT[s],)
                continue
            if a < 13:
                out[card + a + 1] = (UP[s],)
            if d > 1:
                out[card + d - 1] = (DOWN[s],)
        return out

    def _shift_changes(self, piles: Piles) -> bool:
        """Whether a shift changes the layout. A pile of three or more always changes
        (two decks hold no card thrice); piles of two only swap their cards, which
        changes nothing when they are twins (8♣ 8♣) or pair off as mirror images
        (5♥ 9♣ and 9♣ 5♥)."""
        pairs: list[tuple[int, int]] = []
        for i in self.tableau:
            pile = piles[i]
            if len(pile) > 2:
                return True
            if len(pile) == 2:
                pairs.append((pile[0] % 52, pile[1] % 52))
        return sorted(pairs) != sorted((b, a) for a, b in pairs)

    def _foundation_targets(self, piles: Piles, s: int, r: int) -> tuple[str, ...]:
        up, down, waiting = piles[self.up[s]], piles[self.down[s]], piles[self.wait[s]]
        a = rank(up[-1])
        d = rank(down[-1])
        if waiting:
            w = rank(waiting[0])
            # Seed: the waiting card lies "until the card that follows it comes out".
            if r == w:
                return (UP[s], DOWN[s])
            return (UP[s],) if r == w + 1 else (DOWN[s],) if r == w - 1 else ()
        if a + 1 == r == d - 1:
            # Seed: a card that fits both foundations "is laid between the rows".
            return (WAIT[s],)
        return (UP[s],) if r == a + 1 else (DOWN[s],) if r == d - 1 else ()

    # -- guidance ---------------------------------------------------------------------

    #: what a shift spent costs in the solver's estimate, in cards still to found
    SHIFT_COST = 5

    def heuristic(self, state: State[CrescentVars]) -> float:
        """The cards not yet founded plus :attr:`SHIFT_COST` for every shift spent, or
        :data:`DEAD` when some card can never leave its pile (:meth:`stuck`). A
        shift turns all sixteen piles at once, so it nearly always uncovers a card a
        foundation wants: on cards founded alone the search spends all three early
        and is left with piles it can no longer turn (the cost chosen, measured:
        docs/solver.md)."""
        if self.stuck(state):
            return DEAD
        piles = state.piles
        founded = sum(len(piles[i]) for i in self._foundations)
        return self.total - founded + self.SHIFT_COST * (3 - state.vars.shifts_left)

    def stuck(self, state: State[CrescentVars]) -> bool:
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
        piles = state.piles
        k = state.vars.shifts_left
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

    def safe_moves(self, state: State[CrescentVars]) -> list[Move]:
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
        piles = state.piles
        shifts = state.vars.shifts_left
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
        for t, i in zip(TABLEAU, self.tableau, strict=True):
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

    def play(self, state: State[CrescentVars], move: Move) -> State[CrescentVars]:
        if move.action == "shift":
            piles = tuple(
                p[1:] + p[:1] if i in self.tableau and len(p) > 1 else p
                for i, p in enumerate(state.piles)
            )
            return State(piles, CrescentVars(state.vars.shifts_left - 1), state.rng)
        src, dst = self.at[move.src or ""], self.at[move.dst or ""]
        piles = state.piles
        s = suit(piles[src][-1])
        waiting = piles[self.wait[s]]
        if waiting and dst in (self.up[s], self.down[s]):
            r, w = rank(piles[src][-1]), rank(waiting[0])
            # The waiting card goes first where the played card decides, or to the
            # other foundation when the played card is its twin.
            first = dst if r != w else (self.down[s] if dst == self.up[s] else self.up[s])
            piles = moved(piles, self.wait[s], first)
        return State(moved(piles, src, dst), state.vars, state.rng)

    def info(self, state: State[CrescentVars]) -> dict[str, int]:
        return {"shifts_left": state.vars.shifts_left}

    def explain_action(self, state: State[CrescentVars], move: Move) -> str:
        if not state.vars.shifts_left:
            return "all three shifts are used"
        return "a shift would change nothing: no pile has two different cards to turn"

    def explain_card(self, state: State[CrescentVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        if move.src not in TABLEAU:
            return "only the top cards of the sixteen piles move"
        if move.dst in UP + DOWN and piles[src]:
            c = piles[src][-1]
            s = suit(c)
            if (move.dst or "")[-1] == SUITS[s] and WAIT[s] in self._foundation_targets(
                piles, s, rank(c)
            ):
                return f"{pretty(c)} fits both foundations: it must wait in {WAIT[s]}"
        if move.dst in TABLEAU:
            if not piles[dst]:
                return "an empty pile stays empty"
            pile, target = piles[src], piles[dst]
            if (
                pile
                and swaps(pile, target)
                and suit(pile[-1]) == suit(target[-1])
                and abs(rank(pile[-1]) - rank(target[-1])) == 1
            ):
                return (
                    f"{move.src} under its top card is just like {move.dst}: the move "
                    "would only swap the two piles"
                )
        return self.generic_reason(state, move)


GAME = Crescent()
