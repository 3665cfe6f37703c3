"""Test-wide settings: hypothesis profiles (CI is derandomized so a submission's run
is reproducible; locally every run explores new examples), and the schedule of the
workers (the longest files first)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "cluster: Redis Cluster support, against a real 3-node cluster and two servers "
        "(tests/cluster; in the default run, deselect with -m 'not cluster')",
    )


#: each test file's wall time in a measured run (``python -m tools.suite_cpu FOLDER
#: --durations tests/durations.json``)
DURATIONS = Path(__file__).with_name("durations.json")
#: the weight of a file the table does not know yet (a new one): about a median file's
UNKNOWN = 3.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the longest files first. ``make test`` hands whole files to three
    workers (``--dist loadfile --no-loadscope-reorder``) in the order collected: with
    the longest first and the short ones last, no worker is left alone with a long file
    at the end while the others idle (the suite's tail was a minute of one worker)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    try:
        weights: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return

    def key(item: pytest.Item) -> tuple[float, str]:
        path = item.nodeid.split("::")[0]
        return -weights.get(path, UNKNOWN), path

    items.sort(key=key)  # stable: a file's tests keep their order
