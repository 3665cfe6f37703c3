"""The move reply is encoded from parts kept between moves (``Views.answer``): it
must be exactly the bytes of the state object built the ordinary way, in every game."""

from __future__ import annotations

import uuid

import msgpack
import pytest

import protocol as P
from server.net.routes import ok_packed
from server.patience import registry
from server.services import FakeClock, Services
from server.store import Store


@pytest.mark.parametrize("slug", registry.slugs())
async def test_packed_move_replies_equal_the_plain_encoding(redis_url: str, slug: str) -> None:
    store = Store(redis_url, prefix=f"pk{uuid.uuid4().hex[:8]}:")
    games = Services.build(store, FakeClock("2026-03-14T12:00:00")).games
    try:
        state = await games.start("packer", slug, P.Mode.PRACTICE, None)
        for n in range(60):
            if not state["legal"]:
                break
            move = state["legal"][(n * 7) % len(state["legal"])]
            change = await games.move("packer", state["game_id"], state["seq"], move)
            packed = games.views.answer(change)
            rec = games.cache[state["game_id"]]
            assert packed == msgpack.packb(games.views.wire(rec))
            state = msgpack.unpackb(packed)
            assert state == games.views.wire(rec)
            assert ok_packed(n, packed) == P.encode(P.ok(n, state=state))
    finally:
        await store.close()
