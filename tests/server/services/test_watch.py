"""Watching a race over a real server (issue 27): a spectator sees the race's events
live and each member's board once the race is over (issue 36: no face while any
member plays), never a face-down card nor the seed, cannot play or join; members see
how many watch; a race takes at most N spectators. The spectator is connected to
another instance than the members (one Redis)."""

from __future__ import annotations

import struct
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

import protocol as P
from server.net import App
from server.services import FakeClock
from server.services.ids import race_game_id
from tests.support import TestClient, connect, running_app
from tests.support.fixtures import unique_name

MOST = 1


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    async with running_app(redis_url, clock=clock, race_watchers=MOST) as server:
        yield server


@pytest.fixture
async def other(redis_url: str, app: App, clock: FakeClock) -> AsyncIterator[App]:
    """A second instance on the same Redis and key prefix."""
    prefix = app.settings.key_prefix
    async with running_app(redis_url, clock=clock, key_prefix=prefix, race_watchers=MOST) as s:
        yield s


@pytest.fixture
async def spectator(other: App) -> AsyncIterator[TestClient]:
    async with connect(f"ws://127.0.0.1:{other.port}/ws") as c:
        await c.register(unique_name("eve"))
        yield c


async def running_race(a: TestClient, b: TestClient) -> tuple[dict[str, Any], ...]:
    race = (await a.call("race_create", game="crescent"))["race"]
    await b.call("race_join", code=race["code"])
    await a.call("race_start", race_id=race["race_id"])
    mine = (await a.next_event("race_started"))["state"]
    theirs = (await b.next_event("race_started"))["state"]
    return race, mine, theirs


def seed_bytes(seed: int) -> bytes:
    return b"\xcf" + struct.pack(">Q", seed)


def faces(message: Any) -> list[str]:
    """Every card face in a message: the cards of each ``view`` it holds, anywhere."""
    if isinstance(message, dict):
        view = message.get("view")
        found = [c for p in view["piles"] for c in p["cards"] if c] if view else []
        return found + [f for k, v in message.items() if k != "view" for f in faces(v)]
    if isinstance(message, list):
        return [f for item in message for f in faces(item)]
    return []


def received(c: TestClient) -> list[dict[str, Any]]:
    """Every frame ``c`` received so far, decoded."""
    return [P.decode(frame, max_size=1 << 24) for frame in c.frames]


async def test_a_spectator_sees_progress_live_and_the_boards_once_the_race_is_over(
    app: App, player: TestClient, player2: TestClient, spectator: TestClient
) -> None:
    race, mine, theirs = await running_race(player, player2)
    watched = await spectator.call("race_watch", code=race["code"].lower())
    assert watched["race"]["race_id"] == race["race_id"] and watched["race"]["watchers"] == 1
    boards = {b["player"]: b["state"] for b in watched["boards"]}
    assert set(boards) == {player.player, player2.player}
    assert all(b["view"] is None and b["moves"] == 0 for b in boards.values())
    ev = await player.next_event("race", watchers=1)  # the members see one watching
    assert ev["race_id"] == race["race_id"]

    moved = await player.move(mine, mine["legal"][0])
    row = await spectator.progress_of(player.player, 1)  # progress, live
    assert row["foundation"] == moved["foundation"]

    # A spectator plays no part: no move in a member's game, no joining the race.
    gid = race_game_id(race["race_id"], str(player.player))
    err = await spectator.error("move", game_id=gid, seq=moved["seq"], move=moved["legal"][0])
    assert err["code"] == "forbidden"
    err = await spectator.error("race_join", code=race["code"])
    assert err["code"] == "forbidden" and "watched" in err["message"]
    assert (await player.error("race_watch", code=race["code"]))["code"] == "forbidden"

    # The race ends: every member's whole board, as that member sees it, never the seed.
    await player.call("resign", game_id=mine["game_id"])
    last = await player2.call("resign", game_id=theirs["game_id"])
    ended: dict[str, dict[str, Any]] = {}
    while len(ended) < 2:
        board = await spectator.next_event("race_board", race_id=race["race_id"])
        ended[board["player"]] = board["state"]
    me, them = str(player.player), str(player2.player)
    assert ended[them]["view"] == last["state"]["view"]
    assert ended[me]["status"] == "lost" and ended[me]["moves"] == 1
    hidden = sum(c is None for p in ended[me]["view"]["piles"] for c in p["cards"])
    assert hidden > 0  # Crescent's packs lie face down under their top card
    seen = ended[me]
    assert "game_id" not in seen and "legal" not in seen and seen["deal"]["seed"] is None
    await spectator.next_event("race", status="finished")
    seed = (await player.call("resume", game_id=mine["game_id"]))["state"]["deal"]["seed"]
    assert isinstance(seed, int)
    again = await spectator.call("race_watch", code=race["code"])
    assert all(b["state"]["view"] is not None for b in again["boards"])
    assert all(b["state"]["deal"]["seed"] is None for b in again["boards"])
    assert not any(seed_bytes(seed) in frame for frame in spectator.frames)


async def test_a_racers_second_account_sees_no_card_the_racer_has_not_seen(
    app: App, player: TestClient, player2: TestClient, spectator: TestClient
) -> None:
    """Issue 36, point 1: the racer (``player``) sits at move 0 while his second
    account (``spectator``) watches the race; the opponent turns up cards. Nothing the
    second account receives while the racer still plays shows a face the racer has
    not seen in his own game (same deal: it would be a card still face down there)."""
    race, mine, theirs = await running_race(player, player2)
    await spectator.call("race_watch", code=race["code"])
    racer_saw = set(faces(mine))
    state, secret = theirs, set[str]()
    for _ in range(60):  # the opponent plays until they see what the racer has not
        secret = set(faces(state)) - racer_saw
        if secret or state["status"] != "playing":
            break
        cards = [m for m in state["legal"] if "from" in m]
        state = await player2.move(state, (cards or state["legal"])[0])
    assert secret, "the opponent turned up no card the racer has not seen"
    await player2.call("resign", game_id=theirs["game_id"])
    # every change of the opponent's game has reached the spectator by the time the
    # race's news of their resignation does (one channel, published in order)
    row = await spectator.progress_of(player2.player, state["moves"])
    while row["status"] != "lost":
        row = await spectator.progress_of(player2.player, state["moves"])
    shown = set(faces(received(spectator)))
    assert not shown - racer_saw, f"the spectator saw {sorted(shown - racer_saw)}"

    # Once the racer's game is over too, the spectator sees every board whole.
    await player.call("resign", game_id=mine["game_id"])
    board = await spectator.next_event("race_board", player=player2.player)
    assert secret <= set(faces(board))


async def test_a_race_takes_at_most_n_spectators_and_counts_who_leaves(
    other: App, player: TestClient, player2: TestClient, spectator: TestClient
) -> None:
    race, _, _ = await running_race(player, player2)
    await spectator.call("race_watch", code=race["code"])
    await player.next_event("race", watchers=1)
    async with connect(f"ws://127.0.0.1:{other.port}/ws") as late:
        await late.register(unique_name("mallory"))
        err = await late.error("race_watch", code=race["code"])
        assert err["code"] == "forbidden" and f"{MOST} spectators" in err["message"]
    assert await spectator.call("race_unwatch", race_id=race["race_id"]) == {}
    await player.next_event("race", watchers=0)
    assert (await spectator.error("race_unwatch", race_id=race["race_id"]))["code"] == "not_found"
    # a spectator who disconnects stops watching (the next beat of their server)
    await spectator.call("race_watch", code=race["code"])
    await player.next_event("race", watchers=1)
    await spectator.close()
    await player.next_event("race", watchers=0)
    assert (await player.error("race_watch", code="ZZZZZZ"))["code"] == "not_found"


async def test_spectators_get_events_after_the_delay(
    redis_url: str, clock: FakeClock, player: TestClient, player2: TestClient, app: App
) -> None:
    prefix = app.settings.key_prefix
    async with (
        running_app(redis_url, clock=clock, key_prefix=prefix, watch_delay=0.3) as late,
        connect(f"ws://127.0.0.1:{late.port}/ws") as eve,
    ):
        await eve.register(unique_name("eve"))
        race, mine, theirs = await running_race(player, player2)
        await eve.call("race_watch", code=race["code"])
        await player.call("resign", game_id=mine["game_id"])
        sent = time.monotonic()
        await player2.call("resign", game_id=theirs["game_id"])  # the race is over
        await eve.next_event("race_board")
        # held back at least the delay (a loaded machine only adds to it: no upper bound)
        assert time.monotonic() - sent >= 0.3


async def test_guessing_codes_to_watch_counts_as_guessing_race_codes(redis_url: str) -> None:
    """A race's code opens it to a spectator as to a member: a code that names no race
    counts against the address, and past the limit watching is refused too."""
    limited: dict[str, Any] = {
        "address_limits": True,
        "address_failed_joins": 2,
        "trusted_proxies": "127.0.0.1",
    }
    async with running_app(redis_url, **limited) as server:
        headers: dict[str, Any] = {"additional_headers": {"X-Forwarded-For": "198.51.100.40"}}
        async with connect(f"ws://127.0.0.1:{server.port}/ws", **headers) as guesser:
            await guesser.register(unique_name("guess"))
            for guess in ("ZZZZZZ", "YYYYYY"):
                assert (await guesser.error("race_watch", code=guess))["code"] == "not_found"
            refused = await guesser.error("race_watch", code="XXXXXX")
            assert refused["code"] == "rate_limited" and "names no race" in refused["message"]


async def test_a_race_on_todays_daily_deal_is_not_watched(
    player: TestClient, player2: TestClient
) -> None:
    """Watching a daily race would show the day's deal and a line of it to a player
    whose own ranked attempt is still to come (issue 22: no second look at the daily)."""
    race = (await player.call("race_create", game="short", daily=True))["race"]
    err = await player2.error("race_watch", code=race["code"])
    assert err["code"] == "forbidden" and "daily" in err["message"]
