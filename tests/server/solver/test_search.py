"""The search itself: incremental keys equal the engine's, hand-built near-won and dead
positions, the par pass's cuts, and the daily scanner (with a fake solver where the
test needs one outcome)."""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import pytest

from server.patience import registry
from server.patience.cards import code
from server.patience.engine import AnyState, Move, NoVars, State
from server.patience.games.crescent import GAME as CRESCENT_GAME
from server.patience.games.crescent import Crescent
from server.patience.games.crescent_aids import SHIFT_COST
from server.patience.games.hemispheres import GAME as HEMISPHERES
from server.patience.games.hemispheres import Hemispheres
from server.patience.games.st_helena import GAME as ST_HELENA
from server.patience.games.st_helena import StHelena
from server.solver import (
    TUNING,
    Result,
    Tuning,
    candidate_nodes,
    certify,
    cut_line,
    daily,
    solve,
    tuning,
)
from server.solver.search import Keys, _beam, merge_card_moves
from tests.server.patience.games.positions import position, run

CRESCENT = registry.get("crescent")


def crescent_end(shifts_left: int) -> AnyState:
    """Every card founded but the two spades of T1, the queen under the king: only a
    shift (the bottom card goes on top) frees the queen."""
    spec = {"FK-S": run("S", 13, 1), "FA-S": run("S", 1, 11), "T1": "QS KS"}
    for s in "HDC":
        spec[f"FA-{s}"] = run(s, 1, 13)
        spec[f"FK-{s}"] = run(s, 13, 1)
    return position(CRESCENT, spec, vars=CRESCENT.Vars(shifts_left))


@pytest.mark.parametrize("slug", registry.slugs())
def test_child_keys_are_the_engines_position_keys(slug: str) -> None:
    game = registry.get(slug)
    keys = Keys(game)
    rnd = random.Random(7)
    state = game.deal(3)
    for _ in range(60):
        enc = keys.encode(state)
        parent = keys.key_of(enc, state)
        assert parent == game.position_key(state)
        children = list(game.successors(state))
        if not children:
            break
        for _, child in children:
            assert keys.child(state, enc, parent, child) == game.position_key(child)
        state = rnd.choice(children)[1]


def test_a_hand_built_near_won_crescent_needs_its_shift() -> None:
    state = crescent_end(shifts_left=1)
    result = solve(CRESCENT, state, max_nodes=1_000)
    assert result.outcome == "win" and result.line is not None
    assert result.line[0] == Move.act("shift") and len(result.line) == 3
    assert certify(CRESCENT, state, result.line)
    assert result.best_founded == CRESCENT.total == 104
    assert result.found_seconds is not None and result.found_seconds <= result.seconds


def test_a_game_that_declares_a_heuristic_guides_the_search() -> None:
    class Guided(Crescent):
        calls = 0

        def heuristic(self, state: AnyState) -> float:
            Guided.calls += 1
            return super().heuristic(state)

    game = Guided()
    result = solve(game, crescent_end(shifts_left=1), max_nodes=1_000)
    assert result.outcome == "win" and Guided.calls > 0


def test_crescent_counts_a_spent_shift_against_a_position() -> None:
    """Crescent's estimate charges a shift spent (SHIFT_COST cards' worth): without it
    the search spends all three shifts early and founded fewer cards on every deal."""
    state = CRESCENT.deal(0)
    shifted = CRESCENT.apply(state, Move.act("shift"))
    assert CRESCENT.heuristic(state) == 104 - 8
    assert CRESCENT.heuristic(shifted) == 104 - 8 + SHIFT_COST > 104 - 8


def test_crescent_works_out_each_suits_foundations_once_as_it_did_per_card() -> None:
    """moves() looks up the foundation targets of each card (_fits, keyed by the card of
    one deck) instead of asking _foundation_targets for every top: the two agree on
    every card along played games, the waiting cell and whole foundations included (a
    rank past the king or below the ace is no key: it would be another suit's card)."""
    game = CRESCENT_GAME
    rnd = random.Random(3)
    seen_wait = False
    for seed in range(12):
        state = game.deal(seed)
        for _ in range(300):
            piles = state.piles
            fits = game._fits(piles)
            assert all(0 <= c < 52 for c in fits)
            for s in range(4):
                seen_wait = seen_wait or bool(piles[game.wait[s]])
                for r in range(1, 14):
                    assert fits.get(s * 13 + r - 1, ()) == game._foundation_targets(piles, s, r)
            legal = game.legal_moves(state)
            if not legal:
                break
            up = [m for m in legal if m.dst is not None and m.dst[0] in "FW"]
            state = game.apply(state, rnd.choice(up if up and rnd.random() < 0.9 else legal))
    assert seen_wait


def test_the_tuning_table_names_registered_games_and_defaults_the_rest() -> None:
    """A slug misspelt in server/solver/tuning.py would silently tune nothing."""
    assert set(TUNING) <= set(registry.slugs())
    assert tuning(registry.get("travellers")) == Tuning(dive=1 / 4, beam=0, candidate_nodes=None)
    assert candidate_nodes(CRESCENT, 30_000) == 3_000 and candidate_nodes(CRESCENT, 500) == 500
    assert candidate_nodes(registry.get("travellers"), None) is None


def test_a_game_without_a_dive_gives_the_a_star_the_whole_budget() -> None:
    """Crescent's tuning has no dive: deal 3's win, which its A* finds within 1,740
    nodes, is found within 2,100; a quarter spent on a dive first would leave too few."""
    assert TUNING["crescent"].dive == 0
    diving = replace(TUNING["crescent"], dive=1 / 4)
    start = CRESCENT.deal(3)
    won = solve(CRESCENT, start, max_nodes=2_100, shorten=False)
    assert won.outcome == "win" and won.line is not None and certify(CRESCENT, start, won.line)
    assert solve(CRESCENT, start, max_nodes=2_100, shorten=False, tuned=diving).outcome == "unknown"


def test_a_beam_certifies_a_hemispheres_deal_the_dive_does_not() -> None:
    """Tuning.beam: layers of positions a deal apart, the best kept by the
    game's heuristic. Deal 1 of the Hemispheres is won by a beam 20 wide within 4,374
    nodes (7,549 before each position was searched once a layer); the same budget
    without the beam (rollout, dive, A*) founds far fewer."""
    narrow = replace(TUNING["hemispheres"], beam=20)
    no_beam = replace(TUNING["hemispheres"], beam=0)
    start = HEMISPHERES.deal(1)
    won = solve(HEMISPHERES, start, max_nodes=8_000, shorten=False, tuned=narrow)
    assert won.outcome == "win" and won.line is not None
    assert certify(HEMISPHERES, start, won.line)
    plain = solve(HEMISPHERES, start, max_nodes=8_000, shorten=False, tuned=no_beam)
    assert plain.outcome == "unknown" and plain.best_founded < 80


class CountedHemispheres(Hemispheres):
    """Hemispheres that counts each position the search expands (asks the moves of)."""

    def __init__(self) -> None:
        super().__init__()
        self.expanded: list[Hashable] = []

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        self.expanded.append(self.position_key(state))
        return super().safe_moves(state)


def test_a_beam_searches_each_position_once() -> None:
    """Kept positions of one layer often differ only by a move one made before the
    deal and the other can make after it: that position is searched once, not once
    for each kept position that reaches it (35-40 % of the beam's nodes on deals 0-1)."""
    counted = CountedHemispheres()
    result = solve(counted, counted.deal(0), max_nodes=3_000, shorten=False, tuned=Tuning(beam=20))
    assert result.outcome == "unknown"
    beam = counted.expanded[-3_000 + 200 :]  # after the rollout (a tenth of the budget)
    assert len(beam) > 2_000
    assert len(set(beam)) == len(beam)


def test_a_second_beam_width_certifies_what_the_first_missed() -> None:
    """Tuning.rebeam: Hemispheres' beam 50 wide finds no win on deal 1 within 20,000
    nodes (nor do the dive and A* after it); the second beam, 20 wide, run with what
    the first left, does."""
    tuned = TUNING["hemispheres"]
    assert tuned.beam == 50 and tuned.rebeam == (20,)
    start = HEMISPHERES.deal(1)
    won = solve(HEMISPHERES, start, max_nodes=20_000, shorten=False)
    assert won.outcome == "win" and won.line is not None and certify(HEMISPHERES, start, won.line)
    alone = replace(tuned, rebeam=())
    assert solve(HEMISPHERES, start, max_nodes=20_000, shorten=False, tuned=alone).outcome == (
        "unknown"
    )


class CountedStHelena(StHelena):
    """St Helena that keeps each position the search expands (asks the safe moves of:
    every expanded position, St Helena having no loss but a stuck one) and counts the
    beam's estimates."""

    def __init__(self) -> None:
        super().__init__()
        self.expanded: list[State[NoVars]] = []
        self.ranked = 0

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        self.expanded.append(state)
        return super().safe_moves(state)

    def beam_estimate(self, state: State[NoVars]) -> float:
        self.ranked += 1
        return super().beam_estimate(state)


def test_a_beam_ranks_by_the_games_beam_estimate_and_only_the_beam_asks_it() -> None:
    """Game.beam_estimate is what a beam keeps a layer by (St Helena: its estimate and
    a quarter card a waste card); the dive and the A* follow the heuristic alone. A
    game that gives none ranks its beam by its heuristic."""
    game = CountedStHelena()
    solve(game, game.deal(3), max_nodes=3_000, shorten=False, tuned=Tuning(beam=5))
    assert game.ranked > 0
    game.ranked = 0
    solve(game, game.deal(3), max_nodes=3_000, shorten=False, tuned=Tuning(beam=0))
    assert game.ranked == 0
    dealt = HEMISPHERES.apply(HEMISPHERES.deal(0), Move.act("deal"))
    assert HEMISPHERES.beam_estimate(dealt) == HEMISPHERES.heuristic(dealt)


def test_a_beam_searches_at_most_its_closure_between_two_deals() -> None:
    """Tuning.beam_closure: with one position kept a layer, at most that many
    positions are searched before each deal (St Helena's 64 deals at the default
    100 would not fit a budget); the default searches more."""
    for closure, most in ((8, 8), (100, 9)):
        game = CountedStHelena()
        _beam(game, game.deal(1), 1, 10**6, float("inf"), closure)
        by_stock = Counter(len(s.piles[game.stock]) for s in game.expanded)
        del by_stock[0]  # the last layer's finishing dive
        assert max(by_stock.values()) <= closure
        assert max(by_stock.values()) >= most


def test_a_best_first_beam_searches_the_best_position_before_a_deal_first() -> None:
    """Tuning.beam_best_first: before a deal the beam takes the positions it reached
    best first by the beam's estimate (8♦ married onto 9♦: half a card better), not
    in the order the moves were listed (9♦ into an empty column first)."""
    start = position(ST_HELENA, {"C1": "KS 9D", "C2": "QS 8D"}, rest="S")
    for best_first, second in ((True, "KS 9D 8D"), (False, "9D")):
        game = CountedStHelena()
        _beam(game, start, 1, 2, float("inf"), 5, best_first)
        assert len(game.expanded) == 2
        shown = [" ".join(code(c) for c in game.pile(game.expanded[1], c)) for c in ("C1", "C3")]
        assert second in shown


def test_st_helenas_beam_certifies_a_deal_its_dive_and_a_star_do_not() -> None:
    """St Helena's tuning: a beam 20 wide over its 64 deals, 200 positions best first
    before each. Deal 0 is certified within the table's 20,000 nodes; the same budget
    without the beam (rollout, dive, A*) is not."""
    tuned = TUNING["st_helena"]
    assert (tuned.beam, tuned.beam_closure, tuned.beam_best_first) == (20, 200, True)
    start = ST_HELENA.deal(0)
    won = solve(ST_HELENA, start, max_nodes=20_000, shorten=False)
    assert won.outcome == "win" and won.line is not None and certify(ST_HELENA, start, won.line)
    plain = solve(ST_HELENA, start, max_nodes=20_000, shorten=False, tuned=replace(tuned, beam=0))
    assert plain.outcome == "unknown"


def test_the_hemispheres_estimate_charges_a_tenth_for_each_waste_card() -> None:
    start = HEMISPHERES.deal(0)
    assert HEMISPHERES.heuristic(start) == 104 - 8  # the eight foundations dealt
    dealt = start
    while dealt.piles[HEMISPHERES.waste] == ():
        dealt = HEMISPHERES.apply(dealt, Move.act("deal"))
    founded = HEMISPHERES.score(dealt)[0]
    assert HEMISPHERES.heuristic(dealt) == pytest.approx(104 - founded + 0.1)


def test_the_short_estimate_owes_a_move_for_a_card_above_an_earlier_one_of_its_suit() -> None:
    """Base 5 (F1 5♠): 9♥ lies on 5♥ (its foundation needs the 5♥ first), K♥ above
    both: two cards owe a move; none is owed by a card above one of another suit
    (7♣ on 6♥), nor by one above a later card of its suit (6♦ on 8♦)."""
    short = registry.get("short")
    spec = {"F1": "5S", "C1": "5H 9H KH", "C2": "6H 7C", "C3": "8D 6D", "X": "5D"}
    state = position(short, spec, rest="S")
    assert short.heuristic(state) == 52 - 1 + 2


def test_a_hand_built_dead_crescent_is_none() -> None:
    result = solve(CRESCENT, crescent_end(shifts_left=0), max_nodes=1_000)
    assert result.outcome == "none" and result.line is None
    assert result.best_founded == 102


@functools.cache
def searched(slug: str, seed: int) -> Result:
    """The search of deal ``seed`` at 60,000 nodes, without the par pass: Fifteen's deal
    0 (1.5 CPU s) is searched once for the three tests that take its line."""
    game = registry.get(slug)
    return solve(game, game.deal(seed), max_nodes=60_000, shorten=False)


@pytest.mark.parametrize(
    ("slug", "seed"),
    [
        ("fifteen", 0),
        ("travellers_classic", 1),
        ("hand_reserve", 0),
        ("st_helena", 17),
    ],
)
def test_near_the_end_of_a_certified_line_every_game_finishes(slug: str, seed: int) -> None:
    game = registry.get(slug)
    start = game.deal(seed)
    found = searched(slug, seed)
    assert found.outcome == "win" and found.line is not None
    assert certify(game, start, found.line)
    state = start
    for move in found.line[:-6]:
        state = game.apply(state, move)
    near = solve(game, state, max_nodes=3_000)
    assert near.line is not None and len(near.line) <= 6 and certify(game, state, near.line)


def test_cut_line_drops_a_cycle_and_keeps_the_win() -> None:
    game = registry.get("fifteen")
    start = game.deal(0)
    line = searched("fifteen", 0).line
    assert line is not None
    # wander: the first card move that can be undone at once, and its undo
    state = start
    for i, move in enumerate(line):
        undo = Move.card(move.dst or "", move.src or "") if move.action is None else None
        after = game.apply(state, move)
        if undo is not None and undo in game.legal_moves(after):
            longer = (*line[: i + 1], undo, *line[i:])
            break
        state = after
    else:  # pragma: no cover - the deal has such a move
        pytest.fail("no reversible move on the line")
    assert certify(game, start, longer)
    short = cut_line(game, start, longer)
    assert len(short) <= len(line) and certify(game, start, short)


def test_a_card_moved_by_way_of_another_pile_goes_straight() -> None:
    """A search's line loses its detours and still wins; a detour put into it (A → D,
    then D → B where the line had A → B) is taken out again."""
    game = registry.get("fifteen")
    start = game.deal(0)
    found = searched("fifteen", 0).line
    assert found is not None
    line = merge_card_moves(game, start, found, time.monotonic() + 60)
    assert len(line) < len(found) and certify(game, start, line)
    state = start
    for i, move in enumerate(line):
        for via in game.legal_moves(state):
            if move.action is not None or via.src != move.src or via.dst == move.dst:
                continue
            detour = (via, Move.card(via.dst or "", move.dst or ""))
            longer = (*line[:i], *detour, *line[i + 1 :])
            if via.action is None and certify(game, start, longer):
                break
        else:
            state = game.apply(state, move)
            continue
        break
    else:  # pragma: no cover - the deal has such a move
        pytest.fail("no detour on the line")
    merged = merge_card_moves(game, start, longer, time.monotonic() + 60)
    assert len(merged) <= len(line) and certify(game, start, merged)


def fake(outcomes: dict[int, tuple[str, int, bool]]) -> Any:
    """A solver answering per seed: (outcome, best_founded, whether its line is real)."""

    def search(game: Any, state: AnyState, **_: Any) -> Result:
        seed = next(s for s in outcomes if game.deal(s) == state)
        outcome, best, real = outcomes[seed]
        line = None
        if outcome == "win":
            line = solve(game, state, max_nodes=60_000).line if real else (Move.act("deal"),)
        return Result(outcome, line, 10, 0.01, best)  # type: ignore[arg-type]

    return search


def fake_seeds(monkeypatch: pytest.MonkeyPatch, seeds: list[int]) -> None:
    """Candidate ``k`` of any day is ``seeds[k]`` (the scan, not the derivation, under test)."""
    monkeypatch.setattr(daily, "candidate_seed", lambda secret, date, slug, k: seeds[k])


def test_the_daily_scan_skips_a_candidate_whose_line_does_not_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one scan (server.solver.daily, run by the server and bench.dailies): a line
    that does not replay to won certifies nothing."""
    game = registry.get("travellers_classic")
    fake_seeds(monkeypatch, [5, 7, 1])
    search = fake({5: ("unknown", 80, False), 7: ("win", 104, False), 1: ("win", 104, True)})
    chosen = daily.choose(game.slug, b"s", "2026-11-26", daily.Budget(100, 10_000), search=search)
    assert (chosen.k, chosen.seed, chosen.certified, chosen.tried) == (2, 1, True, 3)
    line = [game.parse_move(m) for m in chosen.line]
    assert chosen.par is not None and certify(game, game.deal(1), line)


def test_the_daily_falls_back_to_the_candidate_that_founded_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.get("travellers_classic")
    fake_seeds(monkeypatch, [5, 7, 9])
    search = fake({5: ("unknown", 60, False), 7: ("none", 90, False), 9: ("unknown", 70, False)})
    chosen = daily.choose(game.slug, b"s", "2026-11-26", daily.Budget(10, 30), search=search)
    assert (chosen.k, chosen.seed, chosen.certified) == (1, 7, False)
    assert chosen.par is None and chosen.line == ()
    assert chosen.best_founded == 90 and chosen.tried == 3


def test_the_daily_scan_stops_at_its_node_budget() -> None:
    chosen = daily.choose("crescent", b"secret", "2026-11-26", daily.Budget(30, 100))
    assert not chosen.certified and 1 <= chosen.tried <= 4 and chosen.nodes >= 100
    assert chosen.seed == daily.candidate_seed(b"secret", "2026-11-26", "crescent", chosen.k)
