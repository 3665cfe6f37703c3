"""The command line's account keeping (issue 49) against a real server: `pasyans link`
prints a code that `pasyans link CODE` on another computer signs in with;
`token-rotate` saves a new token and the old one is refused; `export FILE` writes the
account's data; `delete-account` deletes it and forgets its token here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from client import config
from client.cli import EXIT_OK, EXIT_USAGE, main
from client.connection import Connection, ServerError

from .conftest import fresh_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_link_a_second_computer(
    server_env: str,
    account: config.Credentials,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "link")
    assert code == EXIT_OK
    found = re.search(r"link code: ([A-Z0-9]{8})", out)
    assert found, out
    # another computer: its own config directory, nothing saved
    monkeypatch.setenv(config.CONFIG_ENV, str(tmp_path / "laptop"))
    assert config.load(server_env) is None
    typed = found.group(1).lower()[:4] + "-" + found.group(1)[4:]  # as a person types it
    code, out, _ = run(capsys, "link", typed)
    assert code == EXIT_OK and f"signed in as {account.player}" in out
    saved = config.load(server_env)
    assert saved is not None and saved.player == account.player
    assert saved.token != account.token  # the device's own token
    code, out, _ = run(capsys, "whoami")
    assert f"you are {account.player}" in out
    # the code was used: a third computer cannot
    monkeypatch.setenv(config.CONFIG_ENV, str(tmp_path / "third"))
    code, _, err = run(capsys, "link", found.group(1))
    assert code != EXIT_OK and "code is wrong, used or expired" in err
    with pytest.raises(SystemExit):
        run(capsys, "link", "nope")
    assert "is not a link code" in capsys.readouterr().err


async def refused(server: str, token: str) -> bool:
    async with Connection(server) as conn:
        try:
            await conn.auth(token)
        except ServerError as exc:
            return exc.code == "unauthorized"
    return False


def test_token_rotate_and_export_and_delete(
    server_env: str,
    account: config.Credentials,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import asyncio

    code, out, _ = run(capsys, "token-rotate")
    assert code == EXIT_OK and "every other device" in out
    new = config.load(server_env)
    assert new is not None and new.token != account.token
    assert asyncio.run(refused(server_env, account.token))

    target = tmp_path / "me.json"
    code, out, _ = run(capsys, "export", str(target))
    assert code == EXIT_OK
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["player"] == account.player and new.token not in target.read_text()

    code, _, err = run(capsys, "delete-account", "--name", fresh_name())
    assert code == EXIT_USAGE and "does not match" in err
    code, out, _ = run(capsys, "delete-account", "--name", account.player)
    assert code == EXIT_OK and "held for 30 days" in out
    assert config.load(server_env) is None
    assert asyncio.run(refused(server_env, new.token))


def test_a_member_who_left_is_said_so() -> None:
    """A race's row of a member who deleted their account (``left``) reads "a player
    who left" in the terminal's race tables, never the old name."""
    from client.races import lobby_text, progress_rows, result_table

    row = {"player": "ghost", "status": "lost", "foundation": 3, "total": 52, "moves": 9}
    race = {"code": "ABCDEF", "game": "crescent", "status": "finished", "players": [row]}
    for text in (lobby_text(race), "\n".join(progress_rows(race)), result_table(race)):
        assert "ghost" in text
    race["players"] = [{**row, "left": True}]
    for text in (lobby_text(race), "\n".join(progress_rows(race)), result_table(race)):
        assert "ghost" not in text and "a player who left" in text
