"""A tournament entrant who stops reading stalls nobody else (issue 51, over issue 46's
outboxes): its account's connection that never reads is subscribed to the
tournament's events like any other; the others get theirs — the start, the standings
after a deal — and the stalled connection is closed (4000) by its outbox's bound."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from server.net import conn as conn_module
from server.services import FakeClock
from tests.support import eventually, running_app
from tests.support.fixtures import redis_server, redis_url

from .test_slow_reader import FLOOD_AT_ONCE, signed_in, slow_closes, stall, stalled

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here


async def test_a_stalled_entrant_holds_up_no_other(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the close is counted when its closing handshake ends: the server's grace, made
    # short (test_slow_reader.py says why)
    monkeypatch.setattr(conn_module, "CLOSE_GRACE", 0.2)
    clock = FakeClock("2026-03-14T12:00:00")
    async with (
        running_app(redis_url, clock=clock, **FLOOD_AT_ONCE, write_timeout=0) as app,
        contextlib.AsyncExitStack() as stack,
    ):
        url = f"ws://127.0.0.1:{app.port}/ws"
        attacker = await signed_in(url, stack)
        honest = await signed_in(url, stack)
        assert attacker.token is not None
        start = clock.now_ms() + 120_000
        made = (
            await attacker.call("tournament_create", game="carpet", starts_at=start, minutes=5)
        )["tournament"]
        tid, code = made["tournament_id"], made["code"]
        await honest.call("tournament_join", code=code)
        raw, conn, _ = await stall(app, attacker.token)  # the account's events reach it too
        stack.callback(raw.abort)
        await eventually(lambda: stalled(conn), what="the attacker's replies piling up", every=0.1)

        async def ready() -> bool:
            shown: dict[str, Any] = (await honest.call("tournament", code=code))["tournament"]
            return bool(shown["ready"])

        await eventually(ready, what="the deals certified", every=0.1)
        clock.advance(seconds=120)
        await honest.next_event("tournament", tournament_id=tid, status="running")
        state = (await honest.call("tournament_play", tournament_id=tid))["state"]
        await honest.call("resign", game_id=state["game_id"])
        while True:  # the standings after the deal, as an event
            ev = await honest.next_event("tournament", tournament_id=tid)
            if ev["me"]["played"] == 1:
                break
        await eventually(
            lambda: slow_closes(app, "outbox") >= 1 or None, what="the close", every=0.1
        )
