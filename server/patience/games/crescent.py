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
from .crescent_aids import CrescentAids

#: the foundations up from the aces and down from the kings
UP, DOWN = FA, FK

TABLEAU = tuple(f"T{i}" for i in range(1, 17))
WAIT = tuple(f"W-{s}" for s in SUITS)

#: per card of one deck (suit-major), the cards of its suit one rank below and above
NEIGHBOURS = tuple(tuple(c + k for k in (-1, 1) if 0 <= c % 13 + k < 13) for c in range(52))


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
        self.aids = CrescentAids(self, shifts=CrescentVars().shifts_left)

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

    # -- for the solver and ``auto``: crescent_aids.py ---------------------------------

    def heuristic(self, state: State[CrescentVars]) -> float:
        """:meth:`CrescentAids.heuristic`: the cards not founded, shifts spent, or
        :data:`~.crescent_aids.DEAD`."""
        return self.aids.heuristic(state.piles, state.vars.shifts_left)

    def stuck(self, state: State[CrescentVars]) -> bool:
        """:meth:`CrescentAids.stuck`: whether some card can never leave its pile."""
        return self.aids.stuck(state.piles, state.vars.shifts_left)

    def safe_moves(self, state: State[CrescentVars]) -> list[Move]:
        """:meth:`CrescentAids.safe_moves`: pile tops with one foundation to go to."""
        return self.aids.safe_moves(state.piles, state.vars.shifts_left)

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
