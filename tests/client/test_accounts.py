"""Every account is kept per server: ``register`` never silently replaces the one
in use, ``whoami`` says who you are, ``switch`` changes accounts, and the names of
this machine (``localhost``, ``127.0.0.1``) are one server for credentials."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client import config
from client.cli import EXIT_OK, EXIT_USAGE, main

from .conftest import fresh_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_second_register_keeps_the_first_account(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    other = fresh_name()
    code, _, err = run(capsys, "register", other)
    assert code == EXIT_USAGE
    assert f"you are {account.player} on {server_env} already" in err
    assert f"pasyans register {other} --another" in err
    assert config.load(server_env) == account  # nothing replaced

    code, out, _ = run(capsys, "register", other, "--another")
    assert code == EXIT_OK
    assert f"your account {account.player} is kept" in out
    now = config.load(server_env)
    assert now is not None and now.player == other
    assert config.accounts(server_env).tokens[account.player] == account.token

    code, out, _ = run(capsys, "whoami")
    assert code == EXIT_OK
    assert f"you are {other} on {server_env}" in out
    assert f"your other accounts there: {account.player}" in out
    assert account.token not in out and "token:" not in out

    code, out, _ = run(capsys, "switch", account.player.upper())
    assert code == EXIT_OK and f"you are {account.player}" in out
    assert config.load(server_env) == account
    code, out, _ = run(capsys, "whoami", "--token")
    assert f"token: {account.token}" in out
    # the switched-to account really logs in
    code, out, _ = run(capsys, "leaderboard", "crescent", "--around-me")
    assert code == EXIT_OK


def test_registering_your_own_name_says_so(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "register", account.player, "--another")
    assert code == EXIT_USAGE
    assert f"you are already registered as {account.player}" in err
    assert "name_taken" not in err


def test_switch_to_an_account_not_saved(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "switch", "nobody")
    assert code == EXIT_USAGE
    assert f"saved: {account.player}" in err and "pasyans login TOKEN" in err


def test_whoami_without_an_account(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "whoami")
    assert code != EXIT_OK
    assert "pasyans register NAME" in err


def test_localhost_and_127_0_0_1_are_one_server(
    server_url: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "127.0.0.1" in server_url
    alias = server_url.replace("127.0.0.1", "localhost")
    assert config.load(alias) == account
    code, out, _ = run(capsys, "--server", alias, "whoami")
    assert code == EXIT_OK and f"you are {account.player}" in out
    code, out, _ = run(capsys, "--server", alias, "leaderboard", "crescent", "--around-me")
    assert code == EXIT_OK


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ws://localhost:8765/ws", "ws://127.0.0.1:8765/ws"),
        ("ws://LOCALHOST:8765/ws/", "WS://[::1]:8765/ws"),
        ("wss://example.org/ws", "wss://Example.org:443/ws"),
    ],
)
def test_server_keys(a: str, b: str) -> None:
    assert config.server_key(a) == config.server_key(b)


def test_other_servers_stay_apart() -> None:
    keys = {
        config.server_key(u)
        for u in ("ws://localhost:8765/ws", "ws://localhost:8766/ws", "wss://localhost:8765/ws")
    }
    assert len(keys) == 3


def test_an_older_file_reads_as_one_account_each(config_dir: Path) -> None:
    """The file of earlier clients (one player and token per URL as typed) still
    logs in, and two URLs of this machine merge into one server."""
    config_dir.mkdir(parents=True)
    (config_dir / config.CREDENTIALS).write_text(
        json.dumps(
            {
                "servers": {
                    "ws://127.0.0.1:8765/ws": {"player": "alice", "token": "tok-a"},
                    "ws://localhost:8765/ws": {"player": "bob", "token": "tok-b"},
                }
            }
        )
    )
    saved = config.accounts("ws://localhost:8765/ws")
    assert saved.tokens == {"alice": "tok-a", "bob": "tok-b"}
    assert saved.current in ("alice", "bob")
    config.save("ws://127.0.0.1:8765/ws", config.Credentials("carol", "tok-c"))
    assert set(config.accounts("ws://localhost:8765/ws").tokens) == {"alice", "bob", "carol"}


def test_an_account_works_on_every_instance_of_its_deployment(
    server_url: str,
    limited_server_url: str,
    config_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The two test servers share one Redis (one deployment, one id): an account
    registered through one is the account of the other, with no second login."""
    name = fresh_name()
    code, _, _ = run(capsys, "register", name, "--server", server_url)
    assert code == EXIT_OK
    saved = json.loads((config_dir / config.CREDENTIALS).read_text())
    deployment = saved["deployments"][config.server_key(server_url)]
    assert saved["servers"][f"deployment:{deployment}"]["current"] == name
    code, out, err = run(
        capsys, "leaderboard", "crescent", "--around-me", "--server", limited_server_url
    )
    assert code == EXIT_OK, err
    code, out, _ = run(capsys, "whoami", "--server", limited_server_url)
    assert code == EXIT_OK and f"you are {name}" in out
