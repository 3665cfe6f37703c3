"""Crescent for the solver: positions in which some card can never leave its pile
(:meth:`Crescent.stuck`) are dead, and the search drops them (``Tuning.dead``)."""

from __future__ import annotations

import random
from dataclasses import replace

from server.patience.cards import RANKS, SUITS
from server.patience.engine import State
from server.patience.games.crescent import GAME as CRESCENT
from server.patience.games.crescent import CrescentVars
from server.patience.games.crescent_aids import DEAD
from server.solver import TUNING, Tuning, certify, solve
from server.solver.search import FIND_WEIGHT, _search
from tests.server.patience.games.positions import position, run


def endgame(
    spec: dict[str, str], shifts: int, up: dict[str, int], down: dict[str, int]
) -> State[CrescentVars]:
    """Every suit founded (ace's pile to K, king's to A) but where ``up`` / ``down``
    say the ace's pile stops (rank) or the king's pile stops; ``spec`` the piles."""
    full = dict(spec)
    for s in SUITS:
        full[f"FA-{s}"] = run(s, 1, up.get(s, 13))
        full[f"FK-{s}"] = run(s, 13, down.get(s, 1))
    return position(CRESCENT, full, vars=CrescentVars(shifts))


def diamonds(t1: str, shifts: int, t2: str | None = None) -> State[CrescentVars]:
    """The king's diamonds down to the 4, the ace's complete: 3♦ 2♦ A♦ are left,
    one copy each, and go down in that order."""
    spec = {"T1": t1} | ({"T2": t2} if t2 else {})
    return endgame(spec, shifts, {}, {"D": 4})


def test_a_card_over_the_card_it_must_follow_is_stuck_until_shifts_lift_it() -> None:
    """Seed 000: a top goes onto a foundation one rank on, or onto a top of its
    suit one rank away. The A♦ lies on the 2♦ it must follow down, and its only
    neighbour is that 2♦: with no shift, or one (which brings up the 2♦ alone), it
    can never go; two shifts bring up the 3♦ and then the 2♦ and A♦ in turn."""
    for shifts, stuck in ((0, True), (1, True), (2, False), (3, False)):
        state = diamonds("2D 3D AD", shifts)
        assert CRESCENT.stuck(state) is stuck, shifts
        assert (CRESCENT.heuristic(state) == DEAD) is stuck
    assert not CRESCENT.stuck(diamonds("AD 2D 3D", 0))  # in order: founded one by one
    assert CRESCENT.stuck(diamonds("AD 3D 2D", 0))  # the 2♦ waits on the 3♦ under it


def test_a_neighbour_in_another_pile_is_somewhere_to_go() -> None:
    """The 2♦ over the 3♦ goes onto the A♦ of another pile (one rank away, in suit),
    which frees the 3♦: not stuck, and won. With the A♦ under the 3♦ instead there
    is nowhere to go."""
    state = diamonds("3D 2D", 0, t2="AD")
    assert not CRESCENT.stuck(state)
    assert solve(CRESCENT, state, max_nodes=100).outcome == "win"
    assert CRESCENT.stuck(diamonds("AD 3D 2D", 0))


def small_endgames(count: int, rnd: random.Random) -> list[State[CrescentVars]]:
    """Random endgames: two suits whose foundations have met, one to four cards of
    each still out (going up, down or both), laid in two to four piles, 0–3 shifts
    left. (A suit whose foundations have not met has at least 13 cards out.)"""
    out: list[State[CrescentVars]] = []
    for _ in range(count):
        up, down, cards = {}, {}, []
        for s in rnd.sample(SUITS, 2):
            left = rnd.randint(1, 4)
            going_up = rnd.randint(0, left)
            up[s], down[s] = 13 - going_up, 1 + left - going_up
            cards += [f"{RANKS[r - 1]}{s}" for r in range(1, 14) if r > up[s] or r < down[s]]
        rnd.shuffle(cards)
        n = rnd.randint(2, 4)
        spec = {f"T{i + 1}": " ".join(cards[i::n]) for i in range(n) if cards[i::n]}
        out.append(endgame(spec, rnd.randint(0, 3), up, down))
    return out


def test_a_stuck_position_is_never_won() -> None:
    """Soundness: small endgames searched to the end (no dead positions dropped);
    every one :meth:`stuck` calls so has no win. Both kinds occur."""
    rnd = random.Random(24)
    plain = Tuning(dive=0.0)
    seen = {True: 0, False: 0}
    for state in small_endgames(120, rnd):
        result = solve(CRESCENT, state, max_nodes=5_000, shorten=False, tuned=plain)
        if result.outcome == "unknown":
            continue
        won = result.outcome == "win"
        if CRESCENT.stuck(state):
            assert not won, CRESCENT.dumps(state)
            seen[True] += 1
        elif won:
            seen[False] += 1
    assert seen[True] >= 10 and seen[False] >= 10, seen


def test_no_position_of_a_winning_line_is_stuck() -> None:
    for seed in (3, 11):
        state = CRESCENT.deal(seed)
        result = solve(CRESCENT, state, max_nodes=20_000, shorten=False)
        assert result.line is not None and certify(CRESCENT, state, result.line)
        for move in result.line:
            assert not CRESCENT.stuck(state)
            state = CRESCENT.apply(state, move)


def test_stuck_positions_are_dropped_so_none_comes_at_once() -> None:
    """The diamonds are stuck whatever the spades do (J♠ Q♠ K♠ to go up, in two
    piles): every child is dead, so the search proves ``none`` after one node,
    where queueing them searches the spades' moves."""
    state = endgame({"T1": "2D 3D AD", "T2": "KS JS", "T3": "QS"}, 0, {"S": 10}, {"D": 4})
    dropped = _search(CRESCENT, state, FIND_WEIGHT, 2_000, 1e18, dead=DEAD)
    assert (dropped.outcome, dropped.nodes) == ("none", 1)
    queued = _search(CRESCENT, state, FIND_WEIGHT, 2_000, 1e18)
    assert queued.outcome == "none" and queued.nodes > 1
    assert TUNING["crescent"].dead == DEAD
    assert solve(CRESCENT, state, max_nodes=2_000).outcome == "none"


def test_dropping_stuck_positions_wins_what_queueing_them_won() -> None:
    for seed in (3, 13):
        state = CRESCENT.deal(seed)
        for dead in (None, DEAD):
            tuned = replace(TUNING["crescent"], dead=dead)
            result = solve(CRESCENT, state, max_nodes=5_000, shorten=False, tuned=tuned)
            assert result.outcome == "win", (seed, dead)
            assert result.line is not None and certify(CRESCENT, state, result.line)
