"""The load balancer in front of the servers (HAProxy or nginx), configured from
deploy/haproxy.cfg and deploy/nginx.conf."""

from __future__ import annotations

import os
import re
import shutil
import socket
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from .processes import ROOT, Child, LaunchError, spawn

# -- the load balancer -----------------------------------------------------------------

#: what --lb takes
BALANCERS = ("haproxy", "nginx")
LB_TIMEOUT = 15.0  # seconds for the balancer to pass /healthz through
#: where Debian and others put daemons, often not on a user's PATH
SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")


def find_balancer(name: str) -> str | None:
    """The ``haproxy`` or ``nginx`` binary: from PATH, else an sbin directory."""
    found = shutil.which(name)
    if found:
        return found
    for directory in SBIN:
        path = Path(directory) / name
        if os.access(path, os.X_OK):
            return str(path)
    return None


def _servers(config: str, keyword: str, ports: Sequence[int]) -> str:
    """``config`` with its block of ``keyword`` lines (one per instance, e.g. ``server
    s1 127.0.0.1:8765 check ...``) replaced by one line per port, each with the
    options of the first line."""
    lines = config.splitlines()
    at = [
        i
        for i, line in enumerate(lines)
        if line.strip().startswith(keyword + " ") and any(map(_address, line.split()))
    ]
    if not at:
        raise LaunchError(f"no '{keyword} HOST:PORT' line in the balancer's config")
    first = lines[at[0]]
    indent = first[: len(first) - len(first.lstrip())]
    words = first.split()
    address = next(i for i, w in enumerate(words) if _address(w))
    new = []
    for n, port in enumerate(ports, 1):
        line = list(words)
        if keyword == "server" and address == 2:  # haproxy: server NAME ADDRESS ...
            line[1] = f"s{n}"
        line[address] = f"127.0.0.1:{port}" + (";" if words[address].endswith(";") else "")
        new.append(indent + " ".join(line))
    return "\n".join([*lines[: at[0]], *new, *lines[at[-1] + 1 :]]) + "\n"


def _address(word: str) -> bool:
    return re.fullmatch(r"[\w.\-]+:\d+;?", word) is not None


def haproxy_config(template: str, port: int, ports: Sequence[int]) -> str:
    """deploy/haproxy.cfg bound to 127.0.0.1:``port``, balancing ``ports``."""
    config = re.sub(r"(?m)^(\s*)bind :80\b", rf"\g<1>bind 127.0.0.1:{port}", template)
    if f"127.0.0.1:{port}" not in config:
        raise LaunchError("no 'bind :80' line in haproxy.cfg")
    return _servers(config, "server", ports)


def nginx_config(template: str, port: int, ports: Sequence[int], directory: Path) -> str:
    """A whole nginx.conf around deploy/nginx.conf (an http-block include) listening
    on 127.0.0.1:``port``, balancing ``ports``, with its files in ``directory``."""
    site = re.sub(r"(?m)^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{port};", template)
    if f"127.0.0.1:{port}" not in site:
        raise LaunchError("no 'listen 80;' line in nginx.conf")
    site = _servers(site, "server", ports)
    return (
        f"pid {directory}/nginx.pid;\n"
        f"error_log {directory}/error.log warn;\n"
        "worker_processes 1;\n"
        "events { worker_connections 4096; }\n"
        "http {\n"
        f"    access_log off;\n"
        f"    client_body_temp_path {directory}/body;\n"
        f"    proxy_temp_path {directory}/proxy;\n"
        f"    fastcgi_temp_path {directory}/fastcgi;\n"
        f"    uwsgi_temp_path {directory}/uwsgi;\n"
        f"    scgi_temp_path {directory}/scgi;\n"
        f"{site}"
        "}\n"
    )


def start_balancer(
    kind: str, ports: Sequence[int], directory: Path, *, timeout: float = LB_TIMEOUT
) -> tuple[Child, int]:
    """HAProxy or nginx (the system's binary) with the config of deploy/ on a free
    loopback port, in front of the servers on ``ports``; returned once a ``/healthz``
    passes through it."""
    binary = find_balancer(kind)
    if binary is None:
        raise LaunchError(
            f"no {kind} binary on PATH or in {', '.join(SBIN)}: install it "
            f"(Debian/Ubuntu: apt-get install {kind if kind == 'haproxy' else 'nginx-light'})"
        )
    directory.mkdir(parents=True, exist_ok=True)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    if kind == "haproxy":
        template = (ROOT / "deploy" / "haproxy.cfg").read_text()
        config = directory / "haproxy.cfg"
        config.write_text(haproxy_config(template, port, ports))
        cmd = [binary, "-db", "-f", str(config)]  # -db: foreground, no daemon
    else:
        template = (ROOT / "deploy" / "nginx.conf").read_text()
        config = directory / "nginx.conf"
        config.write_text(nginx_config(template, port, ports, directory))
        cmd = [binary, "-p", str(directory), "-c", str(config), "-g", "daemon off;"]
    child = spawn(kind, cmd, directory / f"{kind}.log", cwd=directory, env={})
    deadline = time.monotonic() + timeout
    while not _passes(port):
        if not child.alive():
            raise LaunchError(f"{kind} exited:\n{child.tail()}")
        if time.monotonic() > deadline:
            child.stop()
            raise LaunchError(f"{kind} passed no /healthz in {timeout} s:\n{child.tail()}")
        time.sleep(0.05)
    return child, port


def _passes(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False
