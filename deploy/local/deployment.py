"""A whole local deployment: the cluster, the servers, a load balancer."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from .balancers import BALANCERS, start_balancer
from .cluster import LocalCluster, start_cluster
from .processes import DURABILITY, Child
from .servers import Instance, start_servers


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
        fork: bool = False,
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
        # Ours first: flags given after '--' may still override them. Behind the
        # balancer (on this machine) the servers believe its X-Forwarded-For.
        proxies = ["--trusted-proxies", "127.0.0.1"] if lb is not None else []
        self.server_args = ["--durability", durability, *proxies, *server_args]
        #: the servers forked, not executed (:mod:`deploy.forked`: the tests')
        self.fork = fork
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
                fork=self.fork,
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
