"""Test-wide settings: hypothesis profiles (CI is derandomized so a submission's run
is reproducible; locally every run explores new examples)."""

from __future__ import annotations

import os

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
