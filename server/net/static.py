"""The web client's files, served from memory on the WebSocket's port.

A fixed whitelist (:data:`FILES`: URL path → file of the ``server.web`` package, which is
the repository's ``web/`` directory shipped in the wheel) is read once, when the server
starts; a URL path is never mapped to the file system. Each file is answered with its
``Content-Type``, an ``ETag`` (a ``If-None-Match`` that names it gets ``304``),
``Cache-Control`` and, when the client accepts gzip, a body compressed at start-up.
Every answer carries a strict Content-Security-Policy: scripts, styles and connections
only from this origin, no inline script.

What it costs: the files live in memory (about 200 KB, twice: plain and gzip). What
it does not do: ``HEAD``, ranges, or any method but ``GET`` (the websockets server
reads only ``GET`` requests).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.resources
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: the package the files are read from (``web/`` in the repository: pyproject.toml)
PACKAGE = "server.web"
#: the same files in a source checkout (an editable install maps no ``server.web``)
CHECKOUT = Path(__file__).resolve().parents[2] / "web"

#: URL path → file of :data:`PACKAGE`: everything the page loads, and nothing else
#: (tests/web/test_static.py checks that every file of ``web/`` the page could load is here)
FILES: Mapping[str, str] = {
    "/": "index.html",
    "/index.html": "index.html",
    **{
        f"/{name}": name
        for name in (
            "app.mjs",
            "board.mjs",
            "cards.mjs",
            "end.mjs",
            "feel.mjs",
            "howto.mjs",
            "game.mjs",
            "hooks.mjs",
            "layout.mjs",
            "net.mjs",
            "route.mjs",
            "session.mjs",
            "store.mjs",
            "ui.mjs",
            "report.mjs",
            "words.mjs",
            "words_challenge.mjs",
            "words_tournament.mjs",
            "i18n.mjs",
            "lang.js",
            "i18n/en.json",
            "i18n/ru.json",
            "markdown.mjs",
            "screens/account.mjs",
            "screens/calendar.mjs",
            "screens/challenge.mjs",
            "screens/friends.mjs",
            "screens/game.mjs",
            "screens/home.mjs",
            "screens/leaderboard.mjs",
            "screens/me.mjs",
            "screens/race.mjs",
            "screens/replay.mjs",
            "screens/signin.mjs",
            "screens/tournament.mjs",
            "style.css",
            "icon.svg",
            "icon-192.png",
            "icon-512.png",
            "manifest.webmanifest",
            "sw.js",
            "vendor/preact-htm.mjs",
            "vendor/msgpack.min.js",
        )
    },
}
#: the page: told to preload every module its first screen needs, after this line of it
PAGE = "index.html"
PRELOAD = (
    "<!-- modulepreload: the first screen's modules,"
    " listed here by the server (server/net/static.py) -->"
)
#: the page's script, and what a module imports before it runs (a screen fetched later,
#: ``import("./x.mjs")``, is not among them)
ENTRY = "app.mjs"
STATIC_IMPORT = re.compile(rb'^import\b[^;]*?\bfrom\s+"(\.{1,2}/[^"]+)";', re.M)
#: the service worker: told the shell's URLs and a version (a hash of every file), so a
#: new file makes a new cache (web/sw.js)
SERVICE_WORKER = "sw.js"

CONTENT_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json; charset=utf-8",
}

#: the page's Content-Security-Policy: nothing from another origin, no inline script
#: or style sheet ('self' covers the page's own ws:// and wss:// in CSP Level 3)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
#: the page and its modules are not versioned in their URLs: the browser asks again
#: each time (and mostly gets a 304); the vendored files change only with an upgrade
REVALIDATE = "no-cache"
VENDOR_CACHE = "public, max-age=86400"
#: smaller bodies are not worth compressing
GZIP_FROM = 512


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str
    cache: str


def load(files: Mapping[str, str] = FILES, package: str = PACKAGE) -> dict[str, Asset]:
    """Every whitelisted file, read and compressed now (a missing one is an error: the
    package was built without the web client)."""
    bodies = {name: read_file(package, name) for name in dict.fromkeys(files.values())}
    if PAGE in bodies:
        bodies[PAGE] = page(bodies[PAGE], first_modules(bodies, files))
    if SERVICE_WORKER in bodies:
        bodies[SERVICE_WORKER] = service_worker(bodies, files)
    read = {name: asset(name, body) for name, body in bodies.items()}
    return {url: read[name] for url, name in files.items()}


@functools.cache
def packaged() -> dict[str, Asset]:
    """:func:`load` of the package's files, once a process: they do not change while
    it runs, and reading and compressing them (gzip -9) is most of an App's start-up,
    which the tests pay hundreds of times (docs/performance.md, "The suite's time")."""
    return load()


def asset(name: str, body: bytes) -> Asset:
    suffix = name[name.rfind(".") :]
    packed = gzip.compress(body, 9, mtime=0) if len(body) >= GZIP_FROM else None
    return Asset(
        body=body,
        gzipped=packed if packed is not None and len(packed) < len(body) else None,
        content_type=CONTENT_TYPES[suffix],
        etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
        cache=VENDOR_CACHE if name.startswith("vendor/") else REVALIDATE,
    )


def first_modules(bodies: Mapping[str, bytes], files: Mapping[str, str]) -> list[str]:
    """The URLs of :data:`ENTRY` and every module it imports, at any depth, by a static
    ``import``: what the page runs before its first screen. The other screens' modules
    come when first shown (the page fetches them once that screen is up)."""
    needed: set[str] = set()
    todo = [ENTRY]
    while todo:
        name = todo.pop()
        if name in needed or name not in bodies:
            continue
        needed.add(name)
        for target in STATIC_IMPORT.findall(bodies[name]):
            todo.append(
                posixpath.normpath(posixpath.join(posixpath.dirname(name), target.decode()))
            )
    return [url for url, name in files.items() if name in needed]


def page(body: bytes, preload: list[str]) -> bytes:
    """web/index.html with a ``modulepreload`` link to each of ``preload``: the browser
    fetches them all at once instead of finding them import by import."""
    links = "".join(f'<link rel="modulepreload" href="{url}">\n' for url in preload)
    return body.replace(PRELOAD.encode(), (PRELOAD + "\n" + links.rstrip("\n")).encode())


def service_worker(bodies: Mapping[str, bytes], files: Mapping[str, str]) -> bytes:
    """web/sw.js with the shell's URLs and a version that changes with any file."""
    digest = hashlib.sha256()
    for name in sorted(bodies):
        if name != SERVICE_WORKER:
            digest.update(name.encode() + b"\0" + bodies[name])
    shell = [url for url, name in files.items() if name != SERVICE_WORKER and url != "/index.html"]
    body = bodies[SERVICE_WORKER].replace(b'["__SHELL__"]', json.dumps(shell).encode())
    return body.replace(b"__VERSION__", digest.hexdigest()[:16].encode())


def read_file(package: str, name: str) -> bytes:
    """A file of the web client: from the installed package, else the checkout."""
    try:
        return importlib.resources.files(package).joinpath(name).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        return (CHECKOUT / name).read_bytes()


def security_headers() -> list[tuple[str, str]]:
    return [
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]


def accepts_gzip(request: Request) -> bool:
    for value in request.headers.get_all("Accept-Encoding"):
        for part in value.split(","):
            coding, _, params = part.strip().partition(";")
            if coding.strip().lower() == "gzip" and params.replace(" ", "") != "q=0":
                return True
    return False


def etag_matches(request: Request, etag: str) -> bool:
    for value in request.headers.get_all("If-None-Match"):
        for tag in value.split(","):
            tag = tag.strip()
            if tag == "*" or tag.removeprefix("W/") == etag:
                return True
    return False


class StaticFiles:
    """The whitelisted files in memory; :meth:`answer` is the HTTP reply to a path."""

    def __init__(self, assets: Mapping[str, Asset]) -> None:
        self.assets = dict(assets)

    @classmethod
    def load(cls) -> StaticFiles:
        return cls(packaged())

    def answer(self, path: str, request: Request) -> Response | None:
        """The file at ``path`` (200, or 304 when the client has it), None when the
        path is not one of the files."""
        asset = self.assets.get(path)
        if asset is None:
            return None
        headers = Headers(
            [
                ("Content-Type", asset.content_type),
                ("Cache-Control", asset.cache),
                ("ETag", asset.etag),
                ("Vary", "Accept-Encoding"),
                *security_headers(),
            ]
        )
        if etag_matches(request, asset.etag):
            return Response(304, "Not Modified", headers, b"")
        body = asset.body
        if asset.gzipped is not None and accepts_gzip(request):
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
        headers["Content-Length"] = str(len(body))
        return Response(200, "OK", headers, body)
