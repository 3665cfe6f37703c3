"""``pasyans-server serve`` forked, not executed: for the tests, which start about sixty
servers a run. A new interpreter spends half a second of CPU importing the server
before it listens; a fork of a process that has imported it once listens in a tenth.

The forking process is the standard library's fork server
(``multiprocessing.get_context("forkserver")``): a fresh interpreter, started on the
first fork, that imports :data:`PRELOAD` and then forks a child for each server. It
holds no event loop, thread or socket of the tests, so a child starts as clean as
``python -m server serve`` does: its own environment, working directory, argv and
stderr, then :func:`server.__main__.main`. :class:`Forked` is the part of
:class:`subprocess.Popen` that :class:`deploy.procs.ServerProcess` and the tests use
(``pid``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``), so a forked
server is stopped, killed and restarted as a process is.

Each child imports the starting program's main module first, as any multiprocessing
child does: a script that starts a forked server guards its work with ``if __name__ ==
"__main__"`` (pytest and its workers do).

The tests' local deployments fork theirs too (``LocalDeployment(fork=True)``). The
benchmarks and ``python -m deploy.local`` still execute ``python -m server``: what
they measure or run is the server as it is deployed.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: what the fork server imports once: everything ``serve`` imports before it listens
PRELOAD = ["deploy.forked", "server.__main__", "server.net", "server.workers", "uvloop"]

_context: Any = None
_alive: list[Forked] = []


def _serve(argv: list[str], env: dict[str, str], log: str, launched: bool) -> None:
    """In the child: become ``python -m server ARGV`` with ``env``, writing to ``log``
    (stderr; stdout too when ``launched``, in a session of its own, SIGTERMed when
    its parent dies: as :func:`deploy.local.processes.spawn` starts one)."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(ROOT)
    if launched:
        from server.store.embedded import die_with_parent

        os.setsid()
        die_with_parent()
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(fd if launched else null, 1)
    os.dup2(fd, 2)
    os.close(fd)
    os.close(null)
    sys.argv = [str(ROOT / "server" / "__main__.py"), *argv]
    from server.__main__ import main

    sys.exit(main(argv))


class Forked:
    """A forked server, seen as a :class:`subprocess.Popen` is."""

    def __init__(self, process: Any) -> None:
        self._process = process
        self.pid: int = process.pid

    @property
    def returncode(self) -> int | None:
        code: int | None = self._process.exitcode
        return code

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        code = self.returncode
        if code is None:
            raise subprocess.TimeoutExpired("pasyans-server", timeout or 0)
        if self in _alive:
            _alive.remove(self)
        return code

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def spawn(argv: list[str], env: dict[str, str], log: str, *, launched: bool = False) -> Forked:
    """Fork ``pasyans-server ARGV`` with environment ``env`` (the whole of it) and its
    stderr appended to the file ``log`` (and its stdout, in a session of its own, with
    ``launched``: the local launcher's servers)."""
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(PRELOAD)
        # A server still running when the tests' process exits is killed, not waited
        # for: registered after multiprocessing's own exit handler (imported by the
        # line above), this runs before it, which would join the server for ever.
        atexit.register(_kill_all)
    process = _context.Process(
        target=_serve, args=(argv, env, log, launched), name="pasyans-server"
    )
    process.start()
    forked = Forked(process)
    _alive.append(forked)
    return forked


def _kill_all() -> None:
    for forked in list(_alive):
        forked.kill()
        forked.wait()
