"""A server that cannot start says why in one line and exits non-zero: no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from deploy import forked, procs
from tests.support import GUARD, free_port
from tests.support.server import ROOT, ServerProcess


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "serve", "--no-prepare-dailies", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_port_in_use_and_a_data_dir_in_use(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with ServerProcess("--data-dir", str(data)) as first:
        taken = serve("--port", str(first.port), "--data-dir", str(tmp_path / "other"))
        assert taken.returncode == 1 and "Traceback" not in taken.stderr
        assert "is in use" in taken.stderr and "--port" in taken.stderr
        shared = serve("--port", "0", "--data-dir", str(data), "--log-level", "info")
        assert shared.returncode == 1 and "Traceback" not in shared.stderr
        assert "--data-dir" in shared.stderr
        # nothing was started, so nothing is said to stop before the refusal (issue 47)
        assert "redis-server stopped" not in shared.stderr, shared.stderr


#: ``serve`` with the dailies prepared at start-up, as by default
SERVE = [sys.executable, "-m", "server", "serve", "--log-level", "warning"]


def test_a_port_in_use_with_dailies_to_prepare_is_one_line(tmp_path: Path) -> None:
    """With the dailies prepared at start-up (the default), a port in use is still the
    one line: no daily work starts before the listener is bound, and no task is left
    with an exception nobody retrieved (there were sixteen tracebacks)."""
    with ServerProcess("--data-dir", str(tmp_path / "first")) as first:
        taken = subprocess.run(
            [*SERVE, "--port", str(first.port), "--data-dir", str(tmp_path / "second")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PASYANS_CANDIDATE_NODES": "40", "PASYANS_DAILY_NODES": "80"},
        )
    assert taken.returncode == 1
    assert "never retrieved" not in taken.stderr and "Traceback" not in taken.stderr
    assert taken.stderr.strip().count("\n") == 0, taken.stderr
    assert "is in use" in taken.stderr


def test_ctrl_c_of_workers_says_what_it_waits_for(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the whole process group) of `serve --workers 2` while the
    dailies are being prepared: it says it stops the workers and the embedded Redis,
    the Redis is not restarted, no traceback, and it ends."""
    port = free_port()
    proc = subprocess.Popen(
        [*SERVE, "--workers", "2", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        assert "2 workers on" in proc.stdout.readline()
        deadline = time.monotonic() + GUARD  # a hang guard: up, however slowly
        while not _healthy(port):
            assert time.monotonic() < deadline, f"not healthy within {GUARD:g} s"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, err
    assert "stopping 2 workers: each finishes its requests in flight" in err
    assert "stopping the embedded Redis" in err and "pasyans-server: stopped" in err
    assert "restarting" not in err and "Traceback" not in err and "never retrieved" not in err


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


@pytest.mark.parametrize("kind", [procs.ServerProcess, ServerProcess], ids=["executed", "forked"])
def test_a_test_servers_free_port_taken_before_it_binds_is_tried_again(
    kind: type[procs.ServerProcess], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """deploy/procs.py's ServerProcess picks a free port, then the server binds it: in
    between another process took it (beside other servers and browsers, it did), and
    the server said so and exited. The start tries another port, and the log of the
    failed one is closed (it was left to the garbage collector, which failed a later
    test with a ResourceWarning)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        first = iter([port])
        monkeypatch.setattr(procs, "free_port", lambda: next(first, None) or free_port())
        with kind("--data-dir", str(tmp_path / "data")) as server:
            assert server.port != port and server.healthy()


def test_a_forked_test_server_is_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests' servers are forked from a process that has imported the server once
    (deploy/forked.py), not executed: each still runs with the environment it is given
    (here its log level, which this process does not have), writes to its own log,
    is no child of the test's process, ends with 0 on SIGTERM and dies by SIGKILL."""
    monkeypatch.delenv("PASYANS_LOG_LEVEL", raising=False)
    quiet = ServerProcess("--data-dir", str(tmp_path / "a"), env={"PASYANS_LOG_LEVEL": "warning"})
    with quiet, ServerProcess("--data-dir", str(tmp_path / "b")) as told:
        assert isinstance(told.process, forked.Forked) and quiet.process is not None
        assert "listening on" in told.output() and "listening on" not in quiet.output()
        assert {quiet.process.pid, told.process.pid}.isdisjoint(procs.children(os.getpid()))
        assert quiet.terminate() == 0
        told.process.kill()
        assert told.process.wait() == -signal.SIGKILL
