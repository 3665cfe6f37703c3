"""Random legal play in every registered game, with the engine's invariants checked
after every move (hypothesis chooses seeds and the random walk): six walks of a game in
every run (was twelve, issue 45; a run without the CI profile walks new ones each
time), a hundred in the long form (``PASYANS_LONG_SWEEPS=1``, tests/support/sweeps.py)."""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.patience import registry
from server.patience.cards import code
from server.patience.engine import AnyGame, AnyState, IllegalMove, Move, State
from tests.support.sweeps import sweep

SLUGS = registry.slugs()
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PLAY = settings(
    max_examples=sweep(6, 100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_invariants(game: AnyGame, state: AnyState) -> None:
    every = sorted(c for pile in state.piles for c in pile)
    assert every == list(range(52 * game.decks)), "a card was lost or duplicated"

    view = game.view(state)
    piles = view["piles"]
    assert [p["id"] for p in piles] == list(game.ids)
    assert sum(len(p["cards"]) for p in piles) == 52 * game.decks
    visible = Counter(code for p in piles for code in p["cards"] if code is not None)
    assert all(n <= game.decks for n in visible.values()), visible
    for pile, real in zip(piles, state.piles, strict=True):
        for shown, card in zip(pile["cards"], real, strict=True):
            assert shown is None or shown == code(card)
    assert_view_hides(game, state, view)

    again = game.loads(game.dumps(state))
    assert again == state
    assert game.legal_moves(again) == game.legal_moves(state)


def assert_view_hides(game: AnyGame, state: AnyState, view: dict[str, object]) -> None:
    """Swapping the face-down cards among themselves, and the generator, must not
    change anything a player sees: the view carries no hidden identity."""
    piles_shown: list[dict[str, list[object]]] = view["piles"]  # type: ignore[assignment]
    hidden = [
        (i, k)
        for i, pile in enumerate(piles_shown)
        for k, shown in enumerate(pile["cards"])
        if shown is None
    ]
    if len(hidden) < 2:
        return
    cards = [state.piles[i][k] for i, k in hidden]
    rotated = cards[1:] + cards[:1]
    piles = [list(p) for p in state.piles]
    for (i, k), c in zip(hidden, rotated, strict=True):
        piles[i][k] = c
    other = State(tuple(map(tuple, piles)), state.vars, state.rng ^ 0x5DEECE66D, state.moves)
    assert game.view(other) == view
    encoded = msgpack.packb(view)
    assert state.rng.to_bytes(8, "big") not in encoded


def check_illegal(game: AnyGame, state: AnyState, rnd: random.Random) -> None:
    legal = set(game.legal_moves(state))
    candidates = [Move.card(rnd.choice(game.ids), rnd.choice(game.ids)) for _ in range(4)]
    candidates.append(Move.card("nowhere", game.ids[0]))
    candidates.append(Move.act("no_such_action"))
    for move in candidates:
        if move in legal:
            continue
        with pytest.raises(IllegalMove) as err:
            game.apply(state, move)
        assert err.value.reason


@pytest.mark.parametrize("slug", SLUGS)
@PLAY
@given(seed=SEEDS, walk=st.randoms(use_true_random=False))
def test_random_play_keeps_invariants(slug: str, seed: int, walk: random.Random) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    assert game.deal(seed) == state, "the same seed must deal the same game"
    for step in range(150):
        check_invariants(game, state)
        legal = game.legal_moves(state)
        assert (game.status(state) == "playing") == bool(legal)
        if not legal:
            break
        if step % 10 == 0:
            check_illegal(game, state, walk)
            for move in legal:
                game.apply(state, move)  # every listed move is accepted
                assert game.parse_move(move.to_wire()) == move
        move = walk.choice(legal)
        after = game.apply(state, move)
        assert after.moves == state.moves + 1
        state = after


@pytest.mark.parametrize("slug", SLUGS)
def test_play_to_the_end_terminates(slug: str) -> None:
    """Random play always ends (won, lost, or the move cap)."""
    game = registry.get(slug)
    rnd = random.Random(slug)
    for seed in range(3):
        state = game.deal(seed)
        while game.status(state) == "playing":
            state = game.apply(state, rnd.choice(game.legal_moves(state)))
        assert game.status(state) in ("won", "lost")
        assert game.legal_moves(state) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_game_metadata(slug: str) -> None:
    game = registry.get(slug)
    assert game.slug == slug and game.title_en and game.title_ru and game.summary
    assert game.decks in (1, 2)
    assert len(set(game.ids)) == len(game.ids)
    assert all(
        p.kind in {"foundation", "tableau", "stock", "waste", "reserve", "cell", "grid", "discard"}
        for p in game.layout
    )
