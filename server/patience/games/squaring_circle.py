"""Квадратура круга — Squaring the Circle, by Adolf Schaaf (seed 003;
docs/games/squaring_circle.md).

Two decks, nothing set aside. The carpet of Ковер (:mod:`..grid`), the rest in the
stock. Every king, ace, five and nine is a base in the circle of 32 slots: the kings
stay alone, the aces take 2 3 4, the fives 6 7 8, the nines 10 J Q, in suit. A five
comes out only after an ace of its suit (the second after the second), a nine only
after a five. The stock turns one card at a time onto a waste whose top plays; the
waste is turned over twice, unshuffled. Nothing is packed on the waste.
"""

from __future__ import annotations

from ..cards import KING, RANKS, SUIT_SYMBOLS, SUITS, pretty, rank, suit
from ..engine import Move, Pile, State, as_stock, shuffled
from ..grid import CELLS, CarpetGame, CarpetVars, cell_piles

#: the bases of the circle in the order of the slot ids (``B<base><suit><n>``)
BASES = (KING, 1, 5, 9)
SLOTS = tuple(f"B{RANKS[b - 1]}{s}{n}" for s in SUITS for b in BASES for n in (1, 2))


def size(base: int) -> int:
    """Cards on a complete slot: the king alone, the others base + three."""
    return 1 if base == KING else 4


def name(base: int) -> str:
    return {KING: "king", 1: "ace", 5: "five", 9: "nine"}[base]


def _ring(k: int) -> tuple[int, int]:
    """Layout cell of the k-th slot on a 9×9 ring right of the carpet, clockwise from
    the top left corner, one side per suit."""
    side, j = divmod(k, 8)
    return [(9 + j, 0), (17, j), (17 - j, 8), (9, 8 - j)][side]


class SquaringCircle(CarpetGame):
    slug = "squaring_circle"
    title_en = "Squaring the Circle"
    title_ru = "Квадратура круга"
    decks = 2
    summary = (
        "Kings, aces, fives and nines form a circle of 32 bases; build them up in suit "
        "by three from the free cards of an 8×8 carpet and a waste."
    )
    redeals = 2  # seed: turn the packet over, "it may be repeated once more"
    layout = (
        *cell_piles(0, 0),
        *(
            Pile(b, "foundation", *_ring(k), label=f"{b[1]}{SUIT_SYMBOLS[SUITS.index(b[2])]}")
            for k, b in enumerate(SLOTS)
        ),
        Pile("S", "stock", 12, 4, label="stock", show="down"),
        Pile("X", "waste", 14, 4, label="waste"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: per suit: (slot id, pile index, base rank) of its eight slots
        self.slots = tuple(
            tuple((b, self.at[b], BASES[k // 2]) for k, b in enumerate(SLOTS[8 * s : 8 * s + 8]))
            for s in range(4)
        )

    def deal(self, seed: int) -> State[CarpetVars]:
        _, pack, rng = shuffled(2, seed)
        piles: dict[str, tuple[int, ...]] = {g: (c,) for g, c in zip(CELLS, pack[:64], strict=True)}
        piles["S"] = as_stock(pack[64:])
        return self.new_state(piles, CarpetVars(self.redeals), rng)

    # -- legal moves ------------------------------------------------------------------

    @staticmethod
    def released(placed: dict[int, int], base: int) -> bool:
        """Whether another base of rank ``base`` may enter the circle, given how many
        of each base of its suit are placed: a five needs more aces than fives, a
        nine more fives than nines."""
        if base == 5:
            return placed[5] < placed[1]
        if base == 9:
            return placed[9] < placed[5]
        return True

    def placed(self, state: State[CarpetVars], s: int) -> dict[int, int]:
        piles = state.piles
        counts = dict.fromkeys(BASES, 0)
        for _, i, base in self.slots[s]:
            if piles[i]:
                counts[base] += 1
        return counts

    def targets(self, state: State[CarpetVars]) -> dict[int, list[str]]:
        """``card % 52`` → the slots that take that card now."""
        piles = state.piles
        out: dict[int, list[str]] = {}
        for s in range(4):
            placed = self.placed(state, s)
            for b, i, base in self.slots[s]:
                pile = piles[i]
                if not pile:
                    # The two slots of a base are alike: a base enters the first empty one.
                    if self.released(placed, base) and s * 13 + base - 1 not in out:
                        out[s * 13 + base - 1] = [b]
                elif len(pile) < size(base):
                    out.setdefault(pile[-1] % 52 + 1, []).append(b)
        return out

    # -- what a player sees -----------------------------------------------------------

    def explain_free_card(self, state: State[CarpetVars], move: Move, c: int) -> str:
        piles = state.piles
        dst = move.dst or ""
        if dst == "X":
            return "nothing is packed onto the waste in this patience"
        s = SUITS.index(dst[2])
        sym = SUIT_SYMBOLS[s]
        base = BASES["KA59".index(dst[1])]
        pile = piles[self.at[dst]]
        if suit(c) != s:
            return f"{dst} is a {sym} slot, not for {pretty(c)}"
        if not pile:
            if rank(c) != base:
                return (
                    f"the empty {dst} takes only its base {pretty(c - rank(c) + base)}, "
                    f"not {pretty(c)}"
                )
            placed = self.placed(state, s)
            need = 1 if base == 5 else 5
            # Seed: a five only after an ace of its suit, the second five after the
            # second ace; a nine likewise after a five.
            return (
                f"{pretty(c)} needs another {name(need)} of {sym} in the circle first "
                f"({placed[need]} {name(need)}(s) and {placed[base]} {name(base)}(s) "
                f"placed)"
            )
        if base == KING:
            return f"a king's slot holds its king alone: nothing goes onto {dst}"
        if len(pile) >= size(base):
            return f"{dst} is complete"
        return f"{dst} needs {pretty(pile[-1] + 1)} next, not {pretty(c)}"


GAME = SquaringCircle()
