"""What ``make run`` prints for the terminal client is a command that reaches that
server, on any port (issue 47: ``PASYANS_PORT=8766 make run`` printed the bare
command, which went to 8765)."""

from __future__ import annotations

import shlex
from urllib.parse import urlsplit

import pytest

from client.cli import main
from server.__main__ import where


def printed_command(host: str, port: int, capsys: pytest.CaptureFixture[str]) -> list[str]:
    where(host, port)
    line = next(x for x in capsys.readouterr().out.splitlines() if "terminal client:" in x)
    return shlex.split(line.split("terminal client:", 1)[1])


def test_the_printed_command_reaches_the_server(
    server_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    port = urlsplit(server_url).port
    assert port is not None and port != 8765
    command = printed_command("127.0.0.1", port, capsys)
    assert command[0].endswith("pasyans") and "--server" in command
    assert main([*command[1:], "games"]) == 0  # the client, as the command runs it
    assert "crescent" in capsys.readouterr().out
    # every address: this machine's own in the command
    assert f"ws://127.0.0.1:{port}/ws" in printed_command("0.0.0.0", port, capsys)


def test_the_default_port_needs_no_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--server" not in printed_command("127.0.0.1", 8765, capsys)
