"""Challenges over a real server (issue 27): a deal and a mark to beat, played by
friends who are not online together; two instances sharing one Redis.

- the flow end to end with three players, ranked as races rank, the creator told of
  each result on whichever instance they are connected to;
- the seed never reaches an accepting player before their game is over: every frame
  they receive (replies and events) is searched for it;
- a challenge game is compared: undo takes back no shown card, no solver finish
  without ``assist``, hints allowed but marked;
- codes expire (the service's clock), and a player has at most N open.
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.services.challenges import FRESH_MS, ranked
from server.solver import solve
from tests.support import TestClient, connect, redis_calls, running_app
from tests.support.fixtures import unique_name

#: a deal the solver wins in about a tenth of a second (122 moves)
SLUG, SEED = "travellers_classic", 2
MOST_OPEN = 3


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    # a whole game's moves in a burst: no pauses for the rate limit
    async with running_app(
        redis_url, clock=clock, rate=2000.0, burst=2000, challenge_open=MOST_OPEN
    ) as server:
        yield server


@pytest.fixture(scope="module")
def line() -> list[dict[str, Any]]:
    game = registry.get(SLUG)
    found = solve(game, game.deal(SEED), max_nodes=200_000).line
    assert found
    return [m.to_wire() for m in found]


async def play(client: TestClient, state: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
    for move in moves:
        state = await client.move(state, move)
    return state


async def test_a_challenge_end_to_end_with_three_players(
    redis_url: str,
    app: App,
    clock: FakeClock,
    player: TestClient,
    player2: TestClient,
    line: list[dict[str, Any]],
) -> None:
    """alice wins a deal and challenges it; bob (on another instance) beats her mark,
    carol gives up; alice is told of each result, and everyone sees the same ranks."""
    alice, bob = player, player2
    own = await alice.start(SLUG, "deal", seed=SEED)
    # one detour (a move and its undo) costs alice two moves: bob's clean line beats her
    detour = await alice.move(own, line[0])
    back = (await alice.call("undo", game_id=own["game_id"], seq=detour["seq"]))["state"]
    won = await play(alice, back, line)
    assert won["status"] == "won" and won["moves"] == len(line) + 2
    made = (await alice.call("challenge_create", game_id=won["game_id"]))["challenge"]
    code = made["code"]
    assert code[0].isalpha() and made["link"] == f"#challenge/{code}"
    assert made["seed_chosen"] is True and made["seed"] == SEED  # alice dealt it herself
    assert made["mark"] is True and made["played"] is True
    assert [(r["player"], r["rank"], r["won"], r["mark"]) for r in made["results"]] == [
        (alice.player, 1, True, True)
    ]
    err = await alice.error("challenge_accept", code=code)
    assert err["code"] == "forbidden" and "mark" in err["message"]

    prefix = app.settings.key_prefix
    async with (
        running_app(redis_url, clock=clock, key_prefix=prefix, rate=2000.0, burst=2000) as other,
        connect(f"ws://127.0.0.1:{other.port}/ws") as carol,
    ):
        await bob.close()
        async with connect(f"ws://127.0.0.1:{other.port}/ws") as bob:
            await bob.register(unique_name("bob"))
            await carol.register(unique_name("carol"))
            accepted = await bob.call("challenge_accept", code=code.lower())
            state = accepted["state"]
            assert state["mode"] == "challenge" and state["deal"]["seed"] is None
            assert accepted["challenge"]["seed"] is None and not accepted["challenge"]["played"]
            assert accepted["challenge"]["playing"] == [bob.player]
            start = await alice.call("replay", game_id=own["game_id"], step=0)
            assert state["view"] == start["position"]["view"]  # the same deal
            # accepting again is the same game: one play each
            again = (await bob.call("challenge_accept", code=code))["state"]
            assert again["game_id"] == state["game_id"]
            bob_won = await play(bob, state, line)
            assert bob_won["status"] == "won" and bob_won["deal"]["seed"] == SEED
            told = await alice.next_event("challenge_result", code=code)
            assert told["player"] == bob.player and told["result"]["rank"] == 1
            assert told["results"] == 2 and told["unread"] == 1

            theirs = (await carol.call("challenge_accept", code=code))["state"]
            lost = (await carol.call("resign", game_id=theirs["game_id"]))["state"]
            assert lost["status"] == "lost" and lost["deal"]["seed"] == SEED
            told = await alice.next_event("challenge_result", code=code)
            assert told["player"] == carol.player and told["result"]["status"] == "lost"
            assert told["unread"] == 2

            listed = await alice.call("challenges")
            assert listed["unread"] == 2
            (entry,) = listed["challenges"]
            assert entry["code"] == code and entry["results"] == 3 and entry["unread"] == 2
            assert entry["leader"] == bob.player and entry["played"] is True

            seen = {}
            for who in (alice, bob, carol):
                ch = (await who.call("challenge", code=code))["challenge"]
                seen[who.player] = ch
                assert ch["seed"] == SEED and ch["played"] is True and ch["unread"] == 0
            ranks = [(r["player"], r["rank"]) for r in seen[alice.player]["results"]]
            assert ranks == [(bob.player, 1), (alice.player, 2), (carol.player, 3)]
            assert all(ch["results"] == seen[alice.player]["results"] for ch in seen.values())
            assert (await alice.call("challenges"))["unread"] == 0
            assert (await bob.call("challenges"))["challenges"][0]["game_id"] == state["game_id"]
            # the finished challenge game may itself be challenged: its seed is no secret now
            rematch = await bob.call("challenge_create", game_id=state["game_id"])
            assert rematch["challenge"]["seed_chosen"] is True


async def test_the_seed_never_reaches_an_accepting_player_before_their_game_is_over(
    player: TestClient, player2: TestClient
) -> None:
    """Every frame bob receives while he plays, asks and is told — replies to every
    op that shows a game, and events — is searched for the seed, as msgpack sends it."""
    alice, bob = player, player2
    own = await alice.start(SLUG, "practice")
    seed = own["deal"]["seed"]
    assert seed > 2**32  # a uint64 on the wire: found as its 9 bytes
    await alice.call("resign", game_id=own["game_id"])
    code = (await alice.call("challenge_create", game_id=own["game_id"]))["challenge"]["code"]
    packed = b"\xcf" + struct.pack(">Q", seed)

    bob.frames.clear()
    accepted = await bob.call("challenge_accept", code=code)
    state = accepted["state"]
    gid = state["game_id"]
    assert accepted["challenge"]["seed"] is None
    state = await bob.move(state, state["legal"][0])
    delta = await bob.call(
        "move", game_id=gid, seq=state["seq"], move=state["legal"][0], reply="delta"
    )
    seq = delta["delta"]["seq"]
    await bob.call("hint", game_id=gid)
    await bob.call("auto", game_id=gid, seq=seq)
    seq = (await bob.call("resume", game_id=gid))["state"]["seq"]
    await bob.call("finish", game_id=gid, seq=seq, check=True)
    refused = await bob.error("finish", game_id=gid, seq=seq)
    assert refused["code"] == "illegal_move"
    await bob.request("undo", game_id=gid, seq=seq)
    await bob.request("undo", game_id=gid, seq=0)  # stale_seq carries the state
    assert (await bob.error("replay", game_id=gid))["code"] == "forbidden"
    await bob.call("my_games")
    await bob.call("challenge", code=code)
    await bob.call("challenges")
    await bob.call("challenge_accept", code=code)
    await bob.call("stats")
    await bob.error("start", game=SLUG, mode="challenge")
    assert bob.frames and not any(packed in frame for frame in bob.frames)
    assert not any(ev.get("ev") == "challenge_result" for ev in bob.events)

    over = (await bob.call("resign", game_id=gid))["state"]
    assert over["deal"]["seed"] == seed and packed in bob.frames[-1]
    assert (await bob.call("replay", game_id=gid))["replay"]["seed"] == seed
    assert (await bob.call("challenge", code=code))["challenge"]["seed"] == seed
    result = (await bob.call("challenge", code=code))["challenge"]["results"]
    assert {r["player"]: r["assisted"] for r in result} == {alice.player: False, bob.player: True}


async def test_a_challenge_game_follows_the_rules_of_a_compared_game(
    player: TestClient, player2: TestClient
) -> None:
    """Undo takes back no move that showed a card; the solver finishes nothing without
    ``assist``; and a challenge made with no result leaves the deal secret to its
    creator too, who may then play it like anyone."""
    made = (await player.call("challenge_create", game="st_helena"))["challenge"]
    assert made["seed"] is None and made["mark"] is False and made["seed_chosen"] is False
    state = (await player.call("challenge_accept", code=made["code"]))["state"]
    assert state["mode"] == "challenge" and state["deal"]["seed"] is None
    deal = {"action": "deal"}
    dealt = await player.move(state, deal if deal in state["legal"] else state["legal"][0])
    err = await player.error("undo", game_id=dealt["game_id"], seq=dealt["seq"])
    assert err["code"] == "illegal_move" and "challenge" in err["message"]
    chosen = (await player2.call("challenge_create", game="crescent", seed=77))["challenge"]
    assert chosen["seed_chosen"] is True and chosen["seed"] == 77
    other = (await player.call("challenge_accept", code=chosen["code"]))["state"]
    assert other["deal"]["seed"] is None


async def test_what_a_challenge_cannot_be_made_from(
    player: TestClient, player2: TestClient
) -> None:
    state = await player.start(SLUG, "practice")
    err = await player.error("challenge_create", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "in play" in err["message"]
    assert (await player2.error("challenge_create", game_id=state["game_id"]))[
        "code"
    ] == "forbidden"
    daily = await player.start("short", "daily")
    await player.call("resign", game_id=daily["game_id"])
    err = await player.error("challenge_create", game_id=daily["game_id"])
    assert err["code"] == "forbidden" and "secret" in err["message"]
    assert (await player.error("challenge_create", game_id="nope"))["code"] == "not_found"
    assert (await player.error("challenge_create", game="nope"))["code"] == "not_found"
    both = await player.error("challenge_create", game_id=state["game_id"], game=SLUG)
    assert both["code"] == "bad_request"
    assert (await player.error("challenge_create"))["code"] == "bad_request"
    assert (await player.error("challenge", code="ZZZZZZZZ"))["code"] == "not_found"
    assert (await player.error("challenge_accept", code="no!"))["code"] == "bad_request"


async def test_codes_expire(app: App, clock: FakeClock, player: TestClient) -> None:
    days = app.settings.challenge_days
    code = (await player.call("challenge_create", game=SLUG))["challenge"]["code"]
    clock.advance(days=int(days) - 1)
    assert (await player.call("challenge", code=code))["challenge"]["code"] == code
    clock.advance(days=1)
    for op in ("challenge", "challenge_accept"):
        err = await player.error(op, code=code)
        assert err["code"] == "not_found" and "expired" in err["message"]
    (entry,) = (await player.call("challenges"))["challenges"]
    assert entry["expired"] is True


async def test_a_player_has_at_most_n_open_challenges(clock: FakeClock, player: TestClient) -> None:
    for _ in range(MOST_OPEN):
        await player.call("challenge_create", game=SLUG)
    err = await player.error("challenge_create", game=SLUG)
    assert err["code"] == "forbidden"
    assert f"{MOST_OPEN} open challenges" in err["message"] and "expires" in err["message"]
    assert len((await player.call("challenges"))["challenges"]) == MOST_OPEN
    clock.advance(days=31)  # expired ones are open no longer
    await player.call("challenge_create", game=SLUG)


async def test_the_list_of_challenges_is_read_in_one_round_trip(
    app: App, player: TestClient, player2: TestClient
) -> None:
    """``challenges`` reads every challenge it lists at once: it was a round trip each,
    and a list of 100 38 ms of the server's CPU (bench.op_costs: 47 moves' worth)."""
    for _ in range(MOST_OPEN):
        await player.call("challenge_create", game=SLUG)
        code = (await player2.call("challenge_create", game=SLUG))["challenge"]["code"]
        await player.call("challenge_accept", code=code)
    before = redis_calls(app, "challenge")
    listed = (await player.call("challenges"))["challenges"]
    assert len(listed) == 2 * MOST_OPEN
    assert {c["creator"] for c in listed} == {player.player, player2.player}
    assert sum(c["game_id"] is not None for c in listed) == MOST_OPEN
    # the player's codes, what they saw of each, the challenges
    assert redis_calls(app, "challenge") - before == 3


async def test_a_flood_of_challenges_lists_once_a_moment(
    app: App, clock: FakeClock, player: TestClient, player2: TestClient
) -> None:
    """``challenges`` answers again what it listed for FRESH_MS (a list of 100 was 13
    moves' worth of the server's CPU, 50 a second from one connection); a change this
    server makes to the player's challenges (a result, a view, a new one) lists afresh."""
    code = (await player.call("challenge_create", game=SLUG))["challenge"]["code"]
    accepted = await player2.call("challenge_accept", code=code)
    first = await player.call("challenges")
    before = redis_calls(app, "challenge")
    for _ in range(5):
        assert await player.call("challenges") == first
    assert redis_calls(app, "challenge") == before
    clock.advance(ms=FRESH_MS)
    assert await player.call("challenges") == first
    assert redis_calls(app, "challenge") == before + 3
    await player2.call("resign", game_id=accepted["state"]["game_id"])
    (mine,) = (await player.call("challenges"))["challenges"]
    assert mine["results"] == 1 and mine["unread"] == 1
    await player.call("challenge", code=code)
    (mine,) = (await player.call("challenges"))["challenges"]
    assert mine["unread"] == 0


def test_a_rank_is_one_plus_the_results_strictly_before() -> None:
    """Ranks as docs/protocol.md defines them, found by bisection (counting the results
    before each one made a challenge of 200 results 6 ms of CPU a view)."""
    rnd = random.Random(27)
    results = [
        {
            "player": f"p{i}",
            "won": rnd.random() < 0.3,
            "moves": rnd.randint(50, 60),
            "time_ms": rnd.choice((1000, 2000)),
            "foundation": rnd.randint(8, 12),
            "finished": rnd.randint(0, 10**6),
        }
        for i in range(300)
    ]

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        return (0, r["moves"], r["time_ms"]) if r["won"] else (1, -r["foundation"], 0)

    rows = ranked(results)
    assert sorted(r["player"] for r in rows) == sorted(r["player"] for r in results)
    assert [(key(r), r["finished"]) for r in rows] == sorted((key(r), r["finished"]) for r in rows)
    for row in rows:
        assert row["rank"] == 1 + sum(key(r) < key(row) for r in results)


async def test_two_accepts_at_once_make_one_game(player: TestClient, player2: TestClient) -> None:
    code = (await player.call("challenge_create", game=SLUG))["challenge"]["code"]
    url = f"ws://127.0.0.1:{player2.ws.remote_address[1]}/ws"
    async with connect(url) as twin:
        await twin.call("auth", token=player2.token)
        a, b = await asyncio.gather(
            player2.call("challenge_accept", code=code), twin.call("challenge_accept", code=code)
        )
    assert a["state"]["game_id"] == b["state"]["game_id"]
