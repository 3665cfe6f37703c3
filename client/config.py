"""Where the client keeps its credentials, and which server it talks to.

The token is a password: it lives in ``credentials.json`` in the user's config
directory (platformdirs; ``PASYANS_CONFIG_DIR`` overrides it), written atomically
with mode 0600 in a 0700 directory. Every account made or logged in on a server is
kept (registering a second name never loses the first token), one of them in use;
a server is filed by :func:`server_key`, so ``localhost`` and ``127.0.0.1`` share
their accounts::

    {"servers": {"ws://localhost:8765/ws":
                 {"current": "alice", "accounts": {"alice": TOKEN, "bob": TOKEN}}}}
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
DEFAULT_PORTS = {"ws": 80, "wss": 443}


def server_key(url: str) -> str:
    """The server a URL names, as credentials are filed: the scheme and host in lower
    case, every name of this machine (``localhost``, ``127.0.0.1``, ``::1``) as one,
    the port written out, the path without a trailing slash. ``ws://localhost:8765/ws``
    and ``ws://127.0.0.1:8765/ws/`` are the same server."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return url
    if not parts.scheme or not host:
        return url
    scheme = parts.scheme.lower()
    if host in LOOPBACK:
        host = "localhost"
    port = port or DEFAULT_PORTS.get(scheme, 0)
    return f"{scheme}://{host}:{port}{parts.path.rstrip('/') or '/'}"


def token_file() -> Path:
    """The file that keeps the tokens."""
    return config_dir() / CREDENTIALS


def _path() -> Path:
    return token_file()


def _read_all() -> dict[str, Any]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass
class Accounts:
    """Every account saved for one server, and the one in use (``current``)."""

    tokens: dict[str, str]
    current: str | None

    def credentials(self, player: str | None = None) -> Credentials | None:
        name = self.current if player is None else player
        if name is None or name not in self.tokens:
            return None
        return Credentials(name, self.tokens[name])

    def as_json(self) -> dict[str, Any]:
        return {"current": self.current, "accounts": dict(self.tokens)}


def _accounts_in(entry: Any) -> Accounts:
    """One server's entry; the old form (one ``player`` and its ``token``) reads as
    a single account."""
    if not isinstance(entry, dict):
        return Accounts({}, None)
    raw = entry.get("accounts")
    tokens = {
        str(k): v for k, v in (raw.items() if isinstance(raw, dict) else ()) if isinstance(v, str)
    }
    player, token = entry.get("player"), entry.get("token")
    if isinstance(player, str) and isinstance(token, str):
        tokens.setdefault(player, token)
    current = entry.get("current", player)
    return Accounts(tokens, current if isinstance(current, str) and current in tokens else None)


def _servers(data: dict[str, Any]) -> dict[str, Accounts]:
    """Every server's accounts, filed by :func:`server_key` (older files kept one
    entry per URL as typed: entries naming the same server are merged)."""
    raw = data.get("servers")
    merged: dict[str, Accounts] = {}
    for url, entry in raw.items() if isinstance(raw, dict) else ():
        found = _accounts_in(entry)
        have = merged.setdefault(server_key(str(url)), Accounts({}, None))
        have.tokens.update(found.tokens)
        have.current = have.current or found.current
    return merged


def accounts(server: str) -> Accounts:
    """The accounts saved for ``server`` (none: empty)."""
    return _servers(_read_all()).get(server_key(server), Accounts({}, None))


def load(server: str) -> Credentials | None:
    """The account in use on ``server``, or None."""
    return accounts(server).credentials()


def save(server: str, credentials: Credentials) -> Path:
    """Remember ``credentials`` for ``server`` beside its other accounts, and use it
    from now on; returns the file (mode 0600)."""
    servers = _servers(_read_all())
    mine = servers.setdefault(server_key(server), Accounts({}, None))
    mine.tokens[credentials.player] = credentials.token
    mine.current = credentials.player
    return _write_servers(servers)


def use(server: str, player: str) -> Credentials:
    """Switch ``server`` to the saved account of ``player`` (KeyError: none saved)."""
    servers = _servers(_read_all())
    mine = servers.get(server_key(server), Accounts({}, None))
    creds = mine.credentials(player)
    if creds is None:
        raise KeyError(player)
    mine.current = player
    _write_servers(servers)
    return creds


def forget(server: str) -> None:
    """Drop every account saved for ``server``."""
    servers = _servers(_read_all())
    if servers.pop(server_key(server), None) is not None:
        _write_servers(servers)


def _write_servers(servers: dict[str, Accounts]) -> Path:
    data = _read_all()
    data["servers"] = {key: acc.as_json() for key, acc in sorted(servers.items())}
    return _write(data)


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
