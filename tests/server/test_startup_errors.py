"""A server that cannot start says why in one line and exits non-zero: no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
        shared = serve("--port", "0", "--data-dir", str(data))
        assert shared.returncode == 1 and "Traceback" not in shared.stderr
        assert "--data-dir" in shared.stderr
