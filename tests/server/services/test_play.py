"""Random legal play of every registered game over the wire, with the encoded frames
checked for face-down cards, the generator and (for a running daily) the seed."""

from __future__ import annotations

import random
import struct
from typing import Any

import msgpack
import pytest

import protocol as P
from server.net import App
from server.patience import registry
from server.patience.engine import AnyGame, AnyState
from tests.support import TestClient

MOVES_PER_GAME = 40


def secrets_in(frame: bytes, state: AnyState, seed: int | None) -> list[str]:
    """Byte patterns of hidden data found in an encoded frame."""
    found = []
    if state.rng and state.rng.to_bytes(8, "big") in frame:
        found.append("rng")
    if seed is not None and seed >= 2**32 and struct.pack(">Q", seed) in frame:
        found.append("seed")
    return found


def check_frame(
    game: AnyGame, state: AnyState, frame: bytes, *, hidden_seed: int | None
) -> dict[str, Any]:
    """The state in ``frame`` matches the engine's view of ``state`` and hides what
    must be hidden."""
    reply = msgpack.unpackb(frame, raw=False)
    wire = reply["state"]
    view = game.view(state)
    assert wire["view"] == view
    for pile, real in zip(wire["view"]["piles"], state.piles, strict=True):
        show = game.show(state, game.at[pile["id"]])
        assert len(pile["cards"]) == len(real)
        if show == "down":
            assert all(c is None for c in pile["cards"]), pile["id"]
        elif show == "top":
            assert all(c is None for c in pile["cards"][:-1]), pile["id"]
    assert not secrets_in(frame, state, hidden_seed)
    if hidden_seed is not None:
        assert wire["deal"]["seed"] is None
    return wire  # type: ignore[no-any-return]


async def play(player: TestClient, app: App, slug: str, mode: str, rnd: random.Random) -> None:
    game = registry.get(slug)
    seed = rnd.randrange(2**64)
    params = {"seed": seed} if mode == "deal" else {}
    await player.call("start", game=slug, mode=mode, **params)
    frame = player.frames[-1]
    wire = msgpack.unpackb(frame, raw=False)["state"]
    hidden_seed = None
    if mode == "daily":
        assert app.services is not None
        seed, _ = await app.services.dailies.deal(app.services.dailies.today(), slug)
        hidden_seed = seed
    state = game.deal(seed)
    wire = check_frame(game, state, frame, hidden_seed=hidden_seed)
    for _ in range(MOVES_PER_GAME):
        if wire["status"] != "playing":
            break
        assert wire["legal"] == [m.to_wire() for m in game.legal_moves(state)]
        move = rnd.choice(wire["legal"])
        reply = await player.request("move", game_id=wire["game_id"], seq=wire["seq"], move=move)
        assert reply["ok"], reply
        state = game.apply(state, game.parse_move(move))
        wire = check_frame(game, state, player.frames[-1], hidden_seed=hidden_seed)
        assert wire["status"] == game.status(state)
        assert wire["foundation"] == game.score(state)[0]


@pytest.mark.parametrize("slug", registry.slugs())
async def test_random_play_over_the_wire(player: TestClient, app: App, slug: str) -> None:
    rnd = random.Random(slug)
    await play(player, app, slug, "deal", rnd)
    await play(player, app, slug, "daily", rnd)


def test_frames_are_msgpack_maps() -> None:
    assert P.decode(P.encode({"re": 1, "ok": True}))["ok"] is True
