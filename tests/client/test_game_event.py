"""Two connections of one account: a game played through the other one shows on the
board. The server tells the player's other connections ``game`` ({game_id, seq,
status}, docs/protocol.md "Events"); a board behind that ``seq`` fetches the game
again (``resume``) and plays on from there."""

from __future__ import annotations

from textual.widgets import Static

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.screens.board import EndScreen
from protocol.messages import Mode

from .test_app import SIZE, moves, on_board, until


async def test_a_move_made_elsewhere_shows_on_the_board(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        gid = str(board.state["game_id"])
        async with Connection(server_url) as other:
            await other.auth(account.token)
            state = await other.resume(gid)
            moved = await other.play(state, {"from": "T3", "to": "FA-H"})
            # the board fetched the game: the move is on it, without a key pressed
            await until(pilot, lambda: moves(app) == 1)
            assert board.state["seq"] == moved["seq"]
            assert board.state["foundation"] == 9
            status = str(app.screen.query_one("#status", Static).render())
            assert "played elsewhere" in status
            # the board plays on from there (its seq is the server's: no stale_seq)
            await pilot.press("u")
            await until(pilot, lambda: moves(app) == 2)
            assert board.state["foundation"] == 8
            # and a resignation elsewhere ends the game here too
            await other.resign(gid)
            await until(pilot, lambda: isinstance(app.screen, EndScreen))
            assert board.state["status"] == "lost"
