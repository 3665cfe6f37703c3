"""Exit status as docs/client.md says: 0 done, 1 the server refused something,
2 bad usage (caught before asking, or an argument the server finds malformed),
3 the server cannot be reached (the board too); every message names a reason."""

from __future__ import annotations

import socket

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_UNREACHABLE, EXIT_USAGE, main
from client.launch import Launch
from client.screens.dialogs import MessageScreen
from protocol.messages import MAX_SEED, Mode

from .test_app import SIZE, until
from .test_script import Play, play  # noqa: F401  (the fixture)


def free_port() -> int:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def usage(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must stop as bad usage; its message."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == EXIT_USAGE
    return capsys.readouterr().err


@pytest.mark.parametrize("seed", [str(2**64), "-1", "seven"])
def test_a_deal_out_of_range_is_bad_usage(capsys: pytest.CaptureFixture[str], seed: str) -> None:
    for argv in (["play", "crescent", "--deal", seed], ["race", "new", "crescent", "--deal", seed]):
        err = usage(capsys, *argv)
        assert "a deal is a whole number from 0 to 2**64-1" in err
        assert "Traceback" not in err and "OverflowError" not in err


def test_the_largest_deal_plays(play: Play) -> None:  # noqa: F811
    code, out = play("", "crescent", "--deal", str(MAX_SEED))
    assert code == EXIT_OK
    assert f"deal {MAX_SEED}" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["leaderboard", "crescent", "--limit", "0"], "a page holds 1 to 100 entries"),
        (["leaderboard", "crescent", "--date", "2026-13-01"], "is not a day"),
        (["daily", "--date", "2026-13-01"], "write it YYYY-MM-DD"),
        (["race", "join", "bad!"], "is not a race code"),
    ],
)
def test_arguments_that_cannot_be_are_bad_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert says in usage(capsys, *argv)


def test_a_cursor_the_server_cannot_read_is_bad_usage(
    server_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", "crescent", "--cursor", "nonsense"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "is not a cursor of this list" in err and "bad_request" not in err


@pytest.mark.parametrize(
    "argv",
    [["rules", "nosuch"], ["leaderboard", "nosuch"], ["play", "nosuch", "--script"]],
)
def test_an_unknown_game_points_to_the_list(
    server_env: str,
    account: config.Credentials,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "no game is called 'nosuch'" in err and "`pasyans games`" in err


def test_wss_against_a_plain_server_says_why(
    server_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wss = server_url.replace("ws://", "wss://")
    assert main(["--server", wss, "games"]) == EXIT_UNREACHABLE
    err = capsys.readouterr().err
    assert f"cannot reach the pasyans server at {wss}: the TLS handshake failed (" in err
    assert f"a plain server is {server_url}" in err
    assert f"{wss}: \n" not in err  # never an empty reason


def test_an_http_url_is_one_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    url = "http://127.0.0.1:8765/ws"
    assert main(["--server", url, "games"]) == EXIT_UNREACHABLE
    err = capsys.readouterr().err
    assert err.count(url) == 1
    assert "is not a WebSocket URL" in err and "ws://HOST:PORT/ws" in err


async def test_the_board_exits_3_when_the_server_is_out_of_reach() -> None:
    app = PasyansApp(f"ws://127.0.0.1:{free_port()}/ws")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)
    assert app.return_value == EXIT_UNREACHABLE
    assert app.failure is not None and "cannot reach the pasyans server" in app.failure


async def test_the_board_exits_2_on_an_unknown_game(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="nosuch", mode=Mode.PRACTICE))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)
    assert app.return_value == EXIT_USAGE
    assert app.failure is not None and "pasyans games" in app.failure


@pytest.mark.parametrize("path", ["", "/", "/pasyans"])
def test_a_url_without_ws_says_it_is_an_http_server(
    server_url: str, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    """The server answers HTTP 404 off ``/ws``: the message says so and gives the URL
    to use, not "Is it running?"."""
    root = server_url.removesuffix("/ws")
    assert main(["--server", root + path, "games"]) == EXIT_UNREACHABLE
    err = capsys.readouterr().err
    fixed = f"{root}{path.rstrip('/')}/ws"
    assert f"this is an HTTP server: use {fixed}" in err, err
    assert "Is it running?" not in err
