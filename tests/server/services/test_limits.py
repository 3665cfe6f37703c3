"""Limits per client address over a real server (issue 22, item 10): registrations,
race joins and race joins by a code that names no race, counted in Redis so they hold
across server instances, against the address a trusted load balancer forwards. Issue
36: no balancer is trusted unless the operator names it, every loopback address is one
address, and a registration refused as malformed counts too."""

from __future__ import annotations

import uuid
from typing import Any

from server.net.address import client_address, parse_networks
from server.services import FakeClock
from tests.support import TestClient, connect, running_app
from tests.support.fixtures import unique_name

LIMITED: dict[str, Any] = {
    "address_limits": True,
    "address_registrations": 3,
    "address_race_joins": 4,
    "address_failed_joins": 2,
    "address_window": 3600.0,
    # a balancer on this machine, as deploy/ configures the servers behind one
    "trusted_proxies": "127.0.0.1",
}


def forwarded(address: str) -> dict[str, Any]:
    """What a load balancer on loopback (trusted by ``LIMITED``) adds for a client."""
    return {"additional_headers": {"X-Forwarded-For": address}}


def test_the_client_address() -> None:
    proxies = parse_networks("127.0.0.1,::1,10.0.0.0/8")
    assert client_address("203.0.113.9", ["198.51.100.1"], proxies) == "203.0.113.9"
    assert client_address("127.0.0.1", ["198.51.100.1"], proxies) == "198.51.100.1"
    # what the client wrote itself sits left of what the proxies appended: not reached
    chain = ["6.6.6.6, 198.51.100.1", "10.1.2.3"]
    assert client_address("127.0.0.1", chain, proxies) == "198.51.100.1"
    assert client_address("127.0.0.1", ["nonsense, 10.1.2.3"], proxies) == "10.1.2.3"
    assert client_address("::ffff:127.0.0.1", ["198.51.100.1"], proxies) == "198.51.100.1"
    assert client_address("2001:db8::1:2", [], proxies) == "2001:db8::/64"
    assert parse_networks("none") == () and parse_networks("") == ()
    # every loopback address is one machine: one address
    for peer in ("127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.3"):
        assert client_address(peer, [], proxies) == "127.0.0.0/8"
    assert client_address("127.0.0.1", ["127.0.0.5"], proxies) == "127.0.0.0/8"
    # trusting nobody, a header is nobody's word
    assert client_address("127.0.0.1", ["198.51.100.1"], ()) == "127.0.0.0/8"


async def test_registrations_per_address_across_instances(redis_url: str) -> None:
    """300 accounts from one address no longer: the fourth registration from an
    address is refused, on either of two servers sharing Redis, until the window
    ends; other addresses are not."""
    clock = FakeClock("2026-03-14T12:00:00")
    shared: dict[str, Any] = {**LIMITED, "key_prefix": f"t{uuid.uuid4().hex[:10]}:"}
    async with (
        running_app(redis_url, clock=clock, **shared) as one,
        running_app(redis_url, clock=clock, **shared) as two,
    ):
        urls = [f"ws://127.0.0.1:{app.port}/ws" for app in (one, two)]
        for url in [urls[0], urls[1], urls[0]]:
            async with connect(url, **forwarded("198.51.100.7")) as c:
                await c.register(unique_name())
        async with connect(urls[1], **forwarded("198.51.100.7")) as c:
            err = await c.error("register", name=unique_name())
            assert err["code"] == "rate_limited"
            assert "too many registrations from your address" in err["message"]
            assert err["retry_after"] == 3600.0  # the window started on the hour
        async with connect(urls[1], **forwarded("198.51.100.8")) as c:
            await c.register(unique_name())  # another address
        clock.advance(seconds=3600)  # a new window
        async with connect(urls[0], **forwarded("198.51.100.7")) as c:
            await c.register(unique_name())


async def test_an_untrusted_peer_counts_as_itself(redis_url: str) -> None:
    """With no proxy trusted, X-Forwarded-For is the client's word: ignored."""
    async with running_app(redis_url, **{**LIMITED, "trusted_proxies": "none"}) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        for n in range(3):
            async with connect(url, **forwarded(f"198.51.100.{n}")) as c:
                await c.register(unique_name())
        async with connect(url, **forwarded("198.51.100.99")) as c:
            assert (await c.error("register", name=unique_name()))["code"] == "rate_limited"


async def test_by_default_no_header_is_believed_and_loopback_is_one_address(
    redis_url: str,
) -> None:
    """Issue 36: with no proxy configured (the default) a client's own
    X-Forwarded-For passes it off as nobody else, and connecting from other loopback
    addresses (127.0.0.2, 127.0.0.3, …) does not either: one machine, one address."""
    limited = {k: v for k, v in LIMITED.items() if k != "trusted_proxies"}
    async with running_app(redis_url, **limited) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        for n in (1, 2, 3):
            source: dict[str, Any] = {"local_addr": (f"127.0.0.{n}", 0)}
            async with connect(url, **forwarded(f"198.51.100.{n}"), **source) as c:
                await c.register(unique_name())
        for n in (4, 26):
            source = {"local_addr": (f"127.0.0.{n}", 0)}
            async with connect(url, **forwarded(f"198.51.100.{n}"), **source) as c:
                err = await c.error("register", name=unique_name())
                assert err["code"] == "rate_limited", err


async def test_every_registration_attempt_counts_refused_ones_included(redis_url: str) -> None:
    """Issue 36: a ``register`` refused as malformed (``bad_request`` at the edge:
    a name too short, of mixed scripts, a wrong type) counts against the address as
    docs/protocol.md says; past the limit the next attempt is ``rate_limited``."""
    async with running_app(redis_url, **LIMITED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url, **forwarded("198.51.100.30")) as c:
            for bad in ("x", "abcдеф", 7):
                assert (await c.error("register", name=bad))["code"] == "bad_request"
            err = await c.error("register", name=unique_name())
            assert err["code"] == "rate_limited" and "registrations" in err["message"]
            refused = await c.error("register", name="y")  # refused for the limit now
            assert refused["code"] == "rate_limited"
        async with connect(url, **forwarded("198.51.100.31")) as c:
            await c.register(unique_name())  # another address is not spent


async def join(c: TestClient, code: str) -> dict[str, Any]:
    return await c.request("race_join", code=code)


async def test_race_joins_and_guessed_codes_per_address(redis_url: str) -> None:
    async with running_app(redis_url, **LIMITED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **forwarded("198.51.100.20")) as host,
            connect(url, **forwarded("198.51.100.21")) as guesser,
            connect(url, **forwarded("198.51.100.22")) as joiner,
        ):
            for c in (host, guesser, joiner):
                await c.register(unique_name())
            code = (await host.call("race_create", game="crescent"))["race"]["code"]
            # guessing: two wrong codes are not_found, then even the right one is refused
            for guess in ("ZZZZZZ", "YYYYYY"):
                assert (await join(guesser, guess))["error"]["code"] == "not_found"
            refused = (await join(guesser, code))["error"]
            assert refused["code"] == "rate_limited" and "names no race" in refused["message"]
            # joins: four a window, coming back included, then refused
            for _ in range(4):
                assert (await join(joiner, code))["ok"] is True
            refused = (await join(joiner, code))["error"]
            assert refused["code"] == "rate_limited" and "race joins" in refused["message"]
            assert 0 < refused["retry_after"] <= 3600
