"""Ковер — Carpet, the Crazy Quilt (seed 003; docs/games/carpet.md).

Two decks. An ace and a king of each suit start the foundations: up in suit to the
king on the aces, down in suit to the ace on the kings. Sixty-four cards form the
carpet (8×8, alternately upright and across, :mod:`..grid`); a card whose short side
can be reached from outside is free. The stock is turned one card at a time onto a
waste whose top card also plays; a free carpet card may be packed onto the waste top
one rank up or down in suit. The waste is turned over once, unshuffled.
"""

from __future__ import annotations

from ..cards import SUIT_SYMBOLS, SUITS, pretty, rank, suit
from ..engine import Move, Pile, State, as_stock
from ..grid import CELLS, KEY, CarpetGame, CarpetVars, cell_piles
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
        s, r = KEY[waste[-1]]
        return ((s, r - 1), (s, r + 1))

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
