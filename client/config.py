"""Where the client keeps its credentials, and which server it talks to.

The token is a password: it lives in ``credentials.json`` in the user's config
directory (platformdirs; ``PASYANS_CONFIG_DIR`` overrides it), written atomically
with mode 0600 in a 0700 directory. Every account made or logged in on a server is
kept (registering a second name never loses the first token), one of them in use.
Accounts belong to a *deployment* (every instance of one, and its load balancer,
answers ``games``/``auth`` with the same ``deployment`` id): once the client has
heard a URL's deployment (:func:`note_deployment`) its accounts are filed under
``deployment:ID`` and every URL of that deployment finds them. A URL whose deployment
is not known (an older server) is filed by :func:`server_key`, so ``localhost`` and
``127.0.0.1`` share their accounts::

    {"servers": {"deployment:d41f…": {"current": "alice",
                                      "accounts": {"alice": TOKEN, "bob": TOKEN}}},
     "deployments": {"ws://localhost:8765/ws": "d41f…", "ws://localhost:8766/ws": "d41f…"}}
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
        key = str(url) if str(url).startswith("deployment:") else server_key(str(url))
        have = merged.setdefault(key, Accounts({}, None))
        have.tokens.update(found.tokens)
        have.current = have.current or found.current
    return merged


def _key(server: str, data: dict[str, Any] | None = None) -> str:
    """Where ``server``'s accounts are filed: its deployment once known, else its URL."""
    known = (data if data is not None else _read_all()).get("deployments")
    deployment = known.get(server_key(server)) if isinstance(known, dict) else None
    return f"deployment:{deployment}" if isinstance(deployment, str) else server_key(server)


def note_deployment(server: str, deployment: str | None) -> None:
    """Remember that ``server`` belongs to ``deployment`` (what it answered), and file
    the accounts saved under its URL with the deployment's, so every URL of it finds
    them. Nothing for a server that names no deployment."""
    if not deployment:
        return
    data = _read_all()
    known = data.get("deployments")
    known = known if isinstance(known, dict) else {}
    url = server_key(server)
    servers = _servers(data)
    home = f"deployment:{deployment}"
    if known.get(url) == deployment and url not in servers:
        return
    known[url] = deployment
    data["deployments"] = dict(sorted(known.items()))
    by_url = servers.pop(url, None)
    if by_url is not None:
        mine = servers.setdefault(home, Accounts({}, None))
        mine.tokens = {**by_url.tokens, **mine.tokens}
        mine.current = mine.current or by_url.current
    data["servers"] = {key: acc.as_json() for key, acc in sorted(servers.items())}
    _write(data)


def accounts(server: str) -> Accounts:
    """The accounts saved for ``server`` (none: empty)."""
    data = _read_all()
    return _servers(data).get(_key(server, data), Accounts({}, None))


def load(server: str) -> Credentials | None:
    """The account in use on ``server``, or None."""
    return accounts(server).credentials()


def save(server: str, credentials: Credentials) -> Path:
    """Remember ``credentials`` for ``server`` beside its other accounts, and use it
    from now on; returns the file (mode 0600)."""
    data = _read_all()
    servers = _servers(data)
    mine = servers.setdefault(_key(server, data), Accounts({}, None))
    mine.tokens[credentials.player] = credentials.token
    mine.current = credentials.player
    return _write_servers(servers)


def use(server: str, player: str) -> Credentials:
    """Switch ``server`` to the saved account of ``player`` (KeyError: none saved)."""
    data = _read_all()
    servers = _servers(data)
    mine = servers.get(_key(server, data), Accounts({}, None))
    creds = mine.credentials(player)
    if creds is None:
        raise KeyError(player)
    mine.current = player
    _write_servers(servers)
    return creds


def drop(server: str, player: str) -> None:
    """Drop the saved account of ``player`` on ``server`` (the current one stays
    current unless it was this one)."""
    data = _read_all()
    servers = _servers(data)
    mine = servers.get(_key(server, data))
    if mine is not None and mine.tokens.pop(player, None) is not None:
        if mine.current == player:
            mine.current = None
        _write_servers(servers)


def forget(server: str) -> None:
    """Drop every account saved for ``server``."""
    data = _read_all()
    servers = _servers(data)
    if servers.pop(_key(server, data), None) is not None:
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
