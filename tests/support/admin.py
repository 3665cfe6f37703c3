"""``pasyans-server`` commands run in this process: the same ``main`` an operator's
process runs, without starting the server's imports again (half a CPU-second a
command). A test runs its first command of a kind as a process of its own, as the
operator does, and the others here (tests/server/test_admin.py)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import sys
from collections.abc import Sequence

__all__ = ["run_here"]


async def run_here(argv: Sequence[str], *, lang: str = "en") -> tuple[int, str, str]:
    """``pasyans-server ARGV`` in a thread of this process (the command runs an event
    loop of its own) with ``$PASYANS_LANG`` = ``lang``: its exit code (as the
    interpreter makes it of a ``SystemExit``), output and error output. One at a time:
    it takes this process's standard output and error, and its environment's
    language, while it runs."""
    from server.__main__ import main

    def run() -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        # the parser sets argparse's own words: given back after, as the language
        words = argparse._, argparse.ngettext  # type: ignore[attr-defined]
        before = os.environ.get("PASYANS_LANG")
        os.environ["PASYANS_LANG"] = lang
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(list(argv))
                except SystemExit as exc:
                    if isinstance(exc.code, str):
                        print(exc.code, file=sys.stderr)
                    code = 1 if isinstance(exc.code, str) else int(exc.code or 0)
        finally:
            argparse._, argparse.ngettext = words  # type: ignore[attr-defined]
            if before is None:
                os.environ.pop("PASYANS_LANG", None)
            else:
                os.environ["PASYANS_LANG"] = before
        return code, out.getvalue(), err.getvalue()

    return await asyncio.to_thread(run)
