"""The web client's files over HTTP (no browser): the whitelist from memory, types,
ETag/304, gzip, the Content-Security-Policy, and the WebSocket's Origin check."""

from __future__ import annotations

import asyncio
import gzip
import json
import posixpath
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin, Subprotocol

import protocol as P
from server.net import App
from server.net.http import Origins, origin_key, same_host
from server.net.static import CHECKOUT, CSP, FILES, load, service_worker
from tests.support import GUARD, running_app

Fetched = tuple[int, dict[str, str], bytes]


def fetch(url: str, headers: dict[str, str] | None = None) -> Fetched:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=GUARD) as r:
            return r.status, dict(r.headers.items()), r.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, dict(e.headers.items()), e.read()


async def get(app: App, path: str, **headers: str) -> Fetched:
    return await asyncio.to_thread(fetch, f"http://127.0.0.1:{app.port}{path}", headers)


async def test_the_page_and_every_whitelisted_file_are_served_with_their_type(app: App) -> None:
    status, headers, body = await get(app, "/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == CSP
    assert "default-src 'self'" in CSP and "connect-src 'self'" in CSP
    assert "unsafe-inline" not in CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert b'<script type="module" src="/app.mjs">' in body
    for path in FILES:
        status, headers, body = await get(app, path)
        assert status == 200, path
        assert body, path
        assert headers["ETag"].startswith('"'), path
        assert "Cache-Control" in headers, path
        if path.endswith((".mjs", ".js")):
            assert headers["Content-Type"] == "text/javascript; charset=utf-8", path
    _, headers, _ = await get(app, "/manifest.webmanifest")
    assert headers["Content-Type"] == "application/manifest+json"
    _, headers, _ = await get(app, "/icon-192.png")
    assert headers["Content-Type"] == "image/png"


async def test_an_etag_the_browser_has_gets_304_and_gzip_when_accepted(app: App) -> None:
    _, headers, plain = await get(app, "/app.mjs")
    etag = headers["ETag"]
    status, headers, body = await get(app, "/app.mjs", **{"If-None-Match": etag})
    assert (status, body) == (304, b"")
    assert headers["ETag"] == etag
    status, _, _ = await get(app, "/app.mjs", **{"If-None-Match": '"other"'})
    assert status == 200
    status, headers, packed = await get(app, "/app.mjs", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed) == plain and len(packed) < len(plain)
    _, headers, _ = await get(app, "/app.mjs", **{"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in headers


async def test_paths_off_the_whitelist_are_404_and_never_read_from_disk(app: App) -> None:
    for path in ("/web/app.mjs", "/../pyproject.toml", "/vendor/README", "/%2e%2e/README.md"):
        status, _, body = await get(app, path)
        assert status == 404, path
        assert b"not found" in body
    status, _, body = await get(app, "/healthz")
    assert (status, body) == (200, b"ok")


def test_everything_the_page_loads_is_on_the_whitelist() -> None:
    """The page's links, every module's imports (relative paths resolved), the
    manifest's icons: all on the whitelist; and every file of web/ the page could load
    is on it (a module forgotten there would be a 404 in production only)."""
    assets = load()
    page = assets["/"].body.decode()
    for url in re.findall(r'(?:href|src)="(/[^"]*)"', page):
        assert url in FILES, url
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
    for url, name in FILES.items():
        if not name.endswith(".mjs"):
            continue
        module = assets[url].body.decode()
        static = re.findall(r'^import .* from "(\.{1,2}/[^"]+)";$', module, re.M)
        later = re.findall(r'\bimport\(\s*"(\.{1,2}/[^"]+)"\s*\)', module)
        for target in static + later:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(url), target))
            assert resolved in FILES, (url, target)
            if url in preloaded and target in static:  # what the first screen runs: at once
                assert resolved in preloaded, (url, target)
    # the first screen's modules fetched at once, not import by import; a screen shown
    # later (the board, a replay…) is fetched once the first screen is up
    assert {"/app.mjs", "/session.mjs", "/screens/signin.mjs", "/screens/home.mjs"} <= preloaded
    assert not {"/screens/game.mjs", "/board.mjs", "/screens/replay.mjs"} & preloaded
    manifest = json.loads(assets["/manifest.webmanifest"].body)
    for icon in manifest["icons"]:
        assert icon["src"] in FILES, icon
    web = Path(CHECKOUT)
    served = {".html", ".mjs", ".js", ".css", ".svg", ".png", ".webmanifest", ".json"}
    on_disk = {str(p.relative_to(web)) for p in web.rglob("*") if p.suffix in served}
    assert on_disk == set(FILES.values())


def test_the_service_worker_is_told_the_shell_and_a_version() -> None:
    """web/sw.js as served: the shell's URLs (every file but itself) and a version that
    changes when any file does, so a new release makes a new cache."""
    worker = load()["/sw.js"].body.decode()
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    assert set(shell) == set(FILES) - {"/sw.js", "/index.html"}
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', worker)
    assert version
    changed = service_worker({**{n: b"x" for n in FILES.values()}, "sw.js": SW_BODY}, FILES)
    assert version.group(1).encode() not in changed


SW_BODY = b'const VERSION = "__VERSION__";\nconst SHELL = ["__SHELL__"];\n'


def test_origins_are_compared_scheme_host_and_port() -> None:
    assert origin_key("http://Example.org") == "http://example.org:80"
    assert origin_key("null") is None
    assert same_host("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert same_host("https://pasyans.example", "pasyans.example")
    assert not same_host("http://127.0.0.1:8766", "127.0.0.1:8765")
    assert not same_host("http://evil.example", "127.0.0.1:8765")
    origins = Origins.parse("https://friend.example, http://localhost:3000")
    assert origins.allows(None, "x")  # no Origin: not a page (the terminal client)
    assert origins.allows("https://friend.example", "127.0.0.1:8765")
    assert origins.allows("http://localhost:3000", "127.0.0.1:8765")
    assert not origins.allows("http://localhost:3001", "127.0.0.1:8765")
    assert Origins.parse("*").allows("http://anything.example", "h")


async def open_ws(port: int, origin: str | None) -> None:
    async with connect(
        f"ws://127.0.0.1:{port}/ws",
        subprotocols=[Subprotocol(P.SUBPROTOCOL)],
        origin=Origin(origin) if origin else None,
        compression=None,
    ) as ws:
        await ws.send(P.encode({"id": 1, "op": "games"}))
        assert P.decode(await ws.recv())["ok"] is True


async def test_the_websocket_refuses_pages_of_other_origins(app: App) -> None:
    await open_ws(app.port, None)  # the terminal client sends no Origin
    await open_ws(app.port, f"http://127.0.0.1:{app.port}")  # the server's own page
    with pytest.raises(InvalidStatus) as refused:
        await open_ws(app.port, "http://evil.example")
    assert refused.value.response.status_code == 403
    assert b"may not open" in refused.value.response.body


async def test_allowed_origins_setting_lets_other_pages_in(redis_url: str) -> None:
    async with running_app(redis_url, allowed_origins="https://friend.example") as app:
        await open_ws(app.port, "https://friend.example")
        with pytest.raises(InvalidStatus):
            await open_ws(app.port, "https://other.example")
