"""Taking over an account with issue 49's ops, tried over raw sockets as an attacker
would: link codes guessed from many connections at once, a used code replayed, an
expired one; two connections racing ``token_rotate``; deleting or exporting another
player's account. Each must fail, count against the limits and tell the attacker
nothing of the victim."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net import App
from tests.support import TestClient, connect, running_app
from tests.support.fixtures import redis_server, redis_url, unique_name

from .raw import RawClient

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here

#: the defaults of --address-links and --address-failed-links
LINKS, FAILED = 30, 10


@pytest.fixture
async def app(redis_url: str) -> AsyncIterator[App]:
    # the limits per address on, as a deployment has them (every loopback address is
    # one address: the attacker's connections all count together)
    async with running_app(redis_url, address_limits=True) as app:
        yield app


async def replies(raw: RawClient, rids: set[int]) -> list[dict[str, Any]]:
    """The replies to ``rids`` (events and other replies read meanwhile are dropped)."""
    got: list[dict[str, Any]] = []
    rids = set(rids)
    while rids:
        msg = await raw.recv()
        if msg.get("re") in rids:
            rids.discard(msg["re"])
            got.append(msg)
    return got


def url_of(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/ws"


async def victim(app: App) -> tuple[TestClient, str, Any]:
    """A registered victim's connection (open), name, and its closer."""
    cm = connect(url_of(app))
    client = await cm.__aenter__()
    name = unique_name()
    await client.register(name)
    return client, name, cm


async def test_guessing_link_codes_from_many_connections_runs_out(app: App) -> None:
    me, _, cm = await victim(app)
    try:
        code = (await me.call("link_code"))["code"]
        attackers = [await RawClient.open(url_of(app)) for _ in range(8)]
        # every connection floods guesses without waiting for the replies
        guesses = 400
        sent: list[tuple[RawClient, int]] = []
        for i in range(guesses):
            raw = attackers[i % len(attackers)]
            sent.append((raw, await raw.send("link", code=f"{i:08d}".replace("0", "A"))))
        answers: dict[str, int] = {}
        for raw in attackers:
            for msg in await replies(raw, {rid for r, rid in sent if r is raw}):
                key = "ok" if msg.get("ok") else str(msg["error"].get("key"))
                answers[key] = answers.get(key, 0) + 1
        tried = answers.get("error.link_code_wrong", 0)
        print(f"\n{guesses} guesses from 8 connections: {answers}")
        assert "ok" not in answers
        # a guess counts as wrong before it is tried: however many connections race,
        # no more than the limit of wrong codes is tried
        assert 0 < tried <= FAILED
        assert answers.get("error.limit_link_failed", 0) + answers.get("error.limit_link", 0) == (
            guesses - tried
        )
        # the right code, from the attacker's address: refused too, not tried
        err = await attackers[0].call("link", code=code)
        assert err["error"]["code"] == "rate_limited"
        for raw in attackers:
            raw.abort()
        # the player's code is unspent: their own device, from another address, can
        # still use it (every loopback address is the attacker's here)
        assert app.store is not None
        assert await app.store.redis.get(app.store.keys.link_code(code)) is not None
    finally:
        await cm.__aexit__(None, None, None)


async def test_a_used_or_expired_code_never_signs_in(app: App) -> None:
    me, _, cm = await victim(app)
    try:
        code = (await me.call("link_code"))["code"]
        first = await RawClient.open(url_of(app))
        second = await RawClient.open(url_of(app))
        # the phone and an attacker who saw the code send it at the same moment
        sent = [(raw, await raw.send("link", code=code)) for raw in (first, second)]
        asks = [(raw, await raw.send("my_games")) for raw in (first, second)]
        got = []
        for (raw, linked), (_, asked) in zip(sent, asks, strict=True):
            both = {m["re"]: m for m in await replies(raw, {linked, asked})}
            got.append(both[asked])
        signed = [g for g in got if g.get("ok")]
        assert len(signed) == 1, got  # one sign-in, whoever came first
        third = await RawClient.open(url_of(app))
        replay = await third.call("link", code=code)
        assert replay["error"]["key"] == "error.link_code_wrong"
        # an expired code: its key gone from Redis, as its TTL makes it
        assert app.store is not None
        other = (await me.call("link_code"))["code"]
        await app.store.redis.delete(app.store.keys.link_code(other))
        late = await third.call("link", code=other)
        assert late["error"]["key"] == "error.link_code_wrong"
        for raw in (first, second, third):
            raw.abort()
    finally:
        await cm.__aexit__(None, None, None)


async def test_racing_token_rotate_leaves_exactly_one_token(app: App) -> None:
    for _ in range(10):
        me, name, cm = await victim(app)
        try:
            token = me.token
            raws = [await RawClient.open(url_of(app)) for _ in range(3)]
            for raw in raws:
                assert (await raw.call("auth", token=token))["ok"]
            rids = [await raw.send("token_rotate") for raw in raws]
            results: list[dict[str, Any] | None] = []
            for raw, rid in zip(raws, rids, strict=True):
                try:
                    while True:
                        msg = await raw.recv()
                        if msg.get("re") == rid:
                            results.append(msg)
                            break
                except EOFError:
                    results.append(None)  # closed by the winner's sign-out first
            won = [r for r in results if r and r.get("ok")]
            assert len(won) == 1, results
            for r in results:
                if r is not None and not r.get("ok"):
                    assert r["error"]["key"] == "error.token_replaced"
            async with connect(url_of(app)) as check:
                assert (await check.error("auth", token=str(token)))["code"] == "unauthorized"
                assert (await check.call("auth", token=won[0]["token"]))["player"] == name
            for raw in raws:
                raw.abort()
        finally:
            await cm.__aexit__(None, None, None)


async def test_nobody_deletes_or_exports_another_account(app: App) -> None:
    me, name, cm = await victim(app)
    try:
        raw = await RawClient.open(url_of(app))
        # not signed in: every new op but link refused
        for op, params in [
            ("link_code", {}),
            ("token_rotate", {}),
            ("account_export", {}),
            ("account_delete", {"name": name}),
        ]:
            got = await raw.call(op, **params)
            assert got["error"]["code"] == "unauthorized", op
        mallory = unique_name()
        assert (await raw.call("register", name=mallory))["ok"]
        # the victim follows the attacker: nothing the attacker sees says so
        await me.call("friend_add", name=mallory)
        got = await raw.call("account_delete", name=name)
        assert got["error"]["key"] == "error.delete_name_wrong"
        for extra in ({"player": name}, {"name": name}):
            got = await raw.call("account_export", **extra)
            assert got["error"]["code"] == "bad_request"
        export = await raw.call("account_export")
        assert export["ok"] and name not in repr(export) and str(me.token) not in repr(export)
        for bad in ({"name": 7}, {"name": "x" * 200}, {}):
            got = await raw.call("account_delete", **bad)
            assert got["error"]["code"] == "bad_request"
        raw.abort()
        # the victim is untouched
        async with connect(url_of(app)) as check:
            assert (await check.call("auth", token=str(me.token)))["player"] == name
    finally:
        await cm.__aexit__(None, None, None)
