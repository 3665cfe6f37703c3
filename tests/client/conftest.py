"""A real pasyans server on a real Redis (tests/support), on free ports, for the
whole session; a fresh account per test, its token saved in a per-test config
directory."""

from __future__ import annotations

import datetime as dt
import uuid
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import config, connection, lang
from client.connection import Connection, Message
from tests.support import RedisProcess, ServerProcess
from tests.support.schema import FrameError, Frames

ROOT = Path(__file__).resolve().parents[2]
#: seconds of countdown before a race's deal on the test server (the default is 3)
RACE_COUNTDOWN = 0.3


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """One real Redis for the session's test servers (each keeps its own key prefix)."""
    with RedisProcess() as redis:
        yield redis.url


@pytest.fixture(scope="session")
def server_url(redis_url: str) -> Iterator[str]:
    """``pasyans-server serve`` in a subprocess (tests/support) on a real Redis; the
    rate limit is raised so that quick scripted play is never throttled, and a race's
    countdown is short."""
    # The deployment began the day before yesterday, and its background scan chooses
    # (at the tests' tiny budget) today's dailies and the past days': the home screen
    # has a day before to show.
    first = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=2)).isoformat()
    with ServerProcess(
        "--rate",
        "10000",
        "--burst",
        "10000",
        "--log-level",
        "warning",
        "--race-countdown",
        str(RACE_COUNTDOWN),
        "--first-day",
        first,
        "--prepare-dailies",
        "--prepare-days",
        "0",
        redis_url=redis_url,
    ) as server:
        yield server.url


#: the bucket of the rate-limited test server: the default rate, a small burst, so
#: a client that does not pace itself is refused within a few requests
LIMITED_RATE, LIMITED_BURST = 50, 5


@pytest.fixture(scope="session")
def limited_server_url(redis_url: str) -> Iterator[str]:
    """A second server with the default rate and a burst of five."""
    with ServerProcess(
        "--rate",
        str(LIMITED_RATE),
        "--burst",
        str(LIMITED_BURST),
        "--log-level",
        "warning",
        redis_url=redis_url,
    ) as server:
        yield server.url


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own (empty) config directory; no real token is touched."""
    path = tmp_path / "config"
    monkeypatch.setenv(config.CONFIG_ENV, str(path))
    monkeypatch.delenv(config.SERVER_ENV, raising=False)
    return path


@pytest.fixture(autouse=True)
def checked_frames(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every frame the terminal client's connections send or read in a test is checked
    against the protocol's schema (tests/support/schema.py): one it does not describe
    fails the test when the test ends (the check runs in the connection's reader, which
    must go on)."""
    frames: weakref.WeakKeyDictionary[Connection, Frames] = weakref.WeakKeyDictionary()
    problems: list[str] = []

    def watch(conn: Connection, way: str, msg: Message) -> None:
        checked = frames.setdefault(conn, Frames())
        try:
            checked.sent(msg) if way == "out" else checked.received(msg)
        except FrameError as exc:
            problems.append(str(exc))

    monkeypatch.setattr(connection, "watch_frames", watch)
    yield problems
    assert not problems, "\n\n".join(problems)


def fresh_name() -> str:
    return "t" + uuid.uuid4().hex[:12]


@pytest.fixture
async def account(server_url: str, config_dir: Path) -> config.Credentials:
    """A new player registered on the test server, its token saved like `register` does."""
    async with Connection(server_url) as conn:
        result = await conn.register(fresh_name())
    creds = config.Credentials(result["player"], result["token"])
    config.save(server_url, creds)
    return creds


@pytest.fixture
def server_env(server_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(config.SERVER_ENV, server_url)
    return server_url


@pytest.fixture(params=["en", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The client's language for one test, each in turn (English again after it)."""
    lang.use(request.param)
    try:
        yield request.param
    finally:
        lang.use("en")
