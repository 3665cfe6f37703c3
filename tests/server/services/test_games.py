"""Every game op over a real WebSocket, and the error codes each can give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.net import App
from server.patience import registry
from server.services import catalogue
from server.services import games as games_service
from server.workers import Lane
from tests.support import TestClient, jobs

#: two moves of crescent deal 1 that take each other back (T5's top card to T13 and home)
SHUTTLE = ({"from": "T5", "to": "T13"}, {"from": "T13", "to": "T5"})

STATE_FIELDS = {
    "game_id",
    "game",
    "mode",
    "seq",
    "status",
    "moves",
    "time_ms",
    "foundation",
    "total",
    "deal",
    "view",
    "legal",
}


def check_state(state: dict[str, Any]) -> None:
    assert set(state) >= STATE_FIELDS
    assert state["status"] in ("playing", "won", "lost")
    assert set(state["deal"]) == {"seed", "commitment"}
    game = registry.get(state["game"])
    assert [p["id"] for p in state["view"]["piles"]] == list(game.ids)
    assert sum(len(p["cards"]) for p in state["view"]["piles"]) == 52 * game.decks
    assert isinstance(state["legal"], list)


async def test_games_lists_the_registry(client: TestClient) -> None:
    games = (await client.call("games"))["games"]
    assert [g["slug"] for g in games] == registry.slugs()
    for g in games:
        assert set(g) == {"slug", "title_en", "title_ru", "decks", "summary", "layout"}
        # the places of the view's piles, in its order, and nothing of a deal
        view = registry.get(g["slug"]).view(registry.get(g["slug"]).deal(1))["piles"]
        assert g["layout"] == [{k: p[k] for k in ("x", "y", "kind", "fan")} for p in view]


async def test_rules_serves_the_markdown(client: TestClient) -> None:
    result = await client.call("rules", game="crescent")
    assert result["game"] == "crescent"
    assert result["text"] == Path("docs/games/crescent.md").read_text(encoding="utf-8")


async def test_rules_not_found(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (await client.error("rules", game="nonexistent"))["code"] == "not_found"
    monkeypatch.setattr(catalogue, "DOCS", tmp_path)
    monkeypatch.setattr(catalogue, "_PAGES", {})  # no page read before, by another test
    err = await client.error("rules", game="crescent")
    assert err["code"] == "not_found" and "not written" in err["message"]


async def test_start_practice_and_deal(player: TestClient) -> None:
    practice = await player.start("crescent", "practice")
    check_state(practice)
    assert practice["mode"] == "practice" and practice["seq"] == 0 and practice["moves"] == 0
    assert isinstance(practice["deal"]["seed"], int) and practice["deal"]["commitment"] is None
    a = await player.start("crescent", "deal", seed=42)
    b = await player.start("crescent", "deal", seed=42)
    assert a["game_id"] != b["game_id"]
    assert a["view"] == b["view"] and a["legal"] == b["legal"] and a["deal"]["seed"] == 42
    game = registry.get("crescent")
    assert a["view"] == game.view(game.deal(42))
    assert a["legal"] == [m.to_wire() for m in game.legal_moves(game.deal(42))]


async def test_start_unknown_game(player: TestClient) -> None:
    err = await player.error("start", game="no_such_game", mode="practice")
    assert err["code"] == "not_found"


async def test_every_name_of_no_game_is_not_found(client: TestClient) -> None:
    for game in ("no_such_game", "no-such-game", "Нет"):
        assert (await client.error("rules", game=game))["code"] == "not_found"
    assert (await client.call("rules", game="Crescent"))["game"] == "crescent"


async def test_move_resume_and_my_games(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    after = await player.move(state, state["legal"][0])
    check_state(after)
    assert after["seq"] == 1 and after["moves"] == 1
    again = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert again["seq"] == 1 and again["view"] == after["view"] and again["legal"] == after["legal"]
    listed = (await player.call("my_games"))["games"]
    assert [g["game_id"] for g in listed] == [state["game_id"]]
    assert listed[0]["moves"] == 1 and listed[0]["game"] == "crescent"


async def test_my_games_pages_newest_first(player: TestClient, clock: Any) -> None:
    ids = []
    for seed in range(5):
        clock.advance(seconds=1)
        ids.append((await player.start("crescent", "deal", seed=seed))["game_id"])
    page = await player.call("my_games", limit=2)
    assert [g["game_id"] for g in page["games"]] == ids[::-1][:2]
    seen = [g["game_id"] for g in page["games"]]
    while page["cursor"] is not None:
        page = await player.call("my_games", limit=2, cursor=page["cursor"])
        seen += [g["game_id"] for g in page["games"]]
    assert seen == ids[::-1]
    assert (await player.error("my_games", cursor="zz"))["code"] == "bad_request"


async def test_illegal_move_says_why(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    err = await player.error(
        "move", game_id=state["game_id"], seq=0, move={"from": "FA-S", "to": "T1"}
    )
    assert err["code"] == "illegal_move" and err["message"]
    err = await player.error("move", game_id=state["game_id"], seq=0, move={"action": "fly"})
    assert err["code"] == "bad_request"
    err = await player.error(
        "move", game_id=state["game_id"], seq=0, move={"from": "T1", "to": "T2", "n": 3}
    )
    assert err["code"] == "bad_request"
    assert (await player.call("resume", game_id=state["game_id"]))["state"]["seq"] == 0


async def test_stale_seq_returns_the_current_state(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    after = await player.move(state, state["legal"][0])
    err = await player.error("move", game_id=state["game_id"], seq=0, move=state["legal"][0])
    assert err["code"] == "stale_seq"
    assert err["state"]["seq"] == 1 and err["state"]["view"] == after["view"]
    err = await player.error("undo", game_id=state["game_id"], seq=5)
    assert err["code"] == "stale_seq" and err["state"]["seq"] == 1


async def test_undo_counts_and_marks_unclean(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    err = await player.error("undo", game_id=state["game_id"], seq=0)
    assert err["code"] == "illegal_move"
    one = await player.move(state, state["legal"][0])
    two = await player.move(one, one["legal"][0])
    undone = (await player.call("undo", game_id=state["game_id"], seq=2))["state"]
    assert undone["view"] == one["view"] and undone["legal"] == one["legal"]
    assert undone["seq"] == 3 and undone["moves"] == 3 and undone["clean"] is False
    back = (await player.call("undo", game_id=state["game_id"], seq=3))["state"]
    assert back["view"] == state["view"] and back["moves"] == 4
    assert two["clean"] is True


async def test_an_undo_far_from_the_deal_is_replayed_by_a_solver_process(
    app: App, player: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An undo replays the game from its deal: past INLINE_MOVES moves that is a solver
    process's job (here a thread: the test server's pool), under the players' limits,
    as a far replay step is; a 5,000-move game's undo on the event loop was a quarter
    of a second of every player's time. Nearer the deal it stays on the loop."""
    monkeypatch.setattr(games_service, "INLINE_MOVES", 4)
    short = await player.start("crescent", "deal", seed=1)
    short = await player.move(short, SHUTTLE[0])
    states = [await player.start("crescent", "deal", seed=1)]
    for i in range(8):
        states.append(await player.move(states[-1], SHUTTLE[i % 2]))
    gid, seq = states[-1]["game_id"], states[-1]["seq"]
    assert app.pool is not None
    release = tmp_path / "go"
    held = app.pool.submit(Lane.PLAYER, jobs.hold, str(release), account=player.player)
    try:
        # the player's share of the solver is taken: a long way is refused at once ...
        err = await player.error("undo", game_id=gid, seq=seq)
        assert err["code"] == "unavailable" and err["retry_after"] >= 1
        # ... a short one is not
        near = await player.call("undo", game_id=short["game_id"], seq=short["seq"])
        assert near["state"]["moves"] == 2
    finally:
        release.touch()
    await held
    undone = (await player.call("undo", game_id=gid, seq=seq))["state"]
    assert undone["seq"] == seq + 1 and undone["view"] == states[-2]["view"]
    assert undone["legal"] == states[-2]["legal"]
    assert app.pool.snapshot().running["player"] == 0


async def test_resign_then_game_over(player: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    assert over["status"] == "lost" and over["legal"] == []
    for op, params in [
        ("move", {"seq": over["seq"], "move": state["legal"][0]}),
        ("undo", {"seq": over["seq"]}),
        ("resign", {}),
    ]:
        err = await player.error(op, game_id=state["game_id"], **params)
        assert err["code"] == "game_over", op


async def test_other_players_game_is_forbidden(player: TestClient, player2: TestClient) -> None:
    state = await player.start("crescent", "deal", seed=7)
    gid = state["game_id"]
    assert (await player2.error("resume", game_id=gid))["code"] == "forbidden"
    assert (await player2.error("move", game_id=gid, seq=0, move=state["legal"][0]))[
        "code"
    ] == "forbidden"
    assert (await player2.error("undo", game_id=gid, seq=0))["code"] == "forbidden"
    assert (await player2.error("resign", game_id=gid))["code"] == "forbidden"


async def test_unknown_game_id_is_not_found(player: TestClient) -> None:
    assert (await player.error("resume", game_id="nope"))["code"] == "not_found"
    err = await player.error("move", game_id="nope", seq=0, move={"action": "shift"})
    assert err["code"] == "not_found"


async def test_two_connections_race_on_one_game(ws_url: str, player: TestClient) -> None:
    from tests.support import connect

    state = await player.start("crescent", "deal", seed=7)
    async with connect(ws_url) as other:
        await other.call("auth", token=player.token)
        import asyncio

        moves = state["legal"][:2]
        replies = await asyncio.gather(
            player.request("move", game_id=state["game_id"], seq=0, move=moves[0]),
            other.request("move", game_id=state["game_id"], seq=0, move=moves[-1]),
        )
    oks = [r for r in replies if r["ok"]]
    errs = [r for r in replies if not r["ok"]]
    assert len(oks) == 1 and len(errs) == 1
    assert errs[0]["error"]["code"] == "stale_seq"
    assert errs[0]["error"]["state"]["seq"] == 1
    assert errs[0]["error"]["state"]["view"] == oks[0]["state"]["view"]
    final = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert final["seq"] == 1 and final["moves"] == 1
