"""``python -m bench.load_server``: its options, and a process started as one of the
reference servers (the hidden ``--echo-server``, ``--floor-server`` and
``--floor-engine-server``)."""

from __future__ import annotations

import argparse
import contextlib

import bench.load_server as package

from .runner import main_async
from .servers import reference_server


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load_server",
        description=(package.__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    row_options(parser)
    server_options(parser)
    return parser


def row_options(parser: argparse.ArgumentParser) -> None:
    """The options of the rows: how long, how many players, which rows."""
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="seconds per server in each measured row"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="turns each server takes in a row (--seconds split among them, the "
        "order reversed every other round; the cluster's server too at counts of "
        "--players): a drift of the machine's speed falls on every server alike",
    )
    parser.add_argument(
        "--players", default="1,100,1000", help="comma-separated concurrent players per row"
    )
    parser.add_argument(
        "--idle", type=int, default=10_000, help="idle connections to open (0 = skip)"
    )


def server_options(parser: argparse.ArgumentParser) -> None:
    """The options of the servers and of the rows beside the single Redis's, the output,
    and the reference servers' own (hidden)."""
    parser.add_argument(
        "--loop", default="auto", help="event loop of every process: auto, uvloop, asyncio"
    )
    parser.add_argument("--workers", type=int, default=1, help="pasyans server processes")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin the servers to the first CPU, the load client and redis to the others",
    )
    parser.add_argument(
        "--engine-seconds",
        type=float,
        default=2.0,
        help="seconds of engine-only play to measure its µs per move",
    )
    parser.add_argument(
        "--cluster-players",
        default="100,1000",
        help="comma-separated players of the Redis Cluster rows (3 primaries with a "
        "replica each, deploy/local.py); 0 = skip",
    )
    parser.add_argument(
        "--preparing-players",
        default="100",
        help="comma-separated players of the rows on a server preparing dailies "
        "meanwhile (a fresh Redis); 0 = skip",
    )
    parser.add_argument(
        "--prepare-args",
        default="",
        help="more options of the preparing server, e.g. '--solver-nice 19' [none: "
        "the server's defaults]",
    )
    parser.add_argument(
        "--paced-players",
        default="0",
        help="comma-separated players of the paced rows (each thinks --pace seconds "
        "between moves, as people do: a server's own latency, not a queue's); 0 = skip",
    )
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds a paced player thinks, on average"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"rows": [...]} (the targets of issues 15 and 28) instead of the tables',
    )
    parser.add_argument("--save", action="store_true", help="save this run as the baseline")
    parser.add_argument("--echo-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--floor-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--floor-engine-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default="", help=argparse.SUPPRESS)


def main() -> None:
    args = parser().parse_args()
    from server.__main__ import run

    served = reference_server(args)
    if served is not None:
        with contextlib.suppress(KeyboardInterrupt):
            run(served, args.loop)
        return
    args.players = [int(x) for x in args.players.split(",") if x]
    args.cluster_players = [int(x) for x in args.cluster_players.split(",") if int(x or 0)]
    args.preparing_players = [int(x) for x in args.preparing_players.split(",") if int(x or 0)]
    args.paced_players = [int(x) for x in args.paced_players.split(",") if int(x or 0)]
    run(main_async(args), args.loop)
