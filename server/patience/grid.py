"""The carpet of seed 003: an 8×8 grid of cards laid alternately upright and across.

Carpet (Ковер) and Squaring the Circle (Квадратура круга) share it (docs/games/carpet.md,
docs/games/squaring_circle.md). Cell ``(r, c)`` — row and column 0..7, ``G00`` top left, ``G07``
top right — holds one card or is a gap; a gap is never refilled. A card lies
**upright** (``orient`` ``"v"``, short sides facing north and south) where ``r + c``
is even and **across** (``"h"``, short sides west and east) where it is odd.

A card is **free** when one of its short sides can be reached from outside the
carpet. The default rule, ``adjacent``: the neighbour beyond a short side is off the
grid or a gap. Since a card leaves only when free, every gap is joined through gaps
to the outside, so this is the same as "reachable through the gaps". The option
``line_of_sight`` (Cadogan's straight lane) asks for a clear row of gaps from that
short side all the way to the edge; no game offers it yet.

:class:`CarpetGame` adds what both games do alike around the carpet: a stock turned
one card at a time (a turned card that fits a foundation goes there, the rest onto a
waste whose top plays), and unshuffled redeals.

Cells are passed as a sequence of 64 items in row-major order (``G00`` first) or as
8 rows of 8: pile tuples (a game's ``state.piles`` slice), flags, or card ids with
``None`` for a gap (see :func:`occupied`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any, ClassVar, Literal, NamedTuple

from .cards import SUIT_RANK, pretty
from .engine import Game, Move, Pile, State
from .rules import moved, turned, turned_over

Rule = Literal["adjacent", "line_of_sight"]

SIZE = 8
CELLS: tuple[str, ...] = tuple(f"G{r}{c}" for r in range(SIZE) for c in range(SIZE))


def cell_id(r: int, c: int) -> str:
    """``G<r><c>``, e.g. ``G07`` for row 0, column 7."""
    return f"G{r}{c}"


def orient(r: int, c: int) -> Literal["v", "h"]:
    """``"v"`` (upright: short sides north and south) where ``r + c`` is even,
    else ``"h"`` (across: short sides west and east)."""
    return "v" if (r + c) % 2 == 0 else "h"


def _sides(r: int, c: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two directions ``(dr, dc)`` the short sides of cell ``(r, c)`` face."""
    return ((-1, 0), (1, 0)) if orient(r, c) == "v" else ((0, -1), (0, 1))


def _lane(r: int, c: int, dr: int, dc: int) -> tuple[int, ...]:
    """Cell indices from the neighbour in direction ``(dr, dc)`` to the edge."""
    out = []
    r, c = r + dr, c + dc
    while 0 <= r < SIZE and 0 <= c < SIZE:
        out.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return tuple(out)


#: per cell, the two lanes beyond its short sides (an empty lane: the edge itself)
LANES: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (_lane(r, c, *a), _lane(r, c, *b))
    for r in range(SIZE)
    for c in range(SIZE)
    for a, b in [_sides(r, c)]
)
#: per cell, the neighbours beyond its short sides (-1: off the grid)
_NEXT: tuple[tuple[int, int], ...] = tuple((a[0] if a else -1, b[0] if b else -1) for a, b in LANES)


def occupied(cells: Sequence[Any]) -> tuple[bool, ...]:
    """64 flags, row-major, from ``cells`` given flat (64 items) or as 8 rows of 8.

    A cell holds a card when it is a non-empty pile, ``True`` or a card id (any int,
    even 0); ``None``, ``False`` and empty piles are gaps."""
    flat = [x for row in cells for x in row] if len(cells) == SIZE else list(cells)
    if len(flat) != SIZE * SIZE:
        raise ValueError(f"a carpet has {SIZE * SIZE} cells, not {len(flat)}")
    return tuple(x is not None and x is not False and (isinstance(x, int) or bool(x)) for x in flat)


def _adjacent(cells: Sequence[Sized] | Sequence[bool]) -> list[int]:
    """The `adjacent` rule over 64 truthy-when-occupied cells (the hot path of the
    games' legal moves: one pass, no calls)."""
    out = []
    for i, (a, b) in enumerate(_NEXT):
        if cells[i] and (a < 0 or b < 0 or not cells[a] or not cells[b]):
            out.append(i)
    return out


def _free_at(cells: Sequence[bool], i: int, rule: Rule) -> bool:
    if not cells[i]:
        return False
    if rule == "adjacent":
        a, b = _NEXT[i]
        return a < 0 or b < 0 or not cells[a] or not cells[b]
    return any(not any(cells[j] for j in lane) for lane in LANES[i])


def free(cells: Sequence[Any], r: int, c: int, *, rule: Rule = "adjacent") -> bool:
    """Whether a card lies at ``(r, c)`` and may be taken (False for a gap).

    ``cells``: see :func:`occupied`."""
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise ValueError(f"no cell ({r}, {c}) on the carpet")
    return _free_at(occupied(cells), r * SIZE + c, rule)


def free_cells(cells: Sequence[Any], *, rule: Rule = "adjacent") -> list[int]:
    """Row-major indices (``r * 8 + c``) of every free card; ``cells`` as for
    :func:`occupied`."""
    flags = occupied(cells)
    if rule == "adjacent":
        return _adjacent(flags)
    return [i for i in range(SIZE * SIZE) if _free_at(flags, i, rule)]


#: the 16 cards free in a full carpet (any rule): the short sides on the border
INITIALLY_FREE: tuple[tuple[int, int], ...] = tuple(
    (i // SIZE, i % SIZE) for i in free_cells([(0,)] * (SIZE * SIZE))
)


def cell_piles(x: int = 0, y: int = 0) -> tuple[Pile, ...]:
    """The 64 grid piles, row-major, with their orientation; ``G00`` at ``(x, y)``."""
    return tuple(
        Pile(cell_id(r, c), "grid", x + c, y + r, label=cell_id(r, c), orient=orient(r, c))
        for r in range(SIZE)
        for c in range(SIZE)
    )


def blocked_reason(r: int, c: int) -> str:
    """Why the card at ``(r, c)`` is not free (for ``explain``)."""
    sides = "north and south" if orient(r, c) == "v" else "west and east"
    lies = "upright" if orient(r, c) == "v" else "across"
    return (
        f"{cell_id(r, c)} is not free: it lies {lies} and both its short sides "
        f"({sides}) touch other cards"
    )


class CarpetVars(NamedTuple):
    """The variables of both carpet games."""

    #: times the waste may still be turned over (a new game starts with ``redeals``)
    redeals_left: int
    #: a card turned from the stock fits two foundations: it waits on the waste top
    #: until the player puts it on one of them (never set in Squaring the Circle: a
    #: turned card there fits one kind of slot, and of two alike slots goes to the first)
    pending: bool = False


class CarpetGame(Game[CarpetVars]):
    """A game of the carpet, a stock ``S`` and a waste ``X`` (both seed-003 carpets).

    The layout must hold the 64 cells in row-major order. ``deal`` turns one card:
    «Если можно, кладем их на базовые, если нет — …»: a card that fits one foundation
    goes there at once (so does one that fits only piles holding the same cards: it goes
    to the first); one that fits two different piles waits on the waste top
    (``pending``) until the player puts it on one of them; only a card that fits none
    stays on the waste. ``redeal`` turns the waste over unshuffled (the card that
    entered it first is turned first again).
    """

    redeals: ClassVar[int]
    Vars = CarpetVars
    #: both forced when they are the only move: a client may play them for the player
    actions = forced_actions = frozenset({"deal", "redeal"})

    def __init__(self) -> None:
        super().__init__()
        self.g0 = self.at[CELLS[0]]
        self.stock = self.at["S"]
        self.waste = self.at["X"]
        self._free: tuple[tuple[tuple[int, ...], ...], list[int]] | None = None

    def new_state(
        self,
        piles: Mapping[str, Iterable[int]],
        vars: CarpetVars | None = None,
        rng: int = 0,
    ) -> State[CarpetVars]:
        """As :meth:`Game.new_state`; the variables default to a new game's."""
        return super().new_state(piles, CarpetVars(self.redeals) if vars is None else vars, rng)

    def free(self, state: State[CarpetVars]) -> list[int]:
        """Row-major indices of the free carpet cards (do not change the list: the
        last position's answer is kept, by identity of its piles, since a solver asks
        for the moves and the safe moves of each position it expands)."""
        piles = state.piles
        cached = self._free
        if cached is not None and cached[0] is piles:
            return cached[1]
        free = _adjacent(piles[self.g0 : self.g0 + SIZE * SIZE])
        self._free = (piles, free)
        return free

    def targets(self, state: State[CarpetVars]) -> dict[int, list[str]]:
        """``card % 52`` → the foundations that take that card now."""
        raise NotImplementedError

    def _fits(self, state: State[CarpetVars], c: int) -> list[str]:
        return self.targets(state).get(c % 52, [])

    def packs(self, state: State[CarpetVars]) -> tuple[tuple[int, int], ...]:
        """(suit, rank) of the cards a free carpet card may be packed as onto the
        waste (default: none; nothing is packed on the waste)."""
        return ()

    def moves(self, state: State[CarpetVars]) -> list[Move]:
        """While a turned card waits, its moves alone; else each free carpet card to
        the foundations that take it and onto the waste where :meth:`packs` allows,
        then the waste top to the foundations, then ``deal`` or ``redeal``."""
        if (forced := self.pending_moves(state)) is not None:
            return forced
        piles = state.piles
        g0 = self.g0
        targets = self.targets(state)
        packs = self.packs(state)
        legal: list[Move] = []
        for i in self.free(state):
            c = piles[g0 + i][-1]
            cell = CELLS[i]
            for dst in targets.get(c % 52, ()):
                legal.append(Move(cell, dst))
            if packs and SUIT_RANK[c] in packs:
                legal.append(Move(cell, "X"))
        return legal + self.waste_and_stock_moves(state, targets)

    def pending_moves(self, state: State[CarpetVars]) -> list[Move] | None:
        """While a turned card waits to go to a foundation: its moves, and no other."""
        if not state.vars.pending:
            return None
        return [Move("X", f) for f in self._fits(state, state.piles[self.waste][-1])]

    def waste_and_stock_moves(
        self, state: State[CarpetVars], targets: Mapping[int, list[str]]
    ) -> list[Move]:
        """The waste top to each foundation in ``targets`` that takes it, then ``deal``
        or ``redeal``: the end of both games' legal moves."""
        waste = state.piles[self.waste]
        legal = [Move("X", dst) for dst in targets.get(waste[-1] % 52, ())] if waste else []
        return legal + self.stock_moves(state)

    def stock_moves(self, state: State[CarpetVars]) -> list[Move]:
        """``deal`` while the stock lasts, then ``redeal`` while one is left."""
        piles = state.piles
        if piles[self.stock]:
            return [DEAL]
        if piles[self.waste] and state.vars.redeals_left:
            return [REDEAL]
        return []

    def play(self, state: State[CarpetVars], move: Move) -> State[CarpetVars]:
        """A card move (both games only move top cards one at a time), ``deal`` or
        ``redeal``."""
        piles = state.piles
        if move.action is None:
            src, dst = self.at[move.src or ""], self.at[move.dst or ""]
            vars_ = state.vars._replace(pending=False) if state.vars.pending else state.vars
            return State(moved(piles, src, dst), vars_, state.rng)
        out = list(piles)
        if move.action == "deal":
            out[self.stock], out[self.waste] = turned(piles[self.stock], piles[self.waste])
            turned_up = State(tuple(out), state.vars, state.rng)
            fits = self._fits(turned_up, out[self.waste][-1])
            if len({bytes(c % 52 for c in piles[self.at[f]]) for f in fits}) == 1:
                fits = fits[:1]  # two slots holding the same cards are one choice
            if len(fits) == 1:  # it goes to the one foundation it fits
                return State(
                    moved(turned_up.piles, self.waste, self.at[fits[0]]), state.vars, state.rng
                )
            if fits:  # it fits two: the player picks
                return turned_up._replace(vars=state.vars._replace(pending=True))
            return turned_up
        out[self.stock], out[self.waste] = turned_over(piles[self.waste]), ()
        left = state.vars.redeals_left - 1
        return State(tuple(out), state.vars._replace(redeals_left=left), state.rng)

    def info(self, state: State[CarpetVars]) -> dict[str, Any]:
        left = state.vars.redeals_left
        return {
            "redeals_left": left,
            "pass": self.redeals + 1 - left,
            "free": [CELLS[i] for i in self.free(state)],
            "pending": bool(state.vars.pending),
        }

    def explain(self, state: State[CarpetVars], move: Move) -> str:
        # A turned card that fits two foundations waits for the player's choice:
        # every other move is refused for that first.
        piles = state.piles
        if state.vars.pending:
            c = piles[self.waste][-1]
            fits = self._fits(state, c)
            if move.src != "X" or move.dst not in fits:
                return (
                    f"the turned {pretty(c)} fits a foundation and goes there first: "
                    f"{' or '.join(fits)}"
                )
        return super().explain(state, move)

    def explain_action(self, state: State[CarpetVars], move: Move) -> str:
        piles = state.piles
        if move.action == "deal":
            if piles[self.waste] and state.vars.redeals_left:
                return "the stock is empty: turn the waste over with redeal"
            return "the stock is empty"
        if piles[self.stock]:  # redeal
            return "turn the whole stock before redealing the waste"
        if not state.vars.redeals_left:
            times = "once" if self.redeals == 1 else f"{self.redeals} times"
            return f"the waste may be turned over only {times}"
        return "the waste is empty: there is nothing to redeal"

    def explain_card(self, state: State[CarpetVars], move: Move, src: int, dst: int) -> str:
        """The reasons both games share; a free card (a free carpet card or the waste
        top) going to a foundation or the waste is :meth:`explain_free_card`'s."""
        piles = state.piles
        sid, did = move.src or "", move.dst or ""
        if move.index is not None:
            return "only top cards move here: a move names no index"
        if sid == "S":
            return "turn stock cards with the deal action"
        if did in CELLS:
            return "nothing may be put onto the carpet: its gaps stay empty"
        if did == "S":
            return "nothing may be put onto the stock"
        if src == dst:
            return "a card cannot move onto its own pile"
        if sid in CELLS:
            i = src - self.g0
            if not piles[src]:
                return f"{sid} is a gap: its card has gone"
            if i not in self.free(state):
                return blocked_reason(i // SIZE, i % SIZE)
        elif src == self.waste:
            if not piles[src]:
                return "the waste is empty"
        else:
            return "cards never leave the foundations"
        return self.explain_free_card(state, move, piles[src][-1])

    def explain_free_card(self, state: State[CarpetVars], move: Move, card: int) -> str:
        """Why the free ``card`` may not make ``move`` to a foundation or the waste
        (the game's own rule; :meth:`explain_card` has said the rest)."""
        raise NotImplementedError


DEAL = Move.act("deal")
REDEAL = Move.act("redeal")
