"""Challenges over a real server (issue 27): a deal and a mark to beat, played by
friends who are not online together; two instances sharing one Redis.

- the flow end to end with three players, ranked as races rank, the creator told of
  each result on whichever instance they are connected to;
- the seed never reaches an accepting player before the challenge closes (issue 36:
  not even once their own game is over): every frame they receive (replies and
  events) is searched for it; its creator closes it (``challenge_close``);
- a mark whose seed its creator could see says so and ranks apart; a challenge of
  today's daily opens when the day closes;
- a challenge game is compared: undo takes back no shown card, no hint and no solver
  search (its line would be every accepter's): only a trivially won rest finishes;
- codes expire (the service's clock), and a player has at most N open.
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections.abc import AsyncIterator
from typing import Any

import pytest

import protocol as P
from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.services.challenges import FRESH_MS, ranked
from server.services.clock import day_end_ms
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
    assert made["seed_known"] is True  # so her mark ranks apart
    assert made["mark"] is True and made["played"] is True
    assert [(r["player"], r["rank"], r["won"], r["mark"]) for r in made["results"]] == [
        (alice.player, None, True, True)
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
            assert bob_won["status"] == "won" and bob_won["deal"]["seed"] is None
            told = await alice.next_event("challenge_result", code=code)
            assert told["player"] == bob.player and told["result"]["rank"] == 1
            assert told["results"] == 2 and told["unread"] == 1

            theirs = (await carol.call("challenge_accept", code=code))["state"]
            lost = (await carol.call("resign", game_id=theirs["game_id"]))["state"]
            assert lost["status"] == "lost" and lost["deal"]["seed"] is None
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
                assert ch["played"] is True and ch["unread"] == 0
                assert ch["seed"] == (SEED if who is alice else None)  # open: alice's only
            ranks = [(r["player"], r["rank"]) for r in seen[alice.player]["results"]]
            assert ranks == [(bob.player, 1), (carol.player, 2), (alice.player, None)]
            assert all(ch["results"] == seen[alice.player]["results"] for ch in seen.values())
            assert (await alice.call("challenges"))["unread"] == 0
            assert (await bob.call("challenges"))["challenges"][0]["game_id"] == state["game_id"]
            # a challenge game is challenged only once its challenge is closed
            err = await bob.error("challenge_create", game_id=state["game_id"])
            assert err["code"] == "forbidden" and "closes" in err["message"]
            err = await bob.error("challenge_close", code=code)
            assert err["code"] == "forbidden" and "creator" in err["message"]
            closed = (await alice.call("challenge_close", code=code))["challenge"]
            assert closed["closed"] is True and closed["seed"] == SEED
            assert (await bob.call("challenge", code=code))["challenge"]["seed"] == SEED
            rematch = await bob.call("challenge_create", game_id=state["game_id"])
            assert rematch["challenge"]["seed_chosen"] is True
            assert rematch["challenge"]["seed_public"] is True


async def test_the_seed_never_reaches_an_accepting_player_before_the_challenge_closes(
    player: TestClient, player2: TestClient
) -> None:
    """Every frame bob receives while he plays, asks and is told — replies to every
    op that shows a game, and events — is searched for the seed, as msgpack sends it:
    while his game is in play, and (issue 36) once it is over too, until alice closes
    the challenge."""
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
    # no solver line from a challenge's deal: every accepter's line (issue 36's cheat)
    assert (await bob.error("hint", game_id=gid))["code"] == "forbidden"
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
    assert over["deal"]["seed"] is None
    assert (await bob.call("replay", game_id=gid))["replay"]["seed"] is None
    assert (await bob.call("challenge", code=code))["challenge"]["seed"] is None
    result = (await bob.call("challenge", code=code))["challenge"]["results"]
    assert {r["player"]: r["assisted"] for r in result} == {alice.player: False, bob.player: False}
    await bob.call("resume", game_id=gid)
    await bob.call("my_games")
    await bob.call("challenges")
    assert not any(packed in frame for frame in bob.frames)

    await alice.call("challenge_close", code=code)
    assert (await bob.call("resume", game_id=gid))["state"]["deal"]["seed"] == seed
    assert (await bob.call("replay", game_id=gid))["replay"]["seed"] == seed
    assert (await bob.call("challenge", code=code))["challenge"]["seed"] == seed


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
    race = (await player.call("race_create", game=SLUG))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    await player.call("resign", game_id=mine["game_id"])  # player2 still races
    err = await player.error("challenge_create", game_id=mine["game_id"])
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
    err = await player.error("challenge_accept", code=code)
    assert err["code"] == "not_found" and "expired" in err["message"]
    # still shown for a day: closed, its results final and its seed no secret
    shown = (await player.call("challenge", code=code))["challenge"]
    assert shown["closed"] is True and isinstance(shown["seed"], int)
    (entry,) = (await player.call("challenges"))["challenges"]
    assert entry["expired"] is True and entry["closed"] is True


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
    server makes to the player's challenges (a result, a view, a new one, a closing)
    lists afresh."""
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
    # its creator closes it: those who accepted it list it afresh too
    (theirs,) = (await player2.call("challenges"))["challenges"]
    assert theirs["closed"] is False
    await player.call("challenge_close", code=code)
    (theirs,) = (await player2.call("challenges"))["challenges"]
    assert theirs["closed"] is True


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


# -- issue 36: nothing of the deal before the challenge closes ------------------------


def faces(message: Any) -> set[str]:
    """Every card face in a message (the cards of each ``view`` it holds, anywhere)."""
    if isinstance(message, dict):
        view = message.get("view")
        found = {c for p in view["piles"] for c in p["cards"] if c} if view else set()
        return found.union(*(faces(v) for k, v in message.items() if k != "view"))
    if isinstance(message, list):
        return set().union(*(faces(item) for item in message))
    return set()


async def test_a_challenge_is_not_won_by_proxy(
    player: TestClient, player2: TestClient, ws_url: str, line: list[dict[str, Any]]
) -> None:
    """Issue 36, point 3: mallory's second account accepts alice's challenge, resigns at
    move 0 and asks every op that shows a game or a challenge: no seed, no card it did
    not see (its replay's positions are what it saw), no challenge of its game. Only
    when alice closes the challenge is the seed shown; a game still in play then is
    noted nowhere, and nobody accepts any more."""
    alice, mallory = player, player2
    code = (await alice.call("challenge_create", game=SLUG, seed=SEED))["challenge"]["code"]
    main = (await mallory.call("challenge_accept", code=code))["state"]  # mallory plays on
    packed = b"\xcf" + struct.pack(">Q", SEED)
    async with connect(ws_url) as second:
        await second.register(unique_name("mallory2"))
        state = (await second.call("challenge_accept", code=code))["state"]
        seen = faces(state)
        gid = state["game_id"]
        over = (await second.call("resign", game_id=gid))["state"]
        assert over["status"] == "lost" and over["deal"]["seed"] is None
        replay = await second.call("replay", game_id=gid, step=0)
        assert replay["replay"]["seed"] is None and replay["replay"]["line"] == []
        assert replay["position"]["view"] == state["view"]
        await second.call("resume", game_id=gid)
        await second.call("challenge", code=code)
        await second.call("challenges")
        await second.call("my_games")
        await second.call("challenge_accept", code=code)  # the same game, over
        err = await second.error("challenge_create", game_id=gid)
        assert err["code"] == "forbidden" and "secret" in err["message"]
        err = await second.error("replay", game_id=main["game_id"])
        assert err["code"] == "forbidden"
        assert not any(packed in frame for frame in second.frames)
        shown = set().union(*(faces(P.decode(f, max_size=1 << 24)) for f in second.frames))
        assert shown <= seen, shown - seen
        err = await second.error("challenge_close", code=code)
        assert err["code"] == "forbidden"

        closed = (await alice.call("challenge_close", code=code))["challenge"]
        assert closed["closed"] is True and closed["seed"] == SEED
        assert (await second.call("resume", game_id=gid))["state"]["deal"]["seed"] == SEED
        assert (await second.call("replay", game_id=gid))["replay"]["seed"] == SEED
    # mallory's main account, still playing, gets nothing from the closing: no seed
    # while in play, and a win after it is noted nowhere
    won = await play(mallory, main, line)
    assert won["status"] == "won" and won["deal"]["seed"] == SEED
    results = (await alice.call("challenge", code=code))["challenge"]["results"]
    assert mallory.player not in [r["player"] for r in results]
    async with connect(ws_url) as late:
        await late.register(unique_name("late"))
        err = await late.error("challenge_accept", code=code)
        assert err["code"] == "forbidden" and "closed" in err["message"]


async def test_a_mark_whose_seed_its_creator_could_see_says_so_and_ranks_apart(
    player: TestClient, player2: TestClient, line: list[dict[str, Any]]
) -> None:
    """Issue 36, point 4: a practice game shows its seed: solved and played, its
    challenge says ``seed_known`` to every accepter and its mark ranks apart (rank
    null); a race game's mark (a seed nobody saw while playing) is clean, but says
    ``seed_public`` (its members saw the seed once the race was over)."""
    alice, bob = player, player2
    practice = await alice.start(SLUG, "practice")
    assert isinstance(practice["deal"]["seed"], int)  # what a cheat solves offline
    await alice.call("resign", game_id=practice["game_id"])
    made = (await alice.call("challenge_create", game_id=practice["game_id"]))["challenge"]
    code = made["code"]
    seen = (await bob.call("challenge", code=code))["challenge"]
    assert seen["seed_known"] is True and seen["seed_chosen"] is False
    (mark,) = seen["results"]
    assert mark["mark"] and mark["seed_known"] is True and mark["rank"] is None
    state = (await bob.call("challenge_accept", code=code))["state"]
    await bob.call("resign", game_id=state["game_id"])
    ranked = (await bob.call("challenge", code=code))["challenge"]["results"]
    assert [(r["player"], r["rank"]) for r in ranked] == [(bob.player, 1), (alice.player, None)]
    listed = (await bob.call("challenges"))["challenges"][0]
    assert listed["seed_known"] is True and listed["leader"] == bob.player

    # a chosen seed: its creator's own result ranks apart too
    chosen = (await alice.call("challenge_create", game=SLUG, seed=SEED))["challenge"]
    assert chosen["seed_known"] is True
    own = (await alice.call("challenge_accept", code=chosen["code"]))["state"]
    await play(alice, own, line)
    (result,) = (await bob.call("challenge", code=chosen["code"]))["challenge"]["results"]
    assert result["player"] == alice.player and result["won"] and result["rank"] is None

    # a race's game: nobody saw its seed while playing
    race = (await alice.call("race_create", game=SLUG))["race"]
    await bob.call("race_join", code=race["code"])
    await alice.call("race_start", race_id=race["race_id"])
    mine = (await alice.next_event("race_started"))["state"]
    theirs = (await bob.next_event("race_started"))["state"]
    await bob.call("resign", game_id=theirs["game_id"])
    await alice.call("resign", game_id=mine["game_id"])
    clean = (await alice.call("challenge_create", game_id=mine["game_id"]))["challenge"]
    assert clean["seed_known"] is False and clean["seed_public"] is True
    assert clean["results"][0]["rank"] == 1


async def test_a_challenge_of_todays_daily_opens_when_the_day_closes(
    clock: FakeClock, player: TestClient, player2: TestClient
) -> None:
    """Issue 36, point 7: a challenge of today's daily, asked for once it is finished,
    is made at once and opens to accepters when the day closes (UTC midnight)."""
    daily = await player.start("short", "daily")
    await player.call("resign", game_id=daily["game_id"])
    made = (await player.call("challenge_create", game_id=daily["game_id"]))["challenge"]
    assert made["opens"] == day_end_ms(str(daily["date"])) and made["seed"] is None
    assert made["seed_known"] is False and made["seed_public"] is True
    err = await player2.error("challenge_accept", code=made["code"])
    assert err["code"] == "forbidden" and "opens at" in err["message"]
    clock.advance(days=1)
    accepted = await player2.call("challenge_accept", code=made["code"])
    assert accepted["challenge"]["opens"] is None and accepted["state"]["mode"] == "challenge"
    assert accepted["state"]["deal"]["seed"] is None


async def test_a_challenge_is_shown_before_signing_in_without_its_seed(
    player: TestClient, client2: TestClient
) -> None:
    """A challenge link opened on a new device shows the challenge before the name is
    picked (issue 48): the game, its creator and the results so far, as to a player who
    has neither made nor played it — even a seed its creator chose stays hidden."""
    made = (await player.call("challenge_create", game="crescent", seed=77))["challenge"]
    assert made["seed"] == 77  # its creator sees the seed they chose
    seen = (await client2.call("challenge", code=made["code"].lower()))["challenge"]
    assert seen["code"] == made["code"] and seen["game"] == "crescent"
    assert seen["creator"] == made["creator"] and made["creator"].startswith("alice_")
    assert seen["seed"] is None and seen["closed"] is False
    assert seen["played"] is False and seen["game_id"] is None and seen["results"] == []
    # what needs an account still does
    err = await client2.error("challenge_accept", code=made["code"])
    assert err["code"] == "unauthorized"
    assert (await client2.error("challenge", code="ZZZZZZZZ"))["code"] == "not_found"
