"""Delta replies: ``move`` and ``undo`` with ``"reply": "delta"`` answer only what
changed; a client that applies them keeps exactly the state a fresh ``resume`` shows,
in every patience."""

from __future__ import annotations

import copy
import random
import uuid
from typing import Any

import pytest

import protocol as P
from server.patience import registry
from tests.support import connect
from tests.support.server import running_app


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The client's side: the new state from the old one and a delta."""
    out = copy.deepcopy(state)
    for key in ("seq", "status", "moves", "time_ms", "foundation", "clean", "legal"):
        out[key] = delta[key]
    by_id = {p["id"]: p for p in out["view"]["piles"]}
    for pid, cards in delta["piles"].items():
        by_id[pid]["cards"] = cards
    for pid, pile in delta.get("pile_meta", {}).items():
        by_id[pid].clear()
        by_id[pid].update(pile)
    info = out["view"]["info"]
    for key, value in delta["info"].items():
        if value is None:
            info.pop(key, None)
        else:
            info[key] = value
    return out


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: state[k] for k in ("seq", "status", "moves", "foundation", "legal", "view")}


@pytest.mark.parametrize("slug", registry.slugs())
async def test_playing_by_deltas_keeps_the_resumed_state(redis_url: str, slug: str) -> None:
    rnd = random.Random(slug)
    async with (
        running_app(redis_url, rate=100_000, burst=100_000) as app,
        connect(f"ws://127.0.0.1:{app.port}/ws") as client,
    ):
        await client.register(f"d{uuid.uuid4().hex[:10]}")
        state = await client.start(slug, "deal", seed=rnd.randrange(1 << 64))
        sizes = []
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
            state = apply_delta(state, reply["delta"])
            fresh = (await client.call("resume", game_id=gid))["state"]
            assert comparable(state) == comparable(fresh), (slug, step)
        assert sizes


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
