"""Delta replies: ``move`` and ``undo`` with ``"reply": "delta"`` answer only what
changed; a client that applies them keeps exactly the state a fresh ``resume`` shows,
in every patience."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

import protocol as P
from protocol.delta import apply_delta
from server.patience import registry
from tests.support import connect
from tests.support.server import running_app

#: games whose piles change more than their cards in play (a foundation taking its
#: direction): their deltas must carry ``pile_meta``, or this test proves nothing of it
META_GAMES = {"travellers_aces", "little_packs"}


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    keys = ("game_id", "seq", "status", "moves", "foundation", "clean", "legal", "view")
    return {k: state[k] for k in keys}


@pytest.mark.parametrize("slug", registry.slugs())
async def test_playing_by_deltas_keeps_the_resumed_state(redis_url: str, slug: str) -> None:
    """The client's own :func:`protocol.delta.apply_delta` (what ``Connection.play``
    and ``take_back`` use) rebuilds, after every move and undo, what ``resume`` says."""
    rnd = random.Random(slug)
    async with (
        running_app(redis_url, rate=100_000, burst=100_000) as app,
        connect(f"ws://127.0.0.1:{app.port}/ws") as client,
    ):
        await client.register(f"d{uuid.uuid4().hex[:10]}")
        state = await client.start(slug, "deal", seed=rnd.randrange(1 << 64))
        sizes, metas = [], 0
        for step in range(40):
            if state["status"] != "playing":
                break
            gid, seq = state["game_id"], state["seq"]
            if step % 7 == 6 and state["moves"]:
                reply = await client.request("undo", game_id=gid, seq=seq, reply="delta")
            else:
                move = rnd.choice(state["legal"])
                reply = await client.request("move", game_id=gid, seq=seq, move=move, reply="delta")
            assert reply["ok"], reply
            sizes.append(len(P.encode(reply)))
            assert set(reply) == {"re", "ok", "delta"}
            metas += "pile_meta" in reply["delta"]
            state = apply_delta(state, reply["delta"])
            fresh = (await client.call("resume", game_id=gid))["state"]
            assert comparable(state) == comparable(fresh), (slug, step)
        assert sizes
        assert (metas > 0) == (slug in META_GAMES), metas


async def test_without_the_flag_a_move_answers_the_whole_state(
    redis_url: str,
) -> None:
    async with (
        running_app(redis_url) as app,
        connect(f"ws://127.0.0.1:{app.port}/ws") as client,
    ):
        await client.register(f"d{uuid.uuid4().hex[:10]}")
        state = await client.start("crescent", "deal", seed=1)
        reply = await client.call("move", game_id=state["game_id"], seq=0, move=state["legal"][0])
        assert set(reply) == {"state"} and "view" in reply["state"]
        err = await client.error(
            "move", game_id=state["game_id"], seq=1, move=reply["state"]["legal"][0], reply="diff"
        )
        assert err["code"] == "bad_request" and "'reply'" in err["message"]
