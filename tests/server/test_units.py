"""Pure parts of the server: the token bucket, settings, keys, the move log."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import msgpack
import pytest

from server.net.ratelimit import TokenBucket
from server.net.session import being_cancelled, cancel
from server.services.clock import FakeClock, day_before, utc_date
from server.services.games import effective_moves
from server.settings import Settings
from server.store.keys import Keys


def test_token_bucket() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5) and not bucket.take(0.5)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]


def test_settings_from_env_and_flags() -> None:
    env = {
        "PASYANS_PORT": "9000",
        "PASYANS_RATE": "7.5",
        "REDIS_URL": "redis://r:1/0",
        "PASYANS_COMPRESSION": "yes",
        "PASYANS_DATA_DIR": "/tmp/x",
    }
    s = Settings.load([], env)
    assert (s.port, s.rate, s.redis_url, s.compression, s.data_dir) == (
        9000,
        7.5,
        "redis://r:1/0",
        True,
        Path("/tmp/x"),
    )
    s = Settings.load(["--port", "9001", "--no-compression", "--redis-url", "unix:///s"], env)
    assert (s.port, s.compression, s.redis_url) == (9001, False, "unix:///s")
    default = Settings.load([], {})
    assert default.port == 8765 and default.host == "127.0.0.1" and default.redis_url is None
    assert default.compression is False and default.max_frame == 64 * 1024


def test_every_setting_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        Settings.parser().parse_args(["--help"])
    text = capsys.readouterr().out
    for name in (
        "--port",
        "--data-dir",
        "--redis-url",
        "--rate",
        "--burst",
        "--max-bad-frames",
        "PASYANS_RATE",
        "--shutdown-timeout",
        "--compression",
    ):
        assert name in text, name


def test_bad_setting_values_exit() -> None:
    with pytest.raises(SystemExit):
        Settings.load(["--port", "eighty"], {})


def test_keys_share_hash_tags() -> None:
    keys = Keys("p:")
    assert keys.game("abc") == "p:g:{abc}" and keys.game_log("abc") == "p:g:{abc}:log"
    assert keys.player("Alice") == keys.player("alice") == "p:pl:{alice}"
    assert keys.board("crescent", "all").startswith("p:lb:{crescent}")
    assert keys.board_players("crescent", "2026-01-01").startswith("p:lb:{crescent}")


def test_effective_moves_apply_undos() -> None:
    def pack(x: dict[str, object]) -> bytes:
        return bytes(msgpack.packb(x))

    log = [
        pack({"action": "a"}),
        pack({"action": "b"}),
        pack({"undo": 1}),
        pack({"action": "c"}),
        pack({"undo": 1}),
        pack({"undo": 1}),
        pack({"undo": 1}),
        pack({"action": "d"}),
        pack({"resign": 1}),
    ]
    assert effective_moves(log) == [{"action": "d"}]


def test_clock_helpers() -> None:
    clock = FakeClock("2026-12-31T23:59:59")
    assert utc_date(clock.now_ms()) == "2026-12-31"
    clock.advance(seconds=1)
    assert utc_date(clock.now_ms()) == "2027-01-01"
    assert day_before("2026-03-01") == "2026-02-28"


async def test_shutdown_asks_again_a_task_that_swallowed_its_cancellation() -> None:
    # A library may turn a cancellation into an error (a timeout firing at the same
    # moment): the task goes on; shutdown must not leave it to hang the loop's close.
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1  # the first one is lost

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await cancel([task], 2)
    assert task.cancelled() and swallowed == 1


async def test_a_retrying_loop_sees_a_cancellation_turned_into_an_error() -> None:
    seen: list[bool] = []

    async def retrying() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen.append(being_cancelled())
            raise ConnectionError("converted") from None

    task = asyncio.create_task(retrying())
    await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(ConnectionError):
        await task
    assert seen == [True]
