"""``Game.safe_moves``: moves that can never hurt (the solver plays one and searches
no sibling; a client may play them for the player). Each listed move is legal; the
per-game readings hold on hand-built positions from the seed texts; on small positions
the search decides the same with and without them."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

import pytest

from server.patience import registry
from server.patience.cards import RANKS, SUITS
from server.patience.engine import AnyGame, AnyState, Game, Move, NoVars, State
from server.patience.games.crescent import GAME as CRESCENT
from server.patience.games.crescent import CrescentVars
from server.patience.games.hemispheres import GAME as HEMISPHERES
from server.patience.games.hemispheres import Hemispheres
from server.patience.games.parade import BASE, COLS, SLOTS, Parade
from server.patience.games.parade import GAME as PARADE
from server.patience.games.short import GAME as SHORT
from server.patience.games.short import Short, ShortVars
from server.patience.games.st_helena import GAME as ST_HELENA
from server.patience.games.st_helena import StHelena
from server.solver import TUNING, Tuning, certify, solve
from server.solver.search import _expander
from tests.server.patience.games.positions import position, run
from tests.support.sweeps import LONG


class ParadeUnguided(Parade):
    """Parade without its safe moves: the search tries every legal move."""

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        return Game.safe_moves(self, state)


UNGUIDED = ParadeUnguided()


def verdicts_alike(
    guided: AnyGame, plain: AnyGame, states: Iterable[AnyState], tuned: Tuning | None = None
) -> list[str]:
    """The search's verdicts on ``states`` with the safe moves (``guided``), where
    both it and the search without them (``plain``) reached one; the two never
    disagree (a budget may run out first, more often without the safe moves: more to
    search), and every line found certifies."""
    verdicts: list[str] = []
    for i, state in enumerate(states):
        found = solve(guided, state, max_nodes=20_000, shorten=False, tuned=tuned)
        other = solve(plain, state, max_nodes=20_000, shorten=False, tuned=tuned)
        assert len({found.outcome, other.outcome} - {"unknown"}) <= 1, i
        if "unknown" not in (found.outcome, other.outcome):
            verdicts.append(found.outcome)
        if found.line is not None:
            assert certify(guided, state, found.line)
    return verdicts


@pytest.mark.parametrize("slug", registry.slugs())
def test_safe_moves_are_legal_moves(slug: str) -> None:
    game = registry.get(slug)
    rnd = random.Random(11)
    for seed in (1, 2):
        state = game.deal(seed)
        for _ in range(150):
            legal = game.legal_moves(state)
            if not legal:
                break
            safe = game.safe_moves(state)
            assert set(safe) <= set(legal), (slug, seed, safe)
            state = game.apply(state, safe[0] if safe and rnd.random() < 0.5 else rnd.choice(legal))


def parade_row_piles(row: int, *, minus: dict[int, int] | None = None) -> dict[str, str]:
    """Row ``row`` of the parade built up: slot ``c`` holds suit ``SUITS[c % 4]`` from
    the row's base, less its top ``minus[c]`` cards."""
    piles: dict[str, str] = {}
    for c in range(COLS):
        ranks = list(range(BASE[row], 14, 3))
        ranks = ranks[: len(ranks) - (minus or {}).get(c, 0)]
        piles[SLOTS[row * COLS + c]] = " ".join(RANKS[r - 1] + SUITS[c % 4] for r in ranks)
    return piles


def test_parade_a_card_continuing_a_pile_is_safe_a_base_only_in_a_clean_row() -> None:
    """Seed 003: «На двойках расположатся пятерки, восьмерки и валеты, на тройках —
    шестерки, девятки и дамы, на четверках — семерки, десятки и короли»; a gap takes
    only its row's base. 8♠ continues both 2♠ 5♠ piles: safe. Row 1 holds a
    misplaced 7♣, so the 3♥ may not take its one gap for sure; row 2 holds none, so
    the 4♦ may."""
    state = position(
        PARADE,
        {"P00": "2S 5S", "P04": "2S 5S", "D1": "9H 8S", "P11": "7C", "D2": "3H", "D3": "4D"},
        rest="S",
    )
    safe = PARADE.safe_moves(state)
    assert safe == [Move("D1", "P00"), Move("D3", "P20")]
    assert Move("D2", "P10") in PARADE.legal_moves(state)  # legal, just not provably safe


def test_parade_twins_competing_for_one_pile_are_not_safe() -> None:
    """Only one 2♠ 5♠ pile wants an 8♠ and the other 8♠ lies in a depot: which copy
    goes first matters (the other might lie under a J♠ the pile needs next)."""
    state = position(PARADE, {"P00": "2S 5S", "D1": "9H 8S", "D2": "8S JS"}, rest="S")
    assert Move("D1", "P00") in PARADE.legal_moves(state)
    assert PARADE.safe_moves(state) == []
    founded = position(PARADE, {"P00": "2S 5S", "P04": "2S 5S 8S", "D1": "9H 8S"}, rest="S")
    assert PARADE.safe_moves(founded) == [Move("D1", "P00")]  # its twin is up: safe


def test_parade_nothing_is_safe_when_only_crowded_gaps_are_open() -> None:
    """The 3♠ could fill the threes' gap P10, but P11 holds a misplaced 7♣: no base
    of that row is safe; nothing continues a pile."""
    piles = parade_row_piles(0) | parade_row_piles(1) | parade_row_piles(2)
    del piles["P10"], piles["P27"]  # 3S 6S 9S QS and 4C 7C TC KC are out
    piles |= {"P11": "7C", "D1": "3S"}  # the threes' 3H 6H 9H QH go to the stock
    state = position(PARADE, piles, rest="S")
    assert Move("D1", "P10") in PARADE.legal_moves(state)
    assert PARADE.safe_moves(state) == []


@pytest.mark.parametrize(
    ("d1", "d2", "outcome"),
    [("JS 8S", "8S JS", "win"), ("8S JS", "8S JS", "none"), ("8S 8S", "JS JS", "win")],
)
def test_parade_search_decides_alike_with_and_without_safe_moves(
    d1: str, d2: str, outcome: str
) -> None:
    """Every card founded but the 8♠ and J♠ of both spade piles of the twos' row,
    which lie in two depots: the search's verdict is the same whether it plays the
    safe moves for itself or tries every move."""
    piles = parade_row_piles(0, minus={0: 2, 4: 2}) | parade_row_piles(1) | parade_row_piles(2)
    piles |= {"D1": d1, "D2": d2, "X": "AS AS AH AH AD AD AC AC"}
    state = position(PARADE, piles)
    guided = solve(PARADE, state, max_nodes=5_000)
    plain = solve(UNGUIDED, state, max_nodes=5_000)
    assert guided.outcome == plain.outcome == outcome
    if guided.line is not None:
        assert certify(PARADE, state, guided.line)


def test_the_search_expands_only_the_first_safe_move() -> None:
    state = position(PARADE, {"P00": "2S 5S", "P04": "2S 5S", "D1": "9H 8S", "D3": "4D"}, rest="S")
    children = list(_expander(PARADE)(state))
    assert [move for move, _ in children] == [Move("D1", "P00")]
    assert children[0][1] == PARADE.apply(state, Move("D1", "P00"))
    assert len(list(_expander(UNGUIDED)(state))) == len(PARADE.legal_moves(state)) > 1
    cotillion = registry.get("cotillion")  # nothing provably safe: every move
    assert _expander(cotillion) == cotillion.successors


def crescent_spades(up_to: int, down_to: int, t1: str) -> State[CrescentVars]:
    spec = {"FA-S": run("S", 1, up_to), "FK-S": run("S", 13, down_to), "T1": t1}
    for s in "HDC":
        spec[f"FA-{s}"] = run(s, 1, 13)
        spec[f"FK-{s}"] = run(s, 13, 1)
    return position(CRESCENT, spec, vars=CRESCENT.Vars(0))


def test_crescent_a_card_nothing_can_be_packed_on_is_safe() -> None:
    """Seed 000: tops go up on the aces or down on the kings, or onto a top of their
    suit one rank away. The K♠ going up with both queens of spades founded: nothing
    can ever lie on it again, so it is safe."""
    state = crescent_spades(12, 1, "KS")
    assert CRESCENT.safe_moves(state) == [Move("T1", "FA-S")]
    assert CRESCENT.status(CRESCENT.apply(state, Move("T1", "FA-S"))) == "won"


def test_crescent_a_card_a_neighbour_may_still_lie_on_is_not_safe() -> None:
    """The J♠ going up while a Q♠ is still out, a shift left: a queen could be packed
    on it (and a shift turns the pile), so it is legal but not listed; nothing is
    listed at the deal either."""
    state = crescent_spades(10, 1, "KS QS JS")._replace(vars=CRESCENT.Vars(1))
    assert Move("T1", "FA-S") in CRESCENT.legal_moves(state)
    assert CRESCENT.safe_moves(state) == []
    assert CRESCENT.safe_moves(CRESCENT.deal(0)) == []


def test_crescent_the_next_card_of_a_crossed_suit_is_safe_with_no_shift_left() -> None:
    """The spades' king foundation has come down to the ace: every spade still out
    has one copy left, and each goes up in order. With no shift left the J♠ on top
    is safe (a queen packed on it would only wait for it); the 6♠ up, the 9♠ down
    of an uncrossed suit (ace's pile at 5, king's at 10: two copies of each rank
    between) are not."""
    state = crescent_spades(10, 1, "KS QS JS")
    assert state.vars.shifts_left == 0
    assert CRESCENT.safe_moves(state) == [Move("T1", "FA-S")]
    spec = {"FA-S": run("S", 1, 5), "FK-S": run("S", 13, 10), "T1": "9S 6S", "T2": "6S 9S"}
    for s in "HDC":
        spec[f"FA-{s}"] = run(s, 1, 13)
        spec[f"FK-{s}"] = run(s, 13, 1)
    apart = position(CRESCENT, spec, rest="T3", vars=CRESCENT.Vars(0))
    assert {Move("T1", "FA-S"), Move("T2", "FK-S")} <= set(CRESCENT.legal_moves(apart))
    assert CRESCENT.safe_moves(apart) == []


def test_crescent_a_card_is_safe_only_above_as_many_cards_as_shifts_left() -> None:
    """The K♠ with both queens of spades founded lies on the K♥: with one shift left
    it is safe (one shift turns the K♥ above it and nothing after), with two it is
    not listed (the second shift would turn the K♠ itself); alone it never turns."""
    spec = {"FA-S": run("S", 1, 12), "FK-S": run("S", 13, 1), "T1": "KH KS"}
    spec |= {"FA-H": run("H", 1, 12), "FK-H": run("H", 13, 1)}
    for s in "DC":
        spec[f"FA-{s}"] = run(s, 1, 13)
        spec[f"FK-{s}"] = run(s, 13, 1)
    one = position(CRESCENT, spec, vars=CRESCENT.Vars(1))
    assert CRESCENT.safe_moves(one) == [Move("T1", "FA-S")]
    two = one._replace(vars=CRESCENT.Vars(2))
    assert Move("T1", "FA-S") in CRESCENT.legal_moves(two)
    assert CRESCENT.safe_moves(two) == []
    alone = crescent_spades(12, 1, "KS")._replace(vars=CRESCENT.Vars(3))
    assert CRESCENT.safe_moves(alone) == [Move("T1", "FA-S")]


#: Hemispheres searched without its beam (endgames are small: the plain search
#: decides them)
NO_BEAM = replace(TUNING["hemispheres"], beam=0)


class HemispheresUnguided(Hemispheres):
    """The same without its safe moves."""

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        return Game.safe_moves(self, state)


HEMISPHERES_UNGUIDED = HemispheresUnguided()
#: every black foundation and the diamonds complete, the barriers founded but K♥
HEMISPHERES_DONE = {
    "FB1": run("S", 13, 1),
    "FB2": run("S", 13, 1),
    "FB3": run("C", 13, 1),
    "FB4": run("C", 13, 1),
    "FR3": run("D", 1, 13),
    "FR4": run("D", 1, 13),
    "BW": "KH",
}


def test_hemispheres_a_card_only_its_foundation_wants_is_safe() -> None:
    """Cadogan: in the north a red card marries onto the same suit one rank higher
    (7♥ on 8♥). The 4♥ on the waste, both 3♥ founded: nothing can marry onto it, so
    founding it is safe. The 5♥ on P2 fits FR1, but the other 4♥ could still marry
    onto it: legal, not safe. A lone 4♥ would empty P1 while cards are still dealt:
    not safe then, safe once the stock is used up."""
    spec = HEMISPHERES_DONE | {"FR1": run("H", 1, 4), "FR2": run("H", 1, 3), "X": "4H"}
    state = position(HEMISPHERES, spec | {"P2": "6H 5H"}, rest="S")
    assert HEMISPHERES.safe_moves(state) == [Move("X", "FR2")]
    behind = position(HEMISPHERES, spec | {"FR2": run("H", 1, 2), "X": "5H"}, rest="S")
    assert Move("X", "FR1") in HEMISPHERES.legal_moves(behind)
    assert HEMISPHERES.safe_moves(behind) == []
    lone = position(HEMISPHERES, spec | {"X": "", "P1": "4H"}, rest="S")
    assert Move("P1", "FR2") in HEMISPHERES.legal_moves(lone)
    assert HEMISPHERES.safe_moves(lone) == []
    end = position(HEMISPHERES, spec | {"X": "", "P1": "4H"}, rest="P4")  # black top: stuck
    assert HEMISPHERES.safe_moves(end) == [Move("P1", "FR2")]
    assert HEMISPHERES.safe_moves(HEMISPHERES.deal(0)) == []


def hemispheres_endgame(seed: int) -> State[NoVars]:
    """Hearts and clubs left, shuffled over the stock, the waste and circle piles of
    their hemisphere (seeded)."""
    rnd = random.Random(seed)
    spec = HEMISPHERES_DONE | {
        "FB3": run("C", 13, 5),
        "FB4": run("C", 13, 6),
        "FR1": run("H", 1, 8),
        "FR2": run("H", 1, 7),
        "BS": "AC",
    }
    cards = [f"{r}H" for r in "89TJQ9TJQK"] + [f"{r}C" for r in "A2342345"]
    rnd.shuffle(cards)
    piles: dict[str, list[str]] = {p: [] for p in ("S", "X", "P1", "P2", "P4", "P7", "P10")}
    for c in cards:
        home = [p for p in piles if p in ("S", "X") or (p in ("P1", "P2", "P4")) == (c[1] == "H")]
        piles[rnd.choice(home)].append(c)
    return position(HEMISPHERES, spec | {p: " ".join(v) for p, v in piles.items()})


#: endgames 1-11, four of them lost: deal 0 (1.9 CPU s, won with and without the
#: safe moves) in the long form only (issue 45)
HEMISPHERES_SEEDS = range(0 if LONG else 1, 40 if LONG else 12)


def test_hemispheres_search_decides_alike_with_and_without_safe_moves() -> None:
    """On endgames dealt at random (cards still in the stock, on the waste and in
    the circle), the search's verdict is the same with the safe moves as without."""
    states = (hemispheres_endgame(seed) for seed in HEMISPHERES_SEEDS)
    verdicts = verdicts_alike(HEMISPHERES, HEMISPHERES_UNGUIDED, states, tuned=NO_BEAM)
    assert verdicts.count("win") >= 3 and verdicts.count("none") >= 3, verdicts


class StHelenaUnguided(StHelena):
    """Napoleon at St Helena without its safe moves."""

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        return Game.safe_moves(self, state)


ST_HELENA_UNGUIDED = StHelenaUnguided()


def test_st_helena_a_card_nothing_can_be_married_onto_is_safe() -> None:
    """Seed 002: a card goes onto an exposed card of the same suit one rank higher
    (8♠ on 9♠). With both 4♠ founded nothing can go onto the 5♠: founding it is
    safe; the 6♥ could still take the other 5♥: legal, not safe. An ace is always
    safe (nothing goes on an ace in a column)."""
    spec = {"F1": run("S", 1, 4), "F2": run("S", 1, 4), "F3": run("H", 1, 5), "F4": "AH"}
    state = position(ST_HELENA, spec | {"C1": "KD 5S", "C2": "6H", "X": "AD"}, rest="S")
    assert ST_HELENA.safe_moves(state) == [Move("C1", "F1"), Move("X", "F5")]
    assert Move("C2", "F3") in ST_HELENA.legal_moves(state)


def st_helena_endgame(seed: int) -> State[NoVars]:
    """Spades and hearts left from the fives (two copies), shuffled over the stock,
    the waste and the ten columns (seeded); the rest founded."""
    rnd = random.Random(seed)
    spec = {f"F{i}": run(s, 1, 13) for i, s in enumerate("DDCC", start=1)}
    spec |= {"F5": run("S", 1, 4), "F6": run("S", 1, 6), "F7": run("H", 1, 7), "F8": "AH 2H"}
    cards = [f"{r}S" for r in "56789TJQK789TJQK"] + [f"{r}H" for r in "3456789TJQK8TJQK9"]
    rnd.shuffle(cards)
    piles: dict[str, list[str]] = {p: [] for p in ("S", "X", *(f"C{i}" for i in range(1, 11)))}
    for i, c in enumerate(cards):  # a card in every column, the rest mostly stock and waste
        piles[f"C{i + 1}" if i < 10 else rnd.choice(("S", "X", "X", "X", "X", "X"))].append(c)
    return position(ST_HELENA, spec | {p: " ".join(v) for p, v in piles.items()})


#: the endgames where the safe moves change the search (2, 3 and 8: 8 takes 4,415
#: nodes with them, 10,593 without) and three quick ones; 0-9 were every run's until
#: issue 45 (5.7 CPU s), the long form takes 0-39
ST_HELENA_SEEDS = range(40) if LONG else (2, 3, 5, 6, 7, 8)


def test_st_helena_search_decides_alike_with_and_without_safe_moves() -> None:
    """Endgames the plain search wins are won with the safe moves too."""
    states = (st_helena_endgame(seed) for seed in ST_HELENA_SEEDS)
    verdicts = verdicts_alike(ST_HELENA, ST_HELENA_UNGUIDED, states)
    # the failure a safe move could cause is a lost verdict on a winnable position
    assert verdicts.count("win") >= 5, verdicts


class ShortUnguided(Short):
    """Short Patience without its safe moves."""

    def safe_moves(self, state: State[ShortVars]) -> list[Move]:
        return Game.safe_moves(self, state)


SHORT_UNGUIDED = ShortUnguided()


def test_short_a_card_nothing_can_be_laid_on_is_safe_from_a_column_only() -> None:
    """Seed 001: columns build down one card regardless of suit, never onto an ace
    (the module's reading). Base 5. All four sixes founded: nothing can be laid on
    the 7♥ again, founding it is safe; an ace takes nothing, so A♣ is safe too — but
    not from the waste (taking a waste card shifts the stock's threes). 7♥ is not
    founded, so the 8♦ could still take it: legal, not safe."""
    spec = {
        "F1": "5S 6S 7S",
        "F2": "5H 6H",
        "F3": "5D 6D 7D",
        "F4": "5C 6C 7C 8C 9C TC JC QC KC",
        "C1": "2S 7H",
        "C2": "8D",
        "X": "AC",
    }
    state = position(SHORT, spec, rest="S")
    assert SHORT.safe_moves(state) == [Move("C1", "F2")]
    legal = SHORT.legal_moves(state)
    assert Move("C2", "F3") in legal and Move("X", "F4") in legal
    # the same ace in a column is safe
    state = position(SHORT, spec | {"X": "2H", "C3": "AC"}, rest="S")
    assert SHORT.safe_moves(state) == [Move("C1", "F2"), Move("C3", "F4")]


def short_endgame(seed: int) -> State[ShortVars]:
    """Base 5; each suit founded to a seeded height, the rest shuffled over the six
    columns (one or two cards each), the stock and the waste."""
    rnd = random.Random(seed)
    order = [RANKS[(4 + v) % 13] for v in range(13)]  # 5 6 … K A 2 3 4
    spec: dict[str, str] = {}
    rest: list[str] = []
    for f, s in enumerate(SUITS):
        height = rnd.randint(6, 10)
        spec[f"F{f + 1}"] = " ".join(r + s for r in order[:height])
        rest += [r + s for r in order[height:]]
    rnd.shuffle(rest)
    piles: dict[str, list[str]] = {p: [] for p in ("S", "X", *(f"C{i}" for i in range(1, 7)))}
    for i, c in enumerate(rest):
        piles[f"C{i % 6 + 1}" if i < 9 else rnd.choice(("S", "S", "X"))].append(c)
    return position(SHORT, spec | {p: " ".join(v) for p, v in piles.items() if v})


def test_short_search_decides_alike_with_and_without_safe_moves() -> None:
    """Endgames the plain search wins are won with the safe moves too; a dead one
    (10♥ over the 9♥ wants a jack, the J♥ lies under the K♥, which only its
    foundation takes) is proven lost by both."""
    verdicts = verdicts_alike(SHORT, SHORT_UNGUIDED, (short_endgame(seed) for seed in range(12)))
    assert verdicts.count("win") >= 8, verdicts
    order = [RANKS[(4 + v) % 13] for v in range(13)]
    dead = {f"F{i}": " ".join(r + s for r in order) for i, s in ((1, "S"), (2, "D"), (3, "C"))}
    dead |= {"F4": "5H 6H 7H 8H", "C1": "9H TH", "C2": "JH KH", "C3": "QH", "S": "AH 2H"}
    state = position(SHORT, dead | {"X": "3H 4H"})
    assert SHORT.safe_moves(state) == []
    assert solve(SHORT, state, max_nodes=20_000, shorten=False).outcome == "none"
    assert solve(SHORT_UNGUIDED, state, max_nodes=20_000, shorten=False).outcome == "none"
