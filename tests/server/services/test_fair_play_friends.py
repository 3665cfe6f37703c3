"""Fair play on issue 40's paths (docs/protocol.md, "Fair play"): presence, invites,
the inbox and the calendar carry no seed, line or face-down card of anything still
secret — today's daily, a race on it, a challenge still open — one test a path."""

from __future__ import annotations

from typing import Any

import pytest

from server.net import App
from tests.support import TestClient

QUICK = "travellers_classic"
#: keys that would carry a deal, a line or cards
SECRET_KEYS = {"seed", "line", "view", "state", "legal", "piles", "cards", "k", "moves_list"}


def values(node: Any) -> list[Any]:
    """Every key and leaf of a reply, flattened."""
    if isinstance(node, dict):
        return [*node.keys(), *(v for x in node.values() for v in values(x))]
    if isinstance(node, list):
        return [v for x in node for v in values(x)]
    return [node]


def clean(reply: dict[str, Any], secrets: set[int]) -> None:
    found = values(reply)
    assert not SECRET_KEYS & {v for v in found if isinstance(v, str)}, reply
    assert not secrets & {v for v in found if isinstance(v, int) and not isinstance(v, bool)}
    text = repr(reply)
    assert not any(str(s) in text for s in secrets), reply


@pytest.fixture
async def secrets(app: App, player: TestClient, player2: TestClient) -> dict[str, Any]:
    """player2 follows player; player plays today's daily, has a race on it in its lobby
    and an open challenge, and invites player2 to both: every secret seed of them."""
    assert app.services is not None and app.store is not None and player2.player
    await player2.call("friend_add", name=player.player)
    await player.call("friend_add", name=player2.player)
    daily = await player.start(QUICK, "daily")
    await player.move(daily, daily["legal"][0])
    race = (await player2.call("race_create", game=QUICK, daily=True))["race"]
    challenge = (await player.call("challenge_create", game=QUICK))["challenge"]
    info, _, _ = await app.store.challenge(challenge["code"])
    seed, _ = await app.services.dailies.deal(daily["date"], QUICK)
    return {"seeds": {seed, int(info["seed"])}, "race": race, "challenge": challenge}


async def test_presence(player: TestClient, player2: TestClient, secrets: dict[str, Any]) -> None:
    await player.start(QUICK, "daily")  # playing today's daily: only "playing"
    friends = await player2.call("friends")
    assert friends["friends"][0]["activity"] == "playing"
    assert friends["friends"][0]["today"][QUICK] == {"status": "playing"}
    clean(friends, secrets["seeds"])
    racing = await player.call("friends")  # player2 racing in the daily race's lobby
    assert racing["friends"][0]["race"] == secrets["race"]["code"]
    clean(racing, secrets["seeds"])


async def test_invites(player: TestClient, player2: TestClient, secrets: dict[str, Any]) -> None:
    assert player.player and player2.player
    await player2.call("invite", name=player.player, race=secrets["race"]["code"])
    clean(await player.next_event("invited"), secrets["seeds"])
    await player.call("invite", name=player2.player, challenge=secrets["challenge"]["code"])
    clean(await player2.next_event("invited"), secrets["seeds"])


async def test_the_inbox(player: TestClient, player2: TestClient, secrets: dict[str, Any]) -> None:
    assert player.player and player2.player
    await player.call("invite", name=player2.player, challenge=secrets["challenge"]["code"])
    accepted = await player2.call("challenge_accept", code=secrets["challenge"]["code"])
    await player2.call("resign", game_id=accepted["state"]["game_id"])  # a result: news
    await player.next_event("challenge_result")
    for c in (player, player2):
        inbox = await c.call("inbox")
        assert inbox["items"]
        clean(inbox, secrets["seeds"])


async def test_the_calendar(player: TestClient, secrets: dict[str, Any]) -> None:
    month = (await player.call("daily"))["date"][:7]
    for game in (QUICK, None):
        cal = await player.call("calendar", month=month, **({"game": game} if game else {}))
        clean(cal, secrets["seeds"])
    today = (await player.call("calendar", month=month, game=QUICK))["days"][-1]
    assert today["playable"] is False and today["status"] == "playing"
