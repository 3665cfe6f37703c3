"""Safe auto-play in the client, over a real server: ``s`` plays the safe moves, ``o``
plays them after each move, ``f`` finishes a game the server can prove won (the end
panel says auto-completed); ``safe`` and ``finish`` in script mode."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Iterator

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, main
from client.connection import Connection
from client.launch import Launch
from client.screens.board import BoardScreen, EndScreen
from protocol.messages import Mode
from server.patience import registry
from server.solver import solve

from .test_app import SIZE, on_board, until

PARADE = registry.get("parade")
#: parade deal 1: after 34 first legal moves, three safe moves follow one another
SEED, BEFORE, CHAIN = 1, 34, 3


async def parade_at(url: str, token: str, moves: int) -> str:
    """A parade deal 1 game after ``moves`` first legal moves: its id."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("parade", Mode.DEAL, SEED)
        for _ in range(moves):
            state = await conn.play(state, state["legal"][0])
        return str(state["game_id"])


def resume(url: str, gid: str) -> PasyansApp:
    return PasyansApp(url, launch=Launch(game_id=gid, resume=True))


@pytest.fixture(autouse=True)
def safe_after_moves_off() -> Iterator[None]:
    """``o`` is kept for the session: each test starts with it off."""
    BoardScreen.safe_after_moves = False
    yield
    BoardScreen.safe_after_moves = False


async def test_s_plays_the_safe_moves(server_url: str, account: config.Credentials) -> None:
    gid = await parade_at(server_url, account.token, BEFORE)
    app = resume(server_url, gid)
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        assert board.state["moves"] == BEFORE
        assert not board.check_action("finish", ())  # few cards founded: not asked, not offered
        await pilot.press("s")
        await until(pilot, lambda: board.state["moves"] == BEFORE + CHAIN)
        assert "played 3 safe moves" in str(board.query_one("#status").render())
        await pilot.press("s")
        await until(pilot, lambda: "no safe move" in str(board.query_one("#status").render()))
        await pilot.press("u")  # each safe move is a move of its own
        await until(pilot, lambda: board.state["seq"] == BEFORE + CHAIN + 1)
        assert board.state["moves"] == BEFORE + CHAIN + 1


async def test_o_plays_them_after_each_move(server_url: str, account: config.Credentials) -> None:
    gid = await parade_at(server_url, account.token, BEFORE - 1)
    app = resume(server_url, gid)
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await pilot.press("o")
        assert BoardScreen.safe_after_moves
        assert "on" in str(board.query_one("#status").render())
        await board.play(board.legal[0])  # the 34th move: the safe moves follow
        await until(pilot, lambda: board.state["moves"] == BEFORE + CHAIN)
        assert "safe moves" in str(board.query_one("#status").render())


async def nearly_won(url: str, token: str) -> tuple[str, int]:
    """A travellers_classic deal played along a certified line to six moves short of
    the win (most cards founded): its id and the cards founded."""
    game = registry.get("travellers_classic")
    seed = 0
    line = solve(game, game.deal(seed), max_nodes=200_000).line
    assert line is not None and len(line) > 8
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("travellers_classic", Mode.DEAL, seed)
        for move in line[:-6]:
            state = await conn.play(state, move.to_wire())
    assert state["foundation"] >= state["total"] * BoardScreen.FINISH_FROM
    return str(state["game_id"]), int(state["foundation"])


async def test_f_finishes_a_certain_win(server_url: str, account: config.Credentials) -> None:
    gid, _ = await nearly_won(server_url, account.token)
    app = resume(server_url, gid)
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await until(pilot, lambda: board.finish_offer is not None)
        assert "f finishes it" in str(board.query_one("#hint").render())
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert board.state["status"] == "won" and board.state["auto_completed"] is True
        assert "auto-completed" in str(app.screen.query_one("#end").render())


def test_script_safe_and_finish(
    server_env: str,
    account: config.Credentials,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gid = asyncio.run(parade_at(server_env, account.token, BEFORE))
    monkeypatch.setattr(sys, "stdin", io.StringIO("safe\nsafe\n"))
    assert main(["resume", gid, "--script"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.count("safe: ") == CHAIN and "no safe move now" in out
    won, _ = asyncio.run(nearly_won(server_env, account.token))
    monkeypatch.setattr(sys, "stdin", io.StringIO("finish\n"))
    assert main(["resume", won, "--script"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "finish: " in out and "won" in out
