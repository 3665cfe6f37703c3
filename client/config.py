"""Where the client keeps its credentials, and which server it talks to.

The token is a password: it lives in ``credentials.json`` in the user's config
directory (platformdirs; ``PASYANS_CONFIG_DIR`` overrides it), written atomically
with mode 0600 in a 0700 directory, one entry per server URL.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
SERVER_ENV = "PASYANS_SERVER"
CONFIG_ENV = "PASYANS_CONFIG_DIR"
CREDENTIALS = "credentials.json"


def server_url(cli_value: str | None = None) -> str:
    """``--server``, else ``$PASYANS_SERVER``, else the local default."""
    return cli_value or os.environ.get(SERVER_ENV) or DEFAULT_SERVER


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("pasyans", appauthor=False))


@dataclass(frozen=True)
class Credentials:
    player: str
    token: str


def _path() -> Path:
    return config_dir() / CREDENTIALS


def _read_all() -> dict[str, Any]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load(server: str) -> Credentials | None:
    """The saved player and token for ``server``, or None."""
    entry = _read_all().get("servers", {}).get(server)
    if not isinstance(entry, dict):
        return None
    player, token = entry.get("player"), entry.get("token")
    if isinstance(player, str) and isinstance(token, str):
        return Credentials(player, token)
    return None


def save(server: str, credentials: Credentials) -> Path:
    """Remember ``credentials`` for ``server``; returns the file (mode 0600)."""
    data = _read_all()
    servers = data.setdefault("servers", {})
    if not isinstance(servers, dict):
        servers = data["servers"] = {}
    servers[server] = {"player": credentials.player, "token": credentials.token}
    return _write(data)


def forget(server: str) -> None:
    data = _read_all()
    if server in data.get("servers", {}):
        del data["servers"][server]
        _write(data)


def _write(data: dict[str, Any]) -> Path:
    path = _path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".credentials-", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
