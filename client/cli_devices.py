"""The command line's account keeping (issue 49): ``pasyans link`` (a code for another
device) and ``pasyans link CODE`` (sign this computer in with one), ``pasyans
token-rotate`` (sign out everywhere else), ``pasyans export FILE`` (everything the
server holds about you) and ``pasyans delete-account``. :mod:`client.cli` adds them to
its parser and table of commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from protocol.checks import LINK_CODE_RE
from protocol.ops import Op

from . import config
from .cli_accounts import no_account
from .cli_records import Command, Connect, Run
from .connection import ClientError, Connection, UsageError
from .lang import _
from .status import EXIT_OK


def link_code(text: str) -> str:
    """A link code: 8 letters and digits, any case, spaces and dashes ignored."""
    code = "".join(c for c in text if c not in " -").upper()
    if not LINK_CODE_RE.fullmatch(code):
        raise argparse.ArgumentTypeError(
            _("{text} is not a link code: a code is 8 letters and digits", text=repr(text))
        )
    return code


def add_commands(command: Command) -> None:
    """Declare the commands on ``command`` (``cli.build_parser``'s maker of one)."""
    p = command(
        "link",
        help="link another device to your account, or this one with a code",
        description=(
            "Without CODE: print a code that signs another device in to your account (the\n"
            'web client\'s "I have an account", or `pasyans link CODE` on another computer);\n'
            "it works once, for 5 minutes. With CODE: sign this computer in with a code\n"
            "another device of yours printed, and save the account's new token here."
        ),
    )
    p.add_argument("code", metavar="CODE", nargs="?", type=link_code)
    command(
        "token-rotate",
        help="sign out everywhere else: a new token for this computer",
        description=(
            "Replace your token: every other device and tab signed in to your account is\n"
            "signed out (they need a code from `pasyans link` to come back); the new token\n"
            "is saved here."
        ),
    )
    p = command(
        "export",
        help="save everything the server holds about you to FILE (JSON)",
        description=(
            "Save your account's data (profile, games with their moves, results, friends,\n"
            "blocks, inbox, challenges, races) to FILE as JSON; - prints it. A few times\n"
            "an hour (100 pages: a page holds a few hundred games)."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p = command(
        "delete-account",
        help="delete your account on the server, for good",
        description=(
            "Delete your account: its token, friends, inbox and results go; others' races\n"
            'show "a player who left". The name is held for 30 days. You are asked to type\n'
            "your name again (or give it with --name)."
        ),
    )
    p.add_argument("--name", metavar="NAME", help="your name, typed again as a confirmation")


def commands(connect: Connect) -> dict[str, Run]:
    async def link(args: argparse.Namespace, out: TextIO) -> int:
        if args.code is None:
            async with await connect(args.server, need_auth=True) as conn:
                got = await conn.call(Op.LINK_CODE)
            out.write(_("link code: {code}", code=got["code"]) + "\n")
            out.write(
                _(
                    'on the other device choose "I have an account" and type it, or run '
                    "`pasyans link {code}` there; it works once, for {minutes} minutes",
                    code=got["code"],
                    minutes=int(got["expires_in"]) // 60,
                )
                + "\n"
            )
            return EXIT_OK
        async with Connection(args.server) as conn:
            result = await conn.call(Op.LINK, code=args.code)
        config.note_deployment(args.server, result.get("deployment"))
        path = config.save(args.server, config.Credentials(result["player"], result["token"]))
        out.write(
            _(
                "signed in as {name} on {server} (token saved in {path})",
                name=result["player"],
                server=args.server,
                path=path,
            )
            + "\n"
        )
        return EXIT_OK

    async def token_rotate(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            got = await conn.call(Op.TOKEN_ROTATE)
            player = str(conn.player)
        path = config.save(args.server, config.Credentials(player, got["token"]))
        out.write(
            _(
                "new token saved in {path}; every other device of {name} is signed out",
                path=path,
                name=player,
            )
            + "\n"
        )
        return EXIT_OK

    async def export(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            got = await conn.call(Op.ACCOUNT_EXPORT)
            account, cursor = dict(got["account"]), got.get("cursor")
            while cursor:  # the games past the first page
                got = await conn.call(Op.ACCOUNT_EXPORT, cursor=cursor)
                account["games"] = [*account["games"], *got["account"]["games"]]
                cursor = got.get("cursor")
        text = json.dumps(account, ensure_ascii=False, indent=2, default=str) + "\n"
        if args.file == "-":
            out.write(text)
            return EXIT_OK
        Path(args.file).write_text(text, encoding="utf-8")
        out.write(_("your data is saved in {path}", path=args.file) + "\n")
        return EXIT_OK

    async def delete_account(args: argparse.Namespace, out: TextIO) -> int:
        creds = config.load(args.server)
        if creds is None:
            raise ClientError(no_account(args.server))
        name = args.name
        if name is None:
            if not sys.stdin.isatty():
                raise UsageError(
                    _("type your name to confirm: `pasyans delete-account --name NAME`")
                )
            name = input(
                _("This deletes {name} for good. Type the name to confirm: ", name=creds.player)
            )
        if name.strip().casefold() != creds.player.casefold():
            raise UsageError(_("the name does not match: nothing was deleted"))
        async with await connect(args.server, need_auth=True) as conn:
            got = await conn.call(Op.ACCOUNT_DELETE, name=name.strip())
        config.drop(args.server, creds.player)
        out.write(
            _(
                "{name} is deleted; the name is held for {days} days",
                name=creds.player,
                days=got["held_days"],
            )
            + "\n"
        )
        return EXIT_OK

    return {
        "link": link,
        "token-rotate": token_rotate,
        "export": export,
        "delete-account": delete_account,
    }
