"""Server settings (``server.settings``): flags, environment, defaults, help."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.settings import Settings


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
