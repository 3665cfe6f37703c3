"""The account commands of ``pasyans``: register, whoami, switch, login (several
accounts on one server are kept; one is in use)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from protocol import Op, ReportReason
from protocol.errors import ErrorCode

from . import config
from .cli_records import Connect, Run
from .connection import ClientError, Connection, ServerError, UsageError
from .errors import BANNED
from .lang import _
from .status import EXIT_OK


def no_account(server: str) -> str:
    return _(
        "you have no account on {server} yet: run `pasyans register NAME` "
        "(or `pasyans login TOKEN`)",
        server=server,
    )


def commands(connect: Connect) -> dict[str, Run]:
    async def register(args: argparse.Namespace, out: TextIO) -> int:
        saved = config.accounts(args.server)
        mine = {name.casefold(): name for name in saved.tokens}
        if args.name.casefold() in mine:
            name = mine[args.name.casefold()]
            if name == saved.current:
                said = _(
                    "you are already registered as {name} on {server} and use it",
                    name=name,
                    server=args.server,
                )
            else:
                said = _(
                    "you are already registered as {name} on {server} "
                    "(`pasyans switch {name}` uses it)",
                    name=name,
                    server=args.server,
                )
            raise UsageError(said)
        if saved.current is not None and not args.another:
            raise UsageError(
                _(
                    "you are {current} on {server} already. To make a second account "
                    "run `pasyans register {name} --another`: both are kept, "
                    "`pasyans switch NAME` changes between them, `pasyans whoami` lists them",
                    current=saved.current,
                    server=args.server,
                    name=args.name,
                )
            )
        async with await connect(args.server, need_auth=False) as conn:
            result = await conn.register(args.name)
        path = config.save(args.server, config.Credentials(result["player"], result["token"]))
        out.write(
            _("registered as {name} on {server}", name=result["player"], server=args.server) + "\n"
        )
        out.write(
            _("token (shown once, saved in {path}): {token}", path=path, token=result["token"])
            + "\n"
        )
        if saved.current is not None:
            out.write(
                _("your account {name} is kept: `pasyans switch {name}`", name=saved.current) + "\n"
            )
        return EXIT_OK

    async def whoami(args: argparse.Namespace, out: TextIO) -> int:
        saved = config.accounts(args.server)
        creds = saved.credentials()
        if creds is None:
            raise ClientError(no_account(args.server))
        out.write(_("you are {name} on {server}", name=creds.player, server=args.server) + "\n")
        if args.token:
            out.write(_("token: {token}", token=creds.token) + "\n")
        others = sorted(name for name in saved.tokens if name != creds.player)
        if others:
            out.write(
                _(
                    "your other accounts there: {names} (`pasyans switch NAME`)",
                    names=", ".join(others),
                )
                + "\n"
            )
        out.write(
            _(
                "tokens saved in {path}: keep them, `pasyans login TOKEN` "
                "brings an account back on any computer",
                path=config.token_file(),
            )
            + "\n"
        )
        return EXIT_OK

    async def switch(args: argparse.Namespace, out: TextIO) -> int:
        saved = config.accounts(args.server)
        name = {n.casefold(): n for n in saved.tokens}.get(args.name.casefold(), args.name)
        try:
            config.use(args.server, name)
        except KeyError:
            have = ", ".join(sorted(saved.tokens)) or _("none")
            raise UsageError(
                _(
                    "no account {name} is saved for {server} (saved: {have}); "
                    "`pasyans login TOKEN` adds one you have",
                    name=repr(args.name),
                    server=args.server,
                    have=have,
                )
            ) from None
        out.write(_("you are {name} on {server} now", name=name, server=args.server) + "\n")
        return EXIT_OK

    async def login(args: argparse.Namespace, out: TextIO) -> int:
        async with Connection(args.server) as conn:
            try:
                result = await conn.auth(args.token)
            except ServerError as exc:
                if exc.code == ErrorCode.UNAUTHORIZED and exc.key != BANNED:
                    raise ClientError(
                        _("the server at {server} does not know this token", server=args.server)
                    ) from None
                raise
        config.note_deployment(args.server, result.get("deployment"))
        path = config.save(args.server, config.Credentials(result["player"], args.token))
        out.write(
            _(
                "logged in as {name} on {server} (token saved in {path})",
                name=result["player"],
                server=args.server,
                path=path,
            )
            + "\n"
        )
        return EXIT_OK

    # -- issue 49, operators' half: report a player -----------------------------------

    async def report(args: argparse.Namespace, out: TextIO) -> int:
        params = {"name": args.name, "reason": args.reason}
        if args.text:
            params["text"] = args.text
        if args.game_id:
            params["game_id"] = args.game_id
        async with await connect(args.server, need_auth=True) as conn:
            result = await conn.call(Op.REPORT, **params)
        out.write(_("reported {name} to the operators", name=result["player"]) + "\n")
        return EXIT_OK

    return {
        "register": register,
        "whoami": whoami,
        "switch": switch,
        "login": login,
        "report": report,
    }


def add_report(command: Callable[..., argparse.ArgumentParser]) -> None:
    """``pasyans report NAME REASON [TEXT] [--game GAME_ID]`` (issue 49)."""
    p = command(
        "report",
        help="report a player to the server's operators",
        description="Report the player NAME to the server's operators: REASON is cheating, name\n"
        "(an offensive name), abuse or other; TEXT says more (at most 280 characters);\n"
        "--game names the game it is about. At most 5 reports an hour.",
    )
    p.add_argument("name", metavar="NAME")
    p.add_argument("reason", metavar="REASON", choices=[str(r) for r in ReportReason])
    p.add_argument("text", metavar="TEXT", nargs="?", default=None)
    p.add_argument("--game", dest="game_id", metavar="GAME_ID", default=None)
