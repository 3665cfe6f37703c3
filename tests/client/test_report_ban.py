"""Issue 49 in the terminal client: ``pasyans report NAME REASON`` reaches the
operators (``pasyans-server admin reports``), and a banned player is told so in
words, the token kept."""

from __future__ import annotations

import pytest

from client import config
from client.cli import EXIT_OK, main
from server.__main__ import main as server_main

from .conftest import fresh_name
from .test_accounts import run


def test_report_then_a_ban_said_in_words(
    server_env: str,
    redis_url: str,
    account: config.Credentials,
    capsys: pytest.CaptureFixture[str],
) -> None:
    other = fresh_name()
    assert run(capsys, "register", other, "--another")[0] == EXIT_OK
    assert run(capsys, "switch", account.player)[0] == EXIT_OK
    code, out, err = run(capsys, "report", other.upper(), "name", "rude words")
    assert code == EXIT_OK, err
    assert f"reported {other} to the operators" in out
    with pytest.raises(SystemExit):
        main(["report", other, "boring"])
    assert "invalid choice: 'boring'" in capsys.readouterr().err
    assert server_main(["admin", "reports", "--redis-url", redis_url, "--count", "100"]) == 0
    listed = capsys.readouterr().out
    assert f"{account.player} reports {other} for name: rude words" in listed

    args = ["--redis-url", redis_url]
    assert server_main(["admin", "ban", account.player, "--reason", "a bot", *args]) == 0
    capsys.readouterr()
    try:
        code, _, err = run(capsys, "leaderboard", "crescent", "--around-me")
        assert code != EXIT_OK
        assert "banned this account: a bot" in err and "error." not in err
        assert config.load(server_env) == account  # the token is kept
    finally:
        assert server_main(["admin", "unban", account.player, *args]) == 0
    assert main(["leaderboard", "crescent", "--around-me"]) == EXIT_OK
