"""register and auth over a real WebSocket on a real Redis."""

from __future__ import annotations

from typing import Any

from server.net import App
from tests.support import TestClient, connect
from tests.support.server import running_app


async def test_register_returns_a_token_once(client: TestClient) -> None:
    result = await client.call("register", name="alice")
    assert result["player"] == "alice"
    assert isinstance(result["token"], str) and len(result["token"]) >= 32


async def test_name_taken_regardless_of_case(client: TestClient, client2: TestClient) -> None:
    await client.register("alice")
    err = await client2.error("register", name="ALICE")
    assert err["code"] == "name_taken"


async def test_auth_on_a_new_connection(ws_url: str, client: TestClient) -> None:
    token = await client.register("carol")
    async with connect(ws_url) as other:
        # The reply tells the client its request budget, so that it can pace itself.
        got = await other.call("auth", token=token)
        assert got == {
            "player": "carol",
            "limits": {"rate": 50.0, "burst": 100},
            "deployment": got["deployment"],
        }
        assert isinstance(got["deployment"], str) and got["deployment"]
        await other.call("my_games")


async def test_unknown_token_is_unauthorized(client: TestClient) -> None:
    err = await client.error("auth", token="nope" * 10)
    assert err["code"] == "unauthorized"


async def test_ops_that_need_a_player(client: TestClient) -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ("start", {"game": "crescent", "mode": "practice"}),
        ("resume", {"game_id": "abc"}),
        ("move", {"game_id": "abc", "seq": 0, "move": {"action": "shift"}}),
        ("undo", {"game_id": "abc", "seq": 0}),
        ("resign", {"game_id": "abc"}),
        ("my_games", {}),
    ]
    for op, params in cases:
        err = await client.error(op, **params)
        assert err["code"] == "unauthorized", op


async def test_bad_names_are_bad_requests(client: TestClient) -> None:
    # "Вaся" mixes a Latin "a" into Cyrillic: a look-alike of "Вася", refused.
    for name in ["ab", "x" * 21, "has space", "Вaся", "a.b.c", "١٢٣", 12]:
        err = await client.error("register", name=name)
        assert err["code"] == "bad_request", name
        assert "letters of one alphabet" in err["message"]


async def test_names_in_any_alphabet_unique_regardless_of_case(
    client: TestClient, client2: TestClient
) -> None:
    """A product about Russian patiences takes Russian names: «Вася», NFC-normalised,
    and «ВАСЯ» is then taken."""
    await client.register("Вася")
    assert client.player == "Вася"
    assert (await client2.error("register", name="ВАСЯ"))["code"] == "name_taken"
    decomposed = "Jose\u0301"  # é written as e + a combining accent
    result = await client2.call("register", name=decomposed)
    assert result["player"] == "José"  # stored in NFC


async def test_token_is_stored_only_as_its_hash(app, client: TestClient) -> None:  # type: ignore[no-untyped-def]
    token = await client.register("dave")
    store = app.store
    keys = [k async for k in store.redis.scan_iter(match=f"{store.keys.prefix}*")]
    for key in keys:
        kind = (await store.redis.type(key)).decode()
        if kind == "hash":
            values = (await store.redis.hgetall(key)).values()
        elif kind == "string":
            values = [await store.redis.get(key)]
        else:
            continue
        assert all(token.encode() not in v for v in values)
        assert token.encode() not in key


async def test_every_instance_of_a_deployment_names_the_same_deployment(
    redis_url: str, player: TestClient, app: App
) -> None:
    """Two servers on one Redis (and key prefix) are one deployment: an account made
    through one is known to the other, and both say so with the same id."""
    mine = await player.call("auth", token=player.token)
    assert mine["deployment"] and mine["deployment"] == (await player.call("games"))["deployment"]
    prefix = app.settings.key_prefix
    async with running_app(redis_url, key_prefix=prefix) as other:
        url = f"ws://127.0.0.1:{other.port}/ws"
        async with connect(url) as there:
            again = await there.call("auth", token=player.token)
            assert again["deployment"] == mine["deployment"]
    async with running_app(redis_url) as elsewhere:
        url = f"ws://127.0.0.1:{elsewhere.port}/ws"
        async with connect(url) as apart:
            assert (await apart.call("games"))["deployment"] != mine["deployment"]
