"""Парад — Parade, the Royal Parade (seed 003; docs/games/parade.md).

Two decks. Twenty-four cards form the parade, three rows of eight; its aces go out
of play at once. The first row wants twos, the second threes, the third fours, each
built up in suit by three (2 5 8 J, 3 6 9 Q, 4 7 10 K). A gap in a row takes only
that row's base; a card that is not a base of its row may move out into a gap where
it belongs or onto a pile it continues. The rest of the pack is dealt eight at a time
onto eight depots whose top cards play; aces dealt are discarded. The seed breaks off
before the stock: its part follows Tarbart (see docs/games/parade.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import RANKS, SUIT_SYMBOLS, pretty, rank, suit
from ..engine import Game, Move, NoVars, Pile, State, as_stock, shuffled
from ..rules import moved

ROWS = 3
COLS = 8
#: base rank of each parade row: twos, threes, fours
BASE = (2, 3, 4)
SLOTS = tuple(f"P{k}{c}" for k in range(ROWS) for c in range(COLS))
DEPOTS = tuple(f"D{i}" for i in range(1, COLS + 1))
DEAL = Move.act("deal")
FULL = 4
#: the solver's estimate of a position that cannot be won (:meth:`Parade.heuristic`)
DEAD = 1000.0
#: the estimate's weight of one stuck depot card (docs/solver.md)
STUCK = 1.0
#: (suit, rank) of every card id, for indexing moves without calls
KEY = tuple((suit(c), rank(c)) for c in range(104))
#: (suit, rank) of every card id as one index, 16 * suit + rank
IDX = tuple(16 * s + r for s, r in KEY)
#: index -> the indices of the lower cards of its build (same suit and row)
LOWER = tuple(
    tuple(16 * (x // 16) + q for q in range(BASE[(x % 16 - 2) % 3], x % 16, 3))
    if x % 16 >= 2
    else ()
    for x in range(64)
)


def _stuck_in(pile: tuple[int, ...]) -> tuple[int, bool, list[tuple[int, int, int]]]:
    """For :meth:`Parade.stuck`, one depot: the cards lying on a lower card of their
    own build, whether one lies on both copies of such a card, and ``(suit, base,
    rank)`` of each that lies on one copy only (it never moves once its twin is built)."""
    below: dict[tuple[int, int], int] = {}  # (suit, rank) -> copies lower down
    n = 0
    dead = False
    watch: list[tuple[int, int, int]] = []
    for c in pile:
        s, r = KEY[c]
        base = BASE[(r - 2) % 3]
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


def row_name(k: int) -> str:
    return ("twos", "threes", "fours")[k]


def build(k: int) -> str:
    """The ranks of a complete pile of row ``k``, e.g. ``2 5 8 J``."""
    return " ".join("10" if r == 10 else RANKS[r - 1] for r in range(BASE[k], 14, 3))


class Parade(Game[NoVars]):
    slug = "parade"
    title_en = "Parade"
    title_ru = "Парад"
    decks = 2
    Vars = NoVars
    summary = (
        "Three rows of eight: twos, threes and fours, each built up in suit by three; "
        "misplaced cards move through the gaps the aces leave."
    )
    actions = frozenset({"deal"})
    forced_actions = frozenset({"deal"})
    #: the aces are out of play: 24 piles of four make a won game
    target = ROWS * COLS * FULL
    #: a slot's row is its meaning (the base it wants): the slots of a row are alike.
    #: The depots are not: a deal gives its k-th card to the k-th depot, so two
    #: positions whose depots hold the same cards in another order deal differently
    #: (D1 [5♠] D2 [] and D1 [] D2 [5♠] of the other deck: the next card dealt lands on
    #: the 5♠ in one and not in the other). Each depot keeps its place in the key.
    alike = tuple(SLOTS[k * COLS : (k + 1) * COLS] for k in range(ROWS))
    layout = (
        *(Pile(p, "foundation", int(p[2]), int(p[1]), label=build(int(p[1]))) for p in SLOTS),
        *(Pile(d, "tableau", i, ROWS + 1, label=d, fan="down") for i, d in enumerate(DEPOTS)),
        Pile("S", "stock", COLS + 1, 0, label="stock", show="down"),
        Pile("X", "discard", COLS + 1, 2, label="aces out"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: (slot id, pile index, row base) of every slot, row by row
        self.slots = tuple((p, self.at[p], BASE[int(p[1])]) for p in SLOTS)
        self.depots = tuple(self.at[d] for d in DEPOTS)
        self.stock = self.at["S"]
        self.discard = self.at["X"]
        #: a depot's pile -> what :func:`_stuck_in` finds in it (piles recur: a move
        #: changes one depot at most)
        self._stuck: dict[tuple[int, ...], tuple[int, bool, list[tuple[int, int, int]]]] = {}

    def deal(self, seed: int) -> State[NoVars]:
        _, pack, rng = shuffled(2, seed)
        return self.opening(pack, rng)

    def opening(self, pack: Sequence[int], rng: int = 0) -> State[NoVars]:
        """The position dealt from ``pack`` (top first): cards 0..23 into the parade
        row by row, its aces out of play at once (slot order), the rest the stock."""
        parade = pack[: ROWS * COLS]
        piles: dict[str, tuple[int, ...]] = {
            p: (c,) for p, c in zip(SLOTS, parade, strict=True) if rank(c) != 1
        }
        piles["X"] = tuple(c for c in parade if rank(c) == 1)
        piles["S"] = as_stock(pack[ROWS * COLS :])
        return self.new_state(piles, None, rng)

    # -- positions --------------------------------------------------------------------

    def score(self, state: State[NoVars]) -> tuple[int, int]:
        """Cards on founded slots (a misplaced card is not on a foundation)."""
        piles = state.piles
        n = 0
        for _, i, base in self.slots:
            pile = piles[i]
            if pile and KEY[pile[0]][1] == base:
                n += len(pile)
        return n, self.total

    def moves(self, state: State[NoVars]) -> list[Move]:
        piles = state.piles
        builds: dict[tuple[int, int], list[str]] = {}
        gaps: dict[int, list[str]] = {}
        sources: list[tuple[str, int]] = []
        for p, i, base in self.slots:
            pile = piles[i]
            if not pile:
                gaps.setdefault(base, []).append(p)
            elif KEY[pile[0]][1] != base:
                sources.append((p, pile[0]))  # misplaced: free to move
            elif len(pile) < FULL:
                s, r = KEY[pile[-1]]
                builds.setdefault((s, r + 3), []).append(p)
        for d, i in zip(DEPOTS, self.depots, strict=True):
            if piles[i]:
                sources.append((d, piles[i][-1]))
        legal: list[Move] = []
        for src, c in sources:
            key = KEY[c]
            for dst in builds.get(key, ()):
                legal.append(Move(src, dst))
            for dst in gaps.get(key[1], ()):
                legal.append(Move(src, dst))
        if piles[self.stock]:
            legal.append(DEAL)
        return legal

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
                entry = _stuck_in(pile)
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
                if pile and KEY[pile[0]][1] == base:
                    s, r = KEY[pile[-1]]
                    if r > high.get((s, base), 0):
                        high[(s, base)] = r
            for s, base, r in watch:
                if high.get((s, base), 0) >= r:
                    return n, True
        return n, False

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
        return self.total - self.score(state)[0] + STUCK * n

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
            if KEY[pile[0]][1] == base:
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
            return all(2 - held[y] > need for y in LOWER[x])

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
            elif KEY[pile[0]][1] != base:
                crowded.add(base)
                sources.append((p, pile[0]))
            else:
                s, r = KEY[pile[-1]]
                tops.setdefault((s, base), []).append(r)
                if len(pile) < FULL:
                    builds.setdefault((s, r + 3), p)
        for d, i in zip(DEPOTS, self.depots, strict=True):
            if piles[i]:
                sources.append((d, piles[i][-1]))
        safe: list[Move] = []
        for src, c in sources:
            s, r = key = KEY[c]
            if key in builds:
                row = tops[(s, BASE[(r - 2) % 3])]
                if any(t >= r for t in row) or row.count(r - 3) == 2:
                    safe.append(Move(src, builds[key]))
            elif r in gaps and r not in crowded:
                safe.append(Move(src, gaps[r]))
        return safe

    def play(self, state: State[NoVars], move: Move) -> State[NoVars]:
        piles = state.piles
        if move.action == "deal":
            out = list(piles)
            stock = piles[self.stock]
            n = min(COLS, len(stock))
            aces: list[int] = []
            for k in range(n):
                c = stock[-1 - k]
                if rank(c) == 1:
                    aces.append(c)  # discarded at once, the depot gets nothing
                else:
                    out[self.depots[k]] += (c,)
            out[self.stock] = stock[: len(stock) - n]
            out[self.discard] += tuple(aces)
            return State(tuple(out), state.vars, state.rng)
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]), state.vars, state.rng
        )

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[NoVars]) -> dict[str, Any]:
        stock = len(state.piles[self.stock])
        return {
            "deals_left": -(-stock // COLS),
            "aces_out": len(state.piles[self.discard]),
        }

    def explain_action(self, state: State[NoVars], move: Move) -> str:
        return "the stock is empty"

    def explain_card(self, state: State[NoVars], move: Move, si: int, di: int) -> str:
        piles = state.piles
        src, dst = move.src or "", move.dst or ""
        if src == "S":
            return "deal the stock with the deal action"
        if src == "X":
            return "the aces are out of play"
        if dst in DEPOTS:
            return "nothing may be put onto a depot: depots get cards only from the stock"
        if dst in ("S", "X"):
            return f"nothing may be put onto {'the stock' if dst == 'S' else 'the aces'}"
        if src == dst:
            return "a card cannot move onto its own pile"
        source = piles[si]
        if not source:
            return f"{src} is a gap" if src in SLOTS else f"{src} is empty"
        if move.index is not None:
            return "in Parade only top cards move: a move names no index"
        c = source[-1]
        if src in SLOTS:
            k = int(src[1])
            if rank(source[0]) == BASE[k]:
                if len(source) == 1:
                    return f"{pretty(c)} is a base in its own row ({row_name(k)}): it stays"
                return "cards never leave a pile built in the parade"
        k = int(dst[1])
        pile = piles[di]
        if not pile:
            return (
                f"a gap in the {row_name(k)}' row takes only a {BASE[k]} "
                f"(any suit), not {pretty(c)}"
            )
        if rank(pile[0]) != BASE[k]:
            return (
                f"{dst} holds {pretty(pile[0])}, which is not a base of this row: "
                f"it takes nothing until that card moves away"
            )
        if len(pile) >= FULL:
            return f"{dst} is complete"
        top = pile[-1]
        if suit(c) != suit(top):
            return f"{dst} builds in {SUIT_SYMBOLS[suit(top)]}, not {pretty(c)}"
        return f"{dst} needs {pretty(top + 3)} next (up by three), not {pretty(c)}"


GAME = Parade()
