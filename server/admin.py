"""``pasyans-server admin``: the operators' tools (issue 49).

pasyans-server admin ban NAME [--reason TEXT] | unban NAME
pasyans-server admin remove-result NAME GAME DATE | rename NAME NEW
pasyans-server admin reports [--count N] | log [--count N]
pasyans-server admin backup DIR | restore DIR
(each with the storage flags of ``serve``: --data-dir, --redis-url, --redis-cluster)

Whoever runs it reaches the deployment's Redis as the server does: the embedded
Redis's unix socket (mode 0700, the server's user only), or the URL (and password)
of an external Redis or Cluster. So only someone with the server's configuration can
run it; a player never can. Every action is written to the audit log first
(``admin log`` prints it).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from pathlib import Path

from .settings import Settings

#: the settings ``admin`` reads: where the data is
ADMIN = frozenset({"data_dir", "redis_url", "redis_cluster", "redis_server", "key_prefix"})


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``admin`` and its subcommands, under ``pasyans-server``'s commands."""
    admin = commands.add_parser(
        "admin",
        help="the operators' tools: ban, remove a result, reports, audit log, backup",
        description=(
            "The operators' tools, run against the deployment's Redis (the same storage "
            "flags as serve: the embedded Redis of --data-dir, --redis-url or "
            "--redis-cluster). Only someone with the server's configuration can run them. "
            "Every action is written to the audit log (admin log)."
        ),
    )
    subs = admin.add_subparsers(dest="admin", required=True, metavar="ACTION")

    def sub(name: str, help_: str, description: str) -> argparse.ArgumentParser:
        parser = subs.add_parser(name, help=help_, description=description)
        Settings.parser(parser, only=ADMIN)
        return parser

    ban = sub(
        "ban",
        "ban a player: refused at sign-in, disconnected, off every board",
        "Ban the player NAME: their token is refused at sign-in (they are told they are "
        "banned, and why), their connections on every server instance are closed at "
        "once, and their results leave every board (kept, and put back by unban).",
    )
    ban.add_argument("name", metavar="NAME", help="the player's name")
    ban.add_argument(
        "--reason", default="", help="why, told to the player (at most 200 characters)"
    )
    unban = sub(
        "unban",
        "lift a ban: the player may sign in, their results come back",
        "Lift the ban of NAME: their token works again and the results the ban took off "
        "the boards come back.",
    )
    unban.add_argument("name", metavar="NAME", help="the player's name")
    remove = sub(
        "remove-result",
        "take one day's daily result of one game off the boards",
        "Take NAME's daily result of GAME on DATE off that day's board, and off the "
        "all-time board if it was their best there (their next best day takes its place).",
    )
    remove.add_argument("name", metavar="NAME", help="the player's name")
    remove.add_argument("game", metavar="GAME", help="a game slug (pasyans games lists them)")
    remove.add_argument("date", metavar="DATE", help="the daily's day, YYYY-MM-DD")
    rename = sub(
        "rename",
        "rename a player (an offensive name): told at their next sign-in",
        "Rename the player NAME to NEW, checked as registration checks a name (its rule, "
        "taken, looking like another's). The player's connections are closed and their "
        "next sign-in tells them; their games, results, follows and inbox go with them; "
        "the old name stays held from registration.",
    )
    rename.add_argument("name", metavar="NAME", help="the player's name")
    rename.add_argument("new", metavar="NEW", help="the new name")
    reports = sub(
        "reports",
        "list players' reports, newest last",
        "List the reports players sent (newest last): when, who reported whom, why, "
        "and the game to replay (pasyans replay GAME_ID).",
    )
    reports.add_argument("--count", type=int, default=50, help="how many, newest [50]")
    log = sub(
        "log",
        "print the audit log of operators' actions",
        "Print the operators' actions (newest last): when, who (user@host), what.",
    )
    log.add_argument("--count", type=int, default=50, help="how many, newest [50]")
    backup = sub(
        "backup",
        "take a consistent copy of the data while the server serves",
        "Take a consistent copy of the data into DIR while the server serves: Redis "
        "writes a snapshot (BGSAVE) holding every write made before it began, copied to "
        "DIR as dump.rdb. With an external Redis or a Cluster, each node's snapshot is "
        "copied when its directory is on this machine; otherwise this prints the "
        "redis-cli command to fetch it (docs/operations.md, Runbook).",
    )
    backup.add_argument("dir", metavar="DIR", help="where the copy goes (made if missing)")
    restore = sub(
        "restore",
        "restore a backup into a stopped deployment's data directory",
        "Restore the backup in DIR into --data-dir (the embedded Redis's data), which "
        "no server may be running on: its data is replaced by the backup's.",
    )
    restore.add_argument("dir", metavar="DIR", help="a directory admin backup wrote")


def fail(message: str) -> SystemExit:
    return SystemExit(f"pasyans-server admin: {message}")


def check_date(text: str) -> str:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        raise fail(f"{text!r} is not a date YYYY-MM-DD") from None
    if len(text) != 10:
        raise fail(f"{text!r} is not a date YYYY-MM-DD")
    return text


def check_game(slug: str) -> str:
    from .patience import registry

    if slug not in registry.slugs():
        raise fail(f"no game {slug!r}; one of: {', '.join(registry.slugs())}")
    return slug


def when(ms: str) -> str:
    try:
        return dt.datetime.fromtimestamp(int(ms) / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return "?"


async def act(args: argparse.Namespace, settings: Settings) -> int:
    from .backup import connect
    from .services import SystemClock
    from .services.moderation import AdminError, Moderation, operator

    if args.admin in ("ban", "unban", "remove-result", "rename") and (
        not args.name.strip() or len(args.name) > 64
    ):
        raise fail(f"{args.name!r} is not a player's name")
    if args.admin == "ban" and (len(args.reason) > 200 or not args.reason.isprintable()):
        raise fail("--reason: at most 200 printable characters")
    if args.admin == "remove-result":
        check_game(args.game)
        check_date(args.date)
    if args.admin in ("reports", "log") and not 1 <= args.count <= 10_000:
        raise fail("--count: 1 to 10000")
    who = operator()
    async with connect(settings) as store:
        mod = Moderation(store, SystemClock())
        try:
            if args.admin == "ban":
                taken = await mod.ban(args.name, args.reason, who)
                print(f"banned {args.name}: {taken} results taken off the boards")
            elif args.admin == "unban":
                back = await mod.unban(args.name, who)
                print(f"unbanned {args.name}: {back} results back on the boards")
            elif args.admin == "rename":
                games = await mod.rename(args.name, args.new, who)
                print(f"renamed {args.name} to {args.new}: {games} games moved")
            elif args.admin == "remove-result":
                if not await mod.remove_result(args.name, args.game, args.date, who):
                    raise fail(f"{args.name} has no result of {args.game} on {args.date}")
                print(f"removed {args.name}'s {args.game} result of {args.date}")
            elif args.admin == "reports":
                for rid, r in await mod.reports(args.count):
                    game = (
                        f" · game {r['game_id']} (pasyans replay {r['game_id']})"
                        if r.get("game_id")
                        else ""
                    )
                    text = f": {r['text']}" if r.get("text") else ""
                    print(
                        f"{when(r.get('at', ''))} {rid} {r.get('from')} reports "
                        f"{r.get('player')} for {r.get('reason')}{text}{game}"
                    )
            elif args.admin == "log":
                for rid, e in await store.audit_log(args.count):
                    rest = " ".join(
                        f"{k}={v!r}" for k, v in e.items() if k not in ("at", "by", "action")
                    )
                    print(f"{when(e.get('at', ''))} {rid} {e.get('by')} {e.get('action')} {rest}")
        except AdminError as exc:
            raise fail(str(exc)) from None
    return 0


def main(args: argparse.Namespace) -> int:
    settings = Settings.from_namespace(args)
    if args.admin == "backup":
        from .backup import backup

        return asyncio.run(backup(settings, Path(args.dir)))
    if args.admin == "restore":
        from .backup import restore

        return restore(settings, Path(args.dir))
    try:
        return asyncio.run(act(args, settings))
    except ConnectionError as exc:
        print(f"pasyans-server admin: cannot reach Redis: {exc}", file=sys.stderr)
        return 1
