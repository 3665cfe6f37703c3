"""A small Redis Cluster on loopback: masters (and replicas) joined, slots shared."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from server.store.embedded import find_redis_server, ping, redis_command

from .processes import (
    CLUSTER_TIMEOUT,
    NODE_TIMEOUT,
    SLOTS,
    START_ATTEMPTS,
    Child,
    LaunchError,
    node_port,
    spawn,
)


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
    shutil.rmtree(directory / "appendonlydir", ignore_errors=True)  # Redis 7's AOF
    for attempt in range(1, START_ATTEMPTS + 1):
        port = node_port(taken)
        cmd = redis_command(binary, directory, port=port, appendfsync=appendfsync)
        cmd += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
        cmd += ["--cluster-node-timeout", str(node_timeout_ms)]
        # a replica's sync (at the start, and after a failover) begins at once: Redis
        # waits 5 s by default for more replicas to share one diskless transfer
        cmd += ["--repl-diskless-sync-delay", "0"]
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


def redis_version(binary: str) -> tuple[int, ...]:
    """``(major, minor)`` of a ``redis-server`` binary (``(0,)`` if it does not say)."""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    for word in out.stdout.split():
        if word.startswith("v="):
            return tuple(int(p) for p in word[2:].split(".")[:2] if p.isdigit())
    return (0,)


def find_redis_7() -> str | None:
    """A ``redis-server`` of Redis 7 or later (sharded pub/sub): PATH's, else Debian's
    ``/usr/bin/redis-server``; None when there is none."""
    for candidate in (shutil.which("redis-server"), "/usr/bin/redis-server"):
        if candidate and Path(candidate).exists() and redis_version(candidate) >= (7, 0):
            return candidate
    return None
