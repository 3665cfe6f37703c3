"""Every game ends, never offers an empty move, and uses every pile it lays out.

Three properties over many seeded deals of every patience:

1. **No empty moves**: at positions sampled from random legal play, every legal move
   changes the position (``Game.position_key``: up to renaming piles of one kind and
   the two decks' identical cards).
2. **Every game ends**: the greedy player of ``bench/winrate.py`` (which never repeats a
   position) reaches ``won`` or ``lost`` by the rules, or resigns because every move
   left repeats a position; no deal runs into the engine's move cap.
3. **No dead piles**: every pile of the layout holds a card at some point.

The seeds are fixed ranges (reproducible failures), kept small enough for every run:
20 deals a game for each property (every pile of every game holds a card within its
first six deals). The long form plays 200 deals a game for the endings and walks 100
for empty moves and dead piles (``PASYANS_LONG_SWEEPS=1``, tests/support/sweeps.py);
``python -m bench.winrate --deals N`` plays the same policy over as many deals as one
likes and exits 1 when any ran into the move cap.
"""

from __future__ import annotations

import functools
import random

import pytest

from bench.winrate import Greedy
from server.patience import registry
from server.patience.engine import AnyGame, AnyState
from tests.support.sweeps import sweep

SLUGS = registry.slugs()
#: deals walked at random (was 40 in every run, issue 45)
EMPTY_MOVE_SEEDS = range(sweep(20, 100))
#: deals the greedy plays (was 60 in every run, issue 45)
ENDING_SEEDS = range(sweep(20, 200))
WALK = 400  # random moves per deal at most
SAMPLE = 9  # try every legal move at one position in SAMPLE


@functools.cache
def walk(game: AnyGame, seed: int) -> tuple[list[AnyState], set[int]]:
    """A random legal game of ``seed``: the positions sampled, and the piles that held a
    card at some point (walked once for both tests)."""
    rnd = random.Random(seed)
    state = game.deal(seed)
    sampled = [state]
    filled = {i for i, pile in enumerate(state.piles) if pile}
    for step in range(WALK):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, rnd.choice(legal))
        filled.update(i for i, pile in enumerate(state.piles) if pile)
        if step % SAMPLE == SAMPLE - 1:
            sampled.append(state)
    return sampled, filled


@pytest.mark.parametrize("slug", SLUGS)
def test_no_legal_move_returns_the_same_position(slug: str) -> None:
    game = registry.get(slug)
    empty = []
    for seed in EMPTY_MOVE_SEEDS:
        for state in walk(game, seed)[0]:
            before = game.position_key(state)
            for move in game.legal_moves(state):
                if game.position_key(game.apply(state, move)) == before:
                    empty.append((seed, state.moves, str(move)))
    assert not empty, f"empty moves (seed, move number, move): {empty[:10]}"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_ends_and_every_pile_is_used(slug: str) -> None:
    game = registry.get(slug)
    greedy = Greedy(game)
    ends: dict[str, int] = {}
    filled: set[int] = set()
    capped = []
    for seed in ENDING_SEEDS:
        played = greedy.play(seed)
        ends[played.end] = ends.get(played.end, 0) + 1
        filled |= played.filled
        if played.end == "cap":
            capped.append(seed)
    assert not capped, f"deals that ran into the move cap: {capped[:10]} of {len(capped)}"
    assert set(ends) <= {"won", "lost", "resigned"}, ends
    for seed in EMPTY_MOVE_SEEDS:
        filled |= walk(game, seed)[1]
    dead = [pid for i, pid in enumerate(game.ids) if i not in filled]
    assert not dead, f"piles empty in every deal: {dead}"
