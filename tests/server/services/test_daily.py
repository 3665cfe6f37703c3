"""Fair dailies and leaderboards, with a fake clock."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import pytest

from protocol import ErrorCode, ProtocolError
from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.services.daily import Dailies
from server.services.leaderboard import Entry
from server.solver import TUNING, Result, certify, solve
from server.solver.daily import Budget, candidate_seed, choose, commitment
from tests.support import TestClient, connect, eventually, redis_calls

from .test_daily_busy import Gate

TODAY = "2026-03-14"


async def finish_daily(client: TestClient, moves: int) -> dict[str, Any]:
    state = await client.start("crescent", "daily")
    for _ in range(moves):
        state = await client.move(state, state["legal"][0])
    over: dict[str, Any] = (await client.call("resign", game_id=state["game_id"]))["state"]
    return over


async def test_daily_shows_commitments_then_seeds(
    app: App, player: TestClient, clock: FakeClock
) -> None:
    today = await player.call("daily")
    assert today["date"] == TODAY and today["streak"] == 0
    assert list(today["games"]) == registry.slugs()
    for entry in today["games"].values():
        assert entry["seed"] is None and entry["mine"] is None and "line" not in entry
        assert (entry["par"] is not None) == entry["certified"]
        assert len(entry["commitment"]) == 64
    clock.advance(days=1)
    past = await player.call("daily", date=TODAY)
    assert app.store is not None
    secret = await app.store.secret()
    for slug, entry in past["games"].items():
        seed = entry["seed"]
        assert seed == candidate_seed(secret, TODAY, slug, entry["k"])
        if entry["certified"]:  # the par line, revealed with the seed, replays to a win
            game = registry.get(slug)
            line = [game.parse_move(m) for m in entry["line"]]
            assert len(line) == entry["par"] and certify(game, game.deal(seed), line)
        assert entry["commitment"] == today["games"][slug]["commitment"]
        expected = hashlib.sha256(seed.to_bytes(8, "big") + f"{TODAY}:{slug}".encode())
        assert entry["commitment"] == expected.hexdigest()
    assert (await player.error("daily", date="2026-03-16"))["code"] == "not_found"


async def test_everybody_gets_the_same_daily(player: TestClient, player2: TestClient) -> None:
    a = await player.start("crescent", "daily")
    b = await player2.start("crescent", "daily")
    assert a["game_id"] != b["game_id"]
    assert a["view"] == b["view"] and a["deal"] == b["deal"]
    assert a["deal"]["seed"] is None and a["mode"] == "daily" and a["ranked"] is True
    again = await player.start("crescent", "daily")
    assert again["game_id"] == a["game_id"]


async def test_first_finished_attempt_counts(player: TestClient, clock: FakeClock) -> None:
    first = await finish_daily(player, 2)
    # One daily deal a day: starting it again gives the same finished attempt, not a
    # practice copy of the hidden deal (with undo, hints and finish) to scout it.
    again = await player.start("crescent", "daily")
    assert again["game_id"] == first["game_id"] and again["status"] == "lost"
    assert again["deal"]["seed"] is None and again["ranked"] is True
    board = await player.call("leaderboard", game="crescent", board="daily")
    assert [e["player"] for e in board["entries"]] == [player.player]
    assert board["entries"][0]["moves"] == first["moves"] == 2
    assert board["me"]["rank"] == 1
    mine = (await player.call("daily"))["games"]["crescent"]["mine"]
    assert mine["game_id"] == first["game_id"] and mine["status"] == "lost"
    clock.advance(days=1)
    revealed = (await player.call("resume", game_id=first["game_id"]))["state"]
    assert isinstance(revealed["deal"]["seed"], int)


async def test_leaderboard_order_ranks_cursor_and_around_me(ws_url: str) -> None:
    names = [f"racer{i}" for i in range(7)]
    for i, name in enumerate(names):
        async with connect(ws_url) as c:
            await c.register(name)
            await finish_daily(c, i % 4)
    async with connect(ws_url) as c:
        board = await c.call("leaderboard", game="crescent", limit=3)
        assert len(board["entries"]) == 3
        assert board["me"] is None and board["cursor"] == "3"
        seen = board["entries"]
        while board["cursor"]:
            board = await c.call("leaderboard", game="crescent", limit=3, cursor=board["cursor"])
            seen += board["entries"]
        # a rank is 1 + the entries ranked strictly before (losses tie on cards founded)
        keys = [
            (not e["won"], -e["foundation"], *((e["moves"], e["time_ms"]) if e["won"] else ()))
            for e in seen
        ]
        assert keys == sorted(keys)
        assert [e["rank"] for e in seen] == [1 + keys.index(k) for k in keys]
        assert {e["player"] for e in seen} == set(names)
        err = await c.error("leaderboard", game="crescent", around_me=True)
        assert err["code"] == "unauthorized"
    async with connect(ws_url) as c:
        await c.call("auth", token=await _token_of(ws_url))
        around = await c.call("leaderboard", game="crescent", limit=3, around_me=True)
        me = around["me"]
        assert me["player"] == "lurker"
        assert me in around["entries"] and len(around["entries"]) == 3
        alltime = await c.call("leaderboard", game="crescent", board="alltime")
        assert len(alltime["entries"]) == 8 and alltime["date"] is None


async def _token_of(ws_url: str) -> str:
    async with connect(ws_url) as c:
        token = await c.register("lurker")
        await finish_daily(c, 0)
        return token


async def test_leaderboard_errors(player: TestClient) -> None:
    assert (await player.error("leaderboard", game="nope"))["code"] == "not_found"
    assert (await player.error("leaderboard", game="crescent", cursor="x"))["code"] == "bad_request"
    assert (await player.error("leaderboard", game="crescent", limit=101))["code"] == "bad_request"
    # the server was first used today (its fake clock's 2026-03-14): no dailies before
    assert (await player.error("leaderboard", game="crescent", date="2026-03-13"))[
        "code"
    ] == "not_found"
    empty = await player.call("leaderboard", game="crescent", date="2026-03-14")
    assert empty["entries"] == [] and empty["cursor"] is None and empty["me"] is None


async def test_alltime_keeps_the_best_daily(player: TestClient, clock: FakeClock) -> None:
    results = []
    for moves in (3, 1, 2):
        results.append(await finish_daily(player, moves))
        clock.advance(days=1)
    best = await player.call("leaderboard", game="crescent", board="alltime")
    assert len(best["entries"]) == 1
    # losses rank by cards founded alone; of equal ones the first stays
    winner = min(
        results,
        key=lambda s: (
            s["status"] != "won",
            -s["foundation"],
            s["moves"] if s["status"] == "won" else 0,
        ),
    )
    assert (best["me"]["moves"], best["me"]["foundation"]) == (
        winner["moves"],
        winner["foundation"],
    )


async def paced(client: TestClient, op: str, **params: Any) -> dict[str, Any]:
    """``client.call``, kept to the server's rate: a ``rate_limited`` reply is sent
    again after its ``retry_after`` (these tests play out whole games)."""
    for _ in range(100):
        try:
            return await client.call(op, **params)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.RATE_LIMITED:
                raise
            await asyncio.sleep(float(exc.extra["retry_after"]))
    raise AssertionError(f"{op} rate limited 100 times")


async def play_out_daily(client: TestClient, slug: str = "parade") -> dict[str, Any]:
    """Today's daily of ``slug`` played to its end by the rules (the last legal move
    each time: parade's deals run out of moves within a hundred or so)."""
    state: dict[str, Any] = (await paced(client, "start", game=slug, mode="daily"))["state"]
    for _ in range(1000):
        if state["status"] != "playing":
            return state
        move = state["legal"][-1]
        state = (
            await paced(client, "move", game_id=state["game_id"], seq=state["seq"], move=move)
        )["state"]
    raise AssertionError(f"{slug}'s daily did not end in 1000 moves")


async def resign_daily(client: TestClient, slug: str = "crescent") -> None:
    state = (await paced(client, "start", game=slug, mode="daily"))["state"]
    await paced(client, "resign", game_id=state["game_id"])


async def streak(client: TestClient) -> int:
    return int((await paced(client, "daily"))["streak"])


async def test_streak(player: TestClient, clock: FakeClock) -> None:
    """A streak counts consecutive UTC days with a daily finished by the rules (won, or
    lost with no move left); a resigned daily does not count (docs/client.md)."""
    await resign_daily(player)
    assert await streak(player) == 0
    ended = await play_out_daily(player)
    assert ended["status"] in ("won", "lost")
    assert await streak(player) == 1
    clock.advance(days=1)
    assert await streak(player) == 1  # yesterday still counts
    await play_out_daily(player)
    assert await streak(player) == 2
    clock.advance(days=1)
    await resign_daily(player)  # only a resigned daily this day
    assert await streak(player) == 2  # yesterday's still counts
    clock.advance(days=1)
    assert await streak(player) == 0  # the resigned day broke it
    await play_out_daily(player)
    assert await streak(player) == 1
    clock.advance(days=3)
    assert await streak(player) == 0
    await play_out_daily(player)
    assert await streak(player) == 1


def test_ranking_order_is_designs() -> None:
    rnd = random.Random(5)
    entries = [
        Entry(
            f"p{i}",
            rnd.random() < 0.3,
            rnd.randrange(105),
            rnd.randrange(3000),
            rnd.randrange(10**7),
            rnd.randrange(10**12),
            rnd.random() < 0.5,
            rnd.random() < 0.5,
        )
        for i in range(300)
    ]
    by_member = sorted(entries, key=Entry.member)
    # Wins by moves, then time; losses by cards founded alone (ties by finish).
    by_rule = sorted(
        entries,
        key=lambda e: (
            not e.won,
            -e.foundation,
            e.moves if e.won else 0,
            e.time_ms if e.won else 0,
            e.finished_ms,
            not e.clean,
            e.resigned,
            e.moves,
            e.time_ms,
            e.player,
        ),
    )
    assert by_member == by_rule
    assert all(Entry.parse(e.member()) == e for e in entries)


def test_an_entry_stored_before_resigned_was_kept_still_reads() -> None:
    old = "0" + "895" + "000120" + "000000061000" + "001773484800000" + "1" + "|ann"
    assert Entry.parse(old) == Entry("ann", True, 104, 120, 61000, 1773484800000, True)


async def test_losses_rank_by_cards_founded_and_ties_share_a_rank(ws_url: str) -> None:
    """Giving up at once ranks no better than trying longer with as many cards
    founded: both share the rank, and the board says which one resigned."""
    async with connect(ws_url) as quitter, connect(ws_url) as trier:
        await quitter.register("quitter")
        await trier.register("trier")
        first = await quitter.start("crescent", "daily")
        await quitter.call("resign", game_id=first["game_id"])
        state = await trier.start("crescent", "daily")
        # A card from pile to pile founds nothing, nor does a shift (seed 000: "the
        # bottom card of every pile ... to its top"), which a fresh deal always offers:
        # not every daily deal has a pile-to-pile move.
        moves = [m for m in state["legal"] if str(m.get("to", "")).startswith("T")]
        state = await trier.move(state, (moves or [{"action": "shift"}])[0])
        assert state["foundation"] == first["foundation"] and state["moves"] >= 1
        await trier.call("resign", game_id=state["game_id"])
        board = await trier.call("leaderboard", game="crescent")
        rows = {e["player"]: e for e in board["entries"]}
        assert rows["quitter"]["rank"] == rows["trier"]["rank"] == 1
        assert rows["quitter"]["resigned"] is True and rows["trier"]["moves"] == state["moves"]
        friends = await trier.call("leaderboard", game="crescent", around_me=True)
        assert friends["me"]["rank"] == 1


async def test_a_page_of_losses_is_ranked_in_one_round_trip(app: App, player: TestClient) -> None:
    """Each group of tied losses on a page is counted (its rank: 1 + the entries before
    it), every group of the page in one round trip: it was one round trip a group, and a
    page of 100 losses 8 ms of the server's CPU (bench.op_costs)."""
    assert app.store is not None
    losses = [
        Entry(f"loser{i}", False, 8 + i, 10, 1000, 1773484800000 + i, True) for i in range(30)
    ]
    losses.append(Entry("tied", False, 8, 3, 500, 1773484900000, True))
    for entry in losses:
        await app.store.board_put("crescent", TODAY, entry.player, entry.member(), "first")
    before = redis_calls(app, "board")
    board = await player.call("leaderboard", game="crescent", limit=100)
    assert [e["rank"] for e in board["entries"]] == [*range(1, 31), 30]
    assert [e["player"] for e in board["entries"]][-2:] == ["loser0", "tied"]
    # the player's own entry (none), the page, its size, the groups' counts
    assert redis_calls(app, "board") - before == 4


def test_the_daily_is_the_first_certified_candidate() -> None:
    secret = b"s" * 32
    slug = "travellers_classic"
    seeds = [candidate_seed(secret, TODAY, slug, k) for k in range(4)]
    game = registry.get(slug)
    by_deal = {game.deal(s).piles: s for s in seeds}
    line = solve(game, game.deal(seeds[2]), max_nodes=200_000).line  # a real win
    assert line is not None

    def search(g: Any, state: Any, *, max_nodes: int) -> Result:
        seed = by_deal[state.piles]
        if seed == seeds[2]:
            return Result("win", line, 10, 0.0, 104)
        return Result("unknown", None, max_nodes, 0.0, 40 + seeds.index(seed))

    choice = choose(slug, secret, TODAY, Budget(100, 1000), search=search)
    assert (choice.k, choice.seed, choice.certified, choice.par) == (2, seeds[2], True, len(line))
    assert choice.line == tuple(m.to_wire() for m in line) and choice.tried == 3


def test_with_no_certified_candidate_the_best_line_is_chosen_and_marked() -> None:
    secret = b"s" * 32
    seeds = [candidate_seed(secret, TODAY, "crescent", k) for k in range(10)]
    game = registry.get("crescent")
    by_deal = {game.deal(s).piles: k for k, s in enumerate(seeds)}
    founded = [50, 70, 60, 40, 30, 20, 10, 5, 1, 0]

    def search(g: Any, state: Any, *, max_nodes: int) -> Result:
        k = by_deal[state.piles]
        return Result("unknown", None, max_nodes, 0.0, founded[k])

    choice = choose("crescent", secret, TODAY, Budget(100, 400), search=search)
    assert (choice.k, choice.certified, choice.par, choice.best_founded) == (1, False, None, 70)
    assert choice.tried == 4 and choice.line == ()


def test_a_game_caps_the_nodes_spent_on_one_candidate() -> None:
    # crescent's wins come within a few thousand nodes or not at all: with the
    # day-ahead budget its scan tries ten times as many candidates
    asked: dict[str, list[int]] = {"crescent": [], "travellers_classic": []}

    def search(g: Any, state: Any, *, max_nodes: int) -> Result:
        asked[g.slug].append(max_nodes)
        return Result("unknown", None, max_nodes, 0.0, 10)

    for slug in asked:
        choose(slug, b"s" * 32, TODAY, Budget(30_000, 300_000), search=search)
    crescent = TUNING["crescent"].candidate_nodes
    assert crescent is not None and crescent < 30_000
    assert set(asked["crescent"]) == {crescent} and len(asked["crescent"]) == 300_000 // crescent
    assert set(asked["travellers_classic"]) == {30_000} and len(asked["travellers_classic"]) == 10


def test_a_real_scan_certifies_a_daily_whose_line_replays() -> None:
    secret = b"s" * 32
    choice = choose("travellers_classic", secret, TODAY, Budget(5_000, 50_000))
    game = registry.get("travellers_classic")
    line = [game.parse_move(m) for m in choice.line]
    assert choice.certified and choice.par == len(line)
    assert certify(game, game.deal(choice.seed), line)
    assert choice.seed == candidate_seed(secret, TODAY, "travellers_classic", choice.k)


async def test_two_instances_never_compute_the_same_daily(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two instances (two Dailies on one Redis) asked for the same daily at once: one
    takes the lease and chooses, the other waits for its result."""
    store = app.store
    assert store is not None
    gate = Gate()  # the choosing instance holds the lease until the test lets it go
    refused = asyncio.Event()
    lease = store.lease_daily

    async def watched_lease(date: str, slug: str, owner: str, ms: int) -> bool:
        taken = await lease(date, slug, owner, ms)
        if not taken:
            refused.set()
        return taken

    monkeypatch.setattr(store, "lease_daily", watched_lease)
    one = Dailies(store, FakeClock(), chooser=gate)
    two = Dailies(store, FakeClock(), chooser=gate)
    try:
        both = asyncio.gather(one.choice("2030-01-01", "short"), two.choice("2030-01-01", "short"))
        # the other instance found the lease taken while the first one chooses
        await eventually(refused.is_set, what="the other instance found the lease taken")
        gate.open()
        a, b = await both
    finally:
        gate.open()
    assert a == b and gate.calls == ["short"]


def test_commitment_derivation() -> None:
    assert (
        commitment(1, TODAY, "x")
        == hashlib.sha256((1).to_bytes(8, "big") + b"2026-03-14:x").hexdigest()
    )


@pytest.mark.parametrize("date", ["2026-03-14", "2026-12-31"])
def test_candidate_seeds_are_64_bit(date: str) -> None:
    seed = candidate_seed(b"k", date, "crescent", 0)
    assert 0 <= seed < 2**64
