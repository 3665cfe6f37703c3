"""Test-wide settings: hypothesis profiles (CI is derandomized so a submission's run
is reproducible; locally every run explores new examples), and the schedule of the
workers (the longest files first)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

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
#: directories whose files share one deployment a worker (their conftest keeps it while
#: the worker's next test is in the directory): scheduled whole, as one unit
WHOLE = ("tests/cluster/", "tests/races/")


def unit(nodeid: str) -> str:
    """What a worker is handed at once: a test's file, or its whole directory when the
    directory's files share a deployment (:data:`WHOLE`)."""
    path = nodeid.split("::")[0]
    return next((d for d in WHOLE if path.startswith(d)), path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the longest units first. ``make test`` hands whole files to three
    workers (``--dist loadfile --no-loadscope-reorder``; whole directories for
    :data:`WHOLE`, see :func:`pytest_xdist_make_scheduler`) in the order collected:
    with the longest first and the short ones last, no worker is left alone with a long
    file at the end while the others idle."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    try:
        weights: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    units: dict[str, float] = {}
    for path in {item.nodeid.split("::")[0] for item in items}:
        units[unit(path)] = units.get(unit(path), 0.0) + weights.get(path, UNKNOWN)

    def key(item: pytest.Item) -> tuple[float, str, str]:
        path = item.nodeid.split("::")[0]
        return -units[unit(path)], unit(path), path

    items.sort(key=key)  # stable: a file's tests keep their order


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, but a :data:`WHOLE` directory goes to one worker at once, so
    its deployment starts once (a cluster of three Redis nodes and two servers)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class Units(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return unit(nodeid)

    return Units(config, log)
