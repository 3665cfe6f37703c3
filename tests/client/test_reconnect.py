"""A server restart mid-game: the board reconnects and carries on where the server
(Redis) has the game — nothing is lost, nothing is played twice, and a move typed
while the server was away is played once it is back (issue 23, item 4)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from textual.widgets import Static

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_REFUSED, main
from client.connection import CLOSE_TIMEOUT, PING_INTERVAL, PING_TIMEOUT, Connection
from client.launch import Launch
from protocol.messages import Mode
from tests.support import GUARD, ServerProcess

from .conftest import fresh_name
from .test_app import SIZE, moves, on_board, until
from .test_script import boards

#: the keep-alive's promise: an idle client notices a lost server within this many
#: seconds (checked on its settings; the tests wait for the notice however long it takes)
NOTICE = 5.0


@dataclass
class Restartable:
    server: ServerProcess

    @property
    def url(self) -> str:
        return self.server.url

    async def stop(self) -> None:
        await asyncio.to_thread(self.server.terminate)

    async def start(self) -> None:
        """The same port again, as a restarted deployment would have (same Redis)."""
        await asyncio.to_thread(again, self.server)


def again(server: ServerProcess) -> None:
    """Start ``server`` on the port it had."""
    server.start(port=server.port)


@pytest.fixture(scope="module")
def module_server(redis_url: str) -> Iterator[ServerProcess]:
    """The module's server (on the session's Redis): its tests stop and start it, each
    leaves it running for the next (and the next starts it if one did not)."""
    server = ServerProcess("--log-level", "warning", redis_url=redis_url).start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def restartable(module_server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> Restartable:
    """A server of the module's own that a test may stop and start: up when it begins."""
    if module_server.process is None or module_server.process.poll() is not None:
        again(module_server)
    # The client reconnects for RECONNECT_PATIENCE (15 s) by default: a restart on a
    # loaded machine may take longer, and these tests are about carrying on after it.
    monkeypatch.setattr("client.connection.RECONNECT_PATIENCE", GUARD)
    return Restartable(module_server)


async def signed_in(url: str) -> config.Credentials:
    async with Connection(url) as conn:
        result = await conn.register(fresh_name())
    creds = config.Credentials(result["player"], result["token"])
    config.save(url, creds)
    return creds


def status_of(app: PasyansApp) -> Callable[[], str]:
    status = app.screen.query_one("#status", Static)
    return lambda: str(status.render())


async def test_a_move_typed_while_the_server_restarts_is_played(
    restartable: Restartable,
) -> None:
    await signed_in(restartable.url)
    app = PasyansApp(restartable.url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        status = status_of(app)
        await restartable.stop()
        # the idle board noticed, and says so
        await until(pilot, lambda: "reconnecting" in status())
        # a move typed while the server is away…
        back = asyncio.create_task(restartable.start())
        await pilot.press("T", "3", "F", "A", "-", "H")
        await back
        # …is played once the board is resumed, not swallowed
        await until(pilot, lambda: moves(app) == 1)
        assert board.state["foundation"] == 9
        # and so is the first key typed after a restart the board already got over
        await restartable.stop()
        await restartable.start()
        await until(pilot, lambda: "reconnected" in status())
        await pilot.press("u")
        await until(pilot, lambda: moves(app) == 2)
        assert board.state["foundation"] == 8
        assert "undo" in status()


async def test_a_move_typed_after_a_restart_is_played_at_once(
    restartable: Restartable,
) -> None:
    """The issue's steps: restart, then type a move — its first key is not lost and
    the move is played on the first attempt, not after a "reconnected" round."""
    await signed_in(restartable.url)
    app = PasyansApp(restartable.url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await restartable.stop()
        await restartable.start()
        await pilot.press("T", "3", "F", "A", "-", "H")
        await until(pilot, lambda: moves(app) == 1)
        assert board.state["foundation"] == 9
        assert "Move the 2♥ from column 3 (T3) to foundation 2 (FA-H)" in status_of(app)()


async def test_an_idle_board_notices_a_frozen_server(
    restartable: Restartable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that stops answering closes no socket: the keep-alive pings notice."""
    assert PING_INTERVAL + PING_TIMEOUT + CLOSE_TIMEOUT < NOTICE
    # the pings of the app's connection come faster than the product's, so that the
    # test waits less for the notice (the settings themselves are checked above)
    monkeypatch.setattr("client.connection.PING_INTERVAL", 0.5)
    monkeypatch.setattr("client.connection.PING_TIMEOUT", 1.0)
    await signed_in(restartable.url)
    app = PasyansApp(restartable.url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        await on_board(pilot)
        status = status_of(app)
        process = restartable.server.process
        assert process is not None
        pid = process.pid  # the server's own process, never a group
        os.kill(pid, signal.SIGSTOP)
        try:
            # no socket closes: only the pings can tell (how soon: the settings above)
            await until(pilot, lambda: "reconnecting" in status())
        finally:
            os.kill(pid, signal.SIGCONT)
        await until(pilot, lambda: "reconnected" in status())
        await pilot.press("T", "3", "F", "A", "-", "H")
        await until(pilot, lambda: moves(app) == 1)


class Stdin:
    """Lines for script mode; ``between(n)`` runs before line ``n`` is read (in the
    reader's thread, as a player would restart the server between two lines)."""

    def __init__(self, lines: list[str], between: dict[int, Callable[[], None]]) -> None:
        self.lines = lines
        self.between = between
        self.read = 0

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if self.read in self.between:
            self.between[self.read]()
        if self.read >= len(self.lines):
            return ""
        self.read += 1
        return self.lines[self.read - 1] + "\n"


def restart(
    server: ServerProcess, meanwhile: Callable[[], None] | None = None
) -> Callable[[], None]:
    def run() -> None:
        server.terminate()
        again(server)
        if meanwhile is not None:
            meanwhile()

    return run


def script(
    restartable: Restartable,
    stdin: Stdin,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", stdin)
    code = main(["--server", restartable.url, "play", "crescent", "--deal", "0", "--script"])
    return code, capsys.readouterr().out


def test_a_script_line_across_a_restart_is_played(
    restartable: Restartable,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(signed_in(restartable.url))
    stdin = Stdin(["T3 FA-H", "undo", "T3 FA-H"], {1: restart(restartable.server)})
    code, out = script(restartable, stdin, monkeypatch, capsys)
    assert code == EXIT_OK, out
    _deal, move, undo, again = boards(out)
    assert "moves 1 · " in move and "reconnect" not in move
    assert "the server closed the connection — reconnecting…" in undo
    assert "reconnected: sending it again" in undo
    # the undo was played once, on the new connection; the script went on
    assert "moves 2 · " in undo and "foundation 8/104" in undo
    assert "moves 3 · " in again and "foundation 9/104" in again


def test_a_script_line_is_refused_when_the_game_moved_on_meanwhile(
    restartable: Restartable,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Played elsewhere while the server was away: the line is not sent on a game
    it was not meant for, and the script says so (exit status 1)."""
    creds = asyncio.run(signed_in(restartable.url))

    def elsewhere() -> None:
        async def play() -> None:
            async with Connection(restartable.url) as conn:
                await conn.auth(creds.token)
                game = (await conn.my_games(limit=1))["games"][0]
                state = await conn.resume(str(game["game_id"]))
                await conn.take_back(state)

        asyncio.run(play())

    stdin = Stdin(["T3 FA-H", "undo"], {1: restart(restartable.server, elsewhere)})
    code, out = script(restartable, stdin, monkeypatch, capsys)
    assert code == EXIT_REFUSED, out
    assert "the game changed while the connection was down" in out
    assert "'undo' is not sent again" in out


async def test_a_move_is_refused_with_the_reason_when_the_server_stays_away(
    restartable: Restartable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reconnecting gives up after RECONNECT_PATIENCE: the idle board and the move
    typed meanwhile say why (nothing vanishes); once the server is back, the next
    try reconnects and plays."""
    monkeypatch.setattr("client.connection.RECONNECT_PATIENCE", 0.5)
    await signed_in(restartable.url)
    app = PasyansApp(restartable.url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        status = status_of(app)
        await restartable.stop()
        await until(pilot, lambda: "cannot reach the pasyans server" in status())
        assert "play on to try again" in status()
        await pilot.press("T", "3", "F", "A", "-", "H")
        await until(pilot, lambda: "not sent" in status())
        assert "cannot reach the pasyans server" in status()
        assert "Move the 2♥ from column 3 (T3) to foundation 2 (FA-H) not sent" in status(), (
            status()
        )
        assert moves(app) == 0
        await restartable.start()
        await pilot.press("T", "3", "F", "A", "-", "H")
        await until(pilot, lambda: moves(app) == 1)
        assert board.state["foundation"] == 9
