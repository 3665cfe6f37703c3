"""Ковер — Carpet, the Crazy Quilt (seed 003; docs/games/carpet.md).

Two decks. An ace and a king of each suit start the foundations: up in suit to the
king on the aces, down in suit to the ace on the kings. Sixty-four cards form the
carpet (8×8, alternately upright and across, :mod:`..grid`); a card whose short side
can be reached from outside is free. The stock is turned one card at a time onto a
waste whose top card also plays; a free carpet card may be packed onto the waste top
one rank up or down in suit. The waste is turned over once, unshuffled.
"""

from __future__ import annotations

from ..cards import SUIT_RANK, SUIT_SYMBOLS, SUITS, pretty, rank, suit
from ..engine import Move, Pile, State, as_stock
from ..grid import CELLS, CarpetGame, CarpetVars, cell_piles
from ..rules import DOWN_FROM_KING, FA, FK, UP_FROM_ACE, Foundations, aces_and_kings_aside

#: the foundations up from the aces and down from the kings
UP, DOWN = FA, FK


class Carpet(CarpetGame):
    slug = "carpet"
    title_en = "Carpet"
    title_ru = "Ковер"
    decks = 2
    summary = (
        "Take free cards from an 8×8 carpet up onto the aces and down onto the kings; "
        "pack them on the waste in suit, one rank up or down."
    )
    redeals = 1  # seed: turn the packet over once more, then the patience has failed
    layout = (
        *(Pile(f, "foundation", i, 0, label=f"A{SUIT_SYMBOLS[i]}↑") for i, f in enumerate(UP)),
        *(
            Pile(f, "foundation", 4 + i, 0, label=f"K{SUIT_SYMBOLS[i]}↓")
            for i, f in enumerate(DOWN)
        ),
        *cell_piles(0, 1),
        Pile("S", "stock", 9, 1, label="stock", show="down"),
        Pile("X", "waste", 9, 2, label="waste"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.up = tuple(self.at[f] for f in UP)
        self.down = tuple(self.at[f] for f in DOWN)
        self._found_rules = Foundations(
            (f, self.at[f], rule)
            for s in range(4)
            for f, rule in ((UP[s], UP_FROM_ACE), (DOWN[s], DOWN_FROM_KING))
        )

    def deal(self, seed: int) -> State[CarpetVars]:
        piles, pack, rng = aces_and_kings_aside(seed)
        piles.update((g, (c,)) for g, c in zip(CELLS, pack[:64], strict=True))
        piles["S"] = as_stock(pack[64:])
        return self.new_state(piles, CarpetVars(self.redeals), rng)

    # -- legal moves ------------------------------------------------------------------

    def targets(self, state: State[CarpetVars]) -> dict[int, list[str]]:
        """``card % 52`` → the foundations that take that card now."""
        return self._found_rules.wants(state.piles)[0]

    def packs(self, state: State[CarpetVars]) -> tuple[tuple[int, int], ...]:
        """(suit, rank) of the cards a free carpet card may be packed as onto the waste."""
        waste = state.piles[self.waste]
        if not waste:
            return ()
        # Seed: "one higher or one lower in the same suit" as the waste top; no K↔A.
        s, r = SUIT_RANK[waste[-1]]
        return ((s, r - 1), (s, r + 1))

    def safe_moves(self, state: State[CarpetVars]) -> list[Move]:
        """A free carpet card or the waste top onto the one foundation of its suit
        that wants it, once the other foundation of its suit has gone past both its
        rank and the rank next to it on the far side: a card of rank ``r`` goes up on
        the aces safely once the kings' pile of its suit lies at ``r - 1`` or below, and
        down on the kings once the aces' pile lies at ``r + 1`` or above.

        Why this never hurts (rules of seed 003: a card goes to "the up or down
        foundation of its suit that needs exactly that rank"; a free carpet card may be
        packed onto the waste top "one rank up or down in suit"; the carpet never takes
        a card back). Call the card ``x`` (up case; down is the mirror) and compare any
        winning line ``O`` from the position before with the line ``M`` that founds
        ``x`` at once and then plays ``O``'s moves. Let ``E`` be the cards ``M`` has
        founded that ``O`` has not; each of them has its twin on the kings' pile (so its
        foundation is its only home) and both copies of the rank below it are founded
        elsewhere in ``M``. Then, move by move, ``M``'s foundations are ``O``'s with
        ``E`` on top, the carpet of ``M`` has ``O``'s gaps and more (so every card free
        in ``O`` is free in ``M``: freedom only grows with gaps), and ``M``'s waste and
        stock are ``O``'s without ``E``, in the same order:

        - a move of a card of ``E`` in ``O`` is skipped by ``M`` (it is founded there);
        - any other card ``O`` founds is not the twin of a card of ``E`` (that twin is
          on the kings), so its foundation has nothing of ``E`` on it and wants it in
          ``M`` too; the waste top of ``O``, when not in ``E``, is ``M``'s waste top;
        - ``O`` packs a card ``z`` onto a card ``w`` of ``E`` on the waste: ``z`` is one
          rank from ``w`` in suit; the rank below is founded twice in ``M`` (so not
          ``z``), hence ``z`` is the rank above, which ``w``'s foundation wants in
          ``M`` (nothing of ``E`` lies above ``w``: that would be ``z``'s twin, but the
          twin is on the kings): ``M`` founds ``z`` and it joins ``E`` (its twin is on
          the kings, its lower neighbour is ``w``'s rank, founded twice);
        - a card ``O`` deals fits the same foundations in ``M``, or, where ``M`` is
          ahead, fits only that one pile (its other pile is past it): it goes there at
          once and joins ``E`` (never a pending choice ``O`` would not have);
        - ``O``'s redeal is ``M``'s redeal, or nothing when all the waste is ``E`` (a
          redeal left over in ``M`` only adds moves).

        So ``M`` wins when ``O`` does, never later; what may be played before still can
        be. Listed while no turned card waits (then only its moves are legal)."""
        if state.vars.pending:
            return []
        piles = state.piles
        up_top = [SUIT_RANK[piles[i][-1]][1] if piles[i] else 0 for i in self.up]
        down_top = [SUIT_RANK[piles[i][-1]][1] if piles[i] else 14 for i in self.down]
        safe: list[Move] = []
        g0 = self.g0

        def home(c: int) -> str | None:
            s, r = SUIT_RANK[c]
            if up_top[s] == r - 1 and down_top[s] < r:
                return UP[s]
            if down_top[s] == r + 1 and up_top[s] > r:
                return DOWN[s]
            return None

        for i in self.free(state):
            dst = home(piles[g0 + i][-1])
            if dst is not None:
                safe.append(Move(CELLS[i], dst))
        waste = piles[self.waste]
        if waste and (dst := home(waste[-1])) is not None:
            safe.append(Move("X", dst))
        return safe

    # -- what a player sees -----------------------------------------------------------

    def explain_free_card(self, state: State[CarpetVars], move: Move, c: int) -> str:
        piles = state.piles
        src, dst = move.src or "", move.dst or ""
        if dst == "X":
            if src == "X":
                return "a card cannot move onto its own pile"
            waste = piles[self.waste]
            if not waste:
                return "cards are packed only onto a card of the waste, not an empty waste"
            return (
                f"{pretty(c)} packs only onto a waste top of its suit one rank up or "
                f"down, not onto {pretty(waste[-1])} (and never a king on an ace)"
            )
        s = SUITS.index(dst[-1])
        rule = UP_FROM_ACE if dst in UP else DOWN_FROM_KING
        need = rule.needs(piles[self.at[dst]])
        if not need:
            return f"{dst} is complete"
        if suit(c) != s:
            return f"{dst} takes only {SUIT_SYMBOLS[s]}, not {pretty(c)}"
        return f"{dst} needs {pretty(c - rank(c) + need)} next, not {pretty(c)}"


GAME = Carpet()
