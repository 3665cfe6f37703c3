"""Nothing any account receives before a tournament ends reveals a deal of it (issue
51, docs/protocol.md "Fair play"): every path, over a real server — the tournament
object, its events, a watcher's view, the lobby, an invite, the state, the replay, a
challenge, hints, the account's export — and each shows the secret after the end."""

from __future__ import annotations

from typing import Any

from server.services import FakeClock
from tests.support import TestClient, connect, eventually, running_app
from tests.support.fixtures import unique_name

GAME = "carpet"


def no_secret(obj: Any, seeds: set[int]) -> None:
    """No deal's seed anywhere in ``obj`` (a reply, an event), nor a line."""
    if isinstance(obj, dict):
        assert "line" not in obj
        for key, value in obj.items():
            if key in ("seed", "seeds"):
                assert value is None, f"{key} shown: {value}"
            no_secret(value, seeds)
    elif isinstance(obj, list):
        for value in obj:
            no_secret(value, seeds)
    elif isinstance(obj, int) and not isinstance(obj, bool):
        assert obj not in seeds


async def test_no_path_shows_a_deal_before_the_end(
    app: Any, clock: FakeClock, player: TestClient, player2: TestClient
) -> None:
    ann, bob = player, player2
    start = clock.now_ms() + 120_000
    made = (await ann.call("tournament_create", game=GAME, starts_at=start, minutes=5))[
        "tournament"
    ]
    tid, code = made["tournament_id"], made["code"]
    tours = app.services.tournaments

    async def ready() -> bool:
        return bool((await ann.call("tournament", code=code))["tournament"]["ready"])

    await eventually(ready, what="the deals certified", every=0.1)
    info = await tours.by_id(tid)
    seeds = {info.seed} | {int(s) for s in await _seeds(tours, tid)}
    seen: list[Any] = [made]
    watched = await bob.call("tournament_watch", code=code)  # a watcher: no entrant
    assert watched["tournament"]["me"] is None and "state" not in watched
    seen.append(watched)
    seen.append(await bob.call("invite", name=ann.player, tournament=code))
    seen.append(await ann.call("inbox"))
    seen.append(await ann.call("tournaments"))
    early = await ann.error("tournament_play", tournament_id=tid)
    assert early["key"] == "error.tournament_not_started"
    clock.advance(seconds=120)
    dealt = await ann.call("tournament_play", tournament_id=tid)
    seen.append(dealt)
    state = dealt["state"]
    assert state["deal"]["commitment"] == made["commitment"]
    assert (await ann.error("hint", game_id=state["game_id"]))["key"] == "error.no_help_tournament"
    state = await ann.move(state, state["legal"][0])
    seen.append(state)
    seen.append(await ann.call("my_games"))
    export = await ann.call("account_export")
    seen.append(export)
    state = (await ann.call("resign", game_id=state["game_id"]))["state"]
    for who in (ann, bob):
        refused = await who.error("replay", game_id=state["game_id"])
        assert refused["key"] == "error.replay_tournament_running"
    refused = await ann.error("challenge_create", game_id=state["game_id"])
    assert refused["key"] == "error.challenge_tournament_secret"
    seen.append(await bob.next_event("tournament", tournament_id=tid))  # a watcher's
    seen.append(await ann.next_event("tournament", tournament_id=tid))
    seen.append(await bob.call("tournament", code=code))
    for frame in seen:
        no_secret(frame, seeds)
    exported = export["account"]
    games = [g for g in exported.get("games", []) if g.get("game_id") == state["game_id"]]
    assert games and "seed" not in games[0]

    clock.advance(seconds=300)  # over: every secret is shown

    async def revealed() -> dict[str, Any] | None:
        t: dict[str, Any] = (await bob.call("tournament", code=code))["tournament"]
        return t if t["seeds"] and t["seed"] == info.seed else None

    final = await eventually(revealed, what="the seeds shown at the end", every=0.1)
    assert set(final["seeds"]) <= seeds

    async def replayed() -> dict[str, Any] | None:
        reply = await bob.request("replay", game_id=state["game_id"])
        return reply["replay"] if reply["ok"] else None

    replay = await eventually(replayed, what="the replay open at the end", every=0.1)
    assert replay["seed"] == final["seeds"][0]


async def _seeds(tours: Any, tid: str) -> list[int]:
    from protocol.codec import unpack

    return [int(unpack(v)["seed"]) for v in (await tours.store.deals(tid)).values()]


async def test_one_account_of_an_address_enters_a_tournament(
    redis_url: str, clock: FakeClock
) -> None:
    """A second account could give up deal after deal at once and show the first the
    layouts ahead: one account of a client address (issue 36's) enters a tournament;
    another address's account enters, and so does the first again (its reconnect)."""

    def at(address: str) -> dict[str, Any]:  # through a load balancer that says so
        return {"additional_headers": {"X-Forwarded-For": address}}

    settings = {"trusted_proxies": "127.0.0.1", "address_limits": True}
    async with running_app(redis_url, clock=clock, **settings) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.7")) as ann,
            connect(url, **at("198.51.100.7")) as puppet,
            connect(url, **at("203.0.113.9")) as bob,
        ):
            for c, stem in ((ann, "ann"), (puppet, "pup"), (bob, "bob")):
                await c.register(unique_name(stem))
            start = clock.now_ms() + 120_000
            made = await ann.call("tournament_create", game=GAME, starts_at=start, minutes=5)
            code = made["tournament"]["code"]
            refused = await puppet.error("tournament_join", code=code)
            assert refused["code"] == "forbidden"
            assert refused["key"] == "error.tournament_address"
            assert (await bob.call("tournament_join", code=code))["tournament"]["joined"]
            assert (await ann.call("tournament_join", code=code))["tournament"]["joined"]
            shown = (await ann.call("tournament", code=code))["tournament"]
            assert shown["entrants"] == 2
