"""An honest board, over a real server (issue 22): what a player who wants to cheat
would try, and the rule of play that stops each (docs/protocol.md, "Fair play").

- the server's solver plays out only a trivially won rest of a ranked game; any
  other ``finish`` is an assisted game, and ``check`` is no oracle;
- undo takes back no move of a ranked or race game that showed a card;
- one daily deal per player, game and day: no second copy to scout it;
- a day closes at midnight UTC for everything that ranks on it;
- a race's seed stays hidden until the race is over for everyone, the server or the
  creator never spends someone's ranked daily attempt, and a chosen seed is shown.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.messages import ID_RE
from server.net import App
from server.patience import registry
from server.patience.engine import AnyGame, AnyState, Move
from server.services import FakeClock
from server.services.ids import new_id, race_game_id
from server.solver import solve
from server.solver.daily import Choice
from tests.support import TestClient
from tests.support.server import running_app

#: a daily deal whose solver line is found in a fraction of a second
QUICK = "travellers_classic"


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    """The test server with a burst that takes a line played at once: a test plays
    faster than a person (it slept 21 ms a move to stay within 50 requests a second,
    most of the file's time, issue 45)."""
    async with running_app(redis_url, clock=clock, burst=2_000) as server:
        yield server


async def play(client: TestClient, state: dict[str, Any], moves: list[Move]) -> dict[str, Any]:
    for move in moves:
        state = await client.move(state, move.to_wire())
    return state


async def daily_line(app: App, slug: str, date: str) -> tuple[AnyGame, int, list[Move]]:
    """The daily's seed (read in-process, as only the server knows it) and a winning
    line of it. The daily is set, before anybody plays it, to the first deal the
    solver wins within a small budget: the test servers' tiny budget for choosing
    dailies often certifies none, and a random one may have no line to find."""
    assert app.services is not None and app.store is not None
    game = registry.get(slug)
    if await app.services.dailies.known(date, slug) is None:
        seed = next(s for s in range(100) if solve(game, game.deal(s), max_nodes=5_000).line)
        found = solve(game, game.deal(seed), max_nodes=5_000)
        assert found.line is not None
        wire = tuple(m.to_wire() for m in found.line)
        choice = Choice(seed, 0, True, len(wire), game.total, wire)
        await app.store.put_daily(date, choice.fields(date, slug))
    seed, _ = await app.services.dailies.deal(date, slug)
    line = solve(game, game.deal(seed), max_nodes=200_000).line
    assert line, f"no line for the daily of {slug}"
    return game, seed, list(line)


async def board_players(client: TestClient, slug: str, date: str) -> list[str]:
    board = await client.call("leaderboard", game=slug, board="daily", date=date)
    return [e["player"] for e in board["entries"]]


# -- the solver on a ranked game --------------------------------------------------------


async def test_finish_at_move_0_does_not_win_a_ranked_daily(app: App, player: TestClient) -> None:
    state = await player.start(QUICK, "daily")
    gid = state["game_id"]
    check = await player.call("finish", game_id=gid, seq=0, check=True)
    assert check == {"certain": False, "moves": None}  # no oracle: nothing searched
    # Asked for or not, the solver does not search the day's deal while the day
    # lasts: its line would be everyone's (a second account's hint or finish, copied)
    for assist in (False, True):
        err = await player.error("finish", game_id=gid, seq=0, assist=assist)
        assert err["code"] == "illegal_move" and "safe moves" in err["message"]
    same = (await player.call("resume", game_id=gid))["state"]
    assert same["seq"] == 0 and same["ranked"] is True and "auto_completed" not in same
    assert same["assisted"] is False and same["hints"] is False
    await player.call("resign", game_id=gid)
    assert player.player in await board_players(player, QUICK, state["date"])


async def test_a_trivially_won_rest_is_finished_and_still_ranks(
    app: App, player: TestClient
) -> None:
    assert app.services is not None
    game, seed, line = await daily_line(app, QUICK, app.services.dailies.today())
    state = await player.start(QUICK, "daily")
    position, k = game.deal(seed), 0
    while game.trivial_line(position) is None:
        position = game.apply(position, line[k])
        k += 1
    assert 0 < k < len(line)
    state = await play(player, state, line[:k])
    gid = state["game_id"]
    check = await player.call("finish", game_id=gid, seq=state["seq"], check=True)
    assert check["certain"] is True and check["moves"] == len(game.trivial_line(position) or ())
    done = (await player.call("finish", game_id=gid, seq=state["seq"]))["state"]
    assert done["status"] == "won" and done["ranked"] is True and done["auto_completed"]
    assert await board_players(player, QUICK, state["date"]) == [player.player]


def test_a_trivial_line_is_safe_moves_or_the_only_move_with_nothing_hidden() -> None:
    for slug in ("st_helena", "fifteen", "crescent", "travellers"):
        game = registry.get(slug)
        state: AnyState = game.deal(3)
        assert game.trivial_line(state) is None  # a deal is never trivially won
        for _ in range(60):
            line = game.trivial_line(state)
            if line is not None:  # every step is safe, or forced with nothing hidden
                for move in line:
                    safe = game.safe_moves(state)
                    assert move in safe[:1] or (
                        not safe and game.legal_moves(state) == [move] and not game.hidden(state)
                    )
                    state = game.apply(state, move)
                assert game.status(state) == "won"
                break
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.apply(state, legal[-1])


# -- undo -----------------------------------------------------------------------------


async def test_undo_of_a_ranked_game_takes_back_no_shown_card(player: TestClient) -> None:
    state = await player.start("st_helena", "daily")
    dealt = await player.move(state, {"action": "deal"} if _deals(state) else state["legal"][0])
    err = await player.error("undo", game_id=dealt["game_id"], seq=dealt["seq"])
    assert err["code"] == "illegal_move" and "showed a card" in err["message"]
    again = (await player.call("resume", game_id=dealt["game_id"]))["state"]
    assert again["seq"] == dealt["seq"] and again["ranked"] is True
    # Practice keeps free undo of the same kind of move.
    practice = await player.start("st_helena", "practice")
    dealt = await player.move(practice, {"action": "deal"})
    back = await player.call("undo", game_id=dealt["game_id"], seq=dealt["seq"])
    assert back["state"]["view"] == practice["view"]


def _deals(state: dict[str, Any]) -> bool:
    return {"action": "deal"} in state["legal"]


async def test_undo_of_a_ranked_move_that_showed_nothing_is_allowed(player: TestClient) -> None:
    """The Fifteen's cards all lie face up: its first moves show nothing new, and undo
    takes one back (the game stays ranked, marked not clean)."""
    state = await player.start("fifteen", "daily")
    moved = await player.move(state, state["legal"][0])
    back = (await player.call("undo", game_id=moved["game_id"], seq=moved["seq"]))["state"]
    assert back["view"] == state["view"] and back["ranked"] is True and back["clean"] is False
    over = (await player.call("resign", game_id=back["game_id"]))["state"]
    board = await player.call("leaderboard", game="fifteen", board="daily", date=over["date"])
    assert [(e["player"], e["clean"]) for e in board["entries"]] == [(player.player, False)]


def test_what_reveals_a_card() -> None:
    st_helena = registry.get("st_helena")
    state = st_helena.deal(5)
    after = st_helena.apply(state, Move.act("deal"))
    assert st_helena.reveals(state, after)  # a card turned from the stock
    assert not st_helena.reveals(state, state)
    crescent = registry.get("crescent")
    deal = crescent.deal(5)
    for move in crescent.legal_moves(deal):  # a squared pile's next card is uncovered
        if move.src and move.src.startswith("T"):
            assert crescent.reveals(deal, crescent.apply(deal, move))


# -- one daily deal a day ---------------------------------------------------------------


async def test_no_second_look_at_the_daily_deal(player: TestClient, player2: TestClient) -> None:
    state = await player.start("short", "daily")
    # A race on the daily deal next to one's ranked attempt: refused.
    err = await player.error("race_create", game="short", daily=True)
    assert err["code"] == "forbidden"
    race = (await player2.call("race_create", game="short", daily=True))["race"]
    err = await player.error("race_join", code=race["code"])
    assert err["code"] == "forbidden"
    # After the attempt, `start daily` is the same attempt: no practice copy to hint.
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    again = await player.start("short", "daily")
    assert again["game_id"] == over["game_id"] and again["status"] == "lost"
    err = await player.error("hint", game_id=again["game_id"])
    assert err["code"] == "game_over"


async def test_a_member_who_played_the_daily_meanwhile_is_not_dealt_in(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="short", daily=True))["race"]
    await player2.call("race_join", code=race["code"])
    own = await player2.start("short", "daily")  # while the race waits in its lobby
    await player.call("race_start", race_id=race["race_id"])
    await player.next_event("race_started")
    running = (await player.call("race_join", code=race["code"]))["race"]
    assert [p["player"] for p in running["players"]] == [player.player]
    assert (await player2.call("resume", game_id=own["game_id"]))["state"]["ranked"] is True


# -- midnight -------------------------------------------------------------------------


async def test_a_daily_finished_after_midnight_does_not_rank(
    app: App, player: TestClient, clock: FakeClock
) -> None:
    clock.advance(seconds=(11 * 60 + 58) * 60)  # 23:58 UTC
    assert app.services is not None
    _, _, line = await daily_line(app, QUICK, app.services.dailies.today())
    state = await player.start(QUICK, "daily")
    day = state["date"]
    clock.advance(seconds=180)  # 00:01: the day is over, its seed public
    resumed = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert resumed["ranked"] is False and isinstance(resumed["deal"]["seed"], int)
    won = await play(player, resumed, line)
    assert won["status"] == "won" and won["ranked"] is False
    assert await board_players(player, QUICK, day) == []
    alltime = await player.call("leaderboard", game=QUICK, board="alltime")
    assert alltime["entries"] == []
    assert (await player.call("daily"))["streak"] == 0


async def test_a_daily_race_lobby_does_not_start_after_midnight(
    player: TestClient, clock: FakeClock
) -> None:
    clock.advance(seconds=(11 * 60 + 58) * 60)
    race = (await player.call("race_create", game="short", daily=True))["race"]
    clock.advance(seconds=180)
    err = await player.error("race_start", race_id=race["race_id"])
    assert err["code"] == "forbidden" and "day is over" in err["message"]
    assert (await player.call("daily"))["games"]["short"]["mine"] is None


async def test_a_daily_race_counted_down_across_midnight_is_not_dealt(
    player: TestClient, clock: FakeClock
) -> None:
    clock.advance(seconds=(11 * 60 + 59) * 60 + 59)  # 23:59:59
    race = (await player.call("race_create", game="short", daily=True))["race"]
    await player.call("race_start", race_id=race["race_id"])
    clock.advance(seconds=2)  # the countdown ends after midnight
    back = await player.next_event("race", status="lobby")
    assert back["race_id"] == race["race_id"]
    assert not [e for e in player.events if e["ev"] == "race_started"]


async def test_a_daily_race_running_at_midnight_ends(
    player: TestClient, player2: TestClient, clock: FakeClock
) -> None:
    clock.advance(seconds=(11 * 60 + 58) * 60)
    race = (await player.call("race_create", game="short", daily=True))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    clock.advance(seconds=180)
    err = await player.error("move", game_id=mine["game_id"], seq=0, move=mine["legal"][0])
    assert err["code"] in ("stale_seq", "game_over")
    over = (await player.call("resume", game_id=mine["game_id"]))["state"]
    assert over["status"] == "lost" and over["out"] == "day_over" and over["ranked"] is True
    assert await board_players(player, "short", mine["date"]) == []


# -- races ----------------------------------------------------------------------------


async def test_a_race_seed_stays_hidden_until_the_race_is_over_for_everyone(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="crescent"))["race"]
    assert race["seed_chosen"] is False
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    theirs = (await player2.next_event("race_started"))["state"]
    left = (await player.call("resign", game_id=mine["game_id"]))["state"]
    assert left["status"] == "lost" and left["deal"]["seed"] is None
    for seen in (
        (await player.call("resume", game_id=mine["game_id"]))["state"]["deal"]["seed"],
        (await player.call("replay", game_id=mine["game_id"]))["replay"]["seed"],
        (await player.call("race_join", code=race["code"]))["state"]["deal"]["seed"],
    ):
        assert seen is None
    games = (await player.call("my_games"))["games"]
    assert all("seed" not in g for g in games)
    await player2.call("resign", game_id=theirs["game_id"])
    await player.next_event("race", status="finished")
    shown = (await player.call("resume", game_id=mine["game_id"]))["state"]["deal"]["seed"]
    assert isinstance(shown, int)
    assert (await player.call("replay", game_id=mine["game_id"]))["replay"]["seed"] == shown


async def test_a_chosen_seed_is_shown_to_every_member(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="crescent", seed=12345))["race"]
    joined = (await player2.call("race_join", code=race["code"]))["race"]
    assert joined["seed_chosen"] is True and joined["creator"] == player.player


async def test_ending_a_daily_race_spends_nobodys_ranked_attempt(
    player: TestClient, player2: TestClient
) -> None:
    race = (await player.call("race_create", game="short", daily=True))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    await player.next_event("race_started")
    theirs = (await player2.next_event("race_started"))["state"]
    ended = (await player.call("race_end", race_id=race["race_id"]))["race"]
    row = next(p for p in ended["players"] if p["player"] == player2.player)
    assert ended["status"] == "finished" and row["out"] == "ended"
    # The victim's ranked attempt plays on as their daily, outside the race.
    own = (await player2.call("resume", game_id=theirs["game_id"]))["state"]
    assert own["status"] == "playing" and own["ranked"] is True and own["mode"] == "daily"
    assert own["deal"]["seed"] is None  # still the day's hidden deal
    again = await player2.start("short", "daily")
    assert again["game_id"] == theirs["game_id"]
    moved = await player2.move(own, own["legal"][0])
    assert moved["seq"] == own["seq"] + 1


async def test_a_race_of_non_latin_names_plays(client: TestClient, client2: TestClient) -> None:
    await client.register("Йожик")
    await client2.register("Ёлочка")
    race = (await client.call("race_create", game="crescent"))["race"]
    await client2.call("race_join", code=race["code"])
    await client.call("race_start", race_id=race["race_id"])
    mine = (await client.next_event("race_started"))["state"]
    assert ID_RE.fullmatch(mine["game_id"]) and "Йожик" not in mine["game_id"]
    moved = await client.move(mine, mine["legal"][0])
    assert moved["moves"] == 1
    over = (await client.call("resign", game_id=mine["game_id"]))["state"]
    assert over["status"] == "lost" and over["out"] == "resigned"


@given(
    st.text(
        alphabet=st.characters(categories=["L", "Nd"], include_characters="_-"),
        min_size=3,
        max_size=20,
    )
)
def test_every_id_the_server_makes_passes_the_protocols_check(name: str) -> None:
    rid = new_id()
    for gid in (rid, race_game_id(rid, name)):
        assert ID_RE.fullmatch(gid) and not gid.startswith("-"), gid


# -- an assisted game says so -------------------------------------------------------------


async def test_an_assisted_game_says_so_wherever_its_result_shows(
    app: App, player: TestClient, clock: FakeClock
) -> None:
    """Issue 36, point 5: a game the solver helped is ``assisted: true`` in every
    place its result shows — the state, the history, the ``daily`` list, the replay —
    and on no board; a practice game the solver finished is assisted too, a clean one
    is not. Today's daily is never helped while the day lasts (its line would be
    everyone's): a daily played on after its day may be, and then says so."""
    state = await player.start(QUICK, "daily")
    assert state["assisted"] is False and state["ranked"] is True and state["hints"] is False
    err = await player.error("hint", game_id=state["game_id"])
    assert err["code"] == "forbidden" and "everyone's" in err["message"]
    clock.advance(days=1)  # the day closes: the game plays on, unranked, its deal public
    state = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert state["ranked"] is False and state["hints"] is True
    hint = await player.call("hint", game_id=state["game_id"])
    assert hint["assisted"] is True
    state = (await player.call("resume", game_id=state["game_id"]))["state"]
    assert state["assisted"] is True and state["ranked"] is False
    over = (await player.call("resign", game_id=state["game_id"]))["state"]
    assert over["assisted"] is True
    summary = (await player.call("my_games", limit=1))["games"][0]
    assert summary["game_id"] == state["game_id"] and summary["assisted"] is True
    day = await player.call("daily", date=state["date"])
    assert day["games"][QUICK]["mine"]["assisted"] is True
    replay = (await player.call("replay", game_id=state["game_id"]))["replay"]
    assert replay["assisted"] is True
    assert player.player not in await board_players(player, QUICK, str(state["date"]))
    # the solver playing out a practice game (a search: no compared game's trivial rest)
    game = registry.get("hand_reserve")
    seed = next(s for s in range(20) if solve(game, game.deal(s), max_nodes=2_000).line)
    line = solve(game, game.deal(seed), max_nodes=2_000).line
    assert line
    practice = await player.start("hand_reserve", "deal", seed=seed)
    assert practice["assisted"] is False
    near = await play(player, practice, list(line[:-3]))  # a rest found at once
    done = (await player.call("finish", game_id=near["game_id"], seq=near["seq"]))["state"]
    assert done["status"] == "won" and done["auto_completed"] and done["assisted"] is True
    summary = (await player.call("my_games", limit=1))["games"][0]
    assert summary["assisted"] is True
