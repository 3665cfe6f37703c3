"""What docs/protocol.md tells a client written in another language, over a real
server (issue 23, "The protocol document"): numbers, nulls, ids, slugs, daily totals."""

from __future__ import annotations

import asyncio
import gzip
import urllib.request

import msgpack

from server.net import App
from server.patience import registry
from tests.support import GUARD, TestClient
from tests.support.schema import DOC


async def raw(client: TestClient, msg: dict[str, object]) -> dict[str, object]:
    await client.send_raw(msgpack.packb(msg))
    reply = await client.recv()
    while "ev" in reply:
        reply = await client.recv()
    return reply


async def test_a_bad_id_is_answered_with_re_null(client: TestClient) -> None:
    for bad in ("1", -1, 2**63, 1.0):
        reply = await raw(client, {"id": bad, "op": "games"})
        assert reply["re"] is None and reply["ok"] is False


async def test_a_map_with_a_key_that_is_no_string_is_answered_with_its_id(
    client: TestClient,
) -> None:
    """A map refused before its fields are read still has its ``id`` read; a frame
    that is no map has none."""
    await client.send_raw(msgpack.packb({1: "x", "id": 7, "op": "games"}))
    reply = await client.reply(7)
    assert reply["error"]["code"] == "bad_request"
    await client.send_raw(msgpack.packb({1: "x", "op": "games"}))
    assert (await client.reply(None))["ok"] is False


async def test_a_whole_number_float_is_no_integer(player: TestClient) -> None:
    state = await player.start("fifteen", "practice")
    reply = await raw(
        player,
        {"id": 7, "op": "move", "game_id": state["game_id"], "seq": 0.0, "move": state["legal"][0]},
    )
    assert reply["re"] == 7 and reply["error"]["code"] == "bad_request"  # type: ignore[index]


async def test_null_is_absent_only_for_known_params(client: TestClient) -> None:
    ok = await raw(client, {"id": 1, "op": "daily", "date": None})
    assert ok["ok"] is True
    refused = await raw(client, {"id": 2, "op": "daily", "nonsense": None})
    assert refused["re"] == 2 and refused["error"]["code"] == "bad_request"  # type: ignore[index]


async def test_seeds_above_2_53_travel_whole(player: TestClient) -> None:
    seed = 2**64 - 3
    state = await player.start("crescent", "deal", seed=seed)
    assert state["deal"]["seed"] == seed


async def test_daily_entries_say_how_many_cards_a_win_founds(client: TestClient) -> None:
    games = (await client.call("daily"))["games"]
    for slug, entry in games.items():
        assert entry["total"] == registry.get(slug).total
    assert games["picture_gallery"]["total"] == 88


def get(url: str, *headers: tuple[str, str]) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(
        urllib.request.Request(url, headers=dict(headers)), timeout=GUARD
    ) as r:
        return r.status, dict(r.headers), r.read()


async def test_the_server_serves_the_protocol_document(app: App) -> None:
    """``GET /protocol.json``: docs/protocol.asyncapi.json, to any page, gzipped when
    asked."""
    url = f"http://127.0.0.1:{app.port}/protocol.json"
    status, headers, body = await asyncio.to_thread(get, url)
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert body == DOC.read_bytes()
    status, headers, body = await asyncio.to_thread(get, url, ("Accept-Encoding", "gzip"))
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == DOC.read_bytes()
