"""One owner per step of a move: the services apply a move and read its outcome only
through ``Game.apply`` and ``Game.status``, and the engine's one legal-move cache is
safe to share between the tasks and threads that use one ``Game`` object."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

import protocol as P
from server.net import App
from server.patience import registry
from server.patience.engine import AnyGame, AnyState, IllegalMove, Move
from server.services import FakeClock, Services
from server.services.games import Games
from server.store import Store


@pytest.fixture
async def games(redis_url: str) -> AsyncIterator[Games]:
    store = Store(redis_url, prefix=f"own{uuid.uuid4().hex[:8]}:")
    try:
        yield Services.build(store, FakeClock("2026-03-14T12:00:00")).games
    finally:
        await store.close()


@pytest.fixture
def crescent() -> Iterator[AnyGame]:
    # The registry's object, the one the services use (patched per test, then restored).
    yield registry.get("crescent")


async def test_the_status_of_a_move_is_the_engines(
    games: Games, crescent: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = await games.start("owner", "crescent", P.Mode.PRACTICE, None)
    monkeypatch.setattr(crescent, "status", lambda _state: "lost")
    change = await games.move("owner", state["game_id"], state["seq"], state["legal"][0])
    after = games.views.wire(change.after)
    assert after["status"] == "lost"
    assert after["legal"] == []


async def test_a_move_is_applied_by_the_engine(
    games: Games, crescent: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = await games.start("owner", "crescent", P.Mode.PRACTICE, None)

    def refuse(_state: AnyState, move: Move) -> AnyState:
        raise IllegalMove(move, "the engine says no")

    monkeypatch.setattr(crescent, "apply", refuse)
    with pytest.raises(P.ProtocolError) as err:
        await games.move("owner", state["game_id"], state["seq"], state["legal"][0])
    assert err.value.code is P.ErrorCode.ILLEGAL_MOVE
    assert err.value.message == "the engine says no"


def counting(game: AnyGame, monkeypatch: pytest.MonkeyPatch) -> list[AnyState]:
    """Patch ``game.moves`` to record every position whose moves are computed."""
    computed: list[AnyState] = []
    moves = game.moves

    def counted(state: AnyState) -> list[Move]:
        computed.append(state)
        return moves(state)

    monkeypatch.setattr(game, "moves", counted)
    return computed


def test_positions_seen_in_turn_keep_their_legal_moves(
    crescent: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tasks sharing one Game interleave positions: each keeps its cached moves (a
    cache of one position per Game computed them again at every switch)."""
    computed = counting(crescent, monkeypatch)
    first, second = crescent.deal(1), crescent.deal(2)
    legal = crescent.legal_moves(first)
    crescent.legal_moves(second)
    after = crescent.apply(first, legal[0])
    crescent.apply(second, crescent.legal_moves(second)[0])
    assert crescent.status(after) == "playing"
    assert computed == [first, second, after]


async def test_a_move_computes_the_legal_moves_of_its_new_position_once(
    games: Games, crescent: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = await games.start("owner", "crescent", P.Mode.PRACTICE, None)
    theirs = await games.start("other", "crescent", P.Mode.PRACTICE, None)
    computed = counting(crescent, monkeypatch)
    for _ in range(3):
        moved = await games.move("owner", mine["game_id"], mine["seq"], mine["legal"][0])
        mine = games.views.wire(moved.after)
        moved = await games.move("other", theirs["game_id"], theirs["seq"], theirs["legal"][0])
        theirs = games.views.wire(moved.after)
    assert len(computed) == 6


async def test_a_server_keeps_a_players_legal_moves_while_a_thousand_games_move(
    app: App, crescent: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a server, a move is checked against the legal moves its previous reply listed
    even when a thousand other games of the same patience moved in between (at the
    engine's own 256 they were worked out again)."""
    mine = crescent.deal(1)
    move = crescent.legal_moves(mine)[0]
    for seed in range(1000, 2000):  # the other players' positions
        crescent.legal_moves(crescent.deal(seed))
    computed = counting(crescent, monkeypatch)
    crescent.apply(mine, move)
    assert computed == []
