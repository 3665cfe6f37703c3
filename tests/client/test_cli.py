"""The `pasyans` commands against a real server: register, login, games, rules,
daily, leaderboard, and the clear messages when something is wrong."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from client import config
from client.cli import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    _ids_are_not_options,
    build_parser,
    main,
)
from client.cli_records import replay_of
from client.connection import Connection
from protocol.messages import Mode

from .conftest import ROOT, fresh_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_register_saves_the_token_0600(
    server_env: str, config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = fresh_name()
    code, out, _ = run(capsys, "register", name)
    assert code == EXIT_OK
    assert f"registered as {name}" in out
    path = config_dir / config.CREDENTIALS
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config_dir.stat().st_mode) == 0o700
    data = json.loads(path.read_text())
    deployment = data["deployments"][config.server_key(server_env)]  # accounts by deployment
    saved = data["servers"][f"deployment:{deployment}"]
    assert saved["current"] == name
    assert saved["accounts"][name] in out  # shown once, to keep


def test_register_a_taken_name(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    async def someone() -> str:  # another player's name
        async with Connection(server_env) as conn:
            return str((await conn.register(fresh_name()))["player"])

    taken = asyncio.run(someone())
    code, _, err = run(capsys, "register", taken, "--another")
    assert code == EXIT_REFUSED
    assert f"The name {taken} is taken" in err and "name_taken" not in err


def test_login_with_a_token(
    server_env: str,
    account: config.Credentials,
    config_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (config_dir / config.CREDENTIALS).unlink()
    code, out, _ = run(capsys, "login", account.token)
    assert code == EXIT_OK
    assert f"logged in as {account.player}" in out
    assert config.load(server_env) == account


def test_login_with_a_token_that_looks_like_an_option(
    server_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "login", "-x1")
    assert code == EXIT_REFUSED
    assert "does not know this token" in err


DASH_ID = "-aJx3kQ9pL2m"  # a game id as token_urlsafe(9) makes one in 64 times


@pytest.mark.parametrize(
    ("argv", "want"),
    [
        (["replay", DASH_ID], {"target": DASH_ID}),
        (["replay", DASH_ID, "--text"], {"target": DASH_ID, "text": True}),
        (["replay", "--text", DASH_ID, "--step", "3"], {"target": DASH_ID, "step": 3}),
        (["replay", "--", DASH_ID, "--text"], {"target": DASH_ID, "text": True}),
        (["--server", "ws://h/ws", "replay", DASH_ID, "--te"], {"target": DASH_ID, "text": True}),
        (["replay", "crescent", "--date", "2026-03-01"], {"target": "crescent"}),
        (["share", DASH_ID], {"game_id": DASH_ID}),
        (["share", "--", DASH_ID], {"game_id": DASH_ID}),
        (["share"], {"game_id": None}),
        (["resume", DASH_ID, "--script"], {"game_id": DASH_ID, "script": True}),
        (["resume", "--script"], {"game_id": None, "script": True}),
        (["login", "-x1"], {"token": "-x1"}),
        (["login", "--", "--x1"], {"token": "--x1"}),
        (["history", "--limit", "5"], {"limit": 5}),
    ],
)
def test_game_ids_that_start_with_a_dash_are_not_options(
    argv: list[str], want: dict[str, object]
) -> None:
    parser = build_parser()
    args = parser.parse_args(_ids_are_not_options(parser, argv))
    for key, value in want.items():
        assert getattr(args, key) == value, (argv, args)


@pytest.mark.parametrize("argv", [["replay", DASH_ID, "--text"], ["share", DASH_ID]])
def test_a_dash_game_id_reaches_the_server(
    server_env: str,
    account: config.Credentials,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    """Not bad usage (2): the server is asked, and knows no such game."""
    code, _, err = run(capsys, *argv)
    assert code == EXIT_REFUSED, err
    assert "No such game." in err and "not_found" not in err


def test_login_with_a_wrong_token(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "login", "not-a-real-token")
    assert code == EXIT_REFUSED
    assert "does not know this token" in err
    assert config.load(server_env) is None


def test_a_wrong_saved_token_is_explained(
    server_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config.save(server_env, config.Credentials("ghost", "wrong-token"))
    code, _, err = run(capsys, "play", "crescent", "--deal", "1", "--script")
    assert code == EXIT_REFUSED
    assert "refused the saved token of ghost" in err
    assert "pasyans login TOKEN" in err
    # public commands still work, with a warning
    code, out, err = run(capsys, "games")
    assert code == EXIT_OK
    assert "crescent" in out
    assert "warning" in err


def test_not_registered_yet(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "crescent", "--script")
    assert code == EXIT_REFUSED
    assert "pasyans register NAME" in err


def test_server_down(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, _, err = run(capsys, "--server", f"ws://127.0.0.1:{port}/ws", "games")
    assert code == EXIT_UNREACHABLE
    assert "cannot reach the pasyans server" in err
    assert "pasyans-server serve" in err


def test_games_and_rules(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == EXIT_OK
    assert "Полумесяц" in out and "Crescent" in out
    code, out, _ = run(capsys, "rules", "crescent")
    assert code == EXIT_OK
    assert "Crescent" in out or "Полумесяц" in out
    code, _, err = run(capsys, "rules", "no_such_game")
    assert code == EXIT_USAGE
    assert "`pasyans games`" in err


def test_server_flag_after_the_command(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--server", server_url)
    assert code == EXIT_OK
    assert "crescent" in out


async def finish_a_daily(url: str, token: str) -> None:
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("crescent", Mode.DAILY)
        await conn.resign(state["game_id"])


def test_daily_and_leaderboard(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    asyncio.run(finish_a_daily(server_env, account.token))
    code, out, _ = run(capsys, "daily")
    assert code == EXIT_OK
    assert "streak" in out
    assert "Crescent — Полумесяц" in out
    code, out, _ = run(capsys, "leaderboard", "crescent")
    assert code == EXIT_OK
    assert account.player in out
    code, out, _ = run(capsys, "leaderboard", "crescent", "--around-me")
    assert code == EXIT_OK
    assert f"you ({account.player}): rank" in out
    code, out, _ = run(capsys, "leaderboard", "crescent", "--all-time", "--limit", "5")
    assert code == EXIT_OK
    assert "all time" in out


def test_help_of_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    commands = ["register", "login", "games", "rules", "play", "resume", "daily", "leaderboard"]
    for command in [None, *commands]:
        argv = ["--help"] if command is None else [command, "--help"]
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        assert "usage: pasyans" in out
        assert "--server" in out


def test_console_script_in_a_pipe(server_env: str, account: config.Credentials) -> None:
    """The installed `pasyans` entry point: no TTY means script mode by itself."""
    script = Path(sys.executable).with_name("pasyans")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "client"]
    done = subprocess.run(
        [*argv, "play", "crescent", "--deal", "0"],
        input="T3 FA-H\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "no terminal: script mode" in done.stderr
    assert "> T3 FA-H" in done.stdout
    assert "moves 1 ·" in done.stdout


def test_no_command_without_a_terminal_shows_the_dailies(
    server_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys)
    assert code == EXIT_OK
    assert "Daily deals of" in out
    assert "no terminal" in err


def _closed_pipe_run(argv: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run `pasyans` with its standard output a pipe whose reader has gone (as after
    `| head` read its lines): every write fails with EPIPE."""
    script = Path(sys.executable).with_name("pasyans")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "client"]
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [*cmd, *argv],
            input=stdin,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    finally:
        os.close(write)


def test_output_into_a_closed_pipe_ends_quietly(
    server_env: str, account: config.Credentials
) -> None:
    """`pasyans play … --script | head` and `pasyans replay … --text | head`: no
    BrokenPipeError traceback, status 0."""
    import asyncio

    async def finished() -> str:
        async with Connection(server_env) as conn:
            await conn.auth(account.token)
            state = await conn.start("crescent", Mode.DEAL, 0)
            await conn.resign(state["game_id"])
            return str(state["game_id"])

    game_id = asyncio.run(finished())
    for argv, stdin in [
        (["play", "crescent", "--deal", "0", "--script"], "board\nT3 FA-H\nboard\n"),
        (["replay", game_id, "--text"], ""),
    ]:
        done = _closed_pipe_run(argv, stdin)
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
        assert done.returncode == EXIT_OK, (argv, done.stderr)


def test_slugs_are_case_insensitive(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`pasyans rules Crescent` is `pasyans rules crescent`; so is every GAME."""
    code, out, err = run(capsys, "rules", "Crescent")
    assert code == EXIT_OK, err
    assert "Crescent" in out
    parser = build_parser()
    for argv in (
        ["play", "CRESCENT", "--deal", "1"],
        ["leaderboard", "Crescent"],
        ["race", "new", "Crescent"],
        ["stats", "CreScent"],
        ["rules", " Crescent "],
    ):
        assert parser.parse_args(argv).game == "crescent", argv
    args = parser.parse_args(["replay", "St_Helena", "--date", "2026-03-01"])
    assert replay_of(args).game == "st_helena"


def test_every_environment_variable_is_in_the_help_and_the_docs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The client reads PASYANS_SERVER and PASYANS_CONFIG_DIR (client/config.py): both
    are in `pasyans --help` and docs/client.md, and no other is read."""
    read = set()
    for path in (ROOT / "client").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"environ(?:\.get)?\(\s*([A-Z_]+)", text):
            read.add(str(getattr(config, name, name)))
        read.update(re.findall(r"getenv\(\s*\"([A-Z_]+)\"", text))
    assert read == {config.SERVER_ENV, config.CONFIG_ENV}
    with pytest.raises(SystemExit):
        main(["--help"])
    helped = capsys.readouterr().out
    docs = (ROOT / "docs" / "client.md").read_text(encoding="utf-8")
    for name in read:
        assert name in helped and f"`{name}`" in docs, name
