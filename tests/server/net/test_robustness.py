"""Wrong input gets the right error and the connection lives; abuse is closed with
1008; rate limits; HTTP endpoints; graceful shutdown with 1001."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from typing import Any

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

import protocol as P
from server.net import App
from tests.support import GUARD, TestClient, connect, running_app


async def alive(client: TestClient) -> None:
    assert (await client.call("games"))["games"]


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("text frame", "bad_request"),
        (b"\xc1", "bad_request"),
        (msgpack.packb([1, "op"]), "bad_request"),
        (msgpack.packb("games"), "bad_request"),
        (msgpack.packb({1: 2}), "bad_request"),
        (msgpack.packb({"id": 1, "op": "games"}) + b"\x00", "bad_request"),
        (msgpack.packb({"op": "games"}), "bad_request"),
        (msgpack.packb({"id": 1, "op": "fly"}), "unknown_op"),
        (msgpack.packb({"id": 1, "op": "games", "pad": "x" * 70_000}), "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_the_connection_lives(
    client: TestClient, frame: bytes | str, code: str
) -> None:
    await client.send_raw(frame)
    reply = await client.recv()
    assert reply["ok"] is False and reply["error"]["code"] == code
    assert reply["error"]["message"]
    assert "Traceback" not in reply["error"]["message"]
    await alive(client)


async def test_too_large_reply_carries_the_id(client: TestClient) -> None:
    await client.send_raw(msgpack.packb({"id": 77, "op": "games", "pad": "x" * 70_000}))
    reply = await client.recv()
    assert reply["re"] == 77 and reply["error"]["code"] == "too_large"


async def test_huge_frames_close_the_connection(client: TestClient) -> None:
    await client.send_raw(b"\x00" * (2 << 20))
    with pytest.raises(ConnectionClosed) as exc:
        await client.recv()
    assert exc.value.rcvd is not None and exc.value.rcvd.code == P.CLOSE_TOO_BIG


async def test_repeated_abuse_closes_with_1008(client: TestClient) -> None:
    for i in range(19):
        await client.send_raw(b"\xc1")
        assert (await client.recv())["error"]["code"] == "bad_request", i
    await alive(client)  # a good frame resets the count
    for _ in range(20):
        await client.send_raw(msgpack.packb({"id": 1, "op": "nope"}))
    codes, last = [], {}
    with pytest.raises(ConnectionClosed) as exc:
        while True:
            last = await client.recv()
            codes.append(last.get("ev") or last["error"]["code"])
    assert codes == ["unknown_op"] * 20 + ["bye"]
    assert last["key"] == "bye.bad_frames" and last["params"] == {"n": 20}  # said in words
    assert exc.value.rcvd is not None
    assert exc.value.rcvd.code == P.CLOSE_POLICY and "bad frames" in exc.value.rcvd.reason


async def test_rate_limit(redis_url: str) -> None:
    # One token every 100 s: however slowly the machine sends the five requests, no
    # token comes back meanwhile (that one does after retry_after: test_units.py).
    async with (
        running_app(redis_url, rate=0.01, burst=3) as app,
        connect(f"ws://127.0.0.1:{app.port}/ws") as client,
    ):
        replies = [await client.request("games") for _ in range(5)]
        assert [r["ok"] for r in replies] == [True, True, True, False, False]
        assert replies[-1]["error"]["code"] == "rate_limited"
        assert replies[-1]["re"] == 5
        # The refusal says when to come back: the next token, at most 100 s away.
        assert 0 < replies[-1]["error"]["retry_after"] <= 100.001
        assert "retry after" in replies[-1]["error"]["message"]
        metrics = app.metrics.render().decode()
        assert "pasyans_rate_limited_total 2.0" in metrics


async def test_an_accounts_connections_share_a_rate_limit(redis_url: str) -> None:
    """One account floods no more from twelve connections than from two: its
    connections here share a bucket (``account_rate``/``account_burst``), while
    another account's connection keeps its own. One token every 100 s, as above."""
    async with running_app(
        redis_url, rate=0.01, burst=3, account_rate=0.01, account_burst=3
    ) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as first, connect(url) as second, connect(url) as other:
            token = await first.register("sharer")
            await second.call("auth", token=token)
            await other.register("bystander")
            # each connection has two tokens left of its three (one went on signing in,
            # before the account's bucket applied): the account's three run out first
            replies = [await c.request("games") for c in (first, second, first, second)]
            assert [r["ok"] for r in replies] == [True, True, True, False]
            assert replies[-1]["error"]["code"] == "rate_limited"
            assert 0 < replies[-1]["error"]["retry_after"] <= 100.001
            # the other account's bucket is its own: three requests of its three
            assert [(await other.request("games"))["ok"] for _ in range(2)] == [True, True]


async def test_unexpected_errors_are_internal_and_logged(
    app: App, player: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    async def boom(*args: Any) -> None:
        raise ZeroDivisionError("secret detail")

    assert app.services is not None
    monkeypatch.setattr(app.services.games, "my_games", boom)
    err = await player.error("my_games")
    assert err == {
        "code": "internal",
        "message": "internal error",
        "key": "error.internal",
        "params": {},
    }
    assert "secret detail" in caplog.text and "my_games" in caplog.text.lower()
    await alive(player)


async def test_subprotocol_is_required(ws_url: str) -> None:
    with pytest.raises(InvalidStatus) as exc:
        async with connect(ws_url, subprotocols=[]):
            pass
    assert exc.value.response.status_code == 400
    assert b"pasyans.v1" in exc.value.response.body
    async with connect(ws_url) as client:
        assert client.ws.subprotocol == "pasyans.v1"


def http_get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=GUARD) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


async def test_healthz_and_metrics(app: App, player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=1)
    await player.move(state, state["legal"][0])
    base = f"http://127.0.0.1:{app.port}"
    status, _, body = await asyncio.to_thread(http_get, base + "/healthz")
    assert (status, body) == (200, "ok")
    status, _, _ = await asyncio.to_thread(http_get, base + "/metrics")
    assert status == 404  # not on the players' port: on the operator's
    operator = f"http://127.0.0.1:{app.metrics_port}"
    status, ctype, body = await asyncio.to_thread(http_get, operator + "/metrics")
    assert status == 200 and ctype.startswith("text/plain")
    for name in [
        "pasyans_connections 1.0",
        'pasyans_ops_total{op="move",result="ok"} 1.0',
        "pasyans_move_seconds_count 1.0",
        "pasyans_redis_seconds_bucket",
        "pasyans_rate_limited_total",
    ]:
        assert name in body, name
    status, _, _ = await asyncio.to_thread(http_get, base + "/nowhere")
    assert status == 404
    status, _, _ = await asyncio.to_thread(http_get, operator + "/healthz")
    assert status == 404


async def test_healthz_fails_without_redis(redis_url: str) -> None:
    from tests.support import RedisProcess

    with RedisProcess() as own:
        async with running_app(own.url) as app:
            own.kill()
            status, _, _ = await asyncio.to_thread(http_get, f"http://127.0.0.1:{app.port}/healthz")
            assert status == 503
            async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
                err = await client.error("register", name="zed")
                assert err["code"] == "unavailable" and err["retry_after"] > 0


async def test_graceful_shutdown_says_bye_and_closes_with_1001(redis_url: str) -> None:
    async with running_app(redis_url) as app, connect(f"ws://127.0.0.1:{app.port}/ws") as client:
        await alive(client)
        await app.stop()
        msg = await client.recv()
        assert msg == {
            "ev": "bye",
            "reason": "server shutting down",
            "key": "bye.shutdown",
            "params": {},
        }
        with pytest.raises(ConnectionClosed) as exc:
            await client.recv()
        assert exc.value.rcvd is not None and exc.value.rcvd.code == P.CLOSE_GOING_AWAY


async def test_shutdown_finishes_in_flight_requests(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a shutdown that waits for the request as long as a loaded machine needs
    async with running_app(redis_url, shutdown_timeout=GUARD) as app:
        assert app.services is not None
        games = app.services.games
        real = games.my_games
        began = asyncio.Event()

        async def slow(*args: Any) -> dict[str, Any]:
            began.set()
            await asyncio.sleep(0.3)  # the request is in flight while the server stops
            return await real(*args)

        monkeypatch.setattr(games, "my_games", slow)
        async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
            await client.register("slowpoke")
            pending = asyncio.create_task(client.request("my_games"))
            await asyncio.wait_for(began.wait(), GUARD)
            await app.stop()
            reply = await pending
            assert reply["ok"] is True and reply["games"] == []
