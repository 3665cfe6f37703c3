"""Abuse, small (``bench/abuse.py`` runs the full size): 500 connections that never
finish the opening handshake, 300 idle signed-in connections, one player starting
250 practice games and creating 30 races in a loop. The server closes the half-open
connections after its handshake timeout, keeps the idle ones, holds the abuser to 100
games in play and 5 empty lobbies (so the Redis keys stay bounded), gives back the
file descriptors, and a normal player's moves are answered meanwhile (how fast is the
benchmark's figure: ``python -m bench.abuse``; this test prints it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.abuse import FD_SLACK, abuse
from server.settings import Settings
from tests.faults.conftest import server_args
from tests.support import ServerProcess

SIZES = {"half_open": 500, "idle": 300, "starts": 250, "races": 30}
#: seconds the server gives a connection to finish its handshake (the default is 10):
#: the half-open ones are closed after it, and the test waits for that; the honest
#: connections, a hundred at once beside them, must each be through within it on a
#: machine under load (at 1 s, some were not)
HANDSHAKE_TIMEOUT = 5.0


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def server(data: Path) -> Iterator[ServerProcess]:
    args = server_args("--data-dir", str(data), "--handshake-timeout", str(HANDSHAKE_TIMEOUT))
    with ServerProcess(*args) as s:
        yield s


async def test_abuse_is_bounded_and_other_players_play_on(
    server: ServerProcess, data: Path
) -> None:
    prefix = server.args[server.args.index("--key-prefix") + 1]
    f = await abuse(
        server,
        f"unix://{data / 'redis.sock'}",
        prefix,
        handshake_timeout=HANDSHAKE_TIMEOUT,
        **SIZES,
    )
    print("\n" + f.report(SIZES))
    assert f.player_error is None and f.moves_during > 0
    assert f.half_open_closed == SIZES["half_open"]
    # closed for their handshake's timeout (the idle ones, past it, stay open)
    assert f.half_open_seconds >= HANDSHAKE_TIMEOUT / 2
    assert f.idle_alive == SIZES["idle"]
    # 100 games and 5 races of 4 keys (hash, members, seen, code) kept, not 250 and 30
    limits = Settings()  # the server under test runs with the default limits
    assert f.games_kept == f.in_play == limits.max_in_play and f.lobbies == limits.race_lobbies
    assert f.race_keys == 4 * limits.race_lobbies
    assert f.keys_after - f.keys_before < SIZES["starts"]
    assert f.fds_during > SIZES["idle"]
    assert f.fds_after <= f.fds_before + FD_SLACK
    # 300 idle connections and 500 half-open ones cost a few tens of KiB each at most
    assert f.rss_during_kib - f.rss_before_kib < 64 * 1024
    assert "Traceback" not in server.output()
