"""A connection that stops reading stalls nobody else (issue 46, item 1).

The attack, as issue 46 found it: an account opens a second connection, sends 300
``rules carpet lang=ru`` requests (25 KB replies each) on it and never reads, then
creates a race, so that the race's events go to that connection too. Before, the
delivery of every event on the instance waited for that connection's buffer to drain:
every other player's ``race``, ``race_started`` and ``invited`` stopped until the
attacker closed. Now each connection writes from its own bounded outbox: the stalled
one is closed (4000), by whichever bound it passes first — its outbox's bytes, a
write's wait, an unanswered keepalive ping — and everyone else's events arrive. Its
games are untouched: the account comes back and resumes.

The attacker's connection is a raw socket with a tiny receive buffer
(:class:`~tests.faults.raw.RawClient`); nothing here waits for a time to pass.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

import protocol as P
from server.net import App
from server.net import conn as conn_module
from server.net.conn import Conn
from tests.support import TestClient, connect, eventually, running_app
from tests.support.fixtures import redis_server, redis_url, unique_name

from .raw import RawClient

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here

#: the attacker's requests: each reply is a rules page of ~25 KB
FLOOD = 300


async def signed_in(url: str, stack: Any) -> TestClient:
    client: TestClient = await stack.enter_async_context(connect(url))
    await client.register(unique_name("h"))
    return client


async def stall(app: App, token: str) -> tuple[RawClient, Conn, dict[str, Any]]:
    """The attacker's second connection (and the server's side of it): signed in, a
    game started (to resume later), then ``FLOOD`` rules pages asked for and never
    read."""
    before = set(app.hub.conns)
    raw = await RawClient.open(f"ws://127.0.0.1:{app.port}/ws", rcvbuf=4096)
    assert (await raw.call("auth", token=token))["ok"]
    [conn] = app.hub.conns - before
    started = await raw.call("start", game="crescent", mode="practice")
    state: dict[str, Any] = started["state"]
    for _ in range(FLOOD):
        await raw.send("rules", game="carpet", lang="ru")
    return raw, conn, state


def slow_closes(app: App, why: str) -> float:
    value: float = app.metrics.slow_closes.labels(why)._value.get()
    return value


def stalled(conn: Conn) -> bool:
    """Whether the connection has replies piling up unread (or was dropped for it)."""
    return bool(conn.dropped) or conn.queued > STALLED


#: bytes waiting in a connection's outbox that show its reader stalled
STALLED = 64 * 1024


async def attack_and_play(app: App, why: str | None) -> None:
    """The attack, and honest players' events meanwhile; then (``why``: how the
    server closes the stalled connection) the attacker's connection is closed and
    the account resumes its game, or (None: no bound set) it is still open, stalled."""
    url = f"ws://127.0.0.1:{app.port}/ws"
    async with contextlib.AsyncExitStack() as stack:
        attacker = await signed_in(url, stack)
        assert attacker.token is not None
        # something that will send the stalled connection events: its account's race,
        # which an honest player joins
        race = (await attacker.call("race_create", game="crescent"))["race"]
        h1, h2, h3 = [await signed_in(url, stack) for _ in range(3)]
        await h1.call("race_join", code=race["code"])
        raw, conn, game = await stall(app, attacker.token)
        stack.callback(raw.abort)
        await eventually(lambda: stalled(conn), what="the attacker's replies piling up")
        # everyone else's events: the attacker's race as its member h1 sees it,
        # another race's, and an invite
        await attacker.call("race_start", race_id=race["race_id"])
        other = (await h2.call("race_create", game="crescent"))["race"]
        await h2.call("invite", name=h3.player, race=other["code"])
        invited = await h3.next_event("invited")
        assert invited["item"]["race"]["code"] == other["code"]
        await h3.call("race_join", code=other["code"])
        members: set[str | None] = set()
        while members != {h2.player, h3.player}:
            ev = await h2.next_event("race", race_id=other["race_id"])
            members = {p["player"] for p in ev["players"]}
        started = await h1.next_event("race_started", race_id=race["race_id"])
        assert started["state"]["game"] == "crescent"
        if why is None:  # no bound: it is still open and unread, and nobody waited for it
            assert any(c.queued > STALLED for c in app.hub.conns)
            return
        # the stalled connection is closed, for not keeping up: dropped at once, and
        # counted once its closing handshake is over (the attacker reads again and
        # answers the close: else the server's grace ends it)
        kinds = why.split("|")
        await eventually(lambda: conn.dropped in kinds, what=f"a close: {why}")
        await raw.read_to_the_end()
        if raw.close_rcvd is not None:  # a peer that reads late may still see the code
            assert raw.close_rcvd.code == P.CLOSE_TOO_SLOW, raw.close_rcvd
        await eventually(
            lambda: sum(slow_closes(app, k) for k in kinds) == 1 or None, what=f"counted: {why}"
        )
        # ... its games untouched: the account comes back and resumes
        back = await signed_in_as(url, attacker.token, stack)
        resumed = await back.call("resume", game_id=game["game_id"])
        assert resumed["state"]["seq"] == game["seq"]
        # and its race goes on: its creator ends it, its member hears so
        await attacker.call("race_end", race_id=race["race_id"])
        await h1.next_event("race", race_id=race["race_id"], status="finished")


async def signed_in_as(url: str, token: str, stack: Any) -> TestClient:
    client: TestClient = await stack.enter_async_context(connect(url))
    await client.call("auth", token=token)
    return client


#: the attacker's connection may send its whole flood at once: 7.5 MB of replies, more
#: than the kernel's socket buffers on loopback take (up to 4 MB on the server's side)
FLOOD_AT_ONCE = {"rate": 1000.0, "burst": 1000}


@pytest.mark.parametrize(
    ("why", "settings"),
    [
        # its outbox passes --outbox-bytes (the default, 1 MiB)
        ("outbox", {**FLOOD_AT_ONCE, "write_timeout": 0}),
        # an outbox that holds the whole flood: a write waits past --write-timeout
        ("write", {**FLOOD_AT_ONCE, "outbox_bytes": 64 << 20, "write_timeout": 0.5}),
        # neither bound: the keepalive's ping, sent into a full buffer, is not answered
        (
            "ping",
            {
                **FLOOD_AT_ONCE,
                "outbox_bytes": 0,
                "write_timeout": 0,
                "ping_interval": 0.2,
                "ping_timeout": 0.5,
            },
        ),
        # no bound at all: it stays open, stalled, and still nobody waits for it
        (None, {**FLOOD_AT_ONCE, "outbox_bytes": 0, "write_timeout": 0}),
        # the server's defaults (and rate limits): closed by one bound or another
        ("outbox|write|ping", {}),
    ],
)
async def test_a_stalled_reader_is_closed_and_everyone_elses_events_arrive(
    redis_url: str, why: str | None, settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's grace for a dropped connection's closing handshake, made short: the
    # attacker's answer to the close is never read (the server reads nothing more of
    # a connection with requests unanswered in its queue), so the handshake ends when
    # the grace does (2 s in production), and only then is the close counted.
    monkeypatch.setattr(conn_module, "CLOSE_GRACE", 0.2)
    async with running_app(redis_url, **settings) as app:
        await attack_and_play(app, why)


async def test_a_connection_that_never_signs_in_is_closed(redis_url: str) -> None:
    async with running_app(redis_url, auth_timeout=0.2) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as player:  # signed in before the other one opens
            await player.register(unique_name())
            raw = await RawClient.open(url)
            assert (await raw.call("games"))["ok"]  # anonymous requests are answered
            await raw.read_to_the_end()
            raw.abort()
            assert raw.close_rcvd is not None and raw.close_rcvd.code == P.CLOSE_NO_SIGN_IN
            # past its own deadline too, the signed-in connection lives
            assert (await player.call("games"))["games"]
