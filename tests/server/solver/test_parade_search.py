"""Parade for the solver: what its position key merges (the slots of a row, never the
depots) and what its estimate sees (depot cards lying on their own build)."""

from __future__ import annotations

import random
from dataclasses import replace

from server.patience.engine import NoVars, State
from server.patience.games.parade import DEAL, DEPOTS, ROWS, SLOTS
from server.patience.games.parade import GAME as PARADE
from server.patience.games.parade_aids import DEAD
from server.solver import TUNING, Tuning, certify, solve
from server.solver.search import FIND_WEIGHT, _search
from tests.server.patience.games.positions import position


def test_depots_keep_their_place_in_the_key() -> None:
    """A deal gives its k-th card to the k-th depot: a 5♠ on D1 and the other 5♠ on
    D2 are different positions (the next card dealt lands on the 5♠ in one only), so
    their keys differ although the depots hold the same cards."""
    stock = "9H 8S 7D 6C TH JS QD KC 9D"  # dealt top first: the top card goes to D1
    one = position(PARADE, {"D1": "5S", "S": stock}, rest="X")
    two = position(PARADE, {"D2": "5S", "S": stock}, rest="X")
    assert PARADE.position_key(one) != PARADE.position_key(two)
    dealt = PARADE.apply(one, DEAL), PARADE.apply(two, DEAL)
    assert [len(PARADE.pile(s, "D1")) for s in dealt] == [2, 1]


def renamed(state: State[NoVars], rnd: random.Random) -> State[NoVars]:
    """The same position with the slots of each row shuffled among themselves."""
    piles = list(state.piles)
    for k in range(ROWS):
        ix = [PARADE.at[p] for p in SLOTS[k * 8 : (k + 1) * 8]]
        cards = [piles[i] for i in ix]
        rnd.shuffle(cards)
        for i, c in zip(ix, cards, strict=True):
            piles[i] = c
    return State(tuple(piles), state.vars, state.rng, state.moves)


def test_slots_of_a_row_are_alike_in_the_key_and_in_play() -> None:
    """Renaming the slots of a row changes neither the key nor what can follow: the
    positions after every legal move have the same keys."""
    rnd = random.Random(3)
    for seed in range(6):
        state = PARADE.deal(seed)
        for _ in range(60):
            legal = PARADE.legal_moves(state)
            if not legal:
                break
            other = renamed(state, rnd)
            assert PARADE.position_key(other) == PARADE.position_key(state)
            after = {PARADE.position_key(s) for _, s in PARADE.successors(state)}
            assert after == {PARADE.position_key(s) for _, s in PARADE.successors(other)}
            state = PARADE.apply(state, rnd.choice(legal))


def test_a_depot_card_on_its_own_build_is_stuck_and_on_both_copies_dead() -> None:
    """Seed 003: the twos build 2 5 8 J in suit, a card leaves a depot only onto the
    pile it continues. An 8♠ on a 5♠ waits for the other 5♠ (stuck, not dead); on
    both 5♠ it never moves; on one 5♠ while the other 8♠ is built, neither."""
    assert PARADE.stuck(position(PARADE, {"D1": "5S 8S"}, rest="S")) == (1, False)
    assert PARADE.stuck(position(PARADE, {"D1": "5S 9H 5S 8S"}, rest="S")) == (1, True)
    built = position(PARADE, {"P00": "2S 5S 8S", "D1": "5S 8S"}, rest="S")
    assert PARADE.stuck(built) == (1, True)
    assert PARADE.heuristic(built) > PARADE.total
    free = position(PARADE, {"D1": "8S 5S", "D2": "JH 2H"}, rest="S")  # nothing under its build
    assert PARADE.stuck(free) == (0, False)
    assert PARADE.heuristic(free) == PARADE.total - PARADE.score(free)[0]
    assert all(d in PARADE.ids for d in DEPOTS)


def test_dead_positions_are_dropped_so_none_comes_sooner() -> None:
    """``Tuning.dead``: a child whose estimate says it cannot be won is not queued.
    An 8♠ on a 5♠ in a depot while the other 8♠ is built never moves, whatever is
    dealt on it: every position from here is dead, so the search proves ``none`` at
    once, where searching them last only runs out of budget."""
    built = position(PARADE, {"P00": "2S 5S 8S", "D1": "5S 8S"}, rest="S")
    assert PARADE.moves(built) == [DEAL]
    dropped = _search(PARADE, built, FIND_WEIGHT, 2_000, 1e18, dead=DEAD)
    assert (dropped.outcome, dropped.nodes) == ("none", 1)
    queued = _search(PARADE, built, FIND_WEIGHT, 2_000, 1e18)
    assert (queued.outcome, queued.nodes) == ("unknown", 2_000)
    assert TUNING["parade"].dead == DEAD
    assert solve(PARADE, built, max_nodes=2_000).outcome == "none"
    assert Tuning().dead is None


def test_dropping_dead_positions_keeps_the_wins() -> None:
    """Deals won with dead positions queued last are won alike when they are dropped
    (a dead position's subtree holds no win), and the line certifies."""
    for seed in (12, 35, 41):
        state = PARADE.deal(seed)
        for dead in (None, DEAD):
            tuned = replace(TUNING["parade"], dead=dead)
            result = solve(PARADE, state, max_nodes=3_000, shorten=False, tuned=tuned)
            assert result.outcome == "win", (seed, dead)
            assert result.line is not None and certify(PARADE, state, result.line)


def test_depots_that_wait_on_each_other_are_deadlocked() -> None:
    """An 8♥ on both 5♠ and an 8♠ on both 5♥: neither lies on its own build (not
    stuck), but each needs a 5 the other covers, so neither ever moves. With one 5 of
    each suit in the stock instead, the stock may free them: not deadlocked."""
    locked = position(PARADE, {"D1": "5S 5S 8H", "D2": "5H 5H 8S"}, rest="S")
    assert PARADE.stuck(locked) == (0, False)
    assert PARADE.deadlocked(locked)
    assert PARADE.heuristic(locked) == DEAD
    open_ = position(PARADE, {"D1": "5S 8H", "D2": "5H 8S"}, rest="S")
    assert not PARADE.deadlocked(open_)
    assert PARADE.heuristic(open_) == PARADE.total - PARADE.score(open_)[0]
    # the other 8♠ built: this one needs the other 5♠, which the 8♥ covers for good
    twin = position(PARADE, {"P00": "2S 5S 8S", "D1": "5H 5H 8S", "D2": "5S 8H"}, rest="S")
    assert PARADE.deadlocked(twin)
    assert not PARADE.deadlocked(PARADE.deal(0))
