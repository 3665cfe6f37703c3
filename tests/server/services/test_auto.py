"""Safe auto-play over a real server: ``auto`` plays the game's safe moves one by one
(each a move: counted, logged, undoable), ``finish`` plays the rest along a line the
solver certifies (the game is marked auto-completed; on a ranked daily only a trivially
won rest, see test_fair_play.py), races allow ``auto`` and refuse ``finish``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol import ErrorCode, ProtocolError
from protocol.delta import DeltaGap, apply_delta
from server.patience import registry
from server.patience.engine import AnyGame, AnyState, Game, Move
from server.services.catalogue import rules_text
from server.solver import solve
from tests.support import TestClient


def first_moves(game: AnyGame, seed: int, n: int) -> tuple[AnyState, list[Move]]:
    """The position after ``n`` times the first legal move, and those moves."""
    state, moves = game.deal(seed), []
    for _ in range(n):
        move = game.legal_moves(state)[0]
        moves.append(move)
        state = game.apply(state, move)
    return state, moves


def safe_chain(game: AnyGame, state: AnyState) -> list[AnyState]:
    """The positions along the engine's own chain of first safe moves from ``state``
    (``state`` first)."""
    chain = [state]
    while game.status(state) == "playing" and (safe := game.safe_moves(state)):
        state = game.apply(state, safe[0])
        chain.append(state)
    return chain


async def call(client: TestClient, op: str, **params: Any) -> dict[str, Any]:
    """``client.call`` within the connection's rate limit (a long line outruns its
    burst): a request refused ``rate_limited`` is sent again after its ``retry_after``."""
    for _ in range(50):
        try:
            return await client.call(op, **params)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.RATE_LIMITED:
                raise
            await asyncio.sleep(float(exc.extra.get("retry_after", 0.01)))
    raise AssertionError(f"{op} stayed rate-limited")


async def play(client: TestClient, state: dict[str, Any], moves: list[Move]) -> dict[str, Any]:
    for move in moves:
        gid, seq = state["game_id"], state["seq"]
        state = (await call(client, "move", game_id=gid, seq=seq, move=move.to_wire()))["state"]
    return state


PARADE = registry.get("parade")


async def parade_before_safe_moves(client: TestClient) -> tuple[dict[str, Any], list[AnyState]]:
    """Parade deal 1 after 34 first moves, where three safe moves follow one another:
    the state there and the positions along the chain."""
    there, moves = first_moves(PARADE, 1, 34)
    chain = safe_chain(PARADE, there)
    assert len(chain) == 4
    return await play(client, await client.start("parade", "deal", seed=1), moves), chain


async def test_auto_plays_the_safe_moves_as_moves(player: TestClient) -> None:
    state, chain = await parade_before_safe_moves(player)
    gid = state["game_id"]
    got = await player.call("auto", game_id=gid, seq=state["seq"])
    assert got["played"] == [m.to_wire() for m in [PARADE.safe_moves(s)[0] for s in chain[:-1]]]
    after = got["state"]
    assert after["view"] == PARADE.view(chain[-1])
    assert after["moves"] == state["moves"] + 3 and after["seq"] == state["seq"] + 3
    assert "auto_completed" not in after
    again = await player.call("auto", game_id=gid, seq=after["seq"])
    assert again["played"] == [] and again["state"]["seq"] == after["seq"]  # none left
    undone = (await player.call("undo", game_id=gid, seq=after["seq"]))["state"]
    assert undone["view"] == PARADE.view(chain[-2])  # each safe move is a move of its own
    stale = await player.error("auto", game_id=gid, seq=after["seq"])
    assert stale["code"] == "stale_seq" and stale["state"]["seq"] == undone["seq"]


async def test_auto_answers_a_delta(player: TestClient) -> None:
    state, chain = await parade_before_safe_moves(player)
    got = await player.call("auto", game_id=state["game_id"], seq=state["seq"], reply="delta")
    assert len(got["played"]) == 3 and got["delta"]["from_seq"] == state["seq"]
    built = apply_delta(state, got["delta"])
    fresh = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert built == fresh and built["view"] == PARADE.view(chain[-1])


async def test_a_game_with_nothing_safe_plays_nothing(
    player: TestClient, player2: TestClient
) -> None:
    state = await player.start("travellers", "deal", seed=0)
    got = await player.call("auto", game_id=state["game_id"], seq=0)
    assert got == {"state": got["state"], "played": []} and got["state"]["seq"] == 0
    theirs = await player2.error("auto", game_id=state["game_id"], seq=0)
    assert theirs["code"] == "forbidden"
    await player.call("resign", game_id=state["game_id"])
    over = await player.error("auto", game_id=state["game_id"], seq=1)
    assert over["code"] == "game_over"


async def test_finish_plays_a_certified_line(player: TestClient) -> None:
    """On an unranked game ``finish`` searches (a ranked one:
    tests/server/services/test_fair_play.py)."""
    slug, seed = "travellers_classic", 0
    state = await player.start(slug, "deal", seed=seed)
    game = registry.get(slug)
    line = solve(game, game.deal(seed), max_nodes=200_000).line
    assert line is not None and len(line) > 8
    state = await play(player, state, list(line[:-6]))  # six moves short of the win
    gid = state["game_id"]
    check = await call(player, "finish", game_id=gid, seq=state["seq"], check=True)
    assert check["certain"] is True and 1 <= check["moves"] <= 6
    same = (await call(player, "resume", game_id=gid))["state"]
    assert same["seq"] == state["seq"]  # a check changes nothing
    done = await call(player, "finish", game_id=gid, seq=state["seq"])
    end = done["state"]
    assert end["status"] == "won" and end["auto_completed"] is True and end["ranked"] is False
    assert end["moves"] == state["moves"] + len(done["played"])
    mine = (await call(player, "my_games"))["games"][0]
    assert mine["game_id"] == gid and mine["auto_completed"] is True
    assert (await call(player, "replay", game_id=gid))["replay"]["auto_completed"] is True


async def test_finish_without_a_certain_win_changes_nothing(player: TestClient) -> None:
    game = registry.get("travellers")
    seed = next(
        s for s in range(50) if solve(game, game.deal(s), max_nodes=20_000).outcome == "none"
    )
    state = await player.start("travellers", "deal", seed=seed)
    gid = state["game_id"]
    check = await player.call("finish", game_id=gid, seq=0, check=True)
    assert check == {"certain": False, "moves": None}
    err = await player.error("finish", game_id=gid, seq=0)
    assert err["code"] == "illegal_move" and "no certain win" in err["message"]
    assert err["state"]["seq"] == 0 and "auto_completed" not in err["state"]


async def test_races_allow_auto_and_refuse_finish(player: TestClient, player2: TestClient) -> None:
    race = (await player.call("race_create", game="parade", seed=1))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    state = (await player.next_event("race_started"))["state"]
    # (a race's deal has no safe move yet: ``auto`` answers, it is not refused)
    got = await player.call("auto", game_id=state["game_id"], seq=state["seq"])
    assert got["played"] == [] and got["state"]["game_id"] == state["game_id"]
    seq = got["state"]["seq"]
    for check in (False, True):
        err = await player.error("finish", game_id=state["game_id"], seq=seq, check=check)
        assert err["code"] == "forbidden" and "race" in err["message"]


def test_a_delta_of_several_moves_follows_its_from_seq() -> None:
    state = {"game_id": "g", "seq": 4, "view": {"piles": [{"id": "T1", "cards": ["AS"]}]}}
    delta = {"game_id": "g", "seq": 7, "from_seq": 4, "moves": 7, "piles": {"T1": []}}
    assert apply_delta(state, delta)["seq"] == 7
    assert apply_delta(state, delta)["view"]["piles"] == [{"id": "T1", "cards": []}]
    with pytest.raises(DeltaGap):
        apply_delta({**state, "seq": 5}, delta)


@pytest.mark.parametrize("slug", registry.slugs())
def test_the_rules_say_when_nothing_is_safe(slug: str) -> None:
    """A game whose engine lists no safe move says so on its rules page; a game that
    lists some explains them there."""
    text = rules_text(slug)
    assert text is not None and "## Safe moves" in text
    nothing = "No move of this patience is provably safe" in text
    assert nothing == (type(registry.get(slug)).safe_moves is Game.safe_moves), slug
