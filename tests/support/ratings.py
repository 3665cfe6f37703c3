"""Players with ratings (issue 51) for the clients' tests: races on fresh deals of one
game between accounts of different client addresses, over a real server that trusts
loopback as its load balancer (``--trusted-proxies 127.0.0.1``), which forwards each
account's address (``X-Forwarded-For``) as in tests/server/services/test_ratings.py.

    tokens = await rated_players(url, {"ann": 5, "cid": 1})

Each race is between the first player and the next one due a race; the first player
founds a card when the deal offers one (so ratings part), everyone resigns.
"""

from __future__ import annotations

from typing import Any

from .client import TestClient, connect

#: the server flags these races need (beside the test's own)
RATED_SERVER_ARGS = ("--trusted-proxies", "127.0.0.1", "--race-countdown", "0.3")
GAME = "crescent"


def at(address: str) -> dict[str, Any]:
    """A client whose load balancer says it comes from ``address``."""
    return {"additional_headers": {"X-Forwarded-For": address}}


async def race(host: TestClient, other: TestClient, game: str = GAME) -> list[dict[str, Any]]:
    """One race of ``host`` and ``other`` on a fresh deal of ``game``, to its end: its rows."""
    made = (await host.call("race_create", game=game))["race"]
    await other.call("race_join", code=made["code"])
    await host.call("race_start", race_id=made["race_id"])
    states = [(await c.next_event("race_started"))["state"] for c in (host, other)]
    found = next((m for m in states[0]["legal"] if str(m.get("to", "")).startswith("F")), None)
    if found is not None:
        states[0] = await host.move(states[0], found)
    for c, state in zip((host, other), states, strict=True):
        await c.call("resign", game_id=state["game_id"])
    done = await host.next_event("race", status="finished", race_id=made["race_id"])
    players: list[dict[str, Any]] = done["players"]
    return players


async def rated_players(
    url: str, races: dict[str, int], game: str = GAME
) -> dict[str, tuple[str, str]]:
    """Register one account per name of ``races`` (each from its own address; names
    as given: the caller makes them unique) and race the first against each other
    one as many times as its number says: ``{name: (player, token)}``."""
    first, *others = races
    out: dict[str, tuple[str, str]] = {}
    async with connect(url, **at("198.51.100.1")) as host:
        token = await host.register(first)
        out[first] = (str(host.player), token)
        for n, name in enumerate(others, 2):
            async with connect(url, **at(f"198.51.100.{n}")) as other:
                token = await other.register(name)
                out[name] = (str(other.player), token)
                for _ in range(races[name]):
                    await race(host, other, game)
    return out
